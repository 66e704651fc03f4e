// config.go: the pool's one tuning knob.
#pragma once

#include <cstdint>

namespace poolscope::gopool {

// Go spells it "Scala" (sic); the name is kept.
inline constexpr std::int32_t defaultScalaThreshold = 1;

// Config is used to config pool.
struct Config {
  // threshold for scale.
  // new goroutine is created if len(task chan) > ScaleThreshold.
  // defaults to defaultScalaThreshold.
  //
  // C++: the comment is Go's and says ">"; CtxGo's code says ">=" (with the
  // default 1, every task submitted to an empty list scales). The code wins.
  std::int32_t ScaleThreshold = defaultScalaThreshold;
};

// NewConfig creates a default Config.
inline Config NewConfig() { return Config{.ScaleThreshold = defaultScalaThreshold}; }

}  // namespace poolscope::gopool
