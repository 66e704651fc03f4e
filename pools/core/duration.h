// Durations as people write them in configs and scenarios: Go's syntax, a
// sequence of decimal numbers with units ("250ms", "1.5s", "1m30s", "-1s",
// "0"). Units: ns, us (or µs), ms, s, m, h.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "pools/core/clock.h"

namespace poolscope {

std::optional<Nanos> parse_duration(std::string_view text);
// The shortest exact spelling in the largest fitting unit: "10s", "250ms",
// "1.5s", "1m30s", "-1s", "0s".
std::string format_duration(Nanos d);

}  // namespace poolscope
