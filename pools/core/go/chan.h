// Go's channels in C++: `make(chan T)`, `make(chan T, n)`, send, receive,
// close, and the receive-from-closed rule, with Go's runtime algorithm
// (runtime/chan.go): a channel is a lock, a ring buffer of `cap` slots and
// two queues of blocked callers (sudogs); a send to a channel with a blocked
// receiver hands the value straight to it, a receive from a channel with a
// blocked sender takes straight from it (through the buffer when there is
// one, so the order stays FIFO).
//
//   Go                              here
//   ch := make(chan T)              Chan<T> ch;          (unbuffered: a send completes only when a receiver takes it)
//   ch := make(chan T, 1)           Chan<T> ch(1);       (a send to an empty one-slot channel does not wait)
//   ch <- v                         ch.send(v);          (throws ClosedChannel, Go's panic, once closed)
//   v := <-ch                       T v = ch.recv();     (T{} once closed and drained)
//   v, ok := <-ch                   bool ok = ch.recv(v);
//   for v := range ch               for (T v; ch.recv(v);)
//   close(ch)                       ch.close();
//   len(ch), cap(ch)                ch.len(), ch.cap()
//   select { ... }                  go::select(...), select.h
//
// A blocked call spins briefly, then sleeps (park.h). T must be default
// constructible (Go's zero value) and movable.
#pragma once

#include <cstddef>
#include <mutex>
#include <stdexcept>
#include <utility>
#include <vector>

#include "pools/core/go/park.h"

namespace poolscope::go {

// Go panics on a send to a closed channel and on closing one twice.
struct ClosedChannel : std::logic_error {
  explicit ClosedChannel(const char* what = "send on closed channel") : std::logic_error(what) {}
};

namespace detail {

// Go's sudog: one blocked call's place in one channel's wait queue. A select
// blocked on two channels has one in each, sharing its Parker.
struct Sudog {
  Parker* g = nullptr;
  int which = 0;          // the select case this entry stands for (0 for a plain send or receive)
  void* elem = nullptr;   // a receive: the T to fill; a send: the T to move from
  bool* ok = nullptr;     // a receive: false when woken by close
  bool closed = false;    // a send: woken by close (the sender panics)
  Sudog* prev = nullptr;  // the queue's links, under the channel's lock
  Sudog* next = nullptr;
  bool queued = false;
};

// A FIFO of sudogs (Go's waitq), under its channel's lock.
class WaitQ {
 public:
  void enqueue(Sudog* s);
  // The first sudog whose parker this call wins for its case. Entries whose
  // select already completed elsewhere (or timed out) are dropped on the way.
  Sudog* dequeue();
  void remove(Sudog* s);  // if still queued
  std::size_t size() const { return n_; }

 private:
  void unlink(Sudog* s);
  Sudog* head_ = nullptr;
  Sudog* tail_ = nullptr;
  std::size_t n_ = 0;
};

// goready: wakes the sudog's goroutine, if there is one. Called with no
// channel lock held (see Chan::send_locked).
inline void ready(Sudog* s) {
  if (s) s->g->ready();
}

}  // namespace detail

template <class T>
class Chan {
 public:
  explicit Chan(std::size_t cap = 0) : buf_(cap) {}
  Chan(const Chan&) = delete;
  Chan& operator=(const Chan&) = delete;

  // ch <- v
  void send(T v) {
    std::unique_lock lock(lock_);
    detail::Sudog* wake = nullptr;
    if (send_locked(v, wake)) {
      lock.unlock();
      detail::ready(wake);
      return;
    }
    Parker p;
    detail::Sudog s{.g = &p, .elem = &v};
    sendq_.enqueue(&s);
    lock.unlock();
    p.park();
    if (s.closed) throw ClosedChannel();
  }

  // select { case ch <- v: return true; default: return false }. `v` is
  // moved from only when this returns true.
  bool try_send(T& v) {
    std::unique_lock lock(lock_);
    detail::Sudog* wake = nullptr;
    if (!send_locked(v, wake)) return false;
    lock.unlock();
    detail::ready(wake);
    return true;
  }

