// task.go: what AddTask takes. Do runs on a goroutine of its own; the worker
// waits for its result or for its own timer, whichever comes first, and
// reports which on ChIsTimeOut.
#pragma once

#include <any>
#include <functional>

#include "pools/core/clock.h"
#include "pools/core/go/chan.h"
#include "pools/core/task.h"

namespace poolscope::weedge {

struct Task {
  std::move_only_function<bool(std::any& inParam, std::any& outParam)>
      Do;                                 // 返回值主要来知道是否执行完 (returns whether it finished)
  std::any InParam;                       // 输入 (input)
  std::any OutParam;                      // 输出 (output)
  go::Chan<bool>* ChIsTimeOut = nullptr;  // 是否超时，true 超时,false 正常 (timed out: true; normal: false)
  Nanos TimeOut{};                        // 任务超时时间 (the task's timeout)
  std::function<void(std::any& inParam, std::any& outParam)> OnTimeOut;

  // C++: the task's id in the trace, given by AddTask.
  TaskId id_ = 0;
};

}  // namespace poolscope::weedge
