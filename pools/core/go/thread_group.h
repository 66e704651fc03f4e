// ThreadGroup: what `go f()` and a sync.WaitGroup give a Go pool, for OS
// threads. A goroutine that returns is gone; a C++ thread must be joined, and
// a pool that joins only at shutdown keeps every exited worker's thread (its
// stack, its kernel task) until then. So, as folly's ThreadPoolExecutor does
// (joinStoppedThreads), a thread's last act is to put itself on the group's
// finished list, and the group joins those on the next go() or when asked.
#pragma once

#include <cstddef>
#include <functional>
#include <list>
#include <mutex>
#include <string>
#include <vector>

#include "pools/core/sync.h"
#include "pools/core/thread.h"

namespace poolscope::go {

class ThreadGroup {
 public:
  ThreadGroup() = default;
  ThreadGroup(const ThreadGroup&) = delete;
  ThreadGroup& operator=(const ThreadGroup&) = delete;
  ~ThreadGroup() { wait(); }

  // go f(): runs `body` on a new thread named `name`, after joining the
  // threads that have finished. Throws std::system_error if the OS refuses
  // the thread (a goroutine cannot fail to start; a thread can).
  void go(std::string name, std::move_only_function<void()> body);

  // Joins every thread whose body has returned.
  void join_finished();
  // wg.Wait(): joins every thread of the group. Call it once nothing will
  // call go() any more (or again after the last one did).
  void wait();

  // Threads started and not yet joined.
  std::size_t size() const;

 private:
  mutable Mutex m_;
  std::list<Thread> threads_;                      // started, not yet joined
  std::vector<std::list<Thread>::iterator> done_;  // of those, the ones whose body returned
};

}  // namespace poolscope::go
