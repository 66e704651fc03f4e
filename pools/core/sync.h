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

#include <mutex>

namespace poolscope {

namespace sim {
class World;
namespace detail {
inline thread_local World* t_active = nullptr;
}
// The simulation running on this OS thread, or nullptr in a real run.
inline World* active() noexcept { return detail::t_active; }
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
  void* sim_owner_ = nullptr;
  void* sim_waiters_ = nullptr;
};

namespace this_thread {
// A spinning thread lets another have the CPU (std::this_thread::yield); in a
// simulation it is a scheduling point that costs a little virtual CPU, so a
// spin loop cannot stop virtual time.
void yield();
}  // namespace this_thread

}  // namespace poolscope
