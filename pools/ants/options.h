// options.go: everything a pool can be configured with. Go passes functional
// options (WithExpiryDuration(d), ...), and so can C++: NewPool(10,
// WithNonblocking(true)), or new_pool(10, loadOptions({WithNonblocking(true)}),
// target) to give a clock. new_pool also takes the struct itself, with
// designated initializers: new_pool(10, {.Nonblocking = true}). The field
// names are the original's; the defaults and their validation are applied by
// PoolCommon::newPool (pool_common.h), as in ants.go.
#pragma once

#include <exception>
#include <functional>
#include <initializer_list>

#include "pools/ants/ants.h"

namespace poolscope::ants {

struct Options;

// Option represents the optional function.
using Option = std::function<void(Options&)>;

// Options contains all options which will be applied when instantiating an ants pool.
struct Options {
  // The purge ticker's period, and how long a worker may stay idle before a
  // tick removes it. 0 means DefaultCleanIntervalTime (1 s); < 0 is
  // ErrInvalidPoolExpiry unless DisablePurge.
  Nanos ExpiryDuration{0};

  // Keep idle workers in a ring of `size` slots (FIFO reuse) instead of a
  // stack (LIFO reuse). Only the ring's memory is allocated up front: no
  // worker is started early. Needs a limited size; disables Tune.
  bool PreAlloc = false;

  // The most submitters that may wait inside submit at once; 0 = no limit.
  // Over the limit, submit returns ErrPoolOverload.
  int MaxBlockingTasks = 0;

  // Never wait: when no worker can be had, submit returns ErrPoolOverload.
  // Overrides MaxBlockingTasks.
  bool Nonblocking = false;

  // Called with what a task threw (Go: the recovered panic value). When
  // empty, the Logger prints it. Either way that worker's thread ends.
  std::function<void(std::exception_ptr)> PanicHandler;

  // Where panics are reported when there is no PanicHandler. Empty means
  // defaultLogger (stderr).
  ants::Logger Logger;

  // No purge thread at all: idle workers live until release.
  bool DisablePurge = false;
};

inline Options loadOptions(std::initializer_list<Option> options) {
  Options opts;
  for (const Option& option : options) option(opts);
  return opts;
}

// WithOptions accepts the whole Options config.
inline Option WithOptions(Options options) {
  return [options = std::move(options)](Options& opts) { opts = options; };
}

// WithExpiryDuration sets up the interval time of cleaning up goroutines.
inline Option WithExpiryDuration(Nanos expiryDuration) {
  return [expiryDuration](Options& opts) { opts.ExpiryDuration = expiryDuration; };
}

// WithPreAlloc indicates whether it should malloc for workers.
inline Option WithPreAlloc(bool preAlloc) {
  return [preAlloc](Options& opts) { opts.PreAlloc = preAlloc; };
}

// WithMaxBlockingTasks sets up the maximum number of goroutines that are
// blocked when it reaches the capacity of pool.
inline Option WithMaxBlockingTasks(int maxBlockingTasks) {
  return [maxBlockingTasks](Options& opts) { opts.MaxBlockingTasks = maxBlockingTasks; };
}

// WithNonblocking indicates that pool will return nil when there is no
// available workers.
inline Option WithNonblocking(bool nonblocking) {
  return [nonblocking](Options& opts) { opts.Nonblocking = nonblocking; };
}

// WithPanicHandler sets up panic handler.
inline Option WithPanicHandler(std::function<void(std::exception_ptr)> panicHandler) {
  return [panicHandler = std::move(panicHandler)](Options& opts) { opts.PanicHandler = panicHandler; };
}

// WithLogger sets up a customized logger.
inline Option WithLogger(ants::Logger logger) {
  return [logger = std::move(logger)](Options& opts) { opts.Logger = logger; };
}

// WithDisablePurge indicates whether we turn off automatically purge.
inline Option WithDisablePurge(bool disable) {
  return [disable](Options& opts) { opts.DisablePurge = disable; };
}

}  // namespace poolscope::ants
