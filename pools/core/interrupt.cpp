#include "pools/core/interrupt.h"

#include "pools/core/scheduler.h"

namespace poolscope {

namespace {
struct ThreadInterrupt {
  InterruptFlag own;               // the thread's own status
  InterruptFlag* current = nullptr;  // a worker's while it runs
};
struct InterruptTag;
ThreadInterrupt& this_thread_interrupt() { return thread_value<ThreadInterrupt, InterruptTag>(); }
}  // namespace

InterruptFlag& current_interrupt() {
  ThreadInterrupt& t = this_thread_interrupt();
  return t.current ? *t.current : t.own;
}
void set_current_interrupt(InterruptFlag* flag) { this_thread_interrupt().current = flag; }

bool sleep_interruptibly(Clock& clock, Nanos d) {
  InterruptFlag& self = current_interrupt();
  const Time deadline = clock.now() + d;
  for (;;) {
    if (self.test_and_clear()) return false;
    if (clock.now() >= deadline) return true;
    self.park_until(clock, deadline);
  }
}

}  // namespace poolscope
