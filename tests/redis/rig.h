// What the Redis tests share: the common trace rig, with room for the
// fan-outs' many events.
#pragma once

#include "pools/core/thread.h"
#include "tests/support/sync.h"
#include "tests/support/trace_rig.h"

namespace poolscope::test {

struct Rig : TraceRig {
  Rig() : TraceRig(std::size_t{1} << 18) {}
};

}  // namespace poolscope::test
