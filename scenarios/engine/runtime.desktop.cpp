// The desktop's side of runtime.h: Go's runtime (pools/core/goroutines/).
#include "pools/core/goroutines/runtime.h"
#include "scenarios/engine/runtime.h"

namespace poolscope::scenario {

void run_on_goroutines(std::move_only_function<void()> body, std::function<void(const std::string&)> on_deadlock) {
  goroutines::Runtime rt;
  rt.on_deadlock(std::move(on_deadlock));
  try {
    rt.run(std::move(body));
  } catch (const goroutines::Deadlock&) {
    // Reported to on_deadlock; the run ends with what it has.
  }
}

}  // namespace poolscope::scenario
