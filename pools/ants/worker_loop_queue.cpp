#include "pools/ants/worker_loop_queue.h"

#include <utility>

#include "pools/ants/rules.h"

namespace poolscope::ants {

std::unique_ptr<LoopQueue> newWorkerLoopQueue(int size) {
  if (size <= 0) return nullptr;
  return std::make_unique<LoopQueue>(size);
}

LoopQueue::LoopQueue(int size) : items(static_cast<std::size_t>(size)), size(size) {}

int LoopQueue::len() const {
  if (size == 0 || isEmpty()) return 0;
  if (head == tail && isFull) return size;
  if (tail > head) return tail - head;
  return size - head + tail;
}

std::error_code LoopQueue::insert(Worker* w) {
  if (isFull) return errQueueIsFull;
  items[static_cast<std::size_t>(tail)] = w;
  tail = (tail + 1) % size;
  if (tail == head) isFull = true;
  return {};
}

Worker* LoopQueue::detach() {
  if (isEmpty()) return nullptr;
  Worker* w = std::exchange(items[static_cast<std::size_t>(head)], nullptr);
  head = (head + 1) % size;
  isFull = false;
  return w;
}

std::span<Worker* const> LoopQueue::refresh(Nanos duration, Time now) {
  const Time expiryTime = now - duration;
  const int index = binarySearch(expiryTime);
  if (index == -1) return {};
  expiry.clear();

  auto take = [&](int from, int to) {  // items[from..to), emptied
    for (int i = from; i < to; ++i) expiry.push_back(std::exchange(items[static_cast<std::size_t>(i)], nullptr));
  };
  if (head <= index) {
    take(head, index + 1);
  } else {
    // The stale run wraps: Go appends [0..index] first, then [head..size).
    take(0, index + 1);
    take(head, size);
  }
  head = (index + 1) % size;
  if (!expiry.empty()) isFull = false;
  return expiry;
}

int LoopQueue::binarySearch(Time expiryTime) const {
  const int nlen = static_cast<int>(items.size());
  if (isEmpty() || expiryTime < items[static_cast<std::size_t>(head)]->lastUsedTime()) return -1;

  // Search logical positions 0..r, counted from the head, and map each to its
  // slot. Example, size 8, head 7, tail 4:
  //   slots    [ 2, 3, 4, 5, -, -, -, 1 ]     logical 0 is slot 7 (the head),
  //              0  1  2  3  4  5  6  7       logical 4 (r) is slot 3.
  const int basel = head;
  int l = 0;
  int r = (tail - 1 - head + nlen) % nlen;
  while (l <= r) {
    const int mid = l + ((r - l) >> 1);
    const int tmid = (mid + basel + nlen) % nlen;
    if (expiryTime < items[static_cast<std::size_t>(tmid)]->lastUsedTime()) {
      r = mid - 1;
    } else {
      l = mid + 1;
    }
  }
  return (r + basel + nlen) % nlen;
}

void LoopQueue::reset() {
  if (isEmpty()) return;
  while (Worker* w = detach()) w->finish(rules::kRelease);
  // Since v2.11.2 the slots and size stay: a PreAlloc pool can be rebooted.
  head = 0;
  tail = 0;
}

}  // namespace poolscope::ants
