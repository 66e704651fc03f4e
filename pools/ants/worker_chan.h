// A worker's task channel: Go's `make(chan T, workerChanCap)`. Goroutines
// share channels; threads share a mutex and a condition variable, so this is
// a mailbox of one slot. With capacity 1 (more than one CPU) send returns
// once the item is in the slot; with capacity 0 it also waits until the
// worker has taken it, like an unbuffered channel. ants only ever sends to a
// worker that is idle or new, so the slot is always free and a send never
// waits for the previous item. receive spins briefly before it sleeps, as
// Go's runtime would (pools/core/spin.h), so a worker given its next task
// within microseconds never sleeps.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <utility>

#include "pools/ants/ants.h"
#include "pools/core/spin.h"

namespace poolscope::ants {

template <class T>
class WorkerChan {
 public:
  void send(T item) {
    std::unique_lock lock(m_);
    cv_.wait(lock, [&] { return !full_; });
    slot_ = std::move(item);
    full_ = true;
    const std::uint64_t sent = ++sent_;
    cv_.notify_all();
    if (workerChanCap() == 0) cv_.wait(lock, [&] { return received_ >= sent; });
  }

  T receive() {
    spin_until([&] { return full_.load(std::memory_order_acquire); });
    std::unique_lock lock(m_);
    cv_.wait(lock, [&] { return full_.load(); });
    T item = std::exchange(slot_, T{});
    full_ = false;
    ++received_;
    cv_.notify_all();
    return item;
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  T slot_{};
  std::atomic<bool> full_{false};  // changed under m_; atomic so that receive can spin on it
  std::uint64_t sent_ = 0;
  std::uint64_t received_ = 0;
};

}  // namespace poolscope::ants