  // v := <-ch
  T recv() {
    T v{};
    recv(v);
    return v;
  }
  // v, ok := <-ch: false (and `into` = T{}) once the channel is closed and drained.
  bool recv(T& into) {
    bool ok = false;
    std::unique_lock lock(lock_);
    detail::Sudog* wake = nullptr;
    if (recv_locked(&into, &ok, wake)) {
      lock.unlock();
      detail::ready(wake);
      return ok;
    }
    Parker p;
    detail::Sudog s{.g = &p, .elem = &into, .ok = &ok};
    recvq_.enqueue(&s);
    lock.unlock();
    p.park();
    return ok;
  }

  // close(ch): blocked receivers get T{} and false, blocked senders panic.
  void close() {
    std::vector<detail::Sudog*> wake;
    {
      std::lock_guard g(lock_);
      if (closed_) throw ClosedChannel("close of closed channel");
      closed_ = true;
      while (detail::Sudog* r = recvq_.dequeue()) {
        *static_cast<T*>(r->elem) = T{};
        *r->ok = false;
        wake.push_back(r);
      }
      while (detail::Sudog* s = sendq_.dequeue()) {
        s->closed = true;
        wake.push_back(s);
      }
    }
    for (detail::Sudog* s : wake) detail::ready(s);
  }

  std::size_t len() const {
    std::lock_guard g(lock_);
    return len_;
  }
  std::size_t cap() const { return buf_.size(); }

  // C++: callers blocked receiving right now (gammazero's ready
  // workers, for the trace). A select that has just completed elsewhere may
  // still be counted for a moment.
  std::size_t receivers_waiting() const {
    std::lock_guard g(lock_);
    return recvq_.size();
  }

 private:
  template <class>
  friend struct RecvCase;
  template <class>
  friend struct SendCase;

  // Under lock_: completes a send of `v` at once if it can (a blocked
  // receiver, or room in the buffer). Go's chansend, the non-blocking part.
  // A receiver it completes is left in `wake`, to be readied once lock_ is
  // released: once ready it may return and destroy the channel.
  bool send_locked(T& v, detail::Sudog*& wake) {
    if (closed_) throw ClosedChannel();
    if (detail::Sudog* r = recvq_.dequeue()) {
      *static_cast<T*>(r->elem) = std::move(v);
      *r->ok = true;
      wake = r;
      return true;
    }
    if (len_ < buf_.size()) {
      buf_[(head_ + len_) % buf_.size()] = std::move(v);
      ++len_;
      return true;
    }
    return false;
  }

  // Under lock_: completes a receive at once if it can (a blocked sender, a
  // buffered value, or a closed channel). Go's chanrecv, the non-blocking
  // part. A sender it completes is left in `wake`, as in send_locked.
  bool recv_locked(T* into, bool* ok, detail::Sudog*& wake) {
    if (detail::Sudog* s = sendq_.dequeue()) {
      T& from = *static_cast<T*>(s->elem);
      if (buf_.empty()) {
        *into = std::move(from);
      } else {  // the buffer is full: take its head, the sender's value goes to the tail
        *into = std::move(buf_[head_]);
        buf_[head_] = std::move(from);
        head_ = (head_ + 1) % buf_.size();
      }
      *ok = true;
      wake = s;
      return true;
    }
    if (len_ > 0) {
      *into = std::move(buf_[head_]);
      buf_[head_] = T{};
      head_ = (head_ + 1) % buf_.size();
      --len_;
      *ok = true;
      return true;
    }
    if (closed_) {
      *into = T{};
      *ok = false;
      return true;
    }
    return false;
  }

  mutable Mutex lock_;
  detail::WaitQ recvq_;
  detail::WaitQ sendq_;
  std::vector<T> buf_;  // the ring: cap slots, len_ of them full from head_
  std::size_t head_ = 0;
  std::size_t len_ = 0;
  bool closed_ = false;
};

}  // namespace poolscope::go
