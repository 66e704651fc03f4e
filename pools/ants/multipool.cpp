// multipool.go, in its order.
#include "pools/ants/multipool.h"

#include "pools/core/go/thread_group.h"

namespace poolscope::ants {

Made<MultiPool> new_multi_pool(int size, int sizePerPool, LoadBalancingStrategy lbs, const Options& options,
                               const TraceTarget& target) {
  if (size <= 0) return std::unexpected(make_error_code(ErrInvalidMultiPoolSize));
  if (lbs != RoundRobin && lbs != LeastTasks) return std::unexpected(make_error_code(ErrInvalidLoadBalancingStrategy));

  // C++: NewPool's checks once for all the pools (Go runs them in each
  // NewPool), before the trace exists, so a refused config leaves no pool in
  // the stream.
  Options opts = options;
  if (std::error_code err = PoolCommon::newPool(sizePerPool, opts, clock_of(target))) return std::unexpected(err);
  auto trace = std::make_shared<PoolTrace>(target, "ants-multi");

  std::vector<std::unique_ptr<Pool>> pools;
  for (int i = 0; i < size; ++i) {
    Made<Pool> pool = new_pool(sizePerPool, opts, trace);
    if (!pool) return std::unexpected(pool.error());
    pools.push_back(std::move(*pool));
  }
  return std::make_unique<MultiPool>(std::move(pools), lbs, std::move(trace));
}

MultiPool::MultiPool(std::vector<std::unique_ptr<Pool>> pools, LoadBalancingStrategy lbs,
                     std::shared_ptr<PoolTrace> trace)
    : pools_(std::move(pools)), lbs(lbs), trace_(std::move(trace)) {}

int MultiPool::next(LoadBalancingStrategy lbs) {
  switch (lbs) {
    case RoundRobin:
      return static_cast<int>((index.fetch_add(1) + 1) % static_cast<std::uint32_t>(pools_.size()));
    case LeastTasks: {
      int idx = 0;
      int leastTasks = INT_MAX;
      for (std::size_t i = 0; i < pools_.size(); ++i) {
        if (const int n = pools_[i]->running(); n < leastTasks) {
          leastTasks = n;
          idx = static_cast<int>(i);
        }
      }
      return idx;
    }
  }
  return -1;
}

std::error_code MultiPool::submit(Task task) {
  Job job{trace_->submitted(), std::move(task)};
  std::error_code err = submit_(job);
  if (err) trace_->refused(job.id, refusal(err));
  return err;
}

std::error_code MultiPool::submit_(Job& task) {
  if (is_closed()) return ErrPoolClosed;
  std::error_code err = pools_[static_cast<std::size_t>(next(lbs))]->submit(task);
  if (!err) return err;
  if (err == ErrPoolOverload && lbs == RoundRobin)
    return pools_[static_cast<std::size_t>(next(LeastTasks))]->submit(task);
  return err;
}

int MultiPool::running() const {
  int n = 0;
  for (const auto& pool : pools_) n += pool->running();
  return n;
}

std::expected<int, std::error_code> MultiPool::running_by_index(int idx) const {
  if (idx < 0 || idx >= static_cast<int>(pools_.size())) return std::unexpected(make_error_code(ErrInvalidPoolIndex));
  return pools_[static_cast<std::size_t>(idx)]->running();
}

int MultiPool::free() const {
  int n = 0;
  for (const auto& pool : pools_) n += pool->free();
  return n;
}

std::expected<int, std::error_code> MultiPool::free_by_index(int idx) const {
  if (idx < 0 || idx >= static_cast<int>(pools_.size())) return std::unexpected(make_error_code(ErrInvalidPoolIndex));
  return pools_[static_cast<std::size_t>(idx)]->free();
}

int MultiPool::waiting() const {
  int n = 0;
  for (const auto& pool : pools_) n += pool->waiting();
  return n;
}

std::expected<int, std::error_code> MultiPool::waiting_by_index(int idx) const {
  if (idx < 0 || idx >= static_cast<int>(pools_.size())) return std::unexpected(make_error_code(ErrInvalidPoolIndex));
  return pools_[static_cast<std::size_t>(idx)]->waiting();
}

int MultiPool::cap() const {
  int n = 0;
  for (const auto& pool : pools_) n += pool->cap();
  return n;
}

void MultiPool::tune(int size) {
  for (auto& pool : pools_) pool->tune(size);
}

bool MultiPool::is_closed() const { return state.load() == CLOSED; }

std::error_code MultiPool::release_timeout(Nanos timeout, std::string* joined) {
  int opened = OPENED;
  if (!state.compare_exchange_strong(opened, CLOSED)) return ErrPoolClosed;

  std::vector<std::error_code> errs(pools_.size());
  go::ThreadGroup wg;  // Go: errgroup.Group
  for (std::size_t i = 0; i < pools_.size(); ++i)
    wg.go("ants-release", [this, &errs, i, timeout] { errs[i] = pools_[i]->release_timeout(timeout); });
  wg.wait();

  // C++: in pool-index order, so the message is the same on every run. Go
  // collects the errors from a channel, in the order the pools finished.
  std::error_code first;
  std::string errStr;
  for (std::size_t i = 0; i < errs.size(); ++i) {
    if (!errs[i]) continue;
    if (!first) first = errs[i];
    errStr += (errStr.empty() ? "" : " | ") + ("pool " + std::to_string(i) + ": " + errs[i].message());
  }
  if (joined) *joined = errStr;
  return first;
}

void MultiPool::reboot() {
  int closed = CLOSED;
  if (!state.compare_exchange_strong(closed, OPENED)) return;
  index.store(0);
  for (auto& pool : pools_) pool->reboot();
}

// --- C++ ----------------------------------------------------------------------

void MultiPool::release() {
  int opened = OPENED;
  if (state.compare_exchange_strong(opened, CLOSED))
    for (auto& pool : pools_) pool->release();
}

void MultiPool::release_and_join() {
  release();
  for (auto& pool : pools_) pool->release_and_join();
}

int MultiPool::idle() const {
  int n = 0;
  for (const auto& pool : pools_) n += pool->idle();
  return n;
}

Label MultiPool::refusal(std::error_code err) const { return pools_.front()->refusal(err); }

}  // namespace poolscope::ants
