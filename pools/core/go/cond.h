// Go's sync.Cond: a condition on a Locker L (sync.NewCond(l)); Wait with L
// held; Signal and Broadcast with or without it.
//
//   Go                              here
//   cond := sync.NewCond(&mu)       go::Cond<Lock> cond{mu};  (Lock: any lock()/unlock() type)
//   cond.L                          cond.L
//   cond.Wait()                     cond.Wait();   (L held; it is let go while asleep, held again after)
//   cond.Signal(), cond.Broadcast() cond.Signal(), cond.Broadcast()
//
// Go's Wait takes a ticket while it holds the lock (runtime_notifyListAdd);
// Signal wakes the oldest ticket not yet woken, Broadcast every ticket taken
// so far, even one whose goroutine has not parked yet. A Signal sent before
// the ticket is taken reaches nobody. Here a ticket is the count of Signals
// and Broadcasts so far (ticket(), read under the lock): a waiter does not
// park once the count has moved past its ticket, and a parked waiter is woken
// by a Broadcast after its ticket, or by a Signal after its ticket that picks
// it (the oldest parked first). Parking and waking both happen under the
// Cond's own mutex, which a notifier takes too, so no Signal after the ticket
// is lost, whether or not the notifier holds the pool's lock (ants' Tune,
// Release and goexit do not).
//
// Two differences. Go's Wait takes the ticket itself; here the caller may
// take it earlier and pass it to Wait (ants' retrieveWorker does: see there).
// And a waiter that holds its ticket but has not parked yet (it spins first,
// below) returns on any Signal after its ticket, not only on one meant for
// it: as if it woke spuriously, which Go's Wait never does. Every wait on a
// Cond re-checks its condition (Go's doc asks for the loop), so that is an
// extra retry. Go's Signal costs one atomic load when nobody waits; counting
// the sleepers keeps that fast path.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "pools/core/clock.h"
#include "pools/core/spin.h"

namespace poolscope::go {

template <class Locker>
class Cond {
 public:
  using Ticket = std::uint64_t;

  // sync.NewCond(l)
  explicit Cond(Locker& l) : L(l) {}
  Cond(const Cond&) = delete;
  Cond& operator=(const Cond&) = delete;

  Locker& L;  // held while observing or changing the condition

  // Wait: the ticket is taken now.
  void Wait() { Wait(ticket()); }

  void Signal() { notify(false); }
  void Broadcast() { notify(true); }

  // C++: the ticket a Wait takes: call it with L held, before looking at
  // what the wait is for. Any Signal or Broadcast after it ends the Wait.
  Ticket ticket() const { return signals_.load(); }
  // C++: Wait with a ticket taken earlier under the same hold of L. Go's
  // Wait parks the goroutine, which its thread does not: it spins a while
  // first (pools/core/spin.h), with L let go.
  void Wait(Ticket t) {
    L.unlock();
    if (!spin_until([&] { return signals_.load(std::memory_order_acquire) != t; })) park(t);
    L.lock();
  }

  // C++, for tests: waiters asleep and not yet picked by a Signal or
  // Broadcast. Each of them holds its ticket, so the next Signal wakes one.
  int parked() const {
    std::lock_guard g(m_);
    return static_cast<int>(parked_.size());
  }

 private:
  struct Sleeper {
    Ticket ticket;
    bool woken = false;
    CondVar cv;
  };

  void park(Ticket t) {
    std::unique_lock g(m_);
    sleepers_.fetch_add(1);
    if (signals_.load() == t) {
      Sleeper self{.ticket = t};
      parked_.push_back(&self);
      self.cv.wait(g, [&] { return self.woken; });  // the notifier has unlinked it
    }
    sleepers_.fetch_sub(1);
  }

  // Both are seq_cst, as park's fetch_add and load: either a notifier sees
  // the sleeper, or the sleeper sees the new signal count. A sleeper is woken
  // and unlinked under m_, so it is still there to be woken.
  void notify(bool all) {
    const Ticket n = signals_.fetch_add(1);  // tickets up to n were taken before this notification
    if (sleepers_.load() == 0) return;
    std::lock_guard g(m_);
    for (auto it = parked_.begin(); it != parked_.end();) {
      if ((*it)->ticket > n) {  // took its ticket after this notification
        ++it;
        continue;
      }
      (*it)->woken = true;
      (*it)->cv.notify_one();
      it = parked_.erase(it);
      if (!all) return;
    }
  }

  mutable Mutex m_;                 // orders a sleeper's check-and-park against notifications
  std::vector<Sleeper*> parked_;    // oldest first; guarded by m_
  std::atomic<int> sleepers_{0};    // in park(), parked or about to be
  std::atomic<Ticket> signals_{0};  // Signals and Broadcasts so far: the tickets
};

}  // namespace poolscope::go
