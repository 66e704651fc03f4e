#include <dirent.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>
#include <map>
#include <mutex>
#include <thread>

#include "labs/checks/lab_check.h"
#include "pools/core/sim/world.h"
#include "pools/core/thread.h"

namespace poolscope::lab {
namespace {

std::map<std::string, std::string, std::less<>>& hints() {
  static std::map<std::string, std::string, std::less<>> h;
  return h;
}

}  // namespace

HintRegistrar::HintRegistrar(std::string_view name, std::string_view hint) {
  hints().emplace(std::string(name), std::string(hint));
}

std::string_view hint_for(std::string_view check_name) {
  auto it = hints().find(check_name);
  return it == hints().end() ? std::string_view{} : std::string_view(it->second);
}

std::string pool_under_test(std::string_view lab, std::string_view solution) {
  if (const char* env = std::getenv("POOLSCOPE_LAB_POOL"); env && *env) return env;
  const Registry& r = Registry::global();
  if (r.find(solution)) return std::string(solution);
  std::string prefix = "lab" + std::string(lab) + "-", found;
  for (const std::string& name : r.names()) {
    if (name.starts_with(prefix)) {
      if (!found.empty())
        FAIL("several lab " << lab << " pools (" << found << ", " << name << "): name one with POOLSCOPE_LAB_POOL");
      found = name;
    }
  }
  if (found.empty()) FAIL("no lab " << lab << " pool in this binary: register one named " << prefix << "...");
  return found;
}

std::string show(const Counters& c) {
  return "workers " + std::to_string(c.workers) + ", busy " + std::to_string(c.busy) + ", queued " +
         std::to_string(c.queued) + ", blocked " + std::to_string(c.blocked);
}

bool expect_event(TraceLog& log, const TraceLog::Pred& pred) { return log.wait_for(pred, kExpectLimit).has_value(); }

bool expect_count(TraceLog& log, const TraceLog::Pred& pred, std::size_t n) {
  auto deadline = std::chrono::steady_clock::now() + kExpectLimit;
  while (log.count(pred) < n) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return log.count(pred) == n;
}

int stress_rounds() {
  const char* env = std::getenv("POOLSCOPE_LAB_REPEAT");
  int n = env && *env ? std::atoi(env) : 3;
  return n < 1 ? 1 : n;
}

void race(int n, const std::function<void(int)>& body) {
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  std::vector<Thread> threads;
  for (int i = 0; i < n; ++i) {
    threads.emplace_back("submitter-" + std::to_string(i), [&, i] {
      ready++;
      while (!go.load()) std::this_thread::yield();
      body(i);
    });
  }
  while (ready.load() < n) std::this_thread::yield();
  go = true;
  for (Thread& t : threads) t.join();
}

Rig::Rig(std::string d, json config, bool real_clock) : design(std::move(d)) {
  Clock* c = real_clock ? static_cast<Clock*>(&steady) : &clock;
  pool = Registry::global().create(design, config, {.clock = c, .stream = &stream, .name = design});
}

// A pool whose shutdown never returns would hold the check's process until
// the grader's watchdog (30 s) fires. The kit gives shutdown kShutdownLimit,
// then names the threads still alive and what they wait in (from /proc), and
// ends the process: scripts/lab reports the check TIMED OUT with that list.
Rig::~Rig() {
  if (!pool) return;
  std::atomic<bool> done{false};
  std::thread watchdog([&] {
    auto deadline = std::chrono::steady_clock::now() + kShutdownLimit;
    while (!done.load()) {
      if (std::chrono::steady_clock::now() > deadline) {
        std::printf("lab-kit: STUCK the pool's shutdown did not return within %lld s; threads alive:\n",
                    static_cast<long long>(kShutdownLimit.count()));
        if (DIR* d = ::opendir("/proc/self/task")) {
          while (dirent* e = ::readdir(d)) {
            if (e->d_name[0] == '.') continue;
            std::string base = std::string("/proc/self/task/") + e->d_name;
            std::ifstream comm(base + "/comm"), wchan(base + "/wchan");
            std::string name, where;
            std::getline(comm, name);
            std::getline(wchan, where);
            std::printf("lab-kit: thread %s: %s\n", name.c_str(), where.empty() ? "running" : where.c_str());
          }
          ::closedir(d);
        }
        std::fflush(stdout);
        std::_Exit(kStuckExitCode);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
  pool->shutdown(ShutdownMode::now);
  done = true;
  watchdog.join();
}

std::string explore_schedules(int schedules, const std::function<std::string()>& run) {
  for (int i = 0; i < schedules; ++i) {
    sim::Settings settings;
    settings.seed = static_cast<std::uint64_t>(i) + 1;
    settings.policy = i % 2 ? sim::Policy::pct : sim::Policy::random;
    settings.costs = sim::costs_preset("free");
    std::string problem;
    try {
      sim::World world(settings);
      world.run([&] { problem = run(); });
    } catch (const std::exception& e) {
      problem = e.what();
    }
    if (!problem.empty())
      return "schedule " + std::to_string(i + 1) + " of " + std::to_string(schedules) + " (seed " +
             std::to_string(settings.seed) + ", " + (i % 2 ? "pct" : "random") + "): " + problem;
  }
  return "";
}

SimBurstResult sim_burst(const std::string& design, const json& config, const SimBurst& burst) {
  TraceStream stream{std::size_t{1} << 14};  // drained at the end: a TraceLog's thread is not the simulation's
  std::unique_ptr<Pool> pool = Registry::global().create(design, config, {.stream = &stream, .name = design});
  Clock& clock = default_clock();  // the simulation's
  clock.sleep_for(std::chrono::milliseconds(1));
  std::atomic<int> accepted{0}, ran{0};
  std::vector<Thread> submitters;
  for (int s = 0; s < burst.submitters; ++s) {
    submitters.emplace_back("submitter-" + std::to_string(s), [&] {
      for (int i = 0; i < burst.each; ++i) {
        if (i > 0 && burst.gap.count() > 0) clock.sleep_for(burst.gap);
        accepted += pool->submit([&] {
          if (burst.hold.count() > 0) clock.sleep_for(burst.hold);
          ran++;
        }).accepted();
      }
    });
  }
  for (Thread& t : submitters) t.join();
  if (burst.settle.count() > 0) clock.sleep_for(burst.settle);
  const int ran_before_shutdown = ran.load();
  pool->shutdown(ShutdownMode::graceful);
  SimBurstResult r{accepted.load(), ran_before_shutdown, ran.load(), {}};
  stream.drain(r.events);
  if (stream.dropped() > 0) FAIL("the check's trace dropped " << stream.dropped() << " events");
  return r;
}

bool Rig::says_closed() {
  SubmitResult r = pool->submit([] {});
  probes_accepted += r.accepted();
  return r.fate == Fate::closed;
}

void Rig::settle() {
  test::await_condition(
      [&] {
        log.sync();
        return pool->state() == log.last_counters(id());
      },
      "state() agrees with the trace");
}

}  // namespace poolscope::lab
