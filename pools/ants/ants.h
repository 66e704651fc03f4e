// ants.go: the package's errors, constants and default logger
// (panjf2000/ants v2.11.4). poolCommon, which ants.go also holds, is in
// pool_common.h.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <system_error>

#include "pools/core/clock.h"
#include "pools/core/task.h"

namespace poolscope::ants {

using namespace std::chrono_literals;

// Go's `error` values become std::error_code: a default-constructed code is
// Go's nil, err.message() is the original's text, and `err == ErrPoolOverload`
// reads as it does in Go.
enum class Error {
  ErrLackPoolFunc = 1,              // "must provide function for pool"
  ErrInvalidPoolExpiry,             // "invalid expiry for pool"
  ErrPoolClosed,                    // "this pool has been closed"
  ErrPoolOverload,                  // "too many goroutines blocked on submit or Nonblocking is set"
  ErrInvalidPreAllocSize,           // "can not set up a negative capacity under PreAlloc mode"
  ErrTimeout,                       // "operation timed out"
  ErrInvalidPoolIndex,              // "invalid pool index"
  ErrInvalidLoadBalancingStrategy,  // "invalid load-balancing strategy"
  ErrInvalidMultiPoolSize,          // "invalid size for multiple pool"
  errQueueIsFull,                   // internal: "the queue is full"
  // C++: the OS refused a thread. A goroutine cannot fail to start.
  errThreadCreateFailed,
  // C++: NewPool's purge or ticktock thread was refused. Go's newPool cannot
  // fail there (`go p.purgeStaleWorkers()` always starts).
  errBackgroundThreadFailed,
};
using enum Error;

const std::error_category& error_category();
std::error_code make_error_code(Error e);
// The Go identifier, e.g. "ErrPoolOverload".
std::string_view error_name(Error e);

// DefaultAntsPoolSize is the default capacity for a default goroutine pool.
inline constexpr int DefaultAntsPoolSize = 2147483647;  // math.MaxInt32

// DefaultCleanIntervalTime: the purge period and idle threshold when
// ExpiryDuration is 0.
inline constexpr Nanos DefaultCleanIntervalTime = 1s;
// nowTimeUpdateInterval: how often ticktock refreshes the coarse clock that
// stamps lastUsed.
inline constexpr Nanos nowTimeUpdateInterval = 500ms;

// The pool's state.
inline constexpr int OPENED = 0;
inline constexpr int CLOSED = 1;

// workerChanCap: the capacity of each worker's task channel, fasthttp's rule:
// 0 (a rendezvous) on one CPU, else 1 (the submitter never waits for a
// CPU-bound worker to pick its task up). Go asks GOMAXPROCS; we ask the OS.
int workerChanCap();

// Go's Logger interface (Printf). Here the message arrives formatted.
using Logger = std::function<void(const std::string& message)>;
// ants' default logger: stderr, prefix "[ants]: " after the time. Go stamps
// the wall clock; this stamps the pool's clock, so a scaled or manual clock
// shows its own time.
Logger defaultLogger(const Clock& clock);

// The package-level default pool, of DefaultAntsPoolSize workers, on real
// time. C++: made at the first call of one of these rather than when the
// package is imported, so a program that never uses it starts no purge or
// ticktock thread; it lives until the program ends.
//
// Submit submits a task to pool.
std::error_code Submit(Task task);
// Running returns the number of the currently running goroutines.
int Running();
// Cap returns the capacity of this default pool.
int Cap();
// Free returns the available goroutines to work.
int Free();
// Release Closes the default pool.
void Release();
// ReleaseTimeout is like Release but with a timeout, it waits all workers to exit before timing out.
std::error_code ReleaseTimeout(Nanos timeout);
// Reboot reboots the default pool.
void Reboot();

}  // namespace poolscope::ants

template <>
struct std::is_error_code_enum<poolscope::ants::Error> : std::true_type {};
