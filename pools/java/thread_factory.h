// ThreadFactory: how the executor gets its threads. Java's newThread(r)
// returns an unstarted Thread that will run r, or null to refuse (addWorker
// then backs out). A factory names threads, sets their priority, or fails on
// purpose in tests.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>

namespace poolscope::java {

// C++: Java's Thread before start(): its name and what it will run. Our
// Thread (pools/core/thread.h) runs as soon as it exists, so a factory
// cannot make one; the pool starts it in its thread group (a
// go::ThreadGroup: ThreadPoolExecutor::threads_).
struct UnstartedThread {
  std::string name;
  std::move_only_function<void()> run;
};

class ThreadFactory {
 public:
  virtual ~ThreadFactory() = default;
  virtual std::optional<UnstartedThread> newThread(std::move_only_function<void()> r) = 0;
};

// Executors.defaultThreadFactory(): threads named "pool-N-thread-M", N
// counting factories, M threads of this one.
class DefaultThreadFactory final : public ThreadFactory {
 public:
  DefaultThreadFactory();
  std::optional<UnstartedThread> newThread(std::move_only_function<void()> r) override;

 private:
  std::string namePrefix;
  std::atomic<int> threadNumber{1};
};

}  // namespace poolscope::java
