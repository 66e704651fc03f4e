// Events and rules in words, for tooltips, the replay's event line and the
// explain panel: "worker 7 reaped after 1.02 s idle", "cleaner-pass: fasthttp
// clean: every MaxIdleWorkerDuration, stop the workers idle longer than that".
#pragma once

#include <string>

#include "pools/core/event.h"
#include "scenarios/engine/metrics.h"

namespace poolscope::gui {

// What happened, without the rule: "task 17 started on worker 3".
std::string describe(EventKind kind, WorkerId worker, TaskId task, std::int64_t arg, std::int32_t arg2);
inline std::string describe(const Event& e) { return describe(e.kind, e.worker, e.task, e.arg, e.arg2); }
inline std::string describe(const metrics::Marker& m) { return describe(m.kind, m.worker, m.task, m.arg, m.arg2); }

// Why, in the design's words: "purge-tick: ants purge ticker: ..." ("" for no rule).
std::string describe_rule(Label rule);

// "1.2345 s" etc. (plot::format_time), for callers that do not draw.
std::string at_time(std::int64_t ns);

}  // namespace poolscope::gui
