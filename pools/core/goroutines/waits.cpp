// Blocking and waking under the goroutine runtime (runtime.h): the
// Scheduler's enlist/sleep, wake_one/wake_all, the futex (wait_on/wake_on),
// and the timers that end timed waits. Every WaitList, futex list and timer
// is under wait_m_.
//
// A goroutine parks in two steps, as Go's gopark does: enlisted, it is still
// running (status waiting) until its M's g0 has switched away from it and
// marks it parked. A wake-up that comes in between finds it waiting, marks it
// woken early, and leaves it to run on: sleep() then returns at once, or g0
// puts it back in the run queue. A wake-up after finds it parked, and readies
// it onto the waker's P, next (runnext).
#include "pools/core/goroutines/parts.h"

namespace poolscope::goroutines {

void Runtime::enlist_locked(G* g, WaitList& list, const char* where, std::optional<Time> deadline) {
  g->where.store(where, std::memory_order_relaxed);
  g->status.store(G::waiting, std::memory_order_release);  // before a waker can find it on the list
  g->list = &list;
  g->prev = list.tail;
  g->next = nullptr;
  (list.tail ? list.tail->next : list.head) = g;
  list.tail = g;
  g->timed_out = false;
  if (deadline && *deadline != Time::max()) {
    g->timer = timers_.emplace(deadline->count(), g);
    g->has_timer = true;
    first_timer_.store(timers_.begin()->first, std::memory_order_release);
  }
}

void Runtime::delist_locked(G* g) {
  WaitList& l = *g->list;
  (g->prev ? g->prev->next : l.head) = g->next;
  (g->next ? g->next->prev : l.tail) = g->prev;
  g->list = nullptr;
  g->prev = g->next = nullptr;
  if (g->has_timer) {
    timers_.erase(g->timer);
    g->has_timer = false;
    first_timer_.store(timers_.empty() ? INT64_MAX : timers_.begin()->first, std::memory_order_release);
  }
}

void Runtime::take_off(WaitList& list, bool all, std::vector<G*>& woken) {
  while (!list.empty()) {
    G* g = static_cast<G*>(list.head);  // FIFO, as Go's sudog queues
    delist_locked(g);
    woken.push_back(g);
    if (!all) return;
  }
}

void Runtime::enlist(WaitList& list, const char* where, std::optional<Time> deadline) {
  G* g = &current();
  bool earlier = false;
  {
    std::lock_guard w(wait_m_);
    const std::int64_t before = first_timer_.load(std::memory_order_relaxed);
    enlist_locked(g, list, where, deadline);
    earlier = first_timer_.load(std::memory_order_relaxed) < before;
  }
  // A parked M sleeps until the first timer it knew of: one wakes to sleep
  // until this earlier one instead.
  if (earlier) {
    std::lock_guard s(sched_m_);
    if (!midle_.empty()) {
      M* m = midle_.front();
      std::lock_guard pm(m->park_m);
      m->park_cv.notify_one();
    }
  }
}

bool Runtime::sleep() {
  G* g = &current();
  int s = G::woken_early;
  if (!g->status.compare_exchange_strong(s, G::running, std::memory_order_acq_rel)) switch_to_g0(g, kPark);
  // Running again (execute() made it so): woken, or timed out.
  std::lock_guard w(wait_m_);
  return !g->timed_out;
}

std::size_t Runtime::wake_one(WaitList& list) {
  std::vector<G*> woken;
  {
    std::lock_guard w(wait_m_);
    take_off(list, false, woken);
  }
  for (G* g : woken) ready(g);
  return woken.size();
}

std::size_t Runtime::wake_all(WaitList& list) {
  std::vector<G*> woken;
  {
    std::lock_guard w(wait_m_);
    take_off(list, true, woken);
  }
  for (G* g : woken) ready(g);
  return woken.size();
}

void Runtime::wait_on(const void* address, const std::function<bool()>& unchanged) {
  G* g = &current();
  {
    std::lock_guard w(wait_m_);
    enlist_locked(g, futexes_[address], "atomic wait", std::nullopt);
    if (!unchanged()) {  // changed before it slept: a wake-up between the two is not lost
      WaitList* list = g->list;
      delist_locked(g);
      if (list->empty()) futexes_.erase(address);
      g->status.store(G::running, std::memory_order_release);
      return;
    }
  }
  sleep();
}

void Runtime::wake_on(const void* address, bool all) {
  std::vector<G*> woken;
  {
    std::lock_guard w(wait_m_);
    auto it = futexes_.find(address);
    if (it == futexes_.end()) return;
    take_off(it->second, all, woken);
    if (it->second.empty()) futexes_.erase(it);
  }
  for (G* g : woken) ready(g);
}

bool Runtime::run_timers() {
  std::vector<G*> woken;
  {
    std::lock_guard w(wait_m_);
    const std::int64_t t = now().count();
    while (!timers_.empty() && timers_.begin()->first <= t) {
      G* g = timers_.begin()->second;
      delist_locked(g);  // and its timer (wait_on's waits, by address, have none)
      g->timed_out = true;
      woken.push_back(g);
    }
  }
  n_timers_.fetch_add(woken.size(), std::memory_order_relaxed);
  for (G* g : woken) ready(g);
  return !woken.empty();
}

std::int64_t Runtime::next_timer() const { return first_timer_.load(std::memory_order_acquire); }

}  // namespace poolscope::goroutines
