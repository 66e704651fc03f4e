// A worker that only has a lastUsed time, for the worker queue tests.
#pragma once

#include "pools/ants/worker_queue.h"

namespace poolscope::ants::test {

struct FakeWorker final : Worker {
  explicit FakeWorker(Time lastUsed = Time(0)) { setLastUsedTime(lastUsed); }
  void run() override {}
  void finish(Label) override { finished = true; }
  bool finished = false;
};

}  // namespace poolscope::ants::test
