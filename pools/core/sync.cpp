// The simulated side of poolscope's primitives (sync.h's Mutex and yield,
// clock.h's CondVar): what they do when a sim::World runs on this thread.
#include "pools/core/sync.h"

#include <thread>

#include "pools/core/clock.h"
#include "pools/core/sim/world.h"

namespace poolscope {

void* sim::local(World* w, const void* key, void* (*make)(), void (*destroy)(void*)) {
  return w->local(key, make, destroy);
}

void Mutex::sim_lock() {
  sim::World& w = *sim::active();
  w.point("Mutex::lock");
  // Whoever the unlock wakes competes again: another thread may barge in first.
  while (sim_owner_) w.block(sim_waiters_, "Mutex::lock (held)");
  sim_owner_ = &w.current();
}

bool Mutex::sim_try_lock() {
  sim::World& w = *sim::active();
  w.point("Mutex::try_lock");
  if (sim_owner_) return false;
  sim_owner_ = &w.current();
  return true;
}

void Mutex::sim_unlock() {
  sim_owner_ = nullptr;
  if (!sim_waiters_.empty()) sim::active()->wake_one(sim_waiters_);
}

void sim::wait_on(const void* address, bool (*unchanged)(const void*, const void*), const void* old) {
  active()->wait_on(address, [&] { return unchanged(address, old); });
}

void sim::wake_on(const void* address, bool all) { active()->wake_on(address, all); }

const void* RecursiveMutex::self() {
  if (sim::World* w = sim::active()) [[unlikely]]
    return &w->current();
  thread_local const char me = 0;
  return &me;
}

void this_thread::yield() {
  if (sim::World* w = sim::active()) [[unlikely]]
    return w->yield("this_thread::yield");
  std::this_thread::yield();
}

std::cv_status CondVar::sim_wait(LockRef lock, std::optional<Time> deadline) {
  sim::World& w = *sim::active();
  // A deadline already passed: time out at once, still holding the lock, as
  // the manual clock does (and as a real timed wait nearly does: it lets go
  // of the lock for an instant another thread rarely catches). A loop on an
  // expired deadline then shows as the livelock it is on a real machine.
  if (deadline && *deadline <= w.now()) {
    w.point("CondVar::wait_until (deadline passed)");
    return std::cv_status::timeout;
  }
  // On the list before the lock is let go: a notify that comes while the
  // unlock hands the mutex on is not lost.
  w.enlist(sim_waiters_, deadline ? "CondVar::wait_until" : "CondVar::wait", deadline);
  lock.unlock();
  bool woken = w.sleep();
  lock.lock();
  return woken ? std::cv_status::no_timeout : std::cv_status::timeout;
}

Time CondVar::sim_deadline(Clock& clock, Time deadline) {
  if (deadline == Time::max()) return deadline;
  const Time ahead = deadline - clock.now();
  const Time now = sim::active()->now();
  return ahead > Time::max() - now ? Time::max() : now + ahead;
}

void CondVar::sim_notify(bool all) noexcept {
  sim::World& w = *sim::active();
  w.point(all ? "CondVar::notify_all" : "CondVar::notify_one");
  if (all)
    w.wake_all(sim_waiters_);
  else
    w.wake_one(sim_waiters_);
}

}  // namespace poolscope
