#include "pools/core/go/chan.h"

namespace poolscope::go::detail {

void WaitQ::enqueue(Sudog* s) {
  s->prev = tail_;
  s->next = nullptr;
  (tail_ ? tail_->next : head_) = s;
  tail_ = s;
  s->queued = true;
  ++n_;
}

Sudog* WaitQ::dequeue() {
  while (Sudog* s = head_) {
    unlink(s);
    if (s->g->claim(s->which)) return s;
    // Its select was completed by another case, or timed out: skip it.
  }
  return nullptr;
}

void WaitQ::remove(Sudog* s) {
  if (s->queued) unlink(s);
}

void WaitQ::unlink(Sudog* s) {
  (s->prev ? s->prev->next : head_) = s->next;
  (s->next ? s->next->prev : tail_) = s->prev;
  s->prev = s->next = nullptr;
  s->queued = false;
  --n_;
}

}  // namespace poolscope::go::detail

#include "pools/core/go/select.h"
#include "pools/core/scheduler.h"

namespace poolscope::go::detail {

std::uint32_t fastrand() {
  // Under a Scheduler (a simulation) the poll order is one more of its choices.
  if (Scheduler* s = this_thread::scheduler()) [[unlikely]]
    return static_cast<std::uint32_t>(s->random() >> 32);
  // xorshift32, seeded per thread from its address: cheap, and nothing here
  // needs more than a fair shuffle of two or three cases.
  thread_local std::uint32_t x = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(&x) >> 4) | 1u;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return x;
}

}  // namespace poolscope::go::detail
