// The threads blocked on one simulated primitive (a Mutex, a CondVar, a
// thread's joiners), in the order they blocked. Intrusive: the links live in
// the threads, so blocking allocates nothing.
#pragma once

namespace poolscope::sim {

struct VThread;

struct WaitList {
  VThread* head = nullptr;
  VThread* tail = nullptr;
  bool empty() const { return head == nullptr; }
};

}  // namespace poolscope::sim
