// What both fiber backends share (fiber.desktop.cpp, fiber.web.cpp).
#include "pools/core/sim/fiber.h"

namespace poolscope::sim {

void Fiber::run_body() {
  try {
    body_();
  } catch (...) {
    error_ = std::current_exception();
  }
  body_ = nullptr;  // its captures are destroyed on this stack, while it is still live
  finished_ = true;
}

}  // namespace poolscope::sim
