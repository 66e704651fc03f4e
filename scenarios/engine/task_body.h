// What a scenario task does when a pool runs it: sleep (I/O-bound) or burn
// CPU (CPU-bound) for its duration, submit its children to the same pool and
// maybe wait for them, and maybe throw. Built from a TaskInstance of the
// workload; the pool sees only a poolscope::Task.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "pools/core/pool.h"
#include "scenarios/engine/workload.h"

namespace poolscope::scenario {

class Countdown;

// Lets the engine release every task waiting for its children when a run is
// stopped or stalls (the nested-submit deadlock), so shutdown can finish.
class CancelScope {
 public:
  void cancel();
  bool cancelled() const { return cancelled_.load(std::memory_order_acquire); }

 private:
  friend class Countdown;
  bool enter(Countdown* c);
  void leave(Countdown* c);
  Mutex m_;
  std::vector<Countdown*> waiting_;  // in the order they began to wait: a simulation wakes them in that order
  std::atomic<bool> cancelled_{false};
};

// Counts tasks still to end; wait() returns at zero or on cancel.
class Countdown {
 public:
  explicit Countdown(int n) : n_(n) {}
  void count_down();
  // Returns true if everything ended, false if cancelled first.
  bool wait(CancelScope& scope);

 private:
  friend class CancelScope;
  void wake();
  Mutex m_;
  CondVar cv_;
  int n_;
};

// Everything the tasks of one pool in one run share.
struct TaskContext {
  Pool* pool = nullptr;
  Clock* clock = nullptr;
  // Spin tasks burn duration / time_scale of CPU time. Written by
  // Run::set_time_scale (the GUI's slider) while task threads read it.
  std::atomic<double> time_scale{1};
  CancelScope cancel;
  std::atomic<std::uint64_t> children_refused{0};
  // Parents waiting for their children on the pool's own threads (not on an
  // engine thread that ran them itself, as with CallerRuns): when they are
  // as many as the pool's workers while tasks are queued, no worker is left
  // to run those children (the watchdog's "parents-blocked").
  std::atomic<std::uint32_t> parents_waiting_on_workers{0};
};

// Marks the calling thread as one of the engine's (a submitter, a client):
// a task it runs itself inside submit (CallerRuns) is not on a pool worker.
void mark_engine_thread();

// The task to submit for `t`. It keeps `t` alive (and its children's tasks
// keep it too, through aliasing pointers): the workload is streamed, so no
// list outlives the run's tasks for them. `done`, if given, is counted down
// exactly once: when the task ends (normally or by throwing), or if the pool
// destroys it without running it (refused, dropped).
Task make_runnable(std::shared_ptr<const TaskInstance> t, TaskContext& ctx, std::shared_ptr<Countdown> done = nullptr);

// pool.submit, as every submitter of a run calls it. In a simulation the
// call's own code costs the submitter Costs::submit of CPU first.
SubmitResult submit_task(Pool& pool, Task task, const SubmitOptions& options);

// Burns `cpu` of this thread's CPU time (in a simulation: holds a virtual
// CPU that long).
void spin_for(Nanos cpu);

}  // namespace poolscope::scenario
