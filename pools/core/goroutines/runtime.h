// Go's runtime for real runs: the core's third Scheduler (scheduler.h), on
// real time, where every thread a design starts is a goroutine, a fiber that
// GOMAXPROCS OS threads run at once, by the rules of Go's scheduler that
// shape a pool (src/runtime/proc.go, Go 1.19 to 1.23):
//
//   Go (proc.go)                      here
//   G, M, P                           G (a sim::Fiber), M (an OS thread), P
//   runqput(pp, gp, next=true)        what a goroutine readies (wake_one, a
//                                     new goroutine) runs next on its P:
//                                     P::runnext, the one it displaces goes
//                                     to the tail of the P's local queue
//   runqget, globrunqget              runnext first, then the local queue;
//                                     the global queue every 61st tick first
//   findRunnable, stealWork           a P with nothing steals half another
//                                     P's queue (runnext last, and only from
//                                     a P that is not about to run it)
//   wakep, spinning Ms                work readied while a P idles wakes an M
//                                     unless one is spinning already; an M
//                                     out of work spins (kSpin) before it
//                                     parks on the OS
//   timers (time.Sleep, timers)       every timed wait (the clock's sleeps,
//                                     go::after, tickers) is a timer of the
//                                     runtime; an idle M sleeps until the first
//   entersyscall / sysmon retake      a goroutine that blocks outside the
//                                     primitives (its thread uses no CPU and
//                                     reaches no point for kRetakeAfter) loses
//                                     its P to another M, which runs the rest
//   checkdead                         every goroutine asleep, nothing timed:
//                                     "all goroutines are asleep - deadlock!",
//                                     each with its wait point (deadlock.cpp)
//
// What differs from Go, besides what a C++ fiber is:
//   - no async preemption: a goroutine that computes without reaching a point
//     holds its P (compute() and point() yield when sysmon asks, as Go's
//     cooperative check at a function's entry does);
//   - no netpoller (poolscope's designs wait on nothing but its primitives);
//   - each run queue has a lock, where Go's local queue is lock-free.
//
// Threads outside the runtime (the caller of run(), a GUI) must not share a
// primitive with its goroutines: they take the OS's path, the goroutines the
// runtime's, and a notify from one side does not reach a waiter on the other
// (as in a simulation).
//
// Thread-locals under migrating fibers: a goroutine moves between OS threads
// at its scheduling points, and g++ may keep a thread-local's address across
// a call (GCC PR 26461), so the core's per-thread values go through the
// Scheduler (thread_value -> local()) or through non-inlined accessors
// (trace_stream.h), and the C++ runtime's exception state is carried by the
// fiber (fiber.h). errno is not: do not read it across a point.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "pools/core/clock.h"
#include "pools/core/scheduler.h"

namespace poolscope::sim {
class Fiber;
}

namespace poolscope::goroutines {

// Every goroutine asleep with nothing timed, when the on_deadlock handler
// returns: what run() throws. what() is the report.
class Deadlock : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Settings {
  int procs = 0;                         // GOMAXPROCS; 0: go::gomaxprocs() of the process
  std::size_t stack_bytes = 256 * 1024;  // each goroutine's stack, reserved (touched pages only are paid)
  // An M out of work spins this long looking for some before it parks.
  std::chrono::nanoseconds spin{std::chrono::microseconds(20)};
  // sysmon: a P whose goroutine neither reached a point nor used CPU for
  // this long is handed to another M (Go: 20 µs, one sysmon tick).
  std::chrono::nanoseconds retake_after{std::chrono::microseconds(20)};
  // sysmon asks a goroutine that ran this long without switching to yield
  // at its next point (Go's forcePreemptNS).
  std::chrono::nanoseconds preempt_after{std::chrono::milliseconds(10)};
};

struct M;
struct P;
struct G;
// The runtime's timers: each a goroutine's timed wait, by deadline (ns on
// Runtime::now()). A goroutine woken first takes its timer out.
using TimerMap = std::multimap<std::int64_t, G*>;

// A goroutine.
struct G : ScheduledThread {
  enum Status : int { runnable, running, waiting, woken_early, parked, dead };
  std::uint64_t id = 0;
  std::string name;
  std::unique_ptr<sim::Fiber> fiber;
  std::atomic<int> status{runnable};
  std::atomic<const char*> where{"start"};  // the last point it reached (for a deadlock's report)
  M* m = nullptr;                           // the M running it, set before each resume
  // What it asked its M for when it switched out (M::switch_to_g0's `why`).
  int action = 0;
  // While enlisted: a timeout came before a wake-up; the wait's number, so
  // that a stale timer is ignored. Under the runtime's wait lock.
  bool timed_out = false;
  bool has_timer = false;
  TimerMap::iterator timer;
  WaitList joiners;  // under the wait lock
  bool done = false;  // under the wait lock
  std::vector<std::pair<const void*, std::shared_ptr<void>>> locals;
};

// What a run did, for tests and reports.
struct Stats {
  std::uint64_t goroutines = 0;        // started
  std::uint64_t switches = 0;          // goroutine resumptions
  std::uint64_t runnext = 0;           // runs taken from a P's runnext
  std::uint64_t stolen = 0;            // goroutines taken from another P's queue
  std::uint64_t global = 0;            // runs taken from the global queue
  std::uint64_t m_parks = 0;           // an M sleeping on the OS for want of work
  std::uint64_t m_wakes = 0;           // wakep / startm waking or starting an M
  std::uint64_t handoffs = 0;          // Ps retaken from an M blocked outside the primitives
  std::uint64_t timers_fired = 0;      // timed waits ended by their deadline
  std::uint64_t ms = 0;                // OS threads started
};

class Runtime final : public Scheduler {
 public:
  explicit Runtime(Settings settings = {});
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  // Runs `root` as goroutine 1, "main", until it returns, on the runtime's
  // own OS threads; the calling thread waits. Goroutines still alive then
  // are listed in leaked() and abandoned (as Go's main returning ends the
  // program). Rethrows what escaped `root`. A Runtime runs once.
  void run(std::move_only_function<void()> root);

