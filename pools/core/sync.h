// poolscope's own mutex and yield: every lock and every spin-yield of a design
// goes through these, so that a Scheduler (scheduler.h; the simulation's
// World is one) can own them.
//
// In a real run they are std::mutex and std::this_thread::yield plus one
// thread-local read (is a Scheduler running on this thread?). Under a
// Scheduler, lock() is a scheduling point: another thread may run first, and
// a thread that finds the mutex held blocks in the Scheduler, where a
// deadlock is seen and reported instead of hanging.
//
// Design code uses Mutex with std::lock_guard / std::unique_lock as usual,
// and CondVar (clock.h) to wait on it; never std::mutex,
// std::condition_variable, std::thread or std::this_thread (the reading
// check, tests/tools/check_reading.sh, enforces it outside pools/core/).
#pragma once

#include <atomic>
#include <mutex>
#include <type_traits>

#include "pools/core/scheduler.h"

namespace poolscope {

class Mutex {
 public:
  Mutex() = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void lock() {
    if (Scheduler* s = this_thread::scheduler()) [[unlikely]]
      return scheduled_lock(*s);
    m_.lock();
  }
  bool try_lock() {
    if (Scheduler* s = this_thread::scheduler()) [[unlikely]]
      return scheduled_try_lock(*s);
    return m_.try_lock();
  }
  void unlock() {
    if (Scheduler* s = this_thread::scheduler()) [[unlikely]]
      return scheduled_unlock(*s);
    m_.unlock();
  }

 private:
  void scheduled_lock(Scheduler& s);
  bool scheduled_try_lock(Scheduler& s);
  void scheduled_unlock(Scheduler& s);
  void parallel_lock(Scheduler& s);

  std::mutex m_;
  // Under a Scheduler only: who holds it, and the threads blocked on it (one
  // thread at a time: relaxed atomics, for the checkers' sake) ...
  std::atomic<const void*> owner_{nullptr};
  WaitList waiters_;
  // ... or, under a parallel one (Scheduler::parallel), its futex word.
  std::atomic<int> state_{0};
};

// Java's ReentrantLock, std::recursive_mutex's behaviour on a Mutex: the
// thread that holds it may take it again, and releases it with as many
// unlocks. Under a Scheduler the holder is the scheduled thread.
class RecursiveMutex {
 public:
  void lock() {
    const void* me = self();
    if (owner_.load(std::memory_order_relaxed) == me) {
      ++depth_;
      return;
    }
    m_.lock();
    owner_.store(me, std::memory_order_relaxed);
    depth_ = 1;
  }
  bool try_lock() {
    const void* me = self();
    if (owner_.load(std::memory_order_relaxed) == me) {
      ++depth_;
      return true;
    }
    if (!m_.try_lock()) return false;
    owner_.store(me, std::memory_order_relaxed);
    depth_ = 1;
    return true;
  }
  void unlock() {
    if (--depth_ > 0) return;
    owner_.store(nullptr, std::memory_order_relaxed);
    m_.unlock();
  }

 private:
  static const void* self();  // the calling thread's identity
  Mutex m_;
  std::atomic<const void*> owner_{nullptr};  // read unlocked: only its own thread can find itself there
  int depth_ = 0;
};

// std::atomic's wait and notify (a futex), in a form a Scheduler owns: in a
// real run exactly those; under a Scheduler it blocks the thread on the
// atomic's address until a notify, as the kernel would.
template <class T>
void atomic_wait(const std::atomic<T>& a, std::type_identity_t<T> old,
                 std::memory_order order = std::memory_order_seq_cst) {
  if (Scheduler* s = this_thread::scheduler()) [[unlikely]] {
    while (a.load(order) == old) s->wait_on(&a, [&] { return a.load() == old; });
    return;
  }
  a.wait(old, order);
}
template <class T>
void atomic_notify_one(std::atomic<T>& a) {
  if (Scheduler* s = this_thread::scheduler()) [[unlikely]]
    return s->wake_on(&a, false);
  a.notify_one();
}
template <class T>
void atomic_notify_all(std::atomic<T>& a) {
  if (Scheduler* s = this_thread::scheduler()) [[unlikely]]
    return s->wake_on(&a, true);
  a.notify_all();
}

namespace this_thread {
// A spinning thread lets another have the CPU (std::this_thread::yield); under
// a Scheduler it is a scheduling point that costs a little CPU, so a spin
// loop cannot stop (a simulation's virtual) time.
void yield();
}  // namespace this_thread

}  // namespace poolscope
