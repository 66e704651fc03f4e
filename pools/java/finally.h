// Java's `finally`: runs an action when the scope ends, normally or by an
// exception. The action must not throw. It is the mechanism of Go's defer
// (pools/core/go/defer.h), under Java's name.
#pragma once

#include "pools/core/go/defer.h"

namespace poolscope::java {

template <class F>
using Finally = go::Defer<F>;

}  // namespace poolscope::java
