// options.go: New's functional options, Go style. An Option is a function
// that sets one field of the Config that New starts from.
#pragma once

#include <chrono>
#include <functional>

#include "pools/core/clock.h"

namespace poolscope::gammazero {

// DefaultIdleTimeout: how long the pool must be idle before a worker stops.
inline constexpr Nanos kDefaultIdleTimeout = std::chrono::seconds(2);

struct Config {
  Nanos idle_timeout = kDefaultIdleTimeout;
};

using Option = std::function<void(Config&)>;

// WithIdleTimeout: 0 keeps the default; a negative timeout disables idle
// reaping (workers then live until Stop).
inline Option with_idle_timeout(Nanos timeout) {
  return [timeout](Config& c) {
    if (timeout != Nanos::zero()) c.idle_timeout = timeout;
  };
}

}  // namespace poolscope::gammazero
