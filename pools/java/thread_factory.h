// ThreadFactory: how the executor gets its threads. Java's newThread(r)
// returns an unstarted Thread that will run r, or null to refuse (addWorker
// then backs out). A factory names threads, sets their priority, or fails on
// purpose in tests.
//
// C++: a poolscope::Thread runs as soon as it exists, so a factory starts r
// at once; the worker's body waits for addWorker's start() before it does
// anything (see worker.h).
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>

#include "pools/core/thread.h"

namespace poolscope::java {

class ThreadFactory {
 public:
  virtual ~ThreadFactory() = default;
  virtual std::optional<Thread> newThread(std::move_only_function<void()> r) = 0;
};

// Executors.defaultThreadFactory(): threads named "pool-N-thread-M", N
// counting factories, M threads of this one. If the OS refuses a thread it
// returns null (Java's Thread.start() would throw OutOfMemoryError from
// inside addWorker instead).
class DefaultThreadFactory final : public ThreadFactory {
 public:
  DefaultThreadFactory();
  std::optional<Thread> newThread(std::move_only_function<void()> r) override;

 private:
  std::string namePrefix_;
  std::atomic<int> threadNumber_{1};
};

}  // namespace poolscope::java
