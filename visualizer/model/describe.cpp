#include "visualizer/model/describe.h"

#include "visualizer/plot/axis.h"

namespace poolscope::gui {

std::string at_time(std::int64_t ns) { return plot::format_time(static_cast<double>(ns)); }

std::string describe(EventKind kind, WorkerId worker, TaskId task, std::int64_t arg, std::int32_t arg2) {
  const std::string w = "worker " + std::to_string(worker), t = "task " + std::to_string(task);
  switch (kind) {
    case EventKind::task_submitted:
      return t + " submitted";
    case EventKind::task_queued:
      return t + " queued" + (arg > 0 ? " (queue length " + std::to_string(arg) + ")" : "");
    case EventKind::task_handoff:
      return t + " handed to " + (worker ? w : "the caller") + (arg ? " from the queue" : "");
    case EventKind::task_started:
      return t + " started on " + (worker ? w : "the submitting thread");
    case EventKind::task_finished:
      return t + " finished on " + (worker ? w : "the submitting thread");
    case EventKind::task_threw:
      return t + " threw on " + (worker ? w : "the submitting thread");
    case EventKind::task_completed:
      return t + "'s completion ran on the event loop, " + at_time(arg) + " after its thread finished it";
    case EventKind::task_refused:
      return t + " refused";
    case EventKind::task_dropped:
      return t + " dropped";
    case EventKind::submitter_blocked:
      return "the submitter of " + t + " blocked";
    case EventKind::submitter_unblocked:
      return "the submitter of " + t + " unblocked";
    case EventKind::worker_spawned:
      return w + " spawned";
    case EventKind::worker_idle:
      return w + " idle";
    case EventKind::worker_reaped:
      return w + " reaped after " + at_time(arg) + " idle";
    case EventKind::worker_exited:
      return w + " exited";
    case EventKind::cleaner_pass:
      return "cleaner pass: " + std::to_string(arg2) + " of " + std::to_string(arg) + " workers reaped";
    case EventKind::param_tuned:
      return "parameter tuned to " + std::to_string(arg);
    case EventKind::pool_state:  // the rule's text says what its arg and arg2 mean, where it has them
      if (arg == 0 && arg2 == 0) return "pool state changed";
      return "pool state changed: arg = " + std::to_string(arg) + ", arg2 = " + std::to_string(arg2);
    case EventKind::pool_stopped:
      return "pool stopped, " + std::to_string(arg) + " tasks dropped";
  }
  return std::string(kind_name(kind));
}

std::string describe_rule(Label rule) {
  if (rule == kNoLabel) return "";
  std::string code(label_code(rule)), text(label_text(rule));
  return text.empty() || text == code ? code : code + ": " + text;
}

}  // namespace poolscope::gui
