// multipool.go / multipool_func_generic.go: `size` independent pools of
// `sizePerPool` workers each, to spread the lock contention of one big pool.
// Each task goes to one pool, picked by the load-balancing strategy:
// RoundRobin (in turn) or LeastTasks (the first pool with the fewest
// Running() workers, idle ones included, despite the name). When the
// RoundRobin pick answers ErrPoolOverload, the task is tried once more on the
// LeastTasks pick.
//
// MultiPool (tasks) and MultiPoolWithFunc<T> (arguments) are one template
// here, where Go has a file for each. All the pools record into one trace, so
// the trace shows the multi-pool as one pool with size x sizePerPool workers.
#pragma once

#include <climits>
#include <concepts>
#include <cstdint>
#include <string>
#include <vector>

#include "pools/ants/pool.h"
#include "pools/ants/pool_func.h"
#include "pools/core/thread.h"

namespace poolscope::ants {

enum LoadBalancingStrategy : int {
  RoundRobin = 1 << 1,
  LeastTasks = 1 << 2,
};

template <class P>
class BasicMultiPool {
 public:
  BasicMultiPool(std::vector<std::unique_ptr<P>> pools, LoadBalancingStrategy lbs, std::shared_ptr<PoolTrace> trace)
      : pools_(std::move(pools)), lbs_(lbs), trace_(std::move(trace)) {}

  // Go's Submit (MultiPool) and Invoke (MultiPoolWithFunc).
  std::error_code submit(Task task) requires std::same_as<P, Pool> { return handOut(task); }
  std::error_code invoke(typename P::Item arg) requires(!std::same_as<P, Pool>) { return handOut(arg); }

  int running() const { return sum(&P::running); }
  int free() const { return sum(&P::free); }
  int waiting() const { return sum(&P::waiting); }
  int cap() const { return sum(&P::cap); }
  std::expected<int, std::error_code> running_by_index(int idx) const { return byIndex(idx, &P::running); }
  std::expected<int, std::error_code> free_by_index(int idx) const { return byIndex(idx, &P::free); }
  std::expected<int, std::error_code> waiting_by_index(int idx) const { return byIndex(idx, &P::waiting); }
  bool is_closed() const { return state_.load() == CLOSED; }

  // Tunes every pool to `size`, so the total becomes pools x size.
  void tune(int size) {
    for (auto& pool : pools_) pool->tune(size);
  }

  // There is no Release: this closes the multi-pool (ErrPoolClosed if it
  // already is) and runs ReleaseTimeout on every pool at once (Go: an
  // errgroup). nil if all ended in time; else the lowest-indexed pool's
  // error, and `joined` (if given) gets Go's message: "pool 0: operation
  // timed out | ...".
  std::error_code release_timeout(Nanos timeout, std::string* joined = nullptr) {
    int opened = OPENED;
    if (!state_.compare_exchange_strong(opened, CLOSED)) return ErrPoolClosed;

    std::vector<std::error_code> errs(pools_.size());
    {
      std::vector<Thread> group;
      for (std::size_t i = 0; i < pools_.size(); ++i)
        group.emplace_back("ants-release", [&, i] { errs[i] = pools_[i]->release_timeout(timeout); });
    }  // joined here

    // In pool-index order, so the message is the same on every run. Go
    // collects the errors from a channel, in the order the pools finished.
    std::error_code first;
    std::string text;
    for (std::size_t i = 0; i < errs.size(); ++i) {
      if (!errs[i]) continue;
      if (!first) first = errs[i];
      text += (text.empty() ? "" : " | ") + ("pool " + std::to_string(i) + ": " + errs[i].message());
    }
    if (joined) *joined = text;
    return first;
  }

  // Opens a closed multi-pool again; the next RoundRobin pick is pool 1
  // (index restarts at 0 and is incremented before use).
  void reboot() {
    int closed = CLOSED;
    if (!state_.compare_exchange_strong(closed, OPENED)) return;
    index_.store(0);
    for (auto& pool : pools_) pool->reboot();
  }

  // C++: the first half of release_timeout (close, release every pool,
  // so blocked submitters return), and the join every C++ pool needs.
  void release() {
    int opened = OPENED;
    if (state_.compare_exchange_strong(opened, CLOSED))
      for (auto& pool : pools_) pool->release();
  }
  void release_and_join() {
    release();
    for (auto& pool : pools_) pool->release_and_join();
  }
  int idle() const { return sum(&P::idle); }
  Label refusal(std::error_code err) const { return pools_.front()->refusal(err); }
  const std::vector<std::unique_ptr<P>>& pools() const { return pools_; }
  PoolTrace& trace() const { return *trace_; }

