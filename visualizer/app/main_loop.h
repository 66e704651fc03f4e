// The GUI's loop, one side per platform (the build picks the file):
//   main_loop.desktop.cpp  a loop on this thread, frames capped by sleeping
//   main_loop.web.cpp      the browser's: the page calls a frame at each of
//                          its animation frames, and main() returns to the
//                          browser in between
#pragma once

#include <chrono>
#include <memory>

namespace poolscope::gui {

class App;

// Runs app.tick() until it returns false and returns app's exit code. In a
// browser it returns 0 at once, and the page keeps the App for good.
int run_main_loop(std::unique_ptr<App> app);

// Caps the frame rate: the desktop sleeps until `next`; a page's frames are
// paced by the browser already (and its one thread must not sleep).
void wait_for_next_frame(std::chrono::steady_clock::time_point next);

}  // namespace poolscope::gui
