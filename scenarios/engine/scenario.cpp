#include "scenarios/engine/scenario.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "pools/core/duration.h"
#include "pools/core/platform.h"
#include "pools/core/registry.h"
#include "pools/core/sim/machine.h"
#include "pools/core/sim/world.h"
#include "scenarios/engine/json_reader.h"

namespace poolscope::scenario {

ScenarioError::ScenarioError(std::string file, const ConfigError& e)
    : ConfigError(e.path(), e.message()), file_(std::move(file)) {
  full_ = (file_.empty() ? "" : file_ + ": ") + std::string(e.what());
}

namespace {

// The whole of a regular file, at most `max_bytes`; anything else (a
// directory, a FIFO, a device, an unreadable or too large file) is an error
// whose message says what it is.
std::string read_regular_file(const std::filesystem::path& path, std::uintmax_t max_bytes) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw ConfigError("", std::string("cannot read the file: ") + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw ConfigError("", "is a directory; expected a file");
  if (!S_ISREG(st.st_mode)) throw ConfigError("", "is not a regular file (a FIFO, a device or a socket); expected a file");
  if (static_cast<std::uintmax_t>(st.st_size) > max_bytes)
    throw ConfigError("", "is too large (" + std::to_string(st.st_size) + " bytes; at most " +
                              std::to_string(max_bytes) + ")");
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw ConfigError("", std::string("cannot read the file: ") + std::strerror(errno));
  std::string text;
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      ::close(fd);
      throw ConfigError("", std::string("cannot read the file: ") + std::strerror(err));
    }
    if (n == 0) break;
    text.append(buf, static_cast<std::size_t>(n));
    if (text.size() > max_bytes) {
      ::close(fd);
      throw ConfigError("", "is too large (more than " + std::to_string(max_bytes) + " bytes)");
    }
  }
  ::close(fd);
  return text;
}

// Arrival times (seconds from the phase start, first column); a header on
// the first line that is not a comment, and `#` comments, are allowed. Every
// time must fall within the phase: a time outside it is an error, not dropped.
std::vector<Nanos> read_replay_csv(const std::filesystem::path& path, const std::string& json_path,
                                   Nanos phase_duration) {
  std::string text;
  try {
    text = read_regular_file(path, kMaxInputBytes);
  } catch (const ConfigError& e) {
    std::string why = e.message();
    if (why.starts_with("cannot read the file: ")) why.erase(0, 22);
    throw ConfigError(json_path, "cannot read replay file '" + path.string() + "': " + why);
  }
  return parse_replay_csv(text, path.string(), json_path, phase_duration);
}

}  // namespace

std::vector<Nanos> parse_replay_csv(std::string_view text, const std::string& name, const std::string& json_path,
                                    Nanos phase_duration) {
  const std::filesystem::path path = name;
  std::istringstream in{std::string(text)};
  std::vector<Nanos> times;
  std::string line;
  int line_no = 0;
  bool first = true;  // the first line that is neither blank nor a comment may be a header
  auto fail = [&](const std::string& what) {
    throw ConfigError(json_path, "replay file '" + path.string() + "' line " + std::to_string(line_no) + ": " + what);
  };
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::string cell = line.substr(0, line.find(','));
    cell.erase(0, cell.find_first_not_of(" \t"));
    cell.erase(cell.find_last_not_of(" \t") + 1);
    if (cell.empty() || cell[0] == '#') continue;
    std::istringstream ss(cell);
    double seconds = 0;
    bool number = static_cast<bool>(ss >> seconds) && ss.eof() && std::isfinite(seconds);
    bool header = first && !number;
    first = false;
    if (header) continue;
    if (!number || seconds < 0) fail("expected a time in seconds >= 0 in the first column, got \"" + cell + "\"");
    const double ns = seconds * 1e9;
    if (ns >= static_cast<double>(phase_duration.count()) || Nanos(static_cast<std::int64_t>(ns)) >= phase_duration)
      fail(cell + " s is past the end of the phase: its times must be < its duration (" +
           format_duration(phase_duration) + ")");
    times.push_back(Nanos(static_cast<std::int64_t>(ns)));
  }
  std::sort(times.begin(), times.end());
  return times;
}

