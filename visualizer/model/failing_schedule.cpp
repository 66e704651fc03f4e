#include "visualizer/model/failing_schedule.h"

#include <algorithm>
#include <cmath>

namespace poolscope::gui {

std::optional<FailingSchedule> FailingSchedule::of_result(const json& x) {
  if (!x.is_object() || !x.contains("at_s") || !x["at_s"].is_number()) return std::nullopt;
  auto ns = [](double s) { return static_cast<std::int64_t>(std::llround(s * 1e9)); };
  FailingSchedule f;
  f.schedule = x.value("schedule", 0);
  f.problem = x.value("problem", "");
  f.at = ns(x["at_s"].get<double>());
  f.since = x.contains("since_s") && x["since_s"].is_number() ? ns(x["since_s"].get<double>()) : f.at;
  f.since = std::min(f.since, f.at);
  f.replay = x.value("replay", "");
  return f;
}

std::pair<double, double> FailingSchedule::view() const {
  // A tenth of the span on each side, and at least a millisecond, so the
  // moment it went wrong is not on the view's edge.
  const double span = static_cast<double>(at - since);
  const double margin = std::max(span / 10, 1e6);
  return {std::max(0.0, static_cast<double>(since) - margin), static_cast<double>(at) + margin};
}

}  // namespace poolscope::gui
