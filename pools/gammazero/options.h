// options.go: New's functional options, Go style. An Option is a function
// that sets one field of the config that New starts from.
#pragma once

#include <chrono>
#include <functional>

#include "pools/core/clock.h"

namespace poolscope::gammazero {

// DefaultIdleTimeout: how long the pool must be idle before a worker stops.
inline constexpr Nanos DefaultIdleTimeout = std::chrono::seconds(2);

struct config {
  Nanos idleTimeout = DefaultIdleTimeout;
};

using Option = std::function<void(config&)>;

// WithIdleTimeout: 0 keeps the default; a negative timeout disables idle
// reaping (workers then live until Stop).
inline Option WithIdleTimeout(Nanos timeout) {
  return [timeout](config& c) {
    if (timeout != Nanos::zero()) c.idleTimeout = timeout;
  };
}

}  // namespace poolscope::gammazero
