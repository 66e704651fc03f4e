#include "pools/core/trace_stream.h"

#include <bit>
#include <stdexcept>

namespace poolscope {

TraceStream::TraceStream(std::size_t capacity) {
  std::size_t n = std::bit_ceil(capacity < 2 ? std::size_t{2} : capacity);
  slots_ = std::make_unique<Slot[]>(n);
  mask_ = n - 1;
  for (std::size_t i = 0; i < n; ++i) slots_[i].seq.store(i, std::memory_order_relaxed);
}

PoolId TraceStream::add_pool(std::string name, std::string design) {
  std::lock_guard g(pools_m_);
  if (pools_.size() >= 0xFFFF) throw std::length_error("poolscope: too many pools on one trace stream");
  auto id = static_cast<PoolId>(pools_.size());
  pools_.push_back(PoolInfo{id, std::move(name), std::move(design)});
  return id;
}

std::vector<PoolInfo> TraceStream::pools() const {
  std::lock_guard g(pools_m_);
  return pools_;
}

std::size_t TraceStream::drain(std::vector<Event>& out, std::size_t max) {
  std::lock_guard g(consumer_);
  std::size_t n = 0;
  while (n < max) {
    Slot& slot = slots_[tail_ & mask_];
    if (slot.seq.load(std::memory_order_acquire) != tail_ + 1) break;  // not yet published
    out.push_back(slot.event);
    slot.seq.store(tail_ + mask_ + 1, std::memory_order_release);  // free for the next lap
    ++tail_;
    ++n;
  }
  return n;
}

}  // namespace poolscope

namespace poolscope {
std::uint64_t TraceStream::consumed() const {
  std::lock_guard g(consumer_);
  return tail_;
}
}  // namespace poolscope
