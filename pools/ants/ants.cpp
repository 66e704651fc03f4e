#include "pools/ants/ants.h"

#include <cstdio>

#include "pools/ants/pool.h"
#include "pools/core/duration.h"
#include "pools/core/go/park.h"

namespace poolscope::ants {

namespace {

struct Category final : std::error_category {
  const char* name() const noexcept override { return "ants"; }
  std::string message(int e) const override {
    switch (static_cast<Error>(e)) {
      case ErrLackPoolFunc:
        return "must provide function for pool";
      case ErrInvalidPoolExpiry:
        return "invalid expiry for pool";
      case ErrPoolClosed:
        return "this pool has been closed";
      case ErrPoolOverload:
        return "too many goroutines blocked on submit or Nonblocking is set";
      case ErrInvalidPreAllocSize:
        return "can not set up a negative capacity under PreAlloc mode";
      case ErrTimeout:
        return "operation timed out";
      case ErrInvalidPoolIndex:
        return "invalid pool index";
      case ErrInvalidLoadBalancingStrategy:
        return "invalid load-balancing strategy";
      case ErrInvalidMultiPoolSize:
        return "invalid size for multiple pool";
      case errQueueIsFull:
        return "the queue is full";
      case errThreadCreateFailed:
        return "the OS refused to create a worker thread";
      case errBackgroundThreadFailed:
        return "the OS refused to create the purge or ticktock thread";
    }
    return "unknown ants error";
  }
};

}  // namespace

const std::error_category& error_category() {
  static const Category category;
  return category;
}

std::error_code make_error_code(Error e) { return {static_cast<int>(e), error_category()}; }

std::string_view error_name(Error e) {
  switch (e) {
    case ErrLackPoolFunc:
      return "ErrLackPoolFunc";
    case ErrInvalidPoolExpiry:
      return "ErrInvalidPoolExpiry";
    case ErrPoolClosed:
      return "ErrPoolClosed";
    case ErrPoolOverload:
      return "ErrPoolOverload";
    case ErrInvalidPreAllocSize:
      return "ErrInvalidPreAllocSize";
    case ErrTimeout:
      return "ErrTimeout";
    case ErrInvalidPoolIndex:
      return "ErrInvalidPoolIndex";
    case ErrInvalidLoadBalancingStrategy:
      return "ErrInvalidLoadBalancingStrategy";
    case ErrInvalidMultiPoolSize:
      return "ErrInvalidMultiPoolSize";
    case errQueueIsFull:
      return "errQueueIsFull";
    case errThreadCreateFailed:
      return "errThreadCreateFailed";
    case errBackgroundThreadFailed:
      return "errBackgroundThreadFailed";
  }
  return "?";
}

int workerChanCap() {
  static const int cap = go::gomaxprocs() == 1 ? 0 : 1;
  return cap;
}

Logger defaultLogger(const Clock& clock) {
  return [&clock](const std::string& message) {
    // One write per message, so lines from several workers do not interleave.
    std::string line = format_duration(clock.now()) + " [ants]: " + message;
    if (line.empty() || line.back() != '\n') line += '\n';
    std::fwrite(line.data(), 1, line.size(), stderr);
  };
}

namespace {
// Go: defaultAntsPool, _ = NewPool(DefaultAntsPoolSize), at import.
Pool& defaultAntsPool() {
  static const std::unique_ptr<Pool> pool = [] {
    auto p = NewPool(DefaultAntsPoolSize);
    if (!p) throw std::system_error(p.error());  // C++: only a refused purge or ticktock thread
    return std::move(*p);
  }();
  return *pool;
}
}  // namespace

std::error_code Submit(Task task) { return defaultAntsPool().submit(std::move(task)); }
int Running() { return defaultAntsPool().running(); }
int Cap() { return defaultAntsPool().cap(); }
int Free() { return defaultAntsPool().free(); }
void Release() { defaultAntsPool().release(); }
std::error_code ReleaseTimeout(Nanos timeout) { return defaultAntsPool().release_timeout(timeout); }
void Reboot() { defaultAntsPool().reboot(); }

}  // namespace poolscope::ants
