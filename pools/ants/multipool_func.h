// multipool_func_generic.go: MultiPoolWithFuncGeneric[T], MultiPool for
// PoolWithFunc<T>: `size` pools built around one function, each argument
// given to one of them by the load-balancing strategy. Written out again
// beside multipool.h, as Go writes each multi-pool in its own file; Go's
// MultiPoolWithFunc (multipool_func.go) is the case T = any.
//
// clang-format off
//   auto mp = ants::new_multi_pool_with_func<int>(10, 5, [](int n) { ... }, ants::RoundRobin);
//   std::error_code err = (*mp)->invoke(42);  // nil, ErrPoolOverload, ErrPoolClosed
// clang-format on
#pragma once

#include <atomic>
#include <climits>
#include <cstdint>
#include <expected>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "pools/ants/multipool.h"
#include "pools/ants/pool_func.h"
#include "pools/core/go/thread_group.h"

namespace poolscope::ants {

// MultiPoolWithFuncGeneric is the generic version of MultiPoolWithFunc.
template <class T>
class MultiPoolWithFunc {
 public:
  // fn, size and options have passed newPool: use new_multi_pool_with_func.
  MultiPoolWithFunc(std::vector<std::unique_ptr<PoolWithFunc<T>>> pools, LoadBalancingStrategy lbs,
                    std::shared_ptr<PoolTrace> trace);

  // Invoke submits a task to a pool selected by the load-balancing strategy.
  std::error_code invoke(T arg);
  // Running returns the number of the currently running workers across all pools.
  int running() const;
  // RunningByIndex returns the number of the currently running workers in the specific pool.
  std::expected<int, std::error_code> running_by_index(int idx) const;
  // Free returns the number of available workers across all pools.
  int free() const;
  // FreeByIndex returns the number of available workers in the specific pool.
  std::expected<int, std::error_code> free_by_index(int idx) const;
  // Waiting returns the number of the currently waiting tasks across all pools.
  int waiting() const;
  // WaitingByIndex returns the number of the currently waiting tasks in the specific pool.
  std::expected<int, std::error_code> waiting_by_index(int idx) const;
  // Cap returns the capacity of this multi-pool.
  int cap() const;
  // Tune resizes each pool in multi-pool.
  void tune(int size);
  // IsClosed indicates whether the multi-pool is closed.
  bool is_closed() const;
  // ReleaseTimeout closes the multi-pool with a timeout (see MultiPool's).
  std::error_code release_timeout(Nanos timeout, std::string* joined = nullptr);
  // Reboot reboots a released multi-pool.
  void reboot();

  // C++: as MultiPool's.
  void release();
  void release_and_join();
  int idle() const;
  Label refusal(std::error_code err) const;
  const std::vector<std::unique_ptr<PoolWithFunc<T>>>& pools() const { return pools_; }
  PoolTrace& trace() const { return *trace_; }
  // C++: Invoke for an argument already counted as submitted in the trace.
  std::error_code invoke_(Arg<T>& arg);

 private:
  int next(LoadBalancingStrategy lbs);

