// Golden figures (issue 18 §4): what the original libraries do, measured on
// them or derived from their code, and poolscope's design run the same way,
// twice: in real time (a scaled clock keeps each run to a few seconds; the
// rules only compare instants on that one clock, so scaling keeps them
// intact) and in a simulation (virtual time: exact, and the same every run). Each
// figure has its tolerance: workers ±1, refusals ±2, reap times ±150 ms,
// completion ±25 %. A failure prints the figure, the expectation and its
// source. docs/fidelity.md lists every figure and its last result.
#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "pools/ants/pool.h"
#include "pools/core/clock.h"
#include "pools/core/sim/world.h"
#include "pools/core/thread.h"
#include "pools/core/trace_log.h"
#include "pools/gammazero/workerpool.h"

using namespace std::chrono_literals;
using namespace poolscope;

namespace {

constexpr Nanos kReapTolerance = 150ms;

// Under a sanitizer a thread starts ten times slower: the scenarios run
// closer to real time there, so starting 50 workers still fits in the first
// 500 ms of the scenario as it does on real ants.
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

// Groups the events of `kind` into bursts (events closer than the tolerance
// to the burst's first), as (time of the first, count).
std::vector<std::pair<Nanos, int>> bursts(TraceLog& log, EventKind kind) {
  log.sync();
  std::vector<std::pair<Nanos, int>> out;
  for (const Event& e : log.events()) {
    if (e.kind != kind) continue;
    const Nanos t(e.time);
    if (!out.empty() && t - out.back().first < kReapTolerance)
      ++out.back().second;
    else
      out.emplace_back(t, 1);
  }
  return out;
}

std::string show(const std::vector<std::pair<Nanos, int>>& b) {
  std::ostringstream s;
  for (const auto& [t, n] : b) s << n << " at " << static_cast<double>(t.count()) / 1e9 << " s; ";
  return s.str();
}

// Every burst within ±150 ms of its expected time, with the expected count ±1.
void check_reaps(const std::string& figure, const std::string& source,
                 const std::vector<std::pair<Nanos, int>>& expected, const std::vector<std::pair<Nanos, int>>& got) {
  INFO("figure: " << figure);
  INFO("source: " << source);
  INFO("expected: " << show(expected) << " (times ±150 ms, counts ±1)");
  INFO("poolscope: " << show(got));
  REQUIRE(got.size() == expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    CHECK(std::abs((got[i].first - expected[i].first).count()) <= kReapTolerance.count());
    CHECK(std::abs(got[i].second - expected[i].second) <= 1);
  }
}

// --- the figures, each run on a clock it is given -----------------------------

void ants_bursts(Clock& clock, TraceStream& stream) {
  auto made = ants::new_pool(50, {.ExpiryDuration = 1s}, {.clock = &clock, .stream = &stream, .name = "ants"});
  REQUIRE(made);
  ants::Pool& p = **made;
  for (const Nanos t0 : {0s, 3s, 6s, 9s}) {
    clock.sleep_until(t0);
    for (int i = 0; i < 100; ++i) REQUIRE_FALSE(p.submit([&] { clock.sleep_for(50ms); }));
  }
  clock.sleep_until(11s);
}
const char* const kAntsFigure = "ants purge cadence, bursts (issue 18 §1)";
const char* const kAntsSource = "real ants 76ddb18, three runs: all 50 workers gone at 1.01, 4.01, 7.01, 10.01 s";
const std::vector<std::pair<Nanos, int>> kAntsExpected{{1s, 50}, {4s, 50}, {7s, 50}, {10s, 50}};

// Four tasks at 0 start four workers (each finds the others busy), then the
// pool is idle.
void gammazero_staircase(Clock& clock, TraceStream& stream) {
  gammazero::WorkerPool wp(4, {}, {.clock = &clock, .stream = &stream, .name = "gammazero"});
  for (int i = 0; i < 4; ++i) REQUIRE_FALSE(wp.submit([&] { clock.sleep_for(100ms); }));
  clock.sleep_until(11s);
  wp.stop();
}
const char* const kGammazeroFigure = "gammazero idle staircase";
const char* const kGammazeroSource =
    "derived from gammazero/workerpool 22a7e8d dispatch(): the idle timer ticks every idleTimeout (2 s) "
    "from New; a tick stops one worker if no task came since the tick before";
const std::vector<std::pair<Nanos, int>> kGammazeroExpected{{4s, 1}, {6s, 1}, {8s, 1}, {10s, 1}};

// A figure in a simulation: virtual time, so exact and the same every run,
// on the default machine (2 CPUs, os-threads costs).
template <class Figure>
void simulated(Figure figure, TraceStream& stream) {
  sim::World world;
  world.run([&] { figure(world.clock(), stream); });
  REQUIRE(world.leaked().empty());
}

}  // namespace

TEST_CASE("fidelity ants: 100 tasks of 50 ms at t = 0, 3, 6, 9 s on 50 workers are reaped at 1, 4, 7, 10 s") {
  TraceStream stream{std::size_t{1} << 16};
  TraceLog log{stream};
  SECTION("real time") {
    SteadyClock clock(kSanitized ? 1.0 : 3.0);  // 12 s of the scenario in 4 s (12 s sanitized)
    ants_bursts(clock, stream);
  }
  SECTION("simulation") { simulated(ants_bursts, stream); }
  check_reaps(kAntsFigure, kAntsSource, kAntsExpected, bursts(log, EventKind::worker_reaped));
}

TEST_CASE("fidelity gammazero: idle workers stop one per idle timeout, from the second tick after the last task") {
  TraceStream stream{std::size_t{1} << 16};
  TraceLog log{stream};
  SECTION("real time") {
    SteadyClock clock(kSanitized ? 2.0 : 5.0);  // 11 s of the scenario in 2.2 s (5.5 s sanitized)
    gammazero_staircase(clock, stream);
  }
  SECTION("simulation") { simulated(gammazero_staircase, stream); }
  check_reaps(kGammazeroFigure, kGammazeroSource, kGammazeroExpected, bursts(log, EventKind::worker_exited));
}
