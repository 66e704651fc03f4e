#include "visualizer/app/shortcuts.h"

#include <GLFW/glfw3.h>

namespace poolscope::gui {

const Shortcut kShortcuts[] = {
    {Action::start_pause, GLFW_KEY_SPACE, false, "Space", "start, pause or resume the run; play or pause a replay"},
    {Action::restart, GLFW_KEY_R, false, "R", "run again from the start; rewind a replay"},
    {Action::stop, GLFW_KEY_S, false, "S", "stop the run (pools shut down at once)"},
    {Action::step_sim, GLFW_KEY_N, false, "N", "simulated run, paused: on to the next thing due (a timer, a task's end)"},
    {Action::step_back, GLFW_KEY_LEFT, false, "Left", "replay: one event back (live: pan left)"},
    {Action::step_forward, GLFW_KEY_RIGHT, false, "Right", "replay: one event forward (live: pan right)"},
    {Action::zoom_in, GLFW_KEY_EQUAL, false, "+", "zoom in"},
    {Action::zoom_out, GLFW_KEY_MINUS, false, "-", "zoom out"},
    {Action::fit, GLFW_KEY_HOME, false, "Home", "show the whole run"},
    {Action::follow, GLFW_KEY_F, false, "F", "follow the newest data on or off"},
    {Action::presentation, GLFW_KEY_P, false, "P", "presentation mode: large fonts for a projector"},
    {Action::palette, GLFW_KEY_C, false, "C", "colour-blind-safe palette on or off"},
    {Action::frame_times, GLFW_KEY_T, false, "T", "frame-time overlay"},
    {Action::lanes_alive, GLFW_KEY_L, false, "L", "lanes: only workers alive in view, or every worker"},
    {Action::lanes_order, GLFW_KEY_O, false, "O", "lanes in spawn order, or by exit (a drain reads as a staircase)"},
    {Action::flows_in_view, GLFW_KEY_W, false, "W",
     "flow arrows: every task's (zoomed in), or the hovered one's"},
    {Action::lanes_shorter, GLFW_KEY_LEFT_BRACKET, false, "[", "shorter lanes (more workers on screen)"},
    {Action::lanes_taller, GLFW_KEY_RIGHT_BRACKET, false, "]", "taller lanes"},
    {Action::open, GLFW_KEY_O, true, "Ctrl+O", "open a scenario, a result to replay or a sweep"},
    {Action::screenshot, GLFW_KEY_F12, false, "F12", "save a PNG screenshot of the window"},
    {Action::export_trace, GLFW_KEY_E, true, "Ctrl+E", "export the trace for Perfetto / chrome://tracing"},
    {Action::save_result, GLFW_KEY_S, true, "Ctrl+S", "save the ended run's result (with events, for replay)"},
    {Action::share, GLFW_KEY_L, true, "Ctrl+L", "copy a link (in a browser) or a command that shows this run again"},
    {Action::tab_compare, GLFW_KEY_1, false, "1", "side panel: the comparison table"},
    {Action::tab_pools, GLFW_KEY_2, false, "2", "side panel: each pool explained, its parameters"},
    {Action::tab_scenario, GLFW_KEY_3, false, "3", "side panel: the scenario"},
    {Action::side_panel, GLFW_KEY_H, false, "H", "hide or show the side panel (the timeline takes the window)"},
    {Action::ui_bigger, GLFW_KEY_EQUAL, true, "Ctrl++", "everything bigger (HiDPI)"},
    {Action::ui_smaller, GLFW_KEY_MINUS, true, "Ctrl+-", "everything smaller"},
    {Action::lesson_back, GLFW_KEY_PAGE_UP, false, "Page Up", "a lesson: the step before"},
    {Action::lesson_next, GLFW_KEY_PAGE_DOWN, false, "Page Down", "a lesson: the next step (Enter answers its question)"},
    {Action::lesson_save, GLFW_KEY_A, true, "Ctrl+A", "a lesson: save the answers (JSON, to be graded)"},
    {Action::help, GLFW_KEY_UNKNOWN, false, "?", "this overlay (Esc closes it)"},
    {Action::sched_pick, GLFW_KEY_UNKNOWN, false, "1 to 9", "scheduler, at a decision: run that thread next"},
    {Action::sched_undo, GLFW_KEY_BACKSPACE, false, "Backspace", "scheduler: undo the last pick"},
    {Action::sched_undo, GLFW_KEY_Z, true, "Ctrl+Z", "scheduler: undo the last pick"},
    {Action::sched_policy, GLFW_KEY_G, false, "G", "scheduler: the policy picks the next N decisions"},
    {Action::sched_matters, GLFW_KEY_M, false, "M", "scheduler: on to the next decision that matters"},
    {Action::sched_run_on, GLFW_KEY_E, false, "E", "scheduler: the policy picks to the run's end"},
};
const int kShortcutCount = static_cast<int>(sizeof kShortcuts / sizeof kShortcuts[0]);

bool repeats(Action action) {
  switch (action) {
    case Action::step_sim:
    case Action::sched_undo:
    case Action::step_back:
    case Action::step_forward:
    case Action::zoom_in:
    case Action::zoom_out:
    case Action::lanes_shorter:
    case Action::lanes_taller:
    case Action::ui_bigger:
    case Action::ui_smaller:
      return true;
    default:
      return false;
  }
}

}  // namespace poolscope::gui
