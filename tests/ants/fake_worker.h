// What the worker queue tests share: a worker that only has a lastUsed time,
// and whole seconds as times.
#pragma once

#include "pools/ants/worker_queue.h"

namespace poolscope::ants::test {

struct FakeWorker final : Worker {
  explicit FakeWorker(Time lastUsed = Time(0)) { setLastUsedTime(lastUsed); }
  void run() override {}
  void finish(Label) override { finished = true; }
  bool finished = false;
};

inline Time t(int seconds) { return Time(std::chrono::seconds(seconds)); }

}  // namespace poolscope::ants::test
