// Java's thread interrupt status, and the two waits the port needs beside
// the queues': Thread.sleep (a task's) and LockSupport.park (a
// Future.get()'s). shutdown(), the setters and tryTerminate interrupt idle
// workers to wake them from workQueue.take()/poll(), which then throw
// InterruptedException so that getTask re-reads the pool's state and
// settings; shutdownNow() and Future.cancel(true) interrupt busy ones too,
// and a task that sleeps with sleep_for() below sees it, as a Java task in
// Thread.sleep does.
//
// C++: threads have no interrupt status, so each thread has an
// InterruptFlag: a worker's is its Worker's (runWorker makes it the current
// one), any other thread's is a thread_local of its own. Java's
// Thread.interrupt() unparks just that thread; here the interrupter sets the
// flag and wakes what the thread may be waiting on: its own park (sleep,
// Future.get) at once, and the queue's waiters through
// BlockingQueue::wake_takers, where each one checks its own flag.
#pragma once

#include <atomic>
#include <mutex>

#include "pools/core/clock.h"
#include "pools/core/interrupt.h"
#include "pools/java/exceptions.h"

namespace poolscope::java {

// C++: the flag itself is the core's (pools/core/interrupt.h), so that the
// scenario engine's sleep tasks see it without knowing Java.
using poolscope::current_interrupt;
using poolscope::InterruptFlag;
using poolscope::set_current_interrupt;

// What Lock.lockInterruptibly() and Condition.await() do on entry and on
// every wake-up: an interrupted thread stops waiting, its status cleared.
inline void throw_if_interrupted(InterruptFlag& self) {
  if (self.test_and_clear()) throw InterruptedException();
}

// Thread.sleep(millis), on `clock`: throws InterruptedException (the status
// cleared) if the thread is interrupted before or while it sleeps. Task
// bodies use it where a Java task would call Thread.sleep, so that
// shutdownNow() and Future.cancel(true) end the sleep as they do in Java.
inline void sleep_for(Clock& clock, Nanos d) {
  if (!sleep_interruptibly(clock, d)) throw InterruptedException();
}

// Condition.await(): waits until signalled; throws if interrupted.
template <class Lock>
void await(CondVar& cond, Lock& lock, InterruptFlag& self) {
  throw_if_interrupted(self);
  cond.wait(lock);
  throw_if_interrupted(self);
}

// Condition.awaitNanos(): as await(), but on `clock` and until `deadline`.
template <class Lock>
void await_until(CondVar& cond, Lock& lock, Clock& clock, Time deadline, InterruptFlag& self) {
  throw_if_interrupted(self);
  cond.wait_until(lock, clock, deadline);
  throw_if_interrupted(self);
}

}  // namespace poolscope::java
