// A failing schedule `poolscope explore --out FILE` wrote: what went wrong,
// when, and the command that replays it (the result's "explore" block,
// docs/result-format.md). The GUI opens such a file at the failure.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "pools/core/params.h"

namespace poolscope::gui {

struct FailingSchedule {
  int schedule = 0;
  std::string problem;
  std::int64_t at = 0;     // ns: when it showed (a stall: the watchdog firing)
  std::int64_t since = 0;  // ns: since when it was building (a stall: the last progress)
  std::string replay;      // "poolscope run SCENARIO --sim-seed N --policy P"

  // From a result's "explore" block; unset if it has none (or a malformed one).
  static std::optional<FailingSchedule> of_result(const json& explore);
  // The time range that shows it: from a little before `since` to a little after `at`.
  std::pair<double, double> view() const;
};

}  // namespace poolscope::gui
