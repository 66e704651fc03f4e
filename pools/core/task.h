// What a pool runs. A Task is any callable; a Job is a task with the id the
// pool's trace gave it when it was submitted, so its start and end can be
// matched to its submission.
#pragma once

#include <functional>
#include <utility>
#include <vector>

#include "pools/core/event.h"

namespace poolscope {

using Task = std::move_only_function<void()>;

struct Job {
  TaskId id = 0;
  Task fn;
  explicit operator bool() const { return static_cast<bool>(fn); }
};

// What a pool lets go of unrun (dropped at shutdown), released first to last
// when the list goes. A std::vector's own order is its library's: libstdc++
// destroys first to last, libc++ (the browser build's) last to first. And
// releasing a task can wake a thread (a parent waiting for a child dropped
// unrun): in a simulation the order of those wake-ups is part of the run,
// which must be the same in every build.
template <class T>
class InOrder : public std::vector<T> {
 public:
  InOrder() = default;
  InOrder(std::vector<T>&& items) : std::vector<T>(std::move(items)) {}
  InOrder(InOrder&&) = default;
  ~InOrder() {
    for (T& t : *this) t = T{};
  }
};

}  // namespace poolscope
