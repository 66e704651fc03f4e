// The keyboard shortcuts, listed once: the ? overlay shows this table, the
// app dispatches on it, docs/visualizer.md copies it.
#pragma once

namespace poolscope::gui {

enum class Action {
  start_pause,  // start / pause / resume; play / pause a replay
  restart,      // run again from the start; rewind a replay
  stop,
  step_sim,  // a paused simulated run: on to the next thing due
  step_back,
  step_forward,
  zoom_in,
  zoom_out,
  fit,
  follow,
  presentation,
  palette,
  frame_times,
  lanes_alive,
  lanes_order,
  flows_in_view,
  lanes_shorter,
  lanes_taller,
  open,
  screenshot,
  export_trace,
  share,
  save_result,
  tab_compare,
  tab_pools,
  tab_scenario,
  side_panel,
  ui_bigger,
  ui_smaller,
  lesson_back,  // a lesson: the step before, the next, its answers saved
  lesson_next,
  lesson_save,
  help,
  // Being the scheduler (view_scheduler.h), at a decision; 1 to 9 pick.
  sched_pick,
  sched_undo,
  sched_policy,
  sched_matters,
  sched_run_on,
};

struct Shortcut {
  Action action;
  int key;  // GLFW key code
  bool ctrl;
  const char* keys;  // as the overlay writes it
  const char* what;
};

extern const Shortcut kShortcuts[];
extern const int kShortcutCount;

// Whether a held key repeats the action: stepping, zooming and resizing do;
// a toggle or a one-shot (a screenshot, an export, a file to open) happens
// once per press, however long the key is held.
bool repeats(Action action);

}  // namespace poolscope::gui
