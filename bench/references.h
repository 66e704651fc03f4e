// The references our designs are measured against, in the same binary:
//   plain   a mutex + condition variable + deque pool, the floor a simple
//           design reaches (written here, for the benchmark)
//   asio    boost::asio::thread_pool (libboost-dev), if it was found
//   tbb     oneTBB task_arena::enqueue (libtbb-dev), if it was found
// None of them is traced: they are what a C++ user would pick instead.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "bench/executor.h"
#include "pools/core/thread.h"

#ifdef POOLSCOPE_BENCH_BOOST
#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>
#endif
#ifdef POOLSCOPE_BENCH_TBB
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/task_arena.h>
#endif

namespace poolscope::bench {

// The textbook pool: N threads take tasks from one deque under one mutex.
class PlainPool final : public Executor {
 public:
  explicit PlainPool(int workers) {
    for (int i = 0; i < workers; ++i) threads_.emplace_back("plain-" + std::to_string(i), [this] { work(); });
  }
  ~PlainPool() override { shutdown(); }

  bool offer(Task task) override {
    {
      std::lock_guard lock(m_);
      tasks_.push_back(std::move(task));
    }
    cv_.notify_one();
    return true;
  }
  void shutdown() override {
    {
      std::lock_guard lock(m_);
      stop_ = true;
    }
    cv_.notify_all();
    threads_.clear();  // joins
  }

 private:
  void work() {
    std::unique_lock lock(m_);
    for (;;) {
      cv_.wait(lock, [this] { return stop_ || !tasks_.empty(); });
      if (tasks_.empty()) return;  // stopping, and nothing left
      Task t = std::move(tasks_.front());
      tasks_.pop_front();
      lock.unlock();
      t();
      lock.lock();
    }
  }

  std::mutex m_;
  std::condition_variable cv_;
  std::deque<Task> tasks_;
  bool stop_ = false;
  std::vector<Thread> threads_;  // last: joined before the rest is destroyed
};

#ifdef POOLSCOPE_BENCH_BOOST
class AsioPool final : public Executor {
 public:
  explicit AsioPool(int workers) : pool_(static_cast<std::size_t>(workers)) {}
  ~AsioPool() override { shutdown(); }
  bool offer(Task task) override {
    boost::asio::post(pool_, std::move(task));
    return true;
  }
  void shutdown() override { pool_.join(); }

 private:
  boost::asio::thread_pool pool_;
};
#endif

#ifdef POOLSCOPE_BENCH_TBB
// task_arena(N, 0): N worker slots, none reserved for the submitting thread,
// so enqueued tasks run on N TBB workers as on an N-thread pool. enqueue is
// fire-and-forget; shutdown waits for the tasks still in flight.
class TbbPool final : public Executor {
 public:
  // TBB keeps one worker per core less than the machine has unless told otherwise.
  explicit TbbPool(int workers)
      : limit_(oneapi::tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(workers) + 1),
        arena_(workers, 0) {}
  ~TbbPool() override { shutdown(); }
  bool offer(Task task) override {
    in_flight_.fetch_add(1, std::memory_order_relaxed);
    arena_.enqueue(Enqueued{this, std::move(task)});
    return true;
  }
  void shutdown() override {
    for (auto n = in_flight_.load(); n != 0; n = in_flight_.load()) in_flight_.wait(n);
  }

 private:
  // TBB calls its functor as const; a Task runs once, so it may change.
  struct Enqueued {
    TbbPool* pool;
    mutable Task task;
    void operator()() const {
      task();
      if (pool->in_flight_.fetch_sub(1, std::memory_order_acq_rel) == 1) pool->in_flight_.notify_all();
    }
  };

  oneapi::tbb::global_control limit_;
  oneapi::tbb::task_arena arena_;
  std::atomic<std::int64_t> in_flight_{0};
};
#endif

}  // namespace poolscope::bench
