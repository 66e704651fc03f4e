// The scheduled side of poolscope's primitives (sync.h's Mutex and yield,
// clock.h's CondVar): what they do when a Scheduler (scheduler.h) runs on
// this thread, in the Scheduler's terms.
#include "pools/core/sync.h"

#include <thread>

#include "pools/core/clock.h"

namespace poolscope {

void Mutex::scheduled_lock(Scheduler& s) {
  s.point_on("Mutex::lock", &waiters_);
  // Whoever the unlock wakes competes again: another thread may barge in first.
  while (owner_) s.block(waiters_, "Mutex::lock (held)");
  owner_ = &s.current();
}

bool Mutex::scheduled_try_lock(Scheduler& s) {
  s.point_on("Mutex::try_lock", &waiters_);
  if (owner_) return false;
  owner_ = &s.current();
  return true;
}

void Mutex::scheduled_unlock(Scheduler& s) {
  owner_ = nullptr;
  if (!waiters_.empty()) s.wake_one(waiters_);
}

const void* RecursiveMutex::self() {
  if (Scheduler* s = this_thread::scheduler()) [[unlikely]]
    return &s->current();
  thread_local const char me = 0;
  return &me;
}

void this_thread::yield() {
  if (Scheduler* s = scheduler()) [[unlikely]]
    return s->yield("this_thread::yield");
  std::this_thread::yield();
}

std::cv_status CondVar::scheduled_wait(Scheduler& s, LockRef lock, std::optional<Time> deadline) {
  // A deadline already passed: time out at once, still holding the lock, as
  // the manual clock does (and as a real timed wait nearly does: it lets go
  // of the lock for an instant another thread rarely catches). A loop on an
  // expired deadline then shows as the livelock it is on a real machine.
  if (deadline && *deadline <= s.now()) {
    s.point_on("CondVar::wait_until (deadline passed)", &waiters_);
    return std::cv_status::timeout;
  }
  // On the list before the lock is let go: a notify that comes while the
  // unlock hands the mutex on is not lost.
  s.enlist(waiters_, deadline ? "CondVar::wait_until" : "CondVar::wait", deadline);
  lock.unlock();
  bool woken = s.sleep();
  lock.lock();
  return woken ? std::cv_status::no_timeout : std::cv_status::timeout;
}

Time CondVar::scheduled_deadline(Scheduler& s, Clock& clock, Time deadline) {
  if (deadline == Time::max()) return deadline;
  const Time ahead = deadline - clock.now();
  const Time now = s.now();
  return ahead > Time::max() - now ? Time::max() : now + ahead;
}

void CondVar::scheduled_notify(Scheduler& s, bool all) noexcept {
  s.point_on(all ? "CondVar::notify_all" : "CondVar::notify_one", &waiters_);
  if (all)
    s.wake_all(waiters_);
  else
    s.wake_one(waiters_);
}

}  // namespace poolscope
