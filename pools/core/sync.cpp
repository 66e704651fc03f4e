// The scheduled side of poolscope's primitives (sync.h's Mutex and yield,
// clock.h's CondVar): what they do when a Scheduler (scheduler.h) runs on
// this thread, in the Scheduler's terms.
#include "pools/core/sync.h"

#include <thread>

#include "pools/core/clock.h"
#include "pools/core/spin.h"

namespace poolscope {

void Mutex::scheduled_lock(Scheduler& s) {
  if (s.parallel()) return parallel_lock(s);
  s.point_on("Mutex::lock", &waiters_);
  // Whoever the unlock wakes competes again: another thread may barge in first.
  while (owner_.load(std::memory_order_relaxed)) s.block(waiters_, "Mutex::lock (held)");
  owner_.store(&s.current(), std::memory_order_relaxed);
}

bool Mutex::scheduled_try_lock(Scheduler& s) {
  if (s.parallel()) {
    int free = 0;
    return state_.compare_exchange_strong(free, 1, std::memory_order_acquire);
  }
  s.point_on("Mutex::try_lock", &waiters_);
  if (owner_.load(std::memory_order_relaxed)) return false;
  owner_.store(&s.current(), std::memory_order_relaxed);
  return true;
}

void Mutex::scheduled_unlock(Scheduler& s) {
  if (s.parallel()) {
    // 2: someone sleeps on it (or did, and may again): wake one.
    if (state_.exchange(0, std::memory_order_release) == 2) s.wake_on(&state_, false);
    return;
  }
  owner_.store(nullptr, std::memory_order_relaxed);
  if (!waiters_.empty()) s.wake_one(waiters_);
}

// Go's sync.Mutex on a Scheduler whose threads run at once: a CompareAndSwap,
// a short spin while another CPU may release it (runtime_canSpin: 4 x 30
// PAUSEs), then a sleep on the state word (Drepper's futex mutex: 0 free, 1
// held, 2 held with sleepers), which parks the goroutine, not its thread.
void Mutex::parallel_lock(Scheduler& s) {
  int c = 0;
  if (state_.compare_exchange_strong(c, 1, std::memory_order_acquire)) return;
  if (s.cpus() > 1) {
    for (int iter = 0; iter < 4; ++iter) {
      for (int i = 0; i < 30; ++i) cpu_relax();
      c = 0;
      if (state_.compare_exchange_strong(c, 1, std::memory_order_acquire)) return;
    }
  }
  if (c != 2) c = state_.exchange(2, std::memory_order_acquire);
  while (c != 0) {
    s.wait_on(&state_, [this] { return state_.load(std::memory_order_relaxed) == 2; });
    c = state_.exchange(2, std::memory_order_acquire);
  }
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
  const Time ahead = s.span_on_own_time(clock, deadline - clock.now());
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
