// A browser's side of platform.h: the browser build runs simulations only.
#include "pools/core/platform.h"

namespace poolscope::platform {

void name_this_thread(const std::string&) {}

int usable_cpus() { return 1; }

bool has_threads() { return false; }

}  // namespace poolscope::platform
