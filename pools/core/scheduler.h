// The one hook by which something other than the OS can schedule the core's
// threads: where a thread waits, wakes, yields, computes, reads the time,
// starts and joins.
//
// Every wait of every design goes through poolscope's primitives (sync.h,
// clock.h, thread.h, spin.h, go/). Each asks this_thread::scheduler() first:
//   - nullptr, a real run: the OS schedules. The primitive is the standard
//     one (std::mutex, a futex, std::thread, steady_clock), written inline in
//     the primitive, so that the real path costs one thread-local read and a
//     branch, as it did before there was a hook;
//   - a Scheduler: the primitive asks it instead, through the calls below.
// The simulation's sim::World (pools/core/sim/world.h) is the one Scheduler:
// it installs itself on the OS thread it runs on. The core never names it,
// so the dependency runs one way: the simulation knows the core, the core
// knows no simulation (tests/tools/check_core_direction.sh).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>

namespace poolscope {

class Clock;
struct WaitList;

// A thread a Scheduler runs, as the core holds it: its identity (a Mutex's
// owner, a Thread's handle) and its links on the one WaitList it may be
// blocked on. The Scheduler's own thread type derives from it.
struct ScheduledThread {
  WaitList* list = nullptr;
  ScheduledThread* prev = nullptr;
  ScheduledThread* next = nullptr;
};

// The threads blocked on one primitive (a Mutex, a CondVar, a thread's
// joiners), in the order they blocked. Intrusive: the links live in the
// threads, so blocking allocates nothing.
struct WaitList {
  ScheduledThread* head = nullptr;
  ScheduledThread* tail = nullptr;
  bool empty() const { return head == nullptr; }
};

class Scheduler {
 public:
  using Nanos = std::chrono::nanoseconds;
  using Time = std::chrono::nanoseconds;  // on the Scheduler's own time

  // The calling thread.
  virtual ScheduledThread& current() = 0;

  // Scheduling points: another thread may run first.
  virtual void point(const char* where) = 0;
  // The same, naming the object the thread touches next (a primitive's wait
  // list), so that a scheduler can tell which threads contend for one thing.
  virtual void point_on(const char* where, const void* object) {
    (void)object;
    point(where);
  }
  // A spin-yield: a point that costs a little CPU, so a spin lets time move.
  virtual void yield(const char* where) = 0;
  // Holds a CPU for `d` (a spin, a modelled computation).
  virtual void compute(Nanos d, const char* where) = 0;

  // Blocks the calling thread on `list` until woken, or until `deadline`, in
  // two steps: once enlisted, a wake-up is not lost even if the thread is
  // switched out before it sleeps (a CondVar lets go of its lock between
  // them). sleep() returns false if the deadline came first.
  virtual void enlist(WaitList& list, const char* where, std::optional<Time> deadline) = 0;
  virtual bool sleep() = 0;
  bool block(WaitList& list, const char* where, std::optional<Time> deadline = std::nullopt) {
    enlist(list, where, deadline);
    return sleep();
  }
  // Wakes one thread of `list` (which one is the Scheduler's choice), or all;
  // returns how many.
  virtual std::size_t wake_one(WaitList& list) = 0;
  virtual std::size_t wake_all(WaitList& list) = 0;
  // A futex: blocks on `address` unless `unchanged()` is already false (asked
  // once enlisted, so a wake between the two is not lost).
  virtual void wait_on(const void* address, const std::function<bool()>& unchanged) = 0;
  virtual void wake_on(const void* address, bool all) = 0;

  // The time every timed wait under this Scheduler is on, and a Clock that
  // reads it (what default_clock() gives).
  virtual Time now() const = 0;
  virtual Clock& clock() = 0;

  // Starts a thread running `body`; join() blocks until it has ended.
  virtual ScheduledThread* spawn(std::string name, std::move_only_function<void()> body) = 0;
  virtual void join(ScheduledThread* t) = 0;

  // The CPUs of the machine the threads run on (Go's GOMAXPROCS).
  virtual int cpus() const = 0;
  // A random number for a choice the OS would make (a select's poll order):
  // the Scheduler's, so that its runs repeat.
  virtual std::uint64_t random() = 0;
  // The calling thread's value for `key` (thread_value below), made by `make`
  // on first use and destroyed with `destroy` when the thread is.
  virtual void* local(const void* key, void* (*make)(), void (*destroy)(void*)) = 0;

 protected:
  ~Scheduler() = default;
};

namespace detail {
inline thread_local Scheduler* t_scheduler = nullptr;
}

namespace this_thread {
// The Scheduler running on this OS thread, or nullptr: the OS's.
inline Scheduler* scheduler() noexcept { return detail::t_scheduler; }
// Makes `s` this OS thread's Scheduler (nullptr: the OS again); returns the
// one it replaces, to put back.
inline Scheduler* set_scheduler(Scheduler* s) noexcept { return std::exchange(detail::t_scheduler, s); }
}  // namespace this_thread

// A thread_local that follows the scheduled thread: under a Scheduler each of
// its threads has its own T (a simulation's all share one OS thread), else
// the OS thread's own. `Tag` names the variable. For the few per-thread
// values of poolscope (a thread's interrupt status, ...).
template <class T, class Tag>
T& thread_value() {
  if (Scheduler* s = this_thread::scheduler()) [[unlikely]] {
    static const char key = 0;
    return *static_cast<T*>(s->local(&key, [] { return static_cast<void*>(new T()); },
                                     [](void* p) { delete static_cast<T*>(p); }));
  }
  thread_local T value{};
  return value;
}

}  // namespace poolscope
