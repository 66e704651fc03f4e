// A task that stops its own pool. Pool::shutdown() waits for every thread
// the pool started; called by one of the pool's own tasks, that includes
// the caller's thread, and the designs waited for themselves for ever. The
// originals mostly do not: ants' Release, fasthttp's Stop, Java's
// shutdown and shutdownNow only start the stop and return (gammazero's
// StopWait does wait for itself, forever; docs/reliability.md has the table).
//
// Every pool the registry makes is wrapped in a SelfStoppable. Called from
// inside one of the pool's tasks (PoolTrace::runs_task_here), its shutdown()
// hands the stop to a thread of its own and returns at once, as the
// non-blocking originals do; the pool stops accepting as soon as that thread
// has begun. The owner's shutdown(), or the destructor, waits for that stop.
// Everything else is passed straight through.
#pragma once

#include <atomic>
#include <memory>

#include "pools/core/pool.h"
#include "pools/core/sync.h"
#include "pools/core/thread.h"

namespace poolscope {

class SelfStoppable final : public Pool {
 public:
  explicit SelfStoppable(std::unique_ptr<Pool> pool) : pool_(std::move(pool)) {}
  ~SelfStoppable() override;

  std::string_view design() const override { return pool_->design(); }
  SubmitResult submit(Task task, const SubmitOptions& options) override {
    return pool_->submit(std::move(task), options);
  }
  // From one of the pool's own tasks: starts the stop on the thread
  // "self-stop" and returns (if the OS refuses that thread, the
  // std::system_error reaches the task). Anywhere else: the pool's own
  // shutdown, then waits for a stop a task started.
  void shutdown(ShutdownMode mode) override;
  Counters state() const override { return pool_->state(); }
  json params() const override { return pool_->params(); }
  void set_param(std::string_view name, const ParamValue& value) override { pool_->set_param(name, value); }
  const PoolTrace& trace() const override { return pool_->trace(); }

 private:
  void join_stopper();

  std::unique_ptr<Pool> pool_;
  // Set once a task has started a stop, so that an ordinary shutdown takes
  // no lock (in a simulation, a lock is a scheduling point: the schedules of
  // every run would move).
  std::atomic<bool> self_stopped_{false};
  Mutex m_;
  Thread stopper_;  // guarded by m_
};

}  // namespace poolscope
