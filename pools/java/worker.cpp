#include "pools/java/worker.h"

namespace poolscope::java {

ThreadPoolExecutor::Worker::Worker(ThreadPoolExecutor& pool, WorkerId id) : id(id), pool_(pool) {
  // Last, once every member the new thread may touch is initialized.
  thread = pool.get_thread_factory()->newThread([this] { run(); });
}

void ThreadPoolExecutor::Worker::run() {
  atomic_wait(lifecycle_, kNew);
  if (lifecycle_.load() == kStarted) {
    try {
      pool_.runWorker(*this);
    } catch (...) {
      // C++: what escapes runWorker (a throwing terminated() hook) would
      // reach Java's UncaughtExceptionHandler; a C++ thread would terminate.
    }
  }
  set_current_interrupt(nullptr);
}

void ThreadPoolExecutor::Worker::start() {
  lifecycle_.store(kStarted);
  atomic_notify_one(lifecycle_);
}

void ThreadPoolExecutor::Worker::abandon() {
  lifecycle_.store(kAbandoned);
  atomic_notify_one(lifecycle_);
}

void ThreadPoolExecutor::Worker::lock() {
  for (int expected = 0; !state.compare_exchange_weak(expected, 1, std::memory_order_acquire); expected = 0)
    if (expected != 0) atomic_wait(state, expected);
}

bool ThreadPoolExecutor::Worker::tryLock() {
  int expected = 0;
  return state.compare_exchange_strong(expected, 1, std::memory_order_acquire);
}

void ThreadPoolExecutor::Worker::unlock() {
  state.store(0, std::memory_order_release);
  atomic_notify_one(state);
}

void ThreadPoolExecutor::Worker::interrupt() {
  interruptStatus.set();
  pool_.workQueue->wake_takers();
}

void ThreadPoolExecutor::Worker::interruptIfStarted() {
  if (state.load() >= 0 && !isInterrupted()) interrupt();
}

}  // namespace poolscope::java
