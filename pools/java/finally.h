// Java's `finally`: runs an action when the scope ends, normally or by an
// exception. The action must not throw.
#pragma once

#include <utility>

namespace poolscope::java {

template <class F>
class Finally {
 public:
  explicit Finally(F f) : f_(std::move(f)) {}
  ~Finally() { f_(); }
  Finally(const Finally&) = delete;
  Finally& operator=(const Finally&) = delete;

 private:
  F f_;
};

}  // namespace poolscope::java
