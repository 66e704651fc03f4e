// Java's `finally`: runs an action when the scope ends, normally or by an
// exception. The action must not throw. It is the mechanism of Go's defer
// (pools/core/go/defer.h), under Java's name.
#pragma once

#include "pools/core/go/defer.h"

namespace poolscope::java {

// C++: a class rather than an alias of go::Defer, as clang 14 deduces no
// alias template's arguments.
template <class F>
struct Finally : go::Defer<F> {
  using go::Defer<F>::Defer;
};
template <class F>
Finally(F) -> Finally<F>;

}  // namespace poolscope::java
