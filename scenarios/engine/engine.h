// The engine: drives each pool of a scenario with the same workload at the
// same scenario times, records everything into one trace stream, reads it
// back through the metrics, and watches for stalls.
//
// Submitters are threads of their own, so a submit that blocks (ants,
// CallerRuns) delays the arrivals behind it, as in a real program; how late
// each submission was is recorded. A watchdog reports a pool as stalled when
// no task starts or ends for the scenario's watchdog time while tasks are
// outstanding (the nested-submit deadlock), releases the tasks waiting for
// children and shuts the pool down at once, so a run always ends.
#pragma once

#include <functional>
#include <limits>
#include <system_error>
#include <memory>
#include <mutex>
#include <optional>

#include "pools/core/pool.h"
#include "pools/core/sim/machine.h"
#include "pools/core/thread.h"
#include "scenarios/engine/metrics.h"
#include "scenarios/engine/scenario.h"
#include "scenarios/engine/workload.h"

namespace poolscope::sim {
class World;
class Chooser;
}

namespace poolscope::scenario {

struct RunOptions {
  bool keep_events = false;  // keep every event (for --events)
  std::size_t trace_capacity = std::size_t{1} << 18;
  std::chrono::milliseconds poll{2};        // how often the trace is drained and the watchdog looks
  std::chrono::seconds shutdown_limit{30};  // wall time a stalled pool gets to shut down
  Limits limits;                            // checked (count_workload) before anything runs
  // A simulated run (the scenario's "simulation", or --sim): these settings
  // instead of the scenario's (explore: one seed and policy per schedule).
  std::optional<sim::Settings> simulation;
  // A simulated run for a live view: virtual time paced to the wall clock at
  // the scenario's time_scale (pause, resume, step). Unpaced, it runs as fast
  // as it can.
  bool paced = false;
  // A simulated run driven by its caller, a slice at a time (Run::advance),
  // on the caller's OS thread: no controller thread. What a web page does,
  // where there is no other thread; wait() then runs it to the end.
  bool sliced = false;
  // Being the scheduler (pools/core/sim/decision.h): every decision of the
  // simulation is this Chooser's, and its picks are kept in the outcome (the
  // schedule). Owned by the caller; it must outlive the run. A Chooser that
  // pauses needs a sliced run (advance() returns false while it waits).
  sim::Chooser* chooser = nullptr;
};

// The settings a scenario's "simulation" asks for: its machine, its policy,
// and a schedule seed derived from the scenario's seed.
sim::Settings simulation_settings(const Scenario& s);

// A pool's outstanding tasks, never wrapping: a snapshot taken while the
// pool updates its counters can show an end before its submission.
inline std::uint64_t outstanding(const Accounting& a) {
  return a.settled() >= a.submitted ? 0 : a.submitted - a.settled();
}

// The trace_id of a pool that never ran (its creation was refused a thread).
inline constexpr PoolId kNoTrace = std::numeric_limits<PoolId>::max();

struct StallReport {
  Time at{0};             // scenario time the watchdog fired
  Time last_progress{0};  // the last task start or end before it
  Counters state;         // the pool's state() at that moment
  Accounting accounting;  // and its accounting
  // "no-progress": no task started or ended for the watchdog time.
  // "overrun": tasks still outstanding long after the workload ended
  // (kOverrun below), although tasks kept starting and ending: the
  // watchdog's blind spot.
  // "parents-blocked": for the watchdog time every worker was a parent
  // waiting for its children while tasks were queued (parents_block_workers),
  // and tasks kept starting and ending elsewhere: e.g. CallerRuns, whose
  // submitter runs tasks itself while the workers wait for children queued
  // behind them. Named the watchdog time after it began, not at the overrun.
  std::string reason = "no-progress";
};

// Every worker of the pool is a parent waiting for its children while tasks
// are queued: no worker is left to take the children, unless the pool starts
// another (which is why the watchdog waits its time before naming it).
inline bool parents_block_workers(const Counters& state, std::uint32_t parents_waiting_on_workers) {
  return state.workers > 0 && parents_waiting_on_workers >= state.workers && state.queued > 0;
}

// A run ends within this of its scenario time whatever the pools do: a pool
// with tasks outstanding (or submitters still submitting) this long after
// the workload's end is reported stalled ("overrun") and shut down at once.
// The watchdog time plus ten times the workload's own length: generous
// enough for an unbounded queue to drain a long backlog, and still a bound.
inline Nanos overrun_limit(Nanos watchdog, Time workload_end) {
  return watchdog + 10 * Nanos(workload_end.count());
}

struct PoolOutcome {
  std::string name, design;
  PoolId trace_id = 0;
  json config;                         // params() at the end of the run
  Accounting accounting;               // the pool's own count, cross-checking the trace's
  std::vector<std::int64_t> lateness;  // ns, per scheduled submission: actual - scheduled
  std::uint64_t children_refused = 0;
  std::optional<StallReport> stall;
  bool shutdown_hung = false;  // even after the stall it did not shut down in time
  std::uint64_t events_dropped = 0;  // of RunOutcome::events_dropped, this pool's
  // Only in the sequential schedule, where the pool ran alone:
  std::optional<double> cpu_seconds;
  std::optional<std::uint64_t> peak_rss_bytes;
  std::optional<std::size_t> threads_created;
};

struct RunOutcome {
  std::vector<PoolOutcome> pools;  // in scenario order
  Nanos watchdog{0};               // the watchdog time used
  Time workload_end{0};            // scenario time the last phase ended (each pool's own clock)
  std::uint64_t events_recorded = 0, events_dropped = 0;
  double wall_seconds = 0, cpu_seconds = 0;
  std::uint64_t peak_rss_bytes = 0;
  std::size_t threads_created = 0;
  bool stopped = false;  // ended early by stop()
  // The system refused a thread the engine needed (a submitter, a client, a
  // closer, the controller, or a pool's own at creation): which, and why.
  // The run then ended early like stop(), and every task it did submit is
  // still accounted for.
  std::optional<std::string> thread_refused;
  bool stalled() const;

