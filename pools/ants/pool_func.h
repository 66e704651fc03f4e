// pool_func.go / pool_func_generic.go: a pool built around one function;
// invoke(arg) gives a worker the argument and the worker calls the function
// with it. PoolWithFunc<T> is the C++ form of PoolWithFuncGeneric[T]; Go's
// PoolWithFunc is the case T = any, and its quirk that Invoke(nil) stops a
// worker instead of calling the function has no equivalent here.
//
//   auto p = ants::new_pool_with_func<int>(10, [](int n) { ... });
//   std::error_code err = (*p)->invoke(42);
#pragma once

#include <functional>

#include "pools/ants/pool.h"
#include "pools/ants/worker_func.h"

namespace poolscope::ants {

template <class T>
class PoolWithFunc final : public PoolCommon {
 public:
  using Item = T;  // what a worker receives

  ~PoolWithFunc() override { release_and_join(); }

  // Like Pool::submit: nil, ErrPoolOverload or ErrPoolClosed.
  std::error_code invoke(T arg) {
    Arg<T> a{trace().submitted(), std::move(arg)};
    std::error_code err = invoke(a);
    if (err) trace().refused(a.id, refusal(err));
    return err;
  }
  // C++: the same for an argument already counted as submitted, with its
  // trace id (MultiPoolWithFunc retries with it).
  std::error_code invoke(Arg<T>& arg) {
    if (is_closed()) return ErrPoolClosed;

    retrievingFor() = arg.id;  // C++: for retrieveWorker's trace
    auto w = retrieveWorker();
    if (!w) return w.error();
    static_cast<GoWorkerWithFunc<T>*>(*w)->inputArg(std::move(arg));
    return {};
  }

  // size and options must have passed newPool: use new_pool_with_func.
  PoolWithFunc(int size, std::function<void(T)> fn, Options options, std::shared_ptr<PoolTrace> trace)
      : PoolCommon(size, std::move(options), std::move(trace)), fn(std::move(fn)) {
    workerCache.New = [this] { return std::make_unique<GoWorkerWithFunc<T>>(*this, this->fn); };
  }

 private:
  const std::function<void(T)> fn;
};

// C++: NewPoolWithFuncGeneric for a pool of a multi-pool: fn, size and
// options have been checked once already, before the shared trace existed.
template <class T>
Made<PoolWithFunc<T>> new_pool_with_func(int size, std::function<void(T)> fn, Options options,
                                         std::shared_ptr<PoolTrace> trace) {
  auto pool = std::make_unique<PoolWithFunc<T>>(size, std::move(fn), std::move(options), std::move(trace));
  if (std::error_code err = pool->start_()) return std::unexpected(err);
  return pool;
}

// Go's NewPoolWithFuncGeneric(size, fn, options...). Errors: ErrLackPoolFunc
// (checked first), ErrInvalidPoolExpiry, ErrInvalidPreAllocSize; and (C++)
// errBackgroundThreadFailed.
template <class T>
Made<PoolWithFunc<T>> new_pool_with_func(int size, std::function<void(T)> fn, Options options = {},
                                         const TraceTarget& target = {}) {
  if (!fn) return std::unexpected(make_error_code(ErrLackPoolFunc));
  if (std::error_code err = PoolCommon::newPool(size, options, clock_of(target))) return std::unexpected(err);
  return new_pool_with_func<T>(size, std::move(fn), std::move(options), std::make_shared<PoolTrace>(target, "ants"));
}

// NewPoolWithFuncGeneric(size, fn, options...) as Go writes it, with
// functional options, on real time.
template <class T, std::convertible_to<Option>... O>
Made<PoolWithFunc<T>> NewPoolWithFuncGeneric(int size, std::function<void(T)> fn, O&&... options) {
  return new_pool_with_func<T>(size, std::move(fn), loadOptions({Option(std::forward<O>(options))...}));
}

}  // namespace poolscope::ants
