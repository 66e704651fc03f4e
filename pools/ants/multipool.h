// multipool.go: MultiPool, `size` independent pools of `sizePerPool` workers
// each, to spread the lock contention of one big pool. Each task goes to one
// pool, picked by the load-balancing strategy: RoundRobin (in turn) or
// LeastTasks (the first pool with the fewest Running() workers, idle ones
// included, despite the name). When the RoundRobin pick answers
// ErrPoolOverload, the task is tried once more on the LeastTasks pick.
// MultiPoolWithFunc<T> (multipool_func.h) is the same for arguments, written
// out again as Go writes it.
//
// Methods are in multipool.go's order, written with Pool's names (submit,
// running, running_by_index, ...: Go's Submit, Running, RunningByIndex).
// All the pools record into one trace, so the trace shows the multi-pool as
// one pool with size x sizePerPool workers.
//
// clang-format off
//   auto mp = ants::new_multi_pool(10, 5, ants::RoundRobin);  // Go: ants.NewMultiPool(10, 5, ants.RoundRobin)
//   std::error_code err = (*mp)->submit([] { ... });          // nil, ErrPoolOverload, ErrPoolClosed
// clang-format on
#pragma once

#include <atomic>
#include <climits>
#include <cstdint>
#include <expected>
#include <memory>
#include <string>
#include <vector>

#include "pools/ants/pool.h"

namespace poolscope::ants {

// LoadBalancingStrategy represents the type of load-balancing algorithm.
enum LoadBalancingStrategy : int {
  RoundRobin = 1 << 1,
  LeastTasks = 1 << 2,
};

// MultiPool consists of multiple pools, from which you will benefit the
// performance improvement on basis of the fine-grained locking that reduces
// the lock contention.
class MultiPool {
 public:
  // size and options have passed newPool: use new_multi_pool.
  MultiPool(std::vector<std::unique_ptr<Pool>> pools, LoadBalancingStrategy lbs, std::shared_ptr<PoolTrace> trace);

  // Submit submits a task to a pool selected by the load-balancing strategy.
  std::error_code submit(Task task);
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
  // Tune resizes each pool in multi-pool: the total becomes pools x size.
  void tune(int size);
  // IsClosed indicates whether the multi-pool is closed.
  bool is_closed() const;
  // ReleaseTimeout closes the multi-pool (ErrPoolClosed if it already is) and
  // runs ReleaseTimeout on every pool at once (Go: an errgroup). nil if all
  // ended in time, else the lowest-indexed pool's error; `joined` (if given)
  // gets Go's message, "pool 0: operation timed out | ...".
  std::error_code release_timeout(Nanos timeout, std::string* joined = nullptr);
  // Reboot reboots a released multi-pool; the next RoundRobin pick is pool 1
  // (index restarts at 0 and is incremented before use).
  void reboot();

  // C++: the first half of ReleaseTimeout (close, release every pool, so
  // blocked submitters return), the join every C++ pool needs, and what the
  // registry and the tests look at.
  void release();
  void release_and_join();
  int idle() const;
  Label refusal(std::error_code err) const;
  const std::vector<std::unique_ptr<Pool>>& pools() const { return pools_; }
  PoolTrace& trace() const { return *trace_; }
  // C++: Submit for a task already counted as submitted in the trace.
  std::error_code submit_(Job& task);

 private:
  int next(LoadBalancingStrategy lbs);

  const std::vector<std::unique_ptr<Pool>> pools_;  // Go's `pools` (a C++ name cannot be both a field and a method)
  std::atomic<std::uint32_t> index{UINT32_MAX};     // the first RoundRobin pick is pool 0
  std::atomic<std::int32_t> state{OPENED};
  const LoadBalancingStrategy lbs;
  const std::shared_ptr<PoolTrace> trace_;  // C++: one trace for all the pools
};

// NewMultiPool instantiates a MultiPool with a size of the pool list and a
// size per pool, and the load-balancing strategy. Errors:
// ErrInvalidMultiPoolSize, ErrInvalidLoadBalancingStrategy, and NewPool's.
Made<MultiPool> new_multi_pool(int size, int sizePerPool, LoadBalancingStrategy lbs, const Options& options = {},
                               const TraceTarget& target = {});

}  // namespace poolscope::ants
