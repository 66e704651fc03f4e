// pool.go: Pool, whose tasks are functions: submit(task) gives the task a
// worker (retrieveWorker) and sends it on that worker's channel. The ants
// folder follows panjf2000/ants v2 at commit 76ddb18 (v2.11.x).
//
// clang-format off
//   auto p = ants::new_pool(10, {.ExpiryDuration = 10s});  // Go: ants.NewPool(10, ants.WithExpiryDuration(10*time.Second))
//   if (!p) ... p.error() ...                               // Go: if err != nil
//   std::error_code err = (*p)->submit([] { ... });         // nil, ErrPoolOverload, ErrPoolClosed
// clang-format on
#pragma once

#include <concepts>
#include <expected>
#include <memory>

#include "pools/ants/pool_common.h"
#include "pools/core/task.h"

namespace poolscope::ants {

template <class P>
using Made = std::expected<std::unique_ptr<P>, std::error_code>;

class Pool final : public PoolCommon {
 public:
  using Item = Task;  // what a worker receives

  ~Pool() override;

  // Blocks while the pool is full (unless Nonblocking); returns nil,
  // ErrPoolOverload or ErrPoolClosed. A task may submit to its own pool, but
  // blocks like any caller once the pool is full.
  std::error_code submit(Task task);
  // C++: the same for a task already counted as submitted in the trace, which
  // carries its trace id as a Job does (pools/core/task.h; MultiPool retries
  // with it): nothing is traced as refused, and `task` is moved from only
  // when a worker takes it.
  std::error_code submit(Job& task);

  // size and options must have passed newPool: use new_pool.
  Pool(int size, Options options, std::shared_ptr<PoolTrace> trace);
};

// Go's NewPool(size, options...). Errors: ErrInvalidPoolExpiry,
// ErrInvalidPreAllocSize; and (C++) errBackgroundThreadFailed.
Made<Pool> new_pool(int size, Options options = {}, const TraceTarget& target = {});
// C++: the same, recording into a trace several pools share (MultiPool's
// do), for a size and options that have passed newPool already: the
// multi-pool checks them once, before its trace exists.
Made<Pool> new_pool(int size, Options options, std::shared_ptr<PoolTrace> trace);

// NewPool(size, options...) as Go writes it, with functional options, on
// real time: ants::NewPool(10, ants::WithExpiryDuration(10s)).
template <std::convertible_to<Option>... O>
Made<Pool> NewPool(int size, O&&... options) {
  return new_pool(size, loadOptions({Option(std::forward<O>(options))...}));
}

}  // namespace poolscope::ants
