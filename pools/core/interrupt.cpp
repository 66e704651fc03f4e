#include "pools/core/interrupt.h"

namespace poolscope {

namespace {
thread_local InterruptFlag own_interrupt;              // any thread's own status
thread_local InterruptFlag* current = &own_interrupt;  // a worker's while it runs
}  // namespace

InterruptFlag& current_interrupt() { return *current; }
void set_current_interrupt(InterruptFlag* flag) { current = flag ? flag : &own_interrupt; }

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
