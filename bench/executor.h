// What every benchmark drives: one of our registered designs or a reference
// pool, behind the same small interface, so a row of the table differs only
// in the pool under it.
#pragma once

#include <memory>
#include <string>
#include <thread>

#include "pools/core/spin.h"
#include "pools/core/sync.h"
#include "pools/core/task.h"

namespace poolscope::bench {

class Executor {
 public:
  virtual ~Executor() = default;
  // Hands `task` over; false if the pool refused it (fasthttp when every
  // worker is busy, a Java pool whose queue is full). The task is gone either way.
  virtual bool offer(Task task) = 0;
  // Runs everything accepted and joins every thread.
  virtual void shutdown() = 0;
};

// Submits `fn` until the pool takes it, yielding between attempts as the
// fasthttp benchmark's submitter does (runtime.Gosched: poolscope's yield,
// the OS's on threads and the goroutine runtime's on goroutines): a refused
// submitter that spins without yielding starves the very worker it waits
// for. Returns how many times it was refused.
template <class Fn>
std::uint64_t execute(Executor& ex, const Fn& fn) {
  std::uint64_t refused = 0;
  while (!ex.offer(Task(fn))) {
    ++refused;
    poolscope::this_thread::yield();
  }
  return refused;
}

// Submits `fn` until the pool takes it, retrying at once (a pause between
// attempts, a yield every 32): a refusing design's submitter that is back
// the moment a worker is, so each accepted task costs one turn of the
// design's dispatch, and tracing cannot change how often it is refused
// (trace_cost's `/retry:spin` rows). Returns how many times it was refused.
template <class Fn>
std::uint64_t execute_spinning(Executor& ex, const Fn& fn) {
  std::uint64_t refused = 0;
  while (!ex.offer(Task(fn))) {
    if (++refused % 32 == 0)
      poolscope::this_thread::yield();
    else
      cpu_relax();
  }
  return refused;
}

}  // namespace poolscope::bench
