// Go's select, for the few cases a pool port needs:
//
//   select {                              switch (go::select(go::recv(p.taskQueue, task, ok),
//   case task, ok := <-p.taskQueue:                          go::after(clock, deadline))) {
//   case <-timeout.C:                       case 0: ...  case 1: ...
//   }                                     }
//
//   select {                              if (go::select(go::send(p.workerQueue, nil), go::default_) == 0)
//   case p.workerQueue <- nil: ...
//   default: ...
//   }
//
// go::select returns the position of the case that ran. As in Go, when
// several cases are ready it picks one at random; when none is and there is
// a default_, it returns the default's position at once; otherwise it blocks
// until one case can run. A case on a null channel never runs (Go's nil
// channel), nor does go::after with Time::max(). The algorithm is Go's
// selectgo: lock every channel in address order, poll the cases in a random
// order, else queue a sudog on each channel and park; whichever channel
// claims the parker first completes its case, and the others' sudogs are
// taken back.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <mutex>
#include <tuple>
#include <utility>

#include "pools/core/clock.h"
#include "pools/core/go/chan.h"

namespace poolscope::go {

template <class T>
struct RecvCase {  // case v, ok := <-ch
  Chan<T>* ch;
  T* into;
  bool* ok;
  bool ok_ignored = false;

  Mutex* mutex() const { return ch ? &ch->lock_ : nullptr; }
  bool poll(detail::Sudog*& wake) { return ch && ch->recv_locked(into, ok ? ok : &ok_ignored, wake); }
  void enqueue(detail::Sudog& s) {
    s.elem = into;
    s.ok = ok ? ok : &ok_ignored;
    ch->recvq_.enqueue(&s);
  }
  void dequeue(detail::Sudog& s) { ch->recvq_.remove(&s); }
  void woken(const detail::Sudog&) {}
};

template <class T>
struct SendCase {  // case ch <- v  (v is moved from only if this case runs)
  Chan<T>* ch;
  T* value;