 private:
  int next(LoadBalancingStrategy lbs) {
    switch (lbs) {
      case RoundRobin:
        return static_cast<int>((index_.fetch_add(1) + 1) % static_cast<std::uint32_t>(pools_.size()));
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

  template <class Item>
  std::error_code handOut(Item& item) {
    const TaskId t = trace_->submitted();
    std::error_code err = handOut(t, item);
    if (err) trace_->refused(t, refusal(err));
    return err;
  }

  template <class Item>
  std::error_code handOut(TaskId t, Item& item) {
    if (is_closed()) return ErrPoolClosed;
    std::error_code err = give(*pools_[static_cast<std::size_t>(next(lbs_))], t, item);
    if (!err) return err;
    if (err == ErrPoolOverload && lbs_ == RoundRobin)
      return give(*pools_[static_cast<std::size_t>(next(LeastTasks))], t, item);
    return err;
  }

  static std::error_code give(Pool& pool, TaskId t, Task& task) { return pool.submit(t, task); }
  template <class T>
  static std::error_code give(PoolWithFunc<T>& pool, TaskId t, T& arg) {
    return pool.invoke(t, arg);
  }

  int sum(int (PoolCommon::*get)() const) const {
    int n = 0;
    for (const auto& pool : pools_) n += ((*pool).*get)();
    return n;
  }
  std::expected<int, std::error_code> byIndex(int idx, int (PoolCommon::*get)() const) const {
    if (idx < 0 || idx >= static_cast<int>(pools_.size())) return std::unexpected(make_error_code(ErrInvalidPoolIndex));
    return ((*pools_[static_cast<std::size_t>(idx)]).*get)();
  }

  const std::vector<std::unique_ptr<P>> pools_;
  std::atomic<std::uint32_t> index_{UINT32_MAX};  // the first RoundRobin pick is pool 0
  std::atomic<int> state_{OPENED};
  const LoadBalancingStrategy lbs_;
  const std::shared_ptr<PoolTrace> trace_;
};

using MultiPool = BasicMultiPool<Pool>;
template <class T>
using MultiPoolWithFunc = BasicMultiPool<PoolWithFunc<T>>;

namespace detail {
// NewMultiPool's checks and loop: the size, the strategy (before any pool is
// made), then each pool; the first error wins. `check` runs the pools' own
// checks once before the trace exists, so a refused config leaves no pool in
// the stream.
template <class P, class Check, class MakePool>
Made<BasicMultiPool<P>> newMultiPool(int size, LoadBalancingStrategy lbs, const TraceTarget& target, Check check,
                                     MakePool makePool) {
  if (size <= 0) return std::unexpected(make_error_code(ErrInvalidMultiPoolSize));
  if (lbs != RoundRobin && lbs != LeastTasks) return std::unexpected(make_error_code(ErrInvalidLoadBalancingStrategy));
  if (std::error_code err = check()) return std::unexpected(err);

  auto trace = std::make_shared<PoolTrace>(target, "ants-multi");
  std::vector<std::unique_ptr<P>> pools;
  for (int i = 0; i < size; ++i) {
    Made<P> pool = makePool(trace);
    if (!pool) return std::unexpected(pool.error());
    pools.push_back(std::move(*pool));
  }
  return std::make_unique<BasicMultiPool<P>>(std::move(pools), lbs, std::move(trace));
}

inline std::error_code checkPool(int size, Options options, const TraceTarget& target) {
  return PoolCommon::newPool(size, options, clock_of(target));
}
}  // namespace detail

// Go's NewMultiPool(size, sizePerPool, lbs, options...). Errors:
// ErrInvalidMultiPoolSize, ErrInvalidLoadBalancingStrategy, and NewPool's.
inline Made<MultiPool> new_multi_pool(int size, int sizePerPool, LoadBalancingStrategy lbs, const Options& options = {},
                                      const TraceTarget& target = {}) {
  return detail::newMultiPool<Pool>(
      size, lbs, target, [&] { return detail::checkPool(sizePerPool, options, target); },
      [&](std::shared_ptr<PoolTrace> trace) { return new_pool(sizePerPool, options, trace); });
}

// Go's NewMultiPoolWithFuncGeneric(size, sizePerPool, fn, lbs, options...).
template <class T>
Made<MultiPoolWithFunc<T>> new_multi_pool_with_func(int size, int sizePerPool, std::function<void(T)> fn,
                                                    LoadBalancingStrategy lbs, const Options& options = {},
                                                    const TraceTarget& target = {}) {
  return detail::newMultiPool<PoolWithFunc<T>>(
      size, lbs, target,
      [&] { return fn ? detail::checkPool(sizePerPool, options, target) : make_error_code(ErrLackPoolFunc); },
      [&](std::shared_ptr<PoolTrace> trace) { return new_pool_with_func<T>(sizePerPool, fn, options, trace); });
}

}  // namespace poolscope::ants
