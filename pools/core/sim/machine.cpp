#include "pools/core/sim/machine.h"

#include <stdexcept>

#include "pools/core/duration.h"

namespace poolscope::sim {

Costs costs_preset(std::string_view name) {
  using namespace std::chrono_literals;
  Costs c;
  if (name == "os-threads") return c;
  if (name == "goroutines") {
    c.name = "goroutines";
    c.start = 1us;
    c.wake = 200ns;
    c.handoff = 100ns;
    c.resume = 100ns;
    c.submit = 200ns;
    c.yield = 50ns;
    return c;
  }
  if (name == "jvm") {
    // OpenJDK 17 platform threads on this machine, in a short-lived JVM whose
    // pool code still runs in the interpreter (docs/simulation.md, "The jvm
    // preset"): Thread.start's caller 44 us, a new thread runs its task 74 us
    // after start() began, and a parked pool thread spends 80 us of CPU from
    // its unpark to its task.
    c.name = "jvm";
    c.start = 44us;
    c.wake = 30us;
    c.resume = 80us;
    return c;
  }
  if (name == "processes") {
    // php-fpm's children: the master fork()s and the child runs on in the
    // master's code, with no exec (fpm_children_make). What that costs is
    // php-fpm's own figure, and its design charges it where php-fpm pays it,
    // in real runs and simulated alike: the master spends fork_time (0.6 ms,
    // measured in php-fpm 8.2.36's master on Debian 12) per child it forks
    // from its event loop, and a child is not idle until child_start (1 to 2
    // ms) after its fork. A fork is the copy of the master's page tables, so
    // it grows with the master's resident size: a C program here that
    // touches 16 MB and forks 40 times spends 310 to 430 us in fork()
    // (median over runs at load average 20), and its child runs 25 to 70 us
    // later. The thread that stands for a child costs nothing more to start;
    // once forked, a child blocked in accept() or poll() wakes and switches
    // as an OS thread does (Linux schedules both as tasks).
    c.name = "processes";
    c.start = 0ns;
    return c;
  }
  if (name == "free") {
    c.name = "free";
    c.start = c.wake = c.handoff = c.resume = c.submit = 0ns;
    c.yield = 1ns;  // a spin loop must still move the clock, or it would spin forever at one instant
    return c;
  }
  throw std::invalid_argument("unknown cost preset '" + std::string(name) + "' (expected one of: " +
                              std::string(kCostPresets) + ", or " + std::string(kRuntimeCosts) +
                              " for each pool its own runtime's)");
}

Costs runtime_costs(std::string_view runtime) {
  // Each runtime's preset has the runtime's name (Design::runtime, kRuntimes).
  if (runtime == "goroutines" || runtime == "jvm" || runtime == "os-threads" || runtime == "processes")
    return costs_preset(runtime);
  throw std::invalid_argument("unknown runtime '" + std::string(runtime) +
                              "' (expected goroutines, jvm, os-threads or processes)");
}

void check_costs(std::string_view spec) {
  if (spec == kRuntimeCosts) return;
  if (spec.starts_with(std::string(kRuntimeCosts) + ","))
    throw std::invalid_argument("'" + std::string(kRuntimeCosts) +
                                "' takes no overrides: name a preset to change its figures, e.g. jvm,wake=50us");
  parse_costs(spec);
}

Costs parse_costs(std::string_view spec) {
  std::string_view head = spec.substr(0, spec.find(','));
  Costs c = costs_preset(head);
  std::string_view rest = head.size() < spec.size() ? spec.substr(head.size() + 1) : std::string_view{};
  bool changed = false;
  while (!rest.empty()) {
    std::string_view item = rest.substr(0, rest.find(','));
    rest = item.size() < rest.size() ? rest.substr(item.size() + 1) : std::string_view{};
    auto eq = item.find('=');
    if (eq == std::string_view::npos)
      throw std::invalid_argument("cost override '" + std::string(item) + "': expected key=duration, e.g. wake=5us");
    std::string key(item.substr(0, eq));
    Nanos* field = key == "start" ? &c.start : key == "wake" ? &c.wake : key == "handoff" ? &c.handoff
                 : key == "resume" ? &c.resume : key == "submit" ? &c.submit : key == "yield" ? &c.yield : key == "quantum" ? &c.quantum : nullptr;
    if (!field)
      throw std::invalid_argument("cost override '" + key + "': expected one of start, wake, handoff, resume, submit, yield, quantum");
    std::optional<Nanos> d = parse_duration(item.substr(eq + 1));
    if (!d)
      throw std::invalid_argument("cost override '" + key + "': '" + std::string(item.substr(eq + 1)) +
                                  "' is not a duration (expected e.g. 20us, 1ms)");
    *field = *d;
    if (*field < Nanos(0)) throw std::invalid_argument("cost override '" + key + "': expected a duration >= 0");
    changed = true;
  }
  if (c.quantum <= Nanos(0)) throw std::invalid_argument("cost override 'quantum': expected a duration > 0");
  if (c.yield <= Nanos(0)) throw std::invalid_argument("cost override 'yield': expected a duration > 0 (a spin loop must move the clock)");
  if (changed) c.name = std::string(spec);
  return c;
}

Policy parse_policy(std::string_view name) {
  if (name == "random") return Policy::random;
  if (name == "pct") return Policy::pct;
  if (name == "fifo") return Policy::fifo;
  throw std::invalid_argument("unknown scheduling policy '" + std::string(name) + "' (expected random, pct or fifo)");
}

std::string_view to_string(Policy p) {
  switch (p) {
    case Policy::random: return "random";
    case Policy::pct: return "pct";
    case Policy::fifo: return "fifo";
  }
  return "?";
}

}  // namespace poolscope::sim
