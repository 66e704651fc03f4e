// What a pool runs. A Task is any callable; a Job is a task with the id the
// pool's trace gave it when it was submitted, so its start and end can be
// matched to its submission.
#pragma once

#include <functional>

#include "pools/core/event.h"

namespace poolscope {

using Task = std::move_only_function<void()>;

struct Job {
  TaskId id = 0;
  Task fn;
  explicit operator bool() const { return static_cast<bool>(fn); }
};

}  // namespace poolscope
