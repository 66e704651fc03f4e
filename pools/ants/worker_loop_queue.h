// worker_loop_queue.go: the queue of idle workers when PreAlloc is set. A
// ring of exactly `size` slots allocated once: insert at the tail, detach
// from the head, so the least recently used worker is reused first (the
// opposite of the stack). The occupied region, read from the head, is
// sorted by lastUsed, so refresh binary-searches it too, across the wrap.
#pragma once

#include <memory>
#include <vector>

#include "pools/ants/worker_queue.h"

namespace poolscope::ants {

class LoopQueue final : public WorkerQueue {
 public:
  explicit LoopQueue(int size);

  int len() const override;
  bool isEmpty() const override { return head == tail && !isFull; }
  std::error_code insert(Worker* w) override;
  Worker* detach() override;
  std::span<Worker* const> refresh(Nanos duration, Time now) override;
  void reset() override;

  // The slot of the last worker, counting from the head, whose lastUsed is
  // not after expiryTime; -1 if the queue is empty or even the head is newer.
  int binarySearch(Time expiryTime) const;

 private:
  std::vector<Worker*> items;
  std::vector<Worker*> expiry;  // refresh's result, reused tick after tick
  int head = 0;
  int tail = 0;
  int size;
  bool isFull = false;
};

// nullptr when size <= 0, as in Go.
std::unique_ptr<LoopQueue> newWorkerLoopQueue(int size);

}  // namespace poolscope::ants
