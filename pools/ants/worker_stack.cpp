#include "pools/ants/worker_stack.h"

#include "pools/ants/rules.h"

namespace poolscope::ants {

WorkerStack::WorkerStack(int size) { items.reserve(static_cast<std::size_t>(size > 0 ? size : 0)); }

std::error_code WorkerStack::insert(Worker* w) {
  items.push_back(w);
  return {};
}

Worker* WorkerStack::detach() {
  if (items.empty()) return nullptr;
  Worker* w = items.back();
  items.pop_back();
  return w;
}

std::span<Worker* const> WorkerStack::refresh(Nanos duration, Time now) {
  const int n = len();
  if (n == 0) return {};

  const Time expiryTime = now - duration;
  const int index = binarySearch(0, n - 1, expiryTime);

  expiry.clear();
  if (index != -1) {
    // items[0..index] are stale; the rest moves down to the front.
    expiry.assign(items.begin(), items.begin() + index + 1);
    items.erase(items.begin(), items.begin() + index + 1);
  }
  return expiry;
}

int WorkerStack::binarySearch(int l, int r, Time expiryTime) const {
  while (l <= r) {
    const int mid = l + ((r - l) >> 1);  // l + r could overflow (fixed in 2023)
    if (expiryTime < items[static_cast<std::size_t>(mid)]->lastUsedTime()) {
      r = mid - 1;
    } else {
      l = mid + 1;
    }
  }
  return r;
}

void WorkerStack::reset() {
  for (Worker* w : items) w->finish(rules::kRelease);
  items.clear();
}

}  // namespace poolscope::ants
