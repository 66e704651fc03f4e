// Linux's side of platform.h.
#include "pools/core/platform.h"

#include <pthread.h>
#include <sched.h>

namespace poolscope::platform {

void name_this_thread(const std::string& name) { pthread_setname_np(pthread_self(), name.substr(0, 15).c_str()); }

bool has_threads() { return true; }

int usable_cpus() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return 1;
  return CPU_COUNT(&set) > 0 ? CPU_COUNT(&set) : 1;
}

}  // namespace poolscope::platform
