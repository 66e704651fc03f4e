// The lab kit: what every lab check uses. A check is a Catch2 test case
// declared with LAB_CHECK, which also records the hint a student sees when it
// fails. Checks are black-box: they build the pool under test by its
// registered name, drive it through the Pool interface, and watch its trace,
// so they grade a reference solution, a student's copy of a starter and any
// other pool that takes the lab's parameters alike.
//
// The pool under test for lab NN is, in order: $POOLSCOPE_LAB_POOL; the lab's
// reference solution if this binary has it; else the one pool registered under
// a name starting "labNN-" (the student's copy, in a starter's own binary).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "pools/core/registry.h"
#include "tests/support/sync.h"

namespace poolscope::lab {

// How long a check waits for something a correct pool does at once (an event
// after a clock advance, a timed wait): long enough for a loaded machine
// under a sanitizer, short enough that a starter fails its checks quickly.
inline constexpr std::chrono::seconds kExpectLimit{5};

// How many rounds a stress check ([stress]: several submitter threads on the
// real clock, racing on purpose) runs: $POOLSCOPE_LAB_REPEAT, default 3
// (`scripts/lab NN --repeat N`, `--stress`). Each round is bounded in time
// and never fails a correct pool; more rounds make a race likelier to show.
int stress_rounds();

// Runs `body(submitter)` on `n` threads released together (a latch), joins them.
void race(int n, const std::function<void(int)>& body);

// Runs `run` once per schedule of a deterministic simulation (pools/core/sim,
// docs/simulation.md): threads become fibers switched only at poolscope's
// primitives, on virtual time, in an order the seed decides (even schedules
// uniform random, odd ones PCT, as `poolscope explore`). Nothing costs time,
// so what a check times together happens at one instant, in every order the
// schedules try. `run` returns what went wrong, or "". Returns the first
// failure, named by schedule and seed (a deadlock or livelock of the
// simulation counts), or "" if every schedule passed. Deterministic: the
// same schedules every time, so a race a schedule shows is caught every time.
std::string explore_schedules(int schedules, const std::function<std::string()>& run);

// A burst of racing submitters, for explore_schedules' `run`: builds
// `design` with `config` (traced), gives its threads 1 ms to reach their
// waits, then starts `submitters` threads at one instant, each submitting
// `each` tasks `gap` apart; a task holds its worker for `hold`. Once every
// submitter is done, waits `settle` (a correct pool has run every task by
// then), then shuts the pool down gracefully.
struct SimBurst {
  int submitters = 6, each = 2;
  std::chrono::nanoseconds gap{0}, hold{0}, settle{0};
};
struct SimBurstResult {
  int accepted = 0;
  int ran_before_shutdown = 0;  // tasks that had ended when `settle` was over
  int ran = 0;                  // ... and after the graceful shutdown
  std::vector<Event> events;    // the pool's trace
};
SimBurstResult sim_burst(const std::string& design, const json& config, const SimBurst& burst);

// How long a check's pool may take to shut down at the end of the check
// (Rig's destructor) before the kit reports it stuck and ends the process
// with kStuckExitCode.
inline constexpr std::chrono::seconds kShutdownLimit{10};
inline constexpr int kStuckExitCode = 86;

// Waits up to kExpectLimit for the next event matching `pred`; false if none.
bool expect_event(TraceLog& log, const TraceLog::Pred& pred);
// Waits up to kExpectLimit until `n` events in the log match `pred`.
bool expect_count(TraceLog& log, const TraceLog::Pred& pred, std::size_t n);

// Remembers `hint` for the check named `name` (LAB_CHECK does this).
struct HintRegistrar {
  HintRegistrar(std::string_view name, std::string_view hint);
};
// The hint recorded for a check or a conformance test, or "".
std::string_view hint_for(std::string_view check_name);

// The name of the pool under test for lab `lab` ("01"), whose reference
// solution is `solution` ("lab01-fixed").
std::string pool_under_test(std::string_view lab, std::string_view solution);

// A pool under test on a manual clock, with its trace drained into a log.
struct Rig {
  // On the manual clock `clock`, or (real_clock) on `steady`, the real one,
  // for the stress checks.
  explicit Rig(std::string design, json config = json::object(), bool real_clock = false);
  ~Rig();
  PoolId id() const { return pool->trace().id(); }
  // Submits a no-op task and says whether the pool answered `closed`: how a
  // check learns, through the Pool contract alone, that shutdown has begun.
  // Probes the pool accepted are counted in `probes_accepted`.
  bool says_closed();
  int probes_accepted = 0;
  // Waits until the pool's state() matches the counters of its last event.
  void settle();

  std::string design;
  ManualClock clock;
  SteadyClock steady;
  TraceStream stream{std::size_t{1} << 16};
  TraceLog log{stream};
  std::unique_ptr<Pool> pool;
};

// A gate that opens when it goes out of scope: declared after the Rig, it
// lets a failed check's gated tasks end before the Rig shuts the pool down.
struct ScopedGate : test::Gate {
  ~ScopedGate() { open(); }
};

// Counters as a student reads them in a failed check: "workers 3, busy 1,
// queued 0, blocked 0".
std::string show(const Counters& c);

// The label code of a refusal or event rule ("" for none).
inline std::string code(Label l) { return std::string(label_code(l)); }

}  // namespace poolscope::lab

#define POOLSCOPE_LAB_CONCAT_(a, b) a##b
#define POOLSCOPE_LAB_CONCAT(a, b) POOLSCOPE_LAB_CONCAT_(a, b)

// LAB_CHECK("[lab01]", "01.3 the queue is bounded", "hint ...") { body }
// Tags: the lab's tag, plus "[starter-fails]" on the checks the starter is
// meant to fail (CI proves it does, and that nothing else fails).
#define LAB_CHECK(tags, name, hint)                                                                   \
  static const ::poolscope::lab::HintRegistrar POOLSCOPE_LAB_CONCAT(lab_hint_, __LINE__){name, hint}; \
  TEST_CASE(name, tags)
