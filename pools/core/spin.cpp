#include "pools/core/spin.h"

#include <sched.h>

namespace poolscope {

bool may_spin() {
  static const bool many = [] {
    cpu_set_t set;
    return sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 1;
  }();
  return many;
}

}  // namespace poolscope