  // Called once when every goroutine is asleep with nothing timed (Go's
  // checkdead), with the report; the default prints it to stderr and exits
  // the process with status 2, as Go does. A handler that returns lets the
  // run end: every goroutine is then left where it stood.
  void on_deadlock(std::function<void(const std::string& report)> handler);

  const Settings& settings() const { return settings_; }
  Stats stats() const;
  const std::vector<std::string>& leaked() const { return leaked_; }
  // Every goroutine alive, Go's traceback header each: "goroutine 7 [where]: name".
  std::string describe_goroutines() const;

  // --- the Scheduler (scheduler.h), from a goroutine ----------------------
  G& current() override;
  void point(const char* where) override;
  void yield(const char* where) override;
  void compute(Nanos d, const char* where) override;
  void enlist(WaitList& list, const char* where, std::optional<Time> deadline) override;
  bool sleep() override;
  std::size_t wake_one(WaitList& list) override;
  std::size_t wake_all(WaitList& list) override;
  void wait_on(const void* address, const std::function<bool()>& unchanged) override;
  void wake_on(const void* address, bool all) override;
  Time now() const override;
  Clock& clock() override;
  G* spawn(std::string name, std::move_only_function<void()> body) override;
  void join(ScheduledThread* t) override;
  int cpus() const override { return procs_; }
  std::uint64_t random() override;
  void* local(const void* key, void* (*make)(), void (*destroy)(void*)) override;
  bool parallel() const override { return true; }
  Nanos span_on_own_time(const Clock& clock, Nanos ahead) const override;

 private:
  friend struct M;
  class RealClock;

  // Scheduling (runtime.cpp).
  void m_main(M* m);
  G* find_runnable(M* m);
  void execute(M* m, G* g);
  void after_switch(M* m, G* g);
  G* runq_get(P* p, bool* from_next);
  void runq_put(P* p, G* g, bool next);
  G* steal_from(P* victim, P* into, bool take_next);
  G* global_get(P* p);
  void global_put(G* g);
  void ready(G* g);       // a parked or waiting goroutine may run again
  void make_runnable(G* g, bool next);
  void wakep();
  void startm(P* p, bool spinning);
  void stopm(M* m);  // parks m until it is handed a P (or the run ends)
  P* pidle_get();
  void pidle_put(P* p);
  void switch_to_g0(G* g, int why);
  void finish(M* m, G* g);
  void destroy(G* g);
  M* new_m();

  // Waiting (waits.cpp).
  void enlist_locked(G* g, WaitList& list, const char* where, std::optional<Time> deadline);
  void delist_locked(G* g);
  void take_off(WaitList& list, bool all, std::vector<G*>& woken);
  bool run_timers();           // true if one fired
  std::int64_t next_timer() const;  // ns, or INT64_MAX

  // sysmon and the deadlock check (sysmon.cpp).
  void sysmon();
  void check_dead();

  Settings settings_;
  int procs_ = 1;
  std::unique_ptr<Clock> clock_;
  std::int64_t origin_ns_ = 0;  // steady_clock at construction

  std::vector<std::unique_ptr<P>> ps_;
  std::vector<std::unique_ptr<M>> ms_;  // under sched_m_

  // sched_m_: the global queue, idle Ps and Ms, the G registry.
  mutable std::mutex sched_m_;
  std::deque<G*> global_;
  std::atomic<int> global_size_{0};
  std::vector<P*> pidle_;
  std::atomic<int> npidle_{0};
  std::vector<M*> midle_;
  std::atomic<int> nmspinning_{0};
  std::unordered_set<G*> gs_;  // owned: alive, or ended and not yet joined
  std::uint64_t next_gid_ = 1;
  std::atomic<bool> stopping_{false};

  // wait_m_: every WaitList, the futex lists, the timers; never held while
  // taking sched_m_ the other way round (order: wait_m_, a P's lock, sched_m_).
  mutable std::mutex wait_m_;
  std::unordered_map<const void*, WaitList> futexes_;  // by address; an entry goes once empty
  TimerMap timers_;
  std::atomic<std::int64_t> first_timer_{INT64_MAX};

  // The end of the run.
  G* root_ = nullptr;
  std::mutex done_m_;
  std::condition_variable done_cv_;
  bool root_done_ = false;
  std::exception_ptr root_error_;
  std::vector<std::string> leaked_;
  std::thread sysmon_;
  std::function<void(const std::string&)> on_deadlock_;
  std::atomic<bool> dead_reported_{false};

  // Counters (Stats).
  mutable std::atomic<std::uint64_t> n_switches_{0}, n_runnext_{0}, n_stolen_{0}, n_global_{0}, n_m_parks_{0},
      n_m_wakes_{0}, n_handoffs_{0}, n_timers_{0};
};

// The Runtime scheduling the calling goroutine, or nullptr.
Runtime* active() noexcept;

}  // namespace poolscope::goroutines
