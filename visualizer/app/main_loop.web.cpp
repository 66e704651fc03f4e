#include "visualizer/app/main_loop.h"

#include <emscripten/emscripten.h>

#include "visualizer/app/app.h"

namespace poolscope::gui {

namespace {

App* g_app = nullptr;  // the page's, for as long as the page is open

// The page (visualizer/web/site/page.js) calls poolscope_gui_frame() at each
// animation frame: a frame enters through an export, as the simulation's
// fiber switches (Asyncify) need, rather than through emscripten's main loop.
// clang-format off
EM_JS(void, start_frames, (), { Module['poolscopeStartFrames'](); });
EM_JS(void, stop_frames, (), { Module['poolscopeStopFrames'](); });
// clang-format on

}  // namespace

int run_main_loop(std::unique_ptr<App> app) {
  g_app = app.release();
  start_frames();
  return 0;  // main() returns to the browser, which goes on calling the frames
}

void wait_for_next_frame(std::chrono::steady_clock::time_point) {}

}  // namespace poolscope::gui

// Void: Asyncify loses an export's return value when fibers switched in it.
// The app stops only in a headless mode (the benchmark's --bench-frames).
extern "C" EMSCRIPTEN_KEEPALIVE void poolscope_gui_frame() {
  if (poolscope::gui::g_app && !poolscope::gui::g_app->tick()) poolscope::gui::stop_frames();
}
