// Chaos, on a short budget: random valid scenarios (a fixed seed, or
// POOLSCOPE_CHAOS_SEED to explore; POOLSCOPE_CHAOS_RUNS of them, 8 unless
// told) run against every registered design side by side (lab pools
// included), while a tuner sets random values of every live parameter of the
// running pools and, in one run of four, the run is stopped in the middle of
// its load. Whatever happened (stalls, throws, refusals, children, early
// drains, tunes), every pool's accounting must balance: submitted =
// completed + threw + refused + dropped, in the pool's own count and in the
// trace; every thread the run started is joined; and no run hangs: one that
// outlives its bound prints its seed, which reproduces it, and aborts.
// Every run's result is written as the runner writes it and validated
// against docs/schemas/result.schema.json (weedge's utilisation above 1
// broke it unseen, issue 36). scripts/chaos runs thousands of them.
#include <catch2/catch.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>
#include <unistd.h>

#include "pools/core/duration.h"
#include "pools/core/registry.h"
#include "pools/core/thread.h"
#include "scenarios/engine/engine.h"
#include "scenarios/engine/result_json.h"

using namespace poolscope;
using namespace poolscope::scenario;

namespace {

using Gen = std::mt19937_64;

int pick(Gen& g, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(g); }

json random_task(Gen& g, int depth) {
  json t = {{"kind", "sleep"},
            {"duration", {{"dist", "uniform"}, {"min", "0"}, {"max", std::to_string(pick(g, 1, 20)) + "ms"}}}};
  if (pick(g, 0, 3) == 0) t["throw_probability"] = pick(g, 0, 30) / 100.0;
  if (depth == 0 && pick(g, 0, 4) == 0)
    t["children"] = {{"count", pick(g, 1, 3)}, {"wait", pick(g, 0, 3) == 0}, {"task", random_task(g, 1)}};
  return t;
}

json random_scenario(std::uint64_t seed, Gen& g, const std::vector<std::string>& designs) {
  json phases = json::array();
  for (int i = pick(g, 1, 3); i > 0; --i) {
    json a;
    switch (pick(g, 0, 5)) {
      case 0: a = {{"kind", "constant"}, {"rate", pick(g, 10, 400)}}; break;
      case 1: a = {{"kind", "poisson"}, {"rate", pick(g, 10, 400)}}; break;
      case 2: a = {{"kind", "burst"}, {"count", pick(g, 1, 40)}, {"every", pick(g, 0, 1) ? "0" : "50ms"}}; break;
      case 3: a = {{"kind", "ramp"}, {"from", pick(g, 0, 100)}, {"to", pick(g, 1, 300)}}; break;
      case 4: a = {{"kind", "idle"}}; break;
      default: a = {{"kind", "closed_loop"}, {"clients", pick(g, 1, 4)}, {"think", std::to_string(pick(g, 0, 10)) + "ms"}};
    }
    phases.push_back(
        {{"duration", std::to_string(pick(g, 50, 300)) + "ms"}, {"arrival", a}, {"task", random_task(g, 0)}});
  }
  json pools = json::array();
  for (const std::string& d : designs) pools.push_back({{"design", d}});
  // And a weedge of one worker whose TimeOut is shorter than most tasks: its timed-out
  // tasks run on in their own threads while the workers take more, so busy
  // exceeds workers (issue 36: utilisation above 1 broke the result schema;
  // with the 3 s default, only a machine loaded far past its cores showed it).
  if (std::find(designs.begin(), designs.end(), "weedge") != designs.end())
    pools.push_back({{"name", "weedge-timeouts"},
                     {"design", "weedge"},
                     {"config", {{"minWorkerNum", 1}, {"maxWorkerNum", 1}, {"TimeOut", "1ms"}}}});
  return {{"name", "chaos-" + std::to_string(seed)},
          {"lesson", "random"},
          {"seed", seed},
          {"time_scale", 10},
          {"watchdog", "500ms"},
          {"submitters", pick(g, 1, 3)},
          {"drain", pick(g, 0, 3) == 0 ? "now" : "graceful"},
          {"phases", phases},
          {"pools", pools}};
}

// A value for a live parameter, inside its range; the pool may still refuse
// it for a rule that spans parameters (Java's core above its maximum), as
// its original would.
json random_value(Gen& g, const ParamSpec& spec) {
  switch (spec.type) {
    case ParamType::boolean: return pick(g, 0, 1) == 1;
    case ParamType::choice: return spec.choices[static_cast<std::size_t>(pick(g, 0, int(spec.choices.size()) - 1))];
    case ParamType::duration: {
      const auto bound = [](const json& b, Nanos otherwise) {
        return b.is_string() ? parse_duration(b.get<std::string>()).value_or(otherwise) : otherwise;
      };
      const Nanos lo = bound(spec.min, Nanos::min()), hi = bound(spec.max, Nanos::max());
      std::vector<std::string> fit;
      for (const char* d : {"0s", "1ms", "10ms", "100ms", "1s", "60s"})
        if (Nanos v = *parse_duration(d); v >= lo && v <= hi) fit.push_back(d);
      return fit.empty() ? spec.default_value : json(fit[static_cast<std::size_t>(pick(g, 0, int(fit.size()) - 1))]);
    }
    case ParamType::number: {
      const double lo = spec.min.is_number() ? spec.min.get<double>() : 0;
      const double hi = spec.max.is_number() ? std::min(spec.max.get<double>(), lo + 64) : lo + 64;
      return std::uniform_real_distribution<double>(lo, hi)(g);
    }
    case ParamType::integer: break;
  }
  // Sizes stay small enough for a 2-core machine: at most 40 above the minimum.
  const std::int64_t lo = spec.min.is_number() ? spec.min.get<std::int64_t>() : 0;
  const std::int64_t hi = spec.max.is_number() ? std::min(spec.max.get<std::int64_t>(), lo + 40) : lo + 40;
  return std::uniform_int_distribution<std::int64_t>(lo, hi)(g);
}

struct LiveParam {
  std::string pool;
  const ParamSpec* spec;
};

std::vector<LiveParam> live_params(const Scenario& s) {
  std::vector<LiveParam> out;
  for (const PoolEntry& p : s.pools)
    for (const ParamSpec& spec : Registry::global().get(p.design).params)
      if (spec.live) out.push_back({p.name, &spec});
  return out;
}

std::uint64_t env_or(const char* name, std::uint64_t otherwise) {
  const char* s = std::getenv(name);
  return s && *s ? std::strtoull(s, nullptr, 10) : otherwise;
}

// Drives one run: tunes a random live parameter every 1-10 ms of wall time,
// and may stop the run at a random moment of its load. A run still going
// after `limit` hangs: its seed is printed and the process aborts, since a
// hung pool's threads cannot be taken back.
void drive(Run& run, Gen& g, std::uint64_t seed, const std::vector<LiveParam>& live, int& tunes, bool& stopped) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  const auto load = std::chrono::duration_cast<clock::duration>(run.scenario().duration() / 10);
  const auto stop_at = pick(g, 0, 3) == 0 ? start + load * pick(g, 0, 100) / 100 : clock::time_point::max();
  const auto limit = start + std::chrono::seconds(120);
  while (!run.finished()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(pick(g, 1, 10)));
    if (clock::now() > limit) {
      std::fprintf(stderr, "chaos: the run did not end in 120 s; reproduce with POOLSCOPE_CHAOS_SEED=%llu "
                   "POOLSCOPE_CHAOS_RUNS=1\n", static_cast<unsigned long long>(seed));
      std::abort();
    }
    if (!stopped && clock::now() >= stop_at) {
      run.stop();
      stopped = true;
    }
    if (live.empty()) continue;
    const LiveParam& p = live[static_cast<std::size_t>(pick(g, 0, int(live.size()) - 1))];
    const json value = random_value(g, *p.spec);
    run.with_pool(p.pool, [&](Pool& pool) {
      try {
        Registry::global().tune(pool, p.spec->name, value);
        ++tunes;
      } catch (const ConfigError&) {
        // Refused as the original refuses it (e.g. Java's core above its maximum).
      }
    });
  }
  run.wait();
}

