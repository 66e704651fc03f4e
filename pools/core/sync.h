// poolscope's own mutex and yield: every lock and every spin-yield of a design
// goes through these, so that a simulation (pools/core/sim/) can own them.
//
// In a real run they are std::mutex and std::this_thread::yield plus one
// thread-local read (is a simulation running on this thread?). Inside a
// simulated run, lock() is a scheduling point: the simulator may run another
// thread first, and a thread that finds the mutex held blocks in the
// simulator, where a deadlock is seen and reported instead of hanging.
//
// Design code uses Mutex with std::lock_guard / std::unique_lock as usual,
// and CondVar (clock.h) to wait on it; never std::mutex,
// std::condition_variable, std::thread or std::this_thread (the reading
// check, tests/tools/check_reading.sh, enforces it outside pools/core/).
#pragma once

#include <atomic>
#include <mutex>
#include <type_traits>

#include "pools/core/sim/wait_list.h"

namespace poolscope {

namespace sim {
class World;
namespace detail {
inline thread_local World* t_active = nullptr;
}
// The simulation running on this OS thread, or nullptr in a real run.
inline World* active() noexcept { return detail::t_active; }

void* local(World* w, const void* key, void* (*make)(), void (*destroy)(void*));

// A thread_local that follows the simulated thread: under a running World
// each simulated thread has its own T (they all share one OS thread), else
// the OS thread's own. `Tag` names the variable. For the few per-thread
// values of poolscope (a thread's interrupt status, ...).
template <class T, class Tag>
T& thread_value() {
  if (World* w = active()) [[unlikely]] {
    static const char key = 0;
    return *static_cast<T*>(local(w, &key, [] { return static_cast<void*>(new T()); },
                                  [](void* p) { delete static_cast<T*>(p); }));
  }
  thread_local T value{};
  return value;
}
}  // namespace sim

class Mutex {
 public:
  Mutex() = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void lock() {
    if (sim::active()) [[unlikely]]
      return sim_lock();
    m_.lock();
  }
  bool try_lock() {
    if (sim::active()) [[unlikely]]
      return sim_try_lock();
    return m_.try_lock();
  }
  void unlock() {
    if (sim::active()) [[unlikely]]
      return sim_unlock();
    m_.unlock();
  }

 private:
  void sim_lock();
  bool sim_try_lock();
  void sim_unlock();

  std::mutex m_;
  // Simulated runs only: who holds it, and the threads blocked on it.
  const void* sim_owner_ = nullptr;
  sim::WaitList sim_waiters_;
};

// Java's ReentrantLock, std::recursive_mutex's behaviour on a Mutex: the
// thread that holds it may take it again, and releases it with as many
// unlocks. Inside a simulation the holder is the simulated thread.
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

namespace sim {
// The simulated side of atomic_wait / atomic_notify: a futex of the World's.
void wait_on(const void* address, bool (*unchanged)(const void*, const void*), const void* old);
void wake_on(const void* address, bool all);
}  // namespace sim

// std::atomic's wait and notify (a futex), in a form the simulation owns: in
// a real run exactly those; in a simulation the World blocks the thread on the
// atomic's address until a notify, as the kernel would.
template <class T>
void atomic_wait(const std::atomic<T>& a, std::type_identity_t<T> old,
                 std::memory_order order = std::memory_order_seq_cst) {
  if (sim::active()) [[unlikely]] {
    while (a.load(order) == old)
      sim::wait_on(&a, [](const void* p, const void* o) {
        return static_cast<const std::atomic<T>*>(p)->load() == *static_cast<const T*>(o);
      }, &old);
    return;
  }
  a.wait(old, order);
}
template <class T>
void atomic_notify_one(std::atomic<T>& a) {
  if (sim::active()) [[unlikely]]
    return sim::wake_on(&a, false);
  a.notify_one();
}
template <class T>
void atomic_notify_all(std::atomic<T>& a) {
  if (sim::active()) [[unlikely]]
    return sim::wake_on(&a, true);
  a.notify_all();
}

namespace this_thread {
// A spinning thread lets another have the CPU (std::this_thread::yield); in a
// simulation it is a scheduling point that costs a little virtual CPU, so a
// spin loop cannot stop virtual time.
void yield();
}  // namespace this_thread

}  // namespace poolscope
