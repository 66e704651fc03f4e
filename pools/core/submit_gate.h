// SubmitGate: lets an adapter's shutdown() close the door and then wait out
// the submits already inside, so no thread is started after shutdown returns.
// One atomic add per submit; no lock.
#pragma once

#include <atomic>
#include <cstdint>

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
    if (state_.fetch_sub(1, std::memory_order_acq_rel) == (kClosed | 1)) state_.notify_all();
  }
  // Returns true for the call that closed it.
  bool close() { return !(state_.fetch_or(kClosed, std::memory_order_acq_rel) & kClosed); }
  bool closed() const { return state_.load(std::memory_order_acquire) & kClosed; }
  // After close(): blocks until every submit that entered has left. Call it
  // after waking submitters the design blocks (ants' Release does that).
  void wait_empty() {
    for (auto s = state_.load(std::memory_order_acquire); s != kClosed; s = state_.load(std::memory_order_acquire))
      state_.wait(s, std::memory_order_acquire);
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