// Validates the result files against the result schema with the checker
// the schema test uses (Debian's python3-jsonschema); its messages go to
// stderr. True if every file is valid.
bool valid_results(const std::vector<std::filesystem::path>& files) {
  if (files.empty()) return true;
  std::string cmd = std::string("/usr/bin/python3 ") + POOLSCOPE_SOURCE_DIR + "/tests/tools/validate_json.py " +
                    POOLSCOPE_SOURCE_DIR + "/docs/schemas/result.schema.json";
  for (const auto& f : files) cmd += " '" + f.string() + "'";
  return std::system(cmd.c_str()) == 0;
}

}  // namespace

TEST_CASE("random valid scenarios, tuned live and stopped mid-load, keep every design's accounting", "[chaos]") {
  const std::uint64_t base = env_or("POOLSCOPE_CHAOS_SEED", 20261124);
  const std::uint64_t runs = env_or("POOLSCOPE_CHAOS_RUNS", 8);
  const std::vector<std::string> designs = Registry::global().names();
  REQUIRE_FALSE(designs.empty());
  int tunes = 0, stops = 0;
  const std::filesystem::path results =
      std::filesystem::temp_directory_path() / ("poolscope-chaos-" + std::to_string(::getpid()));
  std::filesystem::create_directories(results);
  std::vector<std::filesystem::path> written;
  for (std::uint64_t k = 0; k < runs; ++k) {
    const std::uint64_t seed = base + k;
    Gen g(seed);
    json j = random_scenario(seed, g, designs);
    INFO("reproduce with POOLSCOPE_CHAOS_SEED=" << seed << " POOLSCOPE_CHAOS_RUNS=1; scenario: " << j.dump());
    Scenario s = parse_scenario(j, "chaos.json", ".");
    const std::size_t threads_before = live_threads();
    bool stopped = false;
    {
      Run run(s);
      run.start();
      drive(run, g, seed, live_params(s), tunes, stopped);
      stops += stopped;
      const RunOutcome& out = run.outcome();
      const bool complete = out.events_dropped == 0;
      for (const PoolOutcome& p : out.pools) {
        INFO(p.name);
        CHECK_FALSE(p.shutdown_hung);
        CHECK(p.accounting.submitted == p.accounting.settled());
        const auto* pm = run.metrics().pool(p.trace_id);
        REQUIRE(pm);
        CHECK(invariant_problem(p, pm->totals(), complete) == "");
      }
      // The result, as `poolscope run --out` writes it, named by its seed.
      written.push_back(results / ("result-" + std::to_string(seed) + ".json"));
      std::ofstream file(written.back());
      write_result(file, s, out, run.metrics(), ResultOptions{});
    }
    // Every thread the run started (pools, submitters, clients, closers, the
    // controller) has been joined.
    CHECK(live_threads() == threads_before);
  }
  // Every result matches the published schema; the files of a failure stay
  // for reading (the validator names them).
  const bool valid = valid_results(written);
  CHECK(valid);
  if (valid) std::filesystem::remove_all(results);
  // The budget exercised what it is for.
  if (runs >= 8) {
    CHECK(tunes > 0);
    CHECK(stops > 0);
  }
}
