#include "pools/java/synchronous_queue.h"

#include <algorithm>

namespace poolscope::java {

bool SynchronousQueue::offer(Runnable& r) {
  std::lock_guard lock(lock_);
  if (waiters_.empty()) return false;
  Waiter* w = waiters_.back();
  waiters_.pop_back();
  w->item = std::move(r);
  w->matched = true;
  w->cond.notify_one();
  return true;
}

Runnable SynchronousQueue::take(InterruptFlag& self) { return transfer(self, nullptr); }

Runnable SynchronousQueue::poll(Time deadline, InterruptFlag& self) { return transfer(self, &deadline); }

Runnable SynchronousQueue::transfer(InterruptFlag& self, const Time* deadline) {
  std::unique_lock lock(lock_);
  Waiter me;
  waiters_.push_back(&me);
  auto cancel = [&] { waiters_.erase(std::find(waiters_.begin(), waiters_.end(), &me)); };
  try {
    while (!me.matched) {
      if (deadline && clock().now() >= *deadline) {
        cancel();
        return {};
      }
      if (deadline)
        await_until(me.cond, lock, clock(), *deadline, self);
      else
        await(me.cond, lock, self);
    }
  } catch (const InterruptedException&) {
    if (!me.matched) {
      cancel();
      throw;
    }
    self.set();  // matched after all: keep the task, and the interrupt for later (as Java does)
  }
  return std::move(me.item);
}

void SynchronousQueue::wake_takers() {
  std::lock_guard lock(lock_);
  for (Waiter* w : waiters_) w->cond.notify_one();
}

}  // namespace poolscope::java
