#include "pools/core/spin.h"

#include "pools/core/go/park.h"

namespace poolscope {

bool may_spin() {
  static const bool many = go::gomaxprocs() > 1;
  return many;
}

}  // namespace poolscope