  const std::vector<std::unique_ptr<PoolWithFunc<T>>> pools_;  // Go's `pools` (the method pools() has the name)
  std::atomic<std::uint32_t> index{UINT32_MAX};                // the first RoundRobin pick is pool 0
  std::atomic<std::int32_t> state{OPENED};
  const LoadBalancingStrategy lbs;
  const std::shared_ptr<PoolTrace> trace_;  // C++: one trace for all the pools
};

// NewMultiPoolWithFuncGeneric(size, sizePerPool, fn, lbs, options...).
// Errors: ErrInvalidMultiPoolSize, ErrInvalidLoadBalancingStrategy, and
// NewPoolWithFuncGeneric's (ErrLackPoolFunc first).
template <class T>
Made<MultiPoolWithFunc<T>> new_multi_pool_with_func(int size, int sizePerPool, std::function<void(T)> fn,
                                                    LoadBalancingStrategy lbs, const Options& options = {},
                                                    const TraceTarget& target = {}) {
  if (size <= 0) return std::unexpected(make_error_code(ErrInvalidMultiPoolSize));
  if (lbs != RoundRobin && lbs != LeastTasks) return std::unexpected(make_error_code(ErrInvalidLoadBalancingStrategy));

  // C++: NewPoolWithFuncGeneric's checks once for all the pools (see new_multi_pool).
  if (!fn) return std::unexpected(make_error_code(ErrLackPoolFunc));
  Options opts = options;
  if (std::error_code err = PoolCommon::newPool(sizePerPool, opts, clock_of(target))) return std::unexpected(err);
  auto trace = std::make_shared<PoolTrace>(target, "ants-multi");

  std::vector<std::unique_ptr<PoolWithFunc<T>>> pools;
  for (int i = 0; i < size; ++i) {
    Made<PoolWithFunc<T>> pool = new_pool_with_func<T>(sizePerPool, fn, opts, trace);
    if (!pool) return std::unexpected(pool.error());
    pools.push_back(std::move(*pool));
  }
  return std::make_unique<MultiPoolWithFunc<T>>(std::move(pools), lbs, std::move(trace));
}

template <class T>
MultiPoolWithFunc<T>::MultiPoolWithFunc(std::vector<std::unique_ptr<PoolWithFunc<T>>> pools, LoadBalancingStrategy lbs,
                                        std::shared_ptr<PoolTrace> trace)
    : pools_(std::move(pools)), lbs(lbs), trace_(std::move(trace)) {}

template <class T>
int MultiPoolWithFunc<T>::next(LoadBalancingStrategy lbs) {
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

template <class T>
std::error_code MultiPoolWithFunc<T>::invoke(T arg) {
  Arg<T> a{trace_->submitted(), std::move(arg)};
  std::error_code err = invoke_(a);
  if (err) trace_->refused(a.id, refusal(err));
  return err;
}

template <class T>
std::error_code MultiPoolWithFunc<T>::invoke_(Arg<T>& arg) {
  if (is_closed()) return ErrPoolClosed;
  std::error_code err = pools_[static_cast<std::size_t>(next(lbs))]->invoke(arg);
  if (!err) return err;
  if (err == ErrPoolOverload && lbs == RoundRobin)
    return pools_[static_cast<std::size_t>(next(LeastTasks))]->invoke(arg);
  return err;
}

template <class T>
int MultiPoolWithFunc<T>::running() const {
  int n = 0;
  for (const auto& pool : pools_) n += pool->running();
  return n;
}

template <class T>
std::expected<int, std::error_code> MultiPoolWithFunc<T>::running_by_index(int idx) const {
  if (idx < 0 || idx >= static_cast<int>(pools_.size())) return std::unexpected(make_error_code(ErrInvalidPoolIndex));
  return pools_[static_cast<std::size_t>(idx)]->running();
}

template <class T>
int MultiPoolWithFunc<T>::free() const {
  int n = 0;
  for (const auto& pool : pools_) n += pool->free();
  return n;
}

template <class T>
std::expected<int, std::error_code> MultiPoolWithFunc<T>::free_by_index(int idx) const {
  if (idx < 0 || idx >= static_cast<int>(pools_.size())) return std::unexpected(make_error_code(ErrInvalidPoolIndex));
  return pools_[static_cast<std::size_t>(idx)]->free();
}

template <class T>
int MultiPoolWithFunc<T>::waiting() const {
  int n = 0;
  for (const auto& pool : pools_) n += pool->waiting();
  return n;
}

template <class T>
std::expected<int, std::error_code> MultiPoolWithFunc<T>::waiting_by_index(int idx) const {
  if (idx < 0 || idx >= static_cast<int>(pools_.size())) return std::unexpected(make_error_code(ErrInvalidPoolIndex));
  return pools_[static_cast<std::size_t>(idx)]->waiting();
}

template <class T>
int MultiPoolWithFunc<T>::cap() const {
  int n = 0;
  for (const auto& pool : pools_) n += pool->cap();
  return n;
}

template <class T>
void MultiPoolWithFunc<T>::tune(int size) {
  for (auto& pool : pools_) pool->tune(size);
}

template <class T>
bool MultiPoolWithFunc<T>::is_closed() const {
  return state.load() == CLOSED;
}

template <class T>
std::error_code MultiPoolWithFunc<T>::release_timeout(Nanos timeout, std::string* joined) {
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

template <class T>
void MultiPoolWithFunc<T>::reboot() {
  int closed = CLOSED;
  if (!state.compare_exchange_strong(closed, OPENED)) return;
  index.store(0);
  for (auto& pool : pools_) pool->reboot();
}

// --- C++ ----------------------------------------------------------------------

template <class T>
void MultiPoolWithFunc<T>::release() {
  int opened = OPENED;
  if (state.compare_exchange_strong(opened, CLOSED))
    for (auto& pool : pools_) pool->release();
}

template <class T>
void MultiPoolWithFunc<T>::release_and_join() {
  release();
  for (auto& pool : pools_) pool->release_and_join();
}

template <class T>
int MultiPoolWithFunc<T>::idle() const {
  int n = 0;
  for (const auto& pool : pools_) n += pool->idle();
  return n;
}

template <class T>
Label MultiPoolWithFunc<T>::refusal(std::error_code err) const {
  return pools_.front()->refusal(err);
}

}  // namespace poolscope::ants
