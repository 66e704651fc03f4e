// The runtime's Ms and Ps (runtime.h), shared by its three files:
// runtime.cpp (scheduling), waits.cpp (blocking, waking, timers), sysmon.cpp.
#pragma once

#include <time.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>

#include "pools/core/goroutines/runtime.h"

namespace poolscope::goroutines {

// A P: the right to run goroutines, and the run queue that goes with it.
struct P {
  int id = 0;
  std::mutex m;  // runq and runnext
  std::deque<G*> runq;
  G* runnext = nullptr;
  std::atomic<int> size{0};          // runq + runnext: what a stealer or sysmon looks at unlocked
  std::atomic<M*> owner{nullptr};    // the M holding it; sysmon retakes it by CAS
  std::atomic<std::uint64_t> schedtick{0};  // bumped at every goroutine switch on it
  // sysmon's last look.
  std::uint64_t seen_tick = 0;
  std::int64_t seen_at = 0;
  std::int64_t seen_cpu = -1;
};

// An M: an OS thread, its g0 the loop of m_main; it runs goroutines while it
// holds a P.
struct M {
  int id = 0;
  std::thread thread;
  clockid_t cpu_clock{};            // its thread's CPU time, for sysmon
  int tid = 0;                      // and its state (/proc/self/task/TID/stat)
  std::atomic<bool> cpu_clock_set{false};
  P* p = nullptr;                   // its g0's; sysmon's view is P::owner
  std::atomic<G*> curg{nullptr};
  // Of the goroutine it runs, kept on the M, which lives as long as the
  // runtime (sysmon and stealers look, and a goroutine may end meanwhile):
  // when its run began, and sysmon's request that it yield.
  std::atomic<std::int64_t> run_started_ns{0};
  std::atomic<bool> preempt{false};
  bool spinning = false;
  std::uint64_t schedtick = 0;
  std::uint64_t rng = 0;
  // Parked in stopm until handed a P (or woken for a timer, or the end).
  std::mutex park_m;
  std::condition_variable park_cv;
  bool woken = false;
  P* handed = nullptr;
  bool handed_spinning = false;
};

// What a goroutine asks its M for when it switches to g0 (G::action).
enum Action : int { kPark = 1, kYield, kPreempted, kLostP };

// The M running on this OS thread (not inlined: a goroutine that moved since
// must read it again, never a kept address).
M* this_m() noexcept;

std::int64_t steady_ns() noexcept;

}  // namespace poolscope::goroutines