  Mutex* mutex() const { return ch ? &ch->lock_ : nullptr; }
  bool poll(detail::Sudog*& wake) { return ch && ch->send_locked(*value, wake); }
  void enqueue(detail::Sudog& s) {
    s.elem = value;
    ch->sendq_.enqueue(&s);
  }
  void dequeue(detail::Sudog& s) { ch->sendq_.remove(&s); }
  void woken(const detail::Sudog& s) {
    if (s.closed) throw ClosedChannel();
  }
};

struct DefaultCase {};
inline constexpr DefaultCase default_{};

struct TimerCase {  // case <-timer.C, for a timer due at `when` on `clock`
  Clock* clock;
  Time when;
};

template <class T>
RecvCase<T> recv(Chan<T>& ch, T& into, bool& ok) {
  return {&ch, &into, &ok};
}
template <class T>
RecvCase<T> recv(Chan<T>& ch, T& into) {
  return {&ch, &into, nullptr};
}
template <class T>
RecvCase<T> recv(Chan<T>* ch, T& into, bool& ok) {  // a nil channel never receives
  return {ch, &into, &ok};
}
template <class T>
SendCase<T> send(Chan<T>& ch, T& value) {
  return {&ch, &value};
}
template <class T>
SendCase<T> send(Chan<T>* ch, T& value) {  // a nil channel never sends
  return {ch, &value};
}
inline TimerCase after(Clock& clock, Time when) { return {&clock, when}; }

namespace detail {

std::uint32_t fastrand();  // Go's cheap per-thread random numbers, for the poll order

template <class C>
constexpr bool is_channel_case = !std::is_same_v<C, DefaultCase> && !std::is_same_v<C, TimerCase>;

// Calls f(case, index) for each case of the tuple.
template <class Tuple, class F>
void for_each_case(Tuple& cases, F&& f) {
  std::apply([&](auto&... c) {
    int i = 0;
    (f(c, i++), ...);
  }, cases);
}

}  // namespace detail

template <class... Cases>
int select(Cases... args) {
  constexpr int n = sizeof...(Cases);
  std::tuple<Cases...> cases(args...);
  int default_at = -1;
  const TimerCase* timer = nullptr;
  int timer_at = -1;
  std::array<Mutex*, n> locks{};
  int nlocks = 0;
  detail::for_each_case(cases, [&](auto& c, int i) {
    using C = std::decay_t<decltype(c)>;
    if constexpr (std::is_same_v<C, DefaultCase>) {
      default_at = i;
    } else if constexpr (std::is_same_v<C, TimerCase>) {
      if (c.when != Time::max()) timer = &c, timer_at = i;
    } else if (Mutex* m = c.mutex()) {
      locks[static_cast<std::size_t>(nlocks++)] = m;
    }
  });
  // Go's lockorder: by address, each channel once (an insertion sort: a
  // select has two or three cases).
  for (int i = 1; i < nlocks; ++i)
    for (int j = i; j > 0 && locks[static_cast<std::size_t>(j)] < locks[static_cast<std::size_t>(j - 1)]; --j)
      std::swap(locks[static_cast<std::size_t>(j)], locks[static_cast<std::size_t>(j - 1)]);
  nlocks = static_cast<int>(std::unique(locks.begin(), locks.begin() + nlocks) - locks.begin());
  auto lock_all = [&] {
    for (int i = 0; i < nlocks; ++i) locks[static_cast<std::size_t>(i)]->lock();
  };
  auto unlock_all = [&] {
    for (int i = nlocks; i-- > 0;) locks[static_cast<std::size_t>(i)]->unlock();
  };

  // Pass 1: poll the cases in a random order (Go's pollorder).
  std::array<int, n> order{};
  for (int i = 0; i < n; ++i) {
    int j = static_cast<int>(detail::fastrand() % static_cast<std::uint32_t>(i + 1));
    order[static_cast<std::size_t>(i)] = order[static_cast<std::size_t>(j)];
    order[static_cast<std::size_t>(j)] = i;
  }
  // The goroutine a completed case woke, readied once the locks are released
  // (it may then return and destroy its channel).
  detail::Sudog* wake = nullptr;
  lock_all();
  struct Unlock {  // a send on a closed channel throws with the locks held
    decltype(unlock_all)& f;
    detail::Sudog*& wake;
    bool armed = true;
    ~Unlock() {
      if (!armed) return;
      f();
      detail::ready(wake);
    }
  } unlock{unlock_all, wake};
  for (int k = 0; k < n; ++k) {
    const int want = order[static_cast<std::size_t>(k)];
    int ran = -1;
    detail::for_each_case(cases, [&](auto& c, int i) {
      if constexpr (detail::is_channel_case<std::decay_t<decltype(c)>>) {
        if (i == want && c.poll(wake)) ran = i;
      }
    });
    if (ran < 0 && want == timer_at && timer->clock->now() >= timer->when) ran = timer_at;
    if (ran >= 0) return ran;
  }
  if (default_at >= 0) return default_at;

  // Pass 2: queue on every channel and park.
  Parker p(timer != nullptr);
  std::array<detail::Sudog, n> sudogs{};
  detail::for_each_case(cases, [&](auto& c, int i) {
    if constexpr (detail::is_channel_case<std::decay_t<decltype(c)>>) {
      if (c.mutex()) {
        sudogs[static_cast<std::size_t>(i)] = detail::Sudog{.g = &p, .which = i};
        c.enqueue(sudogs[static_cast<std::size_t>(i)]);
      }
    }
  });
  unlock.armed = false;
  unlock_all();
  const int fired = timer ? p.park_until(*timer->clock, timer->when) : p.park();

  // Pass 3: take back the sudogs the other channels still hold.
  lock_all();
  detail::for_each_case(cases, [&](auto& c, int i) {
    if constexpr (detail::is_channel_case<std::decay_t<decltype(c)>>) {
      if (c.mutex()) c.dequeue(sudogs[static_cast<std::size_t>(i)]);
    }
  });
  unlock_all();
  if (fired == Parker::kTimedOut) return timer_at;
  detail::for_each_case(cases, [&](auto& c, int i) {
    if constexpr (detail::is_channel_case<std::decay_t<decltype(c)>>) {
      if (i == fired) c.woken(sudogs[static_cast<std::size_t>(i)]);
    }
  });
  return fired;
}

}  // namespace poolscope::go
