// ThreadGroup: what `go f()` and a sync.WaitGroup give a Go pool, for OS
// threads. A goroutine that returns is gone; a C++ thread must be joined, and
// a pool that joins only at shutdown keeps every exited worker's thread (its
// stack, its kernel task) until then. So, as folly's ThreadPoolExecutor does
// (joinStoppedThreads), a thread's last act is to put itself on the group's
// finished list, and the group joins those on the next go() or when asked.
// A group whose go() is called on a submitter's path (gopool starts a worker
// inside the caller's CtxGo, where Go's `go` costs the caller about a
// microsecond) can leave the joins to the threads instead: each joins, as it
// finishes, those that finished before it, and go() joins none.
#pragma once

#include <cstddef>
#include <functional>
#include <list>
#include <mutex>
#include <string>
#include <vector>

#include "pools/core/clock.h"
#include "pools/core/sync.h"
#include "pools/core/thread.h"

namespace poolscope::go {

class ThreadGroup {
 public:
  // Who joins a finished thread (besides join_finished() and wait()).
  enum class Joins {
    in_go,         // the next go(): its caller pays for the joins
    in_finishing,  // the next thread to finish: go() pays for none
  };
  explicit ThreadGroup(Joins joins = Joins::in_go) : joins_(joins) {}
  ThreadGroup(const ThreadGroup&) = delete;
  ThreadGroup& operator=(const ThreadGroup&) = delete;
  ~ThreadGroup() { wait(); }

  // go f(): runs `body` on a new thread named `name`, after joining the
  // threads that have finished (Joins::in_go). Throws std::system_error if the OS refuses
  // the thread (a goroutine cannot fail to start; a thread can).
  void go(std::string name, std::move_only_function<void()> body);

  // Joins every thread whose body has returned. Safe beside wait() and
  // other callers: each thread is claimed, and joined, by exactly one.
  void join_finished();
  // wg.Wait(): joins every thread of the group, those another caller is
  // joining included, and those started while it waits.
  void wait();

  // Threads started and not yet joined.
  std::size_t size() const;

 private:
  struct Started {
    Thread thread;
    bool claimed = false;  // a join_finished() or wait() is joining it
    bool joined = false;   // joined, about to be erased
  };
  using Entry = std::list<Started>::iterator;

  // Under m_: marks the unclaimed entries of `from` claimed and returns them.
  std::vector<Entry> claim(const std::vector<Entry>& from);
  // Joins the claimed entries, then forgets them.
  void join_and_erase(const std::vector<Entry>& mine);

  const Joins joins_;
  mutable Mutex m_;
  std::list<Started> threads_;  // started, not yet joined
  std::vector<Entry> done_;     // of those, the ones whose body returned
  std::size_t claimed_ = 0;     // entries of threads_ being joined
  CondVar all_joined_;          // claimed_ dropped to 0
};

}  // namespace poolscope::go
