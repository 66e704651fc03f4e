// workerChan (fasthttp): one worker's mailbox and the time it last went idle.
// Go's `chan net.Conn` of capacity 1 becomes a one-slot mailbox (mutex +
// CondVar); a nil (empty) task tells the worker to stop.
#pragma once

#include <mutex>

#include "pools/core/clock.h"
#include "pools/core/task.h"
#include "pools/core/thread.h"

namespace poolscope::lab02::solution {

class WorkerChan {
 public:
  explicit WorkerChan(WorkerId id) : id(id) {}

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

  const WorkerId id;
  Time lastUseTime{0};  // written by its worker before it rejoins `ready`
  Label stopped_by;     // C++: why a nil was sent (the cleaner or Stop), for the trace
  Thread thread;        // C++: goroutines need no joining

 private:
  std::mutex m_;
  CondVar cv_;
  Job slot_;
  bool full_ = false;
};

}  // namespace poolscope::lab02::solution
