// The browser's side of runtime.h: a page has no threads, so no goroutine
// runtime; it runs simulations only (docs/web-engine.md).
#include <stdexcept>

#include "scenarios/engine/runtime.h"

namespace poolscope::scenario {

void run_on_goroutines(std::move_only_function<void()>, std::function<void(const std::string&)>) {
  throw std::logic_error("poolscope: a web page has no goroutine runtime (it runs simulations only)");
}

}  // namespace poolscope::scenario