namespace {

TaskSpec parse_task(const json& j, const std::string& path, int depth) {
  ObjectReader r(j, path);
  TaskSpec t;
  t.kind = r.choice("kind", {"sleep", "spin"}, "sleep") == "spin" ? TaskSpec::Kind::spin : TaskSpec::Kind::sleep;
  t.duration = Distribution::parse(r.required("duration"), r.path_of("duration"));
  t.throw_probability = r.number("throw_probability", 0.0, 0.0, 1.0);
  if (const json* p = r.get("priority")) {
    constexpr int limit = 1'000'000;
    if (p->is_object()) {
      ObjectReader pr(*p, r.path_of("priority"));
      // Checked in range before the narrowing to int; max is refused below min.
      t.priority_min = static_cast<int>(pr.integer("min", std::nullopt, -limit, limit));
      t.priority_max = static_cast<int>(pr.integer("max", std::nullopt, t.priority_min, limit));
      pr.done();
    } else if (p->is_number_integer()) {
      t.priority_min = t.priority_max = integer_at<int>(*p, r.path_of("priority"), -limit, limit);
    } else {
      fail_at(r.path_of("priority"), "an integer in [-1000000, 1000000] or {\"min\": a, \"max\": b}", *p);
    }
  }
  if (const json* c = r.get("children")) {
    if (depth >= 4) fail_at(r.path_of("children"), "children nested at most 4 deep", *c);
    ObjectReader cr(*c, r.path_of("children"));
    TaskSpec::Children ch;
    ch.count = static_cast<int>(cr.integer("count", std::nullopt, 1, 1000));
    ch.wait = cr.boolean("wait", false);
    ch.task = std::make_shared<TaskSpec>(parse_task(cr.required("task"), cr.path_of("task"), depth + 1));
    cr.done();
    t.children = std::move(ch);
  }
  r.done();
  return t;
}

ArrivalSpec parse_arrival(const json& j, const std::string& path, Nanos phase_duration,
                          const std::filesystem::path& base_dir) {
  ObjectReader r(j, path);
  ArrivalSpec a;
  std::string kind = r.choice("kind", {"constant", "poisson", "burst", "ramp", "idle", "closed_loop", "replay"});
  if (kind == "constant" || kind == "poisson") {
    a.kind = kind == "constant" ? ArrivalSpec::Kind::constant : ArrivalSpec::Kind::poisson;
    a.rate = r.number("rate", std::nullopt, 0.0, 1e6, true);
  } else if (kind == "burst") {
    a.kind = ArrivalSpec::Kind::burst;
    a.count = static_cast<int>(r.integer("count", std::nullopt, 1, 1'000'000));
    a.every = r.duration("every", Nanos(0), Nanos(0));
    if (a.every > Nanos(0) && a.every < std::chrono::milliseconds(1))
      r.fail("every", "a duration >= 1ms (or 0 for a single burst)", r.get("every"));
  } else if (kind == "ramp") {
    a.kind = ArrivalSpec::Kind::ramp;
    a.from = r.number("from", std::nullopt, 0.0, 1e6);
    a.to = r.number("to", std::nullopt, 0.0, 1e6);
    if (a.from == 0 && a.to == 0) r.fail("to", "a rate > 0 at one end of the ramp", r.get("to"));
    a.poisson = r.boolean("poisson", false);
  } else if (kind == "idle") {
    a.kind = ArrivalSpec::Kind::idle;
  } else if (kind == "closed_loop") {
    a.kind = ArrivalSpec::Kind::closed_loop;
    a.clients = static_cast<int>(r.integer("clients", std::nullopt, 1, 10'000));
    a.think = r.has("think") ? Distribution::parse(*r.get("think"), r.path_of("think")) : Distribution::fixed(Nanos(0));
  } else {
    a.kind = ArrivalSpec::Kind::replay;
    a.file = r.string("file");
    std::filesystem::path p = a.file;
    a.times = read_replay_csv(p.is_absolute() ? p : base_dir / p, r.path_of("file"), phase_duration);
  }
  r.done();
  return a;
}

}  // namespace

Nanos Scenario::duration() const {
  Nanos d{0};
  for (const Phase& p : phases) d += p.duration;
  return d;
}

namespace {

json task_json(const TaskSpec& t) {
  json j = {{"kind", t.kind == TaskSpec::Kind::spin ? "spin" : "sleep"}, {"duration", t.duration.to_json()}};
  if (t.throw_probability > 0) j["throw_probability"] = t.throw_probability;
  if (t.priority_min != 0 || t.priority_max != 0) {
    j["priority"] = t.priority_min == t.priority_max ? json(t.priority_min)
                                                     : json{{"min", t.priority_min}, {"max", t.priority_max}};
  }
  if (t.children)
    j["children"] = {{"count", t.children->count}, {"wait", t.children->wait}, {"task", task_json(*t.children->task)}};
  return j;
}

json arrival_json(const ArrivalSpec& a) {
  switch (a.kind) {
    case ArrivalSpec::Kind::constant:
      return {{"kind", "constant"}, {"rate", a.rate}};
    case ArrivalSpec::Kind::poisson:
      return {{"kind", "poisson"}, {"rate", a.rate}};
    case ArrivalSpec::Kind::burst:
      return {{"kind", "burst"}, {"count", a.count}, {"every", format_duration(a.every)}};
    case ArrivalSpec::Kind::ramp:
      return {{"kind", "ramp"}, {"from", a.from}, {"to", a.to}, {"poisson", a.poisson}};
    case ArrivalSpec::Kind::idle:
      return {{"kind", "idle"}};
    case ArrivalSpec::Kind::closed_loop:
      return {{"kind", "closed_loop"}, {"clients", a.clients}, {"think", a.think.to_json()}};
    case ArrivalSpec::Kind::replay:
      return {{"kind", "replay"}, {"file", a.file}};
  }
  return nullptr;
}

}  // namespace

json Scenario::to_json() const {
  json ph = json::array();
  for (const Phase& p : phases) {
    json j = {{"name", p.name}, {"duration", format_duration(p.duration)}, {"arrival", arrival_json(p.arrival)}};
    if (p.arrival.kind != ArrivalSpec::Kind::idle) j["task"] = task_json(p.task);
    ph.push_back(j);
  }
  json ps = json::array();
  for (const PoolEntry& p : pools) {
    json e = {{"name", p.name}, {"design", p.design}, {"config", p.config}};
    if (p.optional) e["optional"] = true;
    ps.push_back(std::move(e));
  }
  json j = {{"format", kScenarioFormat},
            {"name", name},
            {"lesson", lesson},
            {"description", description},
            {"seed", seed},
            {"time_scale", time_scale},
            {"schedule", schedule == Schedule::sequential ? "sequential" : "side_by_side"},
            {"submitters", submitters},
            {"drain", drain == ShutdownMode::now ? "now" : "graceful"},
            {"phases", ph},
            {"pools", ps}};
  if (watchdog) j["watchdog"] = format_duration(*watchdog);
  if (simulation) j["simulation"] = simulation->to_json();
  return j;
}

json SimulationSpec::to_json() const {
  json j = {{"cpus", cpus}, {"costs", costs}, {"policy", policy}};
  if (seed) j["seed"] = *seed;
  return j;
}

namespace {
// "simulation": true, false, or {"cpus": 2, "costs": "runtime", "policy": "random"}.
std::optional<SimulationSpec> parse_simulation(const json& j) {
  if (j.is_boolean()) return j.get<bool>() ? std::optional(SimulationSpec{}) : std::nullopt;
  if (!j.is_object()) fail_at("/simulation", "true, false or an object with cpus, costs and policy", j);
  ObjectReader r(j, "/simulation");
  SimulationSpec spec;
  spec.cpus = static_cast<int>(r.integer("cpus", 2, 1, sim::kMaxCpus));
  spec.costs = r.string("costs", std::string(sim::kRuntimeCosts));
  try {
    sim::check_costs(spec.costs);
  } catch (const std::invalid_argument& e) {
    throw ConfigError("/simulation/costs", e.what());
  }
  spec.policy = r.choice("policy", {"random", "pct", "fifo"}, "random");
  if (const json* seed = r.get("seed")) {
    spec.seed = integer_at<std::uint64_t>(*seed, "/simulation/seed");
  }
  r.done();  // {"cpu": 2} is a typo, refused with "did you mean", as everywhere else
  return spec;
}

// Building the pool once (untraced) also catches the design's own rules
// across parameters, before anything runs: on a clock that never moves, with
// real threads where there are any (a pool that waits in std::mutex cannot
// be simulated, and must still be checked for a real run), else (a web page)
// inside a simulation, whose threads are fibers.
void build_once(const Registry& registry, const PoolEntry& e) {
  auto build = [&](Clock& clock) { registry.create(e.design, e.config, TraceTarget{.clock = &clock}); };
  if (platform::has_threads() || sim::active()) {
    ManualClock still;
    build(still);
    return;
  }
  sim::World world;
  world.run([&] { build(world.clock()); });
}

}  // namespace

Scenario parse_scenario(const json& j, const std::string& file, const std::filesystem::path& base_dir) {
  try {
    check_depth(j);
    ObjectReader r(j, "");
    Scenario s;
    s.file = file;
    if (const json* f = r.get("format"); f && *f != kScenarioFormat)
      fail_at("/format", "\"" + std::string(kScenarioFormat) + "\"", *f);
    s.name = r.string("name");
    s.lesson = r.string("lesson");
    s.description = r.string("description", "");
    if (const json* seed = r.get("seed")) {
      s.seed = integer_at<std::uint64_t>(*seed, "/seed");  // any uint64, never through int64
    }
    s.time_scale = r.number("time_scale", 1.0, 0.001, 1000.0);
    s.schedule = r.choice("schedule", {"side_by_side", "sequential"}, "side_by_side") == "sequential"
                     ? Schedule::sequential
                     : Schedule::side_by_side;
    s.submitters = static_cast<int>(r.integer("submitters", 1, 1, 64));
    if (r.has("watchdog")) s.watchdog = r.duration("watchdog", std::nullopt, Nanos(0), true);
    s.drain = r.choice("drain", {"graceful", "now"}, "graceful") == "now" ? ShutdownMode::now : ShutdownMode::graceful;
    if (const json* sim = r.get("simulation")) s.simulation = parse_simulation(*sim);

    std::optional<TaskSpec> default_task;
    if (const json* t = r.get("task")) default_task = parse_task(*t, "/task", 0);

    const json& phases = r.required("phases");
    if (!phases.is_array() || phases.empty()) fail_at("/phases", "a non-empty array of phases", phases);
    if (phases.size() > kMaxPhases)
      throw ConfigError("/phases", "expected at most " + std::to_string(kMaxPhases) + " phases, got " +
                                       std::to_string(phases.size()));
    Nanos total{0};
    for (std::size_t i = 0; i < phases.size(); ++i) {
      std::string path = "/phases/" + std::to_string(i);
      ObjectReader pr(phases[i], path);
      Phase p;
      p.name = pr.string("name", "phase " + std::to_string(i + 1));
      p.duration = pr.duration("duration", std::nullopt, Nanos(0), true);
      // Each is at most kMaxDuration, so the sum cannot overflow before this check.
      total += p.duration;
      if (total > kMaxDuration)
        throw ConfigError(pr.path_of("duration"), "the phases add up to more than " + format_duration(kMaxDuration) +
                                                      " of scenario time (too large)");
      p.arrival = parse_arrival(pr.required("arrival"), pr.path_of("arrival"), p.duration, base_dir);
      if (const json* t = pr.get("task")) {
        p.task = parse_task(*t, pr.path_of("task"), 0);
      } else if (default_task) {
        p.task = *default_task;
      } else if (p.arrival.kind != ArrivalSpec::Kind::idle) {
        throw ConfigError(pr.path_of("task"), "is required (or give a scenario-wide \"task\")");
      }
      pr.done();
      s.phases.push_back(std::move(p));
    }

    const json& pools = r.required("pools");
    if (!pools.is_array() || pools.empty()) fail_at("/pools", "a non-empty array of pools to compare", pools);
    if (pools.size() > kMaxPools)
      throw ConfigError("/pools", "expected at most " + std::to_string(kMaxPools) + " pools, got " +
                                      std::to_string(pools.size()));
    std::set<std::string> names;
    const Registry& registry = Registry::global();
    for (std::size_t i = 0; i < pools.size(); ++i) {
      std::string path = "/pools/" + std::to_string(i);
      ObjectReader pr(pools[i], path);
      PoolEntry e;
      e.design = pr.string("design");
      e.optional = pr.boolean("optional", false);
      const bool registered = registry.find(e.design) != nullptr;
      if (!registered && !e.optional) {
        try {
          registry.get(e.design);
        } catch (const ConfigError& err) {
          throw err.prefixed(pr.path_of("design"));
        }
      }
      e.name = pr.string("name", e.design);
      if (!names.insert(e.name).second)
        throw ConfigError(pr.path_of("name"),
                          "pool name '" + e.name + "' is used twice; give each pool a unique \"name\"");
      e.config = pr.get("config") ? *pr.get("config") : json::object();
      check_integers_fit(e.config, pr.path_of("config"));
      if (!registered) {
        // Optional, and its design is not in this build: checked as far as it
        // can be without the design, then left out of the run.
        if (!e.config.is_object()) fail_at(pr.path_of("config"), "an object", e.config);
        pr.done();
        s.skipped.push_back(std::move(e));
        continue;
      }
      try {
        build_once(registry, e);
      } catch (const ConfigError& err) {
        // The design's message may quote the whole offending value (an array
        // of 200,000 elements): keep it to a readable length.
        ConfigError short_err = err;
        if (err.message().size() > 300) short_err = ConfigError(err.path(), err.message().substr(0, 297) + "...");
        throw short_err.prefixed(pr.path_of("config"));
      }
      pr.done();
      s.pools.push_back(std::move(e));
    }
    if (s.pools.empty()) {
      std::string list;
      for (const PoolEntry& e : s.skipped) list += (list.empty() ? "" : ", ") + e.name;
      throw ConfigError("/pools",
                        "nothing to run: every pool is optional and no design of theirs is registered in "
                        "this build (" +
                            list + ")");
    }
    r.done();
    return s;
  } catch (const ScenarioError&) {
    throw;
  } catch (const ConfigError& e) {
    throw ScenarioError(file, e);
  }
}

std::string skip_reason(const PoolEntry& e) { return "design '" + e.design + "' is not registered in this build"; }

std::string json_error_text(const json::exception& e) {
  std::string what = e.what();
  what = "not valid JSON: " + what.substr(what.find(']') + 2);
  // The parser quotes what it last read, which can be a 200,000-character token.
  return what.size() > 300 ? what.substr(0, 297) + "..." : what;
}

json parse_scenario_text(std::string_view text, const std::string& file) {
  try {
    json j;
    try {
      j = json::parse(text);
    } catch (const json::exception& e) {  // parse_error, and out_of_range for 1e400
      throw ConfigError("", json_error_text(e));
    }
    check_depth(j);
    return j;
  } catch (const ConfigError& e) {
    throw ScenarioError(file, e);
  }
}

json read_scenario_json(const std::filesystem::path& file) {
  std::string text;
  try {
    text = read_regular_file(file, kMaxInputBytes);
  } catch (const ConfigError& e) {
    throw ScenarioError(file.string(), e);
  }
  return parse_scenario_text(text, file.string());
}

Scenario load_scenario(const std::filesystem::path& file) {
  return parse_scenario(read_scenario_json(file), file.string(), file.parent_path());
}

json apply_overrides(json j, const Overrides& o) {
  if (!j.is_object()) return j;
  if (o.seed) j["seed"] = *o.seed;
  if (o.time_scale) {
    const double v = *o.time_scale;
    // Whole numbers stay integers, as a scenario file would write them ("20", not "20.0").
    json value = v == std::floor(v) && std::abs(v) < 1e15 ? json(static_cast<std::int64_t>(v)) : json(v);
    if (!(v >= 0.001 && v <= 1000))
      throw ConfigError("--time-scale " + value.dump(), "expected a number in [0.001, 1000]");
    j["time_scale"] = value;
  }
  if (o.simulate && !*o.simulate) j.erase("simulation");
  if (o.simulate.value_or(false) || o.cpus || o.costs || o.policy || o.sim_seed) {
    json sim = j.contains("simulation") && j["simulation"].is_object() ? j["simulation"] : json::object();
    if (o.cpus) {
      if (*o.cpus < 1 || *o.cpus > sim::kMaxCpus)
        throw ConfigError("--cpus " + std::to_string(*o.cpus),
                          "expected a whole number of CPUs in [1, " + std::to_string(sim::kMaxCpus) + "]");
      sim["cpus"] = *o.cpus;
    }
    if (o.costs) {
      try {
        sim::check_costs(*o.costs);
      } catch (const std::invalid_argument& e) {
        throw ConfigError("--costs " + *o.costs, e.what());
      }
      sim["costs"] = *o.costs;
    }
    if (o.policy) {
      try {
        sim::parse_policy(*o.policy);
      } catch (const std::invalid_argument& e) {
        throw ConfigError("--policy " + *o.policy, e.what());
      }
      sim["policy"] = *o.policy;
    }
    if (o.sim_seed) sim["seed"] = *o.sim_seed;
    j["simulation"] = sim;
  }
  if (!j.contains("pools") || !j["pools"].is_array()) return j;
  json& pools = j["pools"];
  auto name_of = [](const json& p) {
    if (!p.is_object()) return std::string();
    if (p.contains("name") && p["name"].is_string()) return p["name"].get<std::string>();
    return p.contains("design") && p["design"].is_string() ? p["design"].get<std::string>() : std::string();
  };
  if (!o.pools.empty()) {
    json kept = json::array();
    std::vector<bool> taken(pools.size(), false);
    auto keep = [&](std::size_t i, bool by_name) {
      if (taken[i]) return;
      taken[i] = true;
      json entry = pools[i];
      // Asked for by name, an optional pool is required: it runs or the run fails.
      if (by_name && entry.is_object() && entry.value("optional", false) == true) {
        std::string design = entry.value("design", "");
        if (!Registry::global().find(design))
          throw ConfigError("--pool " + name_of(entry), "the scenario's pool '" + name_of(entry) +
                                                            "' is optional and its design '" + design +
                                                            "' is not registered in this build");
        entry.erase("optional");
      }
      kept.push_back(std::move(entry));
    };
    auto design_of = [](const json& p) {
      return p.is_object() && p.contains("design") && p["design"].is_string() ? p["design"].get<std::string>()
                                                                              : std::string();
    };
    for (const std::string& want : o.pools) {
      // The entry of that name, as configured in the scenario ...
      auto it = std::find_if(pools.begin(), pools.end(), [&](const json& p) { return name_of(p) == want; });
      if (it != pools.end()) {
        keep(static_cast<std::size_t>(it - pools.begin()), true);
        continue;
      }
      // ... else every entry of that design, each with its configuration ...
      bool any = false;
      for (std::size_t i = 0; i < pools.size(); ++i)
        if (design_of(pools[i]) == want) {
          keep(i, false);
          any = true;
        }
      if (any) continue;
      // ... else a design the scenario does not name, with its defaults.
      if (Registry::global().find(want)) {
        kept.push_back({{"design", want}});
        continue;
      }
      std::string known;
      for (const json& p : pools) known += (known.empty() ? "" : ", ") + name_of(p);
      throw ConfigError("--pool " + want,
                        "no pool '" + want + "' in the scenario (" + known + ") and no registered design of that name");
    }
    pools = kept;
  }
  for (const auto& [target, value] : o.settings) {
    auto dot = target.find('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == target.size())
      throw ConfigError("--set " + target, "expected POOL.PARAM=VALUE");
    std::string pool = target.substr(0, dot), param = target.substr(dot + 1);
    // The pool of that name, else every pool of that design (as --pool and --param pick them).
    auto it = std::find_if(pools.begin(), pools.end(), [&](const json& p) { return name_of(p) == pool; });
    if (it != pools.end()) {
      (*it)["config"][param] = value;
      continue;
    }
    bool any = false;
    for (json& p : pools)
      if (p.is_object() && p.value("design", "") == pool) {
        p["config"][param] = value;
        any = true;
      }
    if (!any) {
      std::string known;
      for (const json& p : pools) known += (known.empty() ? "" : ", ") + name_of(p);
      throw ConfigError("--set " + target, "no pool '" + pool + "' in this run (its pools: " + known +
                                               "), by name or by design");
    }
  }
  return j;
}

}  // namespace poolscope::scenario