  // A simulated run: its settings and what the World did.
  struct Simulation {
    sim::Settings settings;
    std::uint64_t steps = 0, switches = 0, threads = 0;
    Time virtual_end{0};                // virtual time when the run ended
    Nanos cpu{0};                       // virtual CPU held by tasks and costs
    std::optional<std::string> failure; // the simulation could not go on (a livelock, a deadlock of the run itself)
    std::vector<std::string> leaked;    // threads alive when the run ended
    // With a Chooser (RunOptions::chooser): the thread picked at each
    // decision, by id, which replays the run with the same settings.
    std::optional<std::vector<std::uint64_t>> schedule;
  };
  std::optional<Simulation> simulation;
};

class Run {
 public:
  explicit Run(Scenario scenario, RunOptions options = {});
  ~Run();  // stops the run if it is still going
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  void start();
  void wait();
  bool finished() const;
  // A sliced run (RunOptions::sliced): runs at most `max_switches` switches
  // of the simulation on this thread; true once the run has finished.
  bool advance(std::uint64_t max_switches);
  // A sliced run that is also paced: its last slice ended because virtual
  // time is ahead of the wall clock at its speed, or it is paused; the next
  // slice may go on once the wall clock has caught up.
  bool held() const;
  // Ends the run early: no more submissions, tasks waiting for children are
  // released, pools are shut down at once.
  void stop();

  // Live control and views, for the GUI.
  void pause();
  void resume();
  bool paused() const;
  // A paced simulated run, paused: move virtual time on to the next thing due.
  void step();
  bool simulated() const { return simulated_; }
  bool sliced() const { return simulated_ && options_.sliced; }
  void set_time_scale(double scale);
  double time_scale() const;
  Time now() const;         // scenario time of the running segment
  double progress() const;  // 0..1 of the scenario's timeline (all segments)
  const Scenario& scenario() const { return scenario_; }
  const Workload& workload() const { return workload_; }
  Nanos watchdog() const { return watchdog_; }
  // Runs f on the metrics under their lock (the engine adds to them meanwhile).
  template <class F>
  auto with_metrics(F&& f) const {
    std::lock_guard g(metrics_m_);
    return f(metrics_);
  }
  // Runs f on the named pool if it is running now (live tuning); false if not.
  bool with_pool(std::string_view name, const std::function<void(Pool&)>& f);
  // Trace events dropped so far (the consumer fell behind; never in a
  // simulation), per pool that has dropped any, by name; any thread, any time.
  std::vector<std::pair<std::string, std::uint64_t>> events_dropped() const;

  // After wait():
  const RunOutcome& outcome() const { return outcome_; }
  const metrics::RunMetrics& metrics() const { return metrics_; }

 private:
  struct Driver;
  struct Segment;
  void control();  // the controller thread
  // Records the first refused thread and ends the run early.
  void note_thread_refused(const std::string& which, const std::system_error& e);
  // The wall clock for the engine's own limits (stall release, shutdown
  // limit): virtual time in a simulation.
  Nanos elapsed() const;
  // One segment (engine_segment.cpp) and its phases.
  void run_segment(const std::vector<std::size_t>& pools);
  void create_pools(Segment& seg, const std::vector<std::size_t>& pools);
  void start_drivers(Segment& seg);
  void monitor(Segment& seg);
  bool watch(const Segment& seg, Driver& d, Time now);  // true: its shutdown hung
  void report_stall(Driver& d, Time now, Time last_progress, const char* reason);
  bool close_pools(Segment& seg, Time now, bool stop, bool hung, bool& draining);  // true: all closed
  void collect(Segment& seg, const std::vector<std::size_t>& pools);
  void drain_trace(std::vector<Event>& batch);
  bool segment_paused(const Segment& seg) const;
  // A simulated run (engine_simulation.cpp): control() inside a World,
  // begun, advanced in slices (by the controller thread, or by the caller
  // when sliced), then ended.
  struct Simulation;
  void begin_simulation();
  bool advance_simulation(std::uint64_t max_switches);
  void end_simulation();
  void drain_simulated();

  Scenario scenario_;
  RunOptions options_;
  Workload workload_;
  Nanos watchdog_;
  TraceStream stream_;
  mutable std::mutex metrics_m_;
  metrics::RunMetrics metrics_;
  RunOutcome outcome_;

  const bool simulated_;
  std::unique_ptr<class Pacer> pacer_;        // a paced simulation's
  std::unique_ptr<Simulation> sim_;           // a simulation's World and what it reports
  std::atomic<sim::World*> world_{nullptr};   // the World, while it runs
  std::chrono::steady_clock::time_point started_wall_;
  mutable std::mutex m_;                    // guards the fields below
  std::shared_ptr<Clock> clock_;            // the running segment's (an AdjustableClock when real)
  std::vector<Driver*> live_;
  double scale_;
  bool paused_ = false;
  bool stop_requested_ = false;
  Time done_before_{0};  // scenario time of the segments already finished (sequential)
  std::atomic<bool> finished_{false};
  std::unique_ptr<Thread> controller_;
};

// Runs `scenario` to the end and returns its outcome and metrics.
struct RunResult {
  RunOutcome outcome;
  metrics::RunMetrics metrics;
};
RunResult run_scenario(const Scenario& scenario, const RunOptions& options = {});

}  // namespace poolscope::scenario
