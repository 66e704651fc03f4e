#include "visualizer/app/main_loop.h"

#include <thread>

#include "visualizer/app/app.h"

namespace poolscope::gui {

int run_main_loop(std::unique_ptr<App> app) {
  while (app->tick()) {
  }
  return app->exit_code();
}

void wait_for_next_frame(std::chrono::steady_clock::time_point next) {
  if (std::chrono::steady_clock::now() < next) std::this_thread::sleep_until(next);
}

}  // namespace poolscope::gui
