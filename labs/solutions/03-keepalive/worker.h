// worker (seed 001, §6): a goroutine the pool keeps. It waits on its own
// chan for a task, runs it, then keeps taking tasks from the task queue;
// when that is empty it puts itself back into the pool's idle `workers` and
// waits on its chan again. Lab 03: the wait is timed by keepAliveTime while
// the worker may time out (beyond coreSize, or allowCoreThreadTimeOut), and a
// worker whose wait times out leaves the pool.
#pragma once

#include <atomic>
#include <mutex>

#include "pools/core/clock.h"
#include "pools/core/task.h"
#include "pools/core/thread.h"

namespace poolscope::lab03::solution {

class Pool;

// Go's `chan func()`, as a one-slot mailbox (mutex + condition). Only an
// idle worker is sent a task, so its slot is always free and send never
// waits. A nil task tells the worker to stop.
class TaskChan {
 public:
  void send(Job task) {
    {
      std::lock_guard g(m_);
      slot_ = std::move(task);
      full_ = true;
    }
    cv_.notify_one();
  }
  Job receive() {
    std::unique_lock g(m_);
    cv_.wait(g, [&] { return full_; });
    full_ = false;
    return std::move(slot_);
  }
  // Go: select { case t := <-ch: ...; case <-time.After(d): ... }. False if
  // `deadline` passed with nothing sent.
  bool receive_until(Clock& clock, Time deadline, Job& task) {
    std::unique_lock g(m_);
    if (!cv_.wait_until(g, clock, deadline, [&] { return full_; })) return false;
    full_ = false;
    task = std::move(slot_);
    return true;
  }

 private:
  std::mutex m_;
  CondVar cv_;
  Job slot_;
  bool full_ = false;
};

class Worker {
 public:
  enum Status : int { kRunning, kStopped };

  Worker(Pool& p, WorkerId id) : p(p), id(id) {}
  // Go: `go func() { ... }()`: starts the worker's goroutine, a thread here.
  // Throws std::system_error if the OS refuses.
  void run();

  Pool& p;
  TaskChan task;
  std::atomic<int> status{kRunning};
  const WorkerId id;

 private:
  void loop();    // the goroutine
  Job getTask();  // the next queued task; or back to idle (or stopped) and nil
  // Waits on the chan for the next task, or times out and leaves the pool
  // (returns false, with `why` the rule).
  bool waitTask(Job& t, Label& why);
  Time lastUse{0};  // when it last went idle (under the pool's lock)
  Thread thread_;   // C++: joined by Pool::join (goroutines need no joining)
  friend class Pool;
};

}  // namespace poolscope::lab03::solution
