#include "pools/core/event.h"

#include <array>

namespace poolscope {

namespace {
constexpr std::array<std::string_view, kEventKindCount> kNames = {
    "task_submitted",      "task_queued",    "task_handoff", "task_started",  "task_finished",
    "task_threw",          "task_completed", "task_refused", "task_dropped",  "submitter_blocked",
    "submitter_unblocked", "worker_spawned", "worker_idle",  "worker_reaped", "worker_exited",
    "cleaner_pass",        "param_tuned",    "pool_state",   "pool_stopped",
};
}  // namespace

std::string_view kind_name(EventKind kind) { return kNames[static_cast<std::size_t>(kind)]; }

std::optional<EventKind> parse_kind(std::string_view name) {
  for (std::size_t i = 0; i < kNames.size(); ++i)
    if (kNames[i] == name) return static_cast<EventKind>(i);
  return std::nullopt;
}

}  // namespace poolscope
