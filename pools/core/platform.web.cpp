// A browser's side of platform.h: the browser build runs simulations only.
#include "pools/core/platform.h"

#include <emscripten/emscripten.h>

namespace poolscope::platform {

void name_this_thread(const std::string&) {}

int usable_cpus() { return 1; }

bool has_threads() { return false; }

double thread_cpu_ms() { return emscripten_get_now(); }

}  // namespace poolscope::platform
