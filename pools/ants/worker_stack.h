// worker_stack.go: the default queue of idle workers. insert appends and
// detach pops the tail, so the most recently used worker is reused first
// (its stack and caches are warm) and the slice stays sorted by lastUsed,
// oldest first. refresh finds the stale prefix with a binary search.
#pragma once

#include <vector>

#include "pools/ants/worker_queue.h"

namespace poolscope::ants {

class WorkerStack final : public WorkerQueue {
 public:
  explicit WorkerStack(int size);

  int len() const override { return static_cast<int>(items.size()); }
  bool isEmpty() const override { return items.empty(); }
  std::error_code insert(Worker* w) override;
  Worker* detach() override;
  std::span<Worker* const> refresh(Nanos duration, Time now) override;
  void reset() override;

  // The last index in items[l..r] whose lastUsed is not after expiryTime,
  // or l - 1 if there is none.
  int binarySearch(int l, int r, Time expiryTime) const;

 private:
  std::vector<Worker*> items;
  std::vector<Worker*> expiry;  // refresh's result, reused tick after tick
};

}  // namespace poolscope::ants
