// options.go: everything a pool can be configured with. Go passes functional
// options (WithExpiryDuration(d), ...); C++ takes the struct itself, with
// designated initializers: new_pool(10, {.Nonblocking = true}). The field
// names are the original's; the defaults and their validation are applied by
// PoolCommon::newPool (pool_common.h), as in ants.go.
#pragma once

#include <exception>
#include <functional>

#include "pools/ants/ants.h"

namespace poolscope::ants {

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

}  // namespace poolscope::ants
