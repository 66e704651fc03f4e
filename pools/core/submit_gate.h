// SubmitGate: lets an adapter's shutdown() close the door and then wait out
// the submits already inside, so no thread is started after shutdown returns.
// One atomic add per submit; no lock. Every adapter's submit and shutdown
// go through pass() and shut(), so the door is written once:
//
//   SubmitResult submit(Task task, const SubmitOptions&) override {
//     return gate_.pass(impl_.trace(), [&] { return ...the design's own submit...; });
//   }
//   void shutdown(ShutdownMode mode) override {
//     const bool first = gate_.shut([&] { ...wake the submitters the design blocks... });
//     ...stop the design, join its threads...
//     if (first) impl_.trace().stopped(stopped_rule(mode), dropped);
//   }
#pragma once

#include <atomic>
#include <cstdint>

#include "pools/core/pool.h"

namespace poolscope {

class SubmitGate {
 public:
  // Returns false (and counts nothing) once closed.
  bool enter() {
    if (state_.fetch_add(1, std::memory_order_acq_rel) & kClosed) {
      leave();
      return false;
    }
    return true;
  }
  void leave() {
    if (state_.fetch_sub(1, std::memory_order_acq_rel) == (kClosed | 1)) atomic_notify_all(state_);
  }
  // Returns true for the call that closed it.
  bool close() { return !(state_.fetch_or(kClosed, std::memory_order_acq_rel) & kClosed); }
  bool closed() const { return state_.load(std::memory_order_acquire) & kClosed; }
  // After close(): blocks until every submit that entered has left. Call it
  // after waking submitters the design blocks (ants' Release does that).
  void wait_empty() {
    for (auto s = state_.load(std::memory_order_acquire); s != kClosed; s = state_.load(std::memory_order_acquire))
      atomic_wait(state_, s, std::memory_order_acquire);
  }

  // The adapter's submit: `submit()` if the door is open, else the task is
  // refused as closed (and traced so).
  template <class Submit>
  SubmitResult pass(PoolTrace& trace, Submit submit) {
    Entry entry(*this);
    if (!entry) {
      trace.refused(trace.submitted(), rules::pool_closed());
      return SubmitResult::closed();
    }
    return submit();
  }

  // The adapter's shutdown, first half: closes the door, runs `wake` (which
  // wakes the submitters the design blocks, so that they leave), and waits
  // until every submit inside has left. True for the call that closed it.
  template <class Wake>
  bool shut(Wake wake) {
    const bool first = close();
    wake();
    wait_empty();
    return first;
  }
  bool shut() {
    return shut([] {});
  }

  // Scoped entry: `if (SubmitGate::Entry e{gate}; e) ...`
  class Entry {
   public:
    explicit Entry(SubmitGate& g) : g_(g), in_(g.enter()) {}
    ~Entry() {
      if (in_) g_.leave();
    }
    Entry(const Entry&) = delete;
    Entry& operator=(const Entry&) = delete;
    explicit operator bool() const { return in_; }

   private:
    SubmitGate& g_;
    bool in_;
  };

 private:
  static constexpr std::uint64_t kClosed = std::uint64_t{1} << 63;
  std::atomic<std::uint64_t> state_{0};
};

}  // namespace poolscope
