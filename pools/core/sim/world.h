// A deterministic simulation: the same design code, run one thread at a time
// on virtual time, so that a seed and the settings decide everything.
//
// A World is the core's Scheduler (pools/core/scheduler.h): while it runs,
// it schedules the one OS thread that called run(), and every Thread
// (poolscope::Thread) started inside it is a fiber on that OS thread. The
// threads switch only at scheduling points, which are poolscope's own
// primitives, each asking the Scheduler: Mutex::lock, CondVar's waits
// and notifies, Thread start and join, go::Parker, this_thread::yield,
// spin_until, and the clock's sleeps. At each point the scheduler (the
// Policy) picks the next thread among those runnable now, from its seed.
//
// Time is the World's own: it starts at 0 and moves only when no thread can
// run, straight to the next thing due (a timer, the end of a computation, a
// thread becoming ready after a wake-up's latency), as in Go's
// testing/synctest. Code between two points takes no virtual time; what does
// is priced by the machine model (machine.h): CPUs that computing threads
// hold, and costs for a thread start, a wake-up and a hand-off.
//
// What cannot happen silently:
//   - every thread blocked and nothing due: a deadlock, reported with each
//     thread and the point it waits at;
//   - a thread that runs on without reaching a point (a busy-wait on a plain
//     atomic, a raw std::mutex or sleep_for the World cannot see): the stuck
//     watch (stuck_watch.h) reports it after Settings::stuck_after of wall
//     time and exits, on the desktop; a browser has no second thread to see it;
//   - points without end at one instant (a spin with no yield): a livelock.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <map>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <queue>
#include <stdexcept>
#include <string>
#include <vector>

#include "pools/core/clock.h"
#include "pools/core/scheduler.h"
#include "pools/core/sim/decision.h"
#include "pools/core/sim/machine.h"
#include "pools/core/sync.h"

namespace poolscope::sim {

class Fiber;
class StuckWatch;

// A simulation that cannot go on: deadlock, livelock. what() says which, at
// what virtual time, and lists the threads with the point each was at.
class Failure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One simulated thread. What the core's wait lists link of it (the list it
// is blocked on, its neighbours there) is its ScheduledThread part.
struct VThread : ScheduledThread {
  enum class State { runnable, blocked, delayed, cpu_wait, computing, done };
  std::uint64_t id = 0;
  std::string name;
  std::string group;  // the pool (or part of the run) it works for, inherited from its creator
  std::unique_ptr<Fiber> fiber;
  State state = State::runnable;
  const char* where = "start";  // the last scheduling point it reached
  const void* object = nullptr;  // what that point touches (a primitive's wait list), if it said
  // While blocked (on `list`): whether its deadline (if any) passed before a wake-up.
  bool timed_out = false;
  std::uint64_t wait_token = 0;  // bumped on each enlist and wake: a stale timeout is ignored
  std::uint64_t generation = 0;  // bumped on each ready or slice event scheduled: stale ones are ignored
  Nanos cpu_left{0};             // computing: still to burn
  Nanos slice{0};                // computing: the current slice
  WaitList joiners;
  std::uint64_t priority = 0;  // pct
  bool detached = false;       // no Thread object joins it
  // Per-thread values (thread_value<T>), created on first use.
  std::vector<std::pair<const void*, std::shared_ptr<void>>> locals;
};

class World final : public Scheduler {
 public:
  explicit World(Settings settings = {});
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  // Runs `root` as the first thread, "main", on this OS thread, until it
  // returns. Threads still alive then were never joined: they are listed in
  // leaked() and abandoned. Rethrows what escaped `root`; throws Failure if
  // the simulation cannot go on. The same as start() and run_for() until it
  // returns true.
  void run(std::move_only_function<void()> root);
  // run() in slices, for a caller that must get its OS thread back now and
  // then (a web page's frame): start() makes `root` the main thread and runs
  // nothing; run_for() runs at most `max_switches` switches to a thread and
  // returns true once `root` has returned (rethrowing and throwing as run()
  // does). A World runs once. Its threads' code runs only inside run_for(),
  // so between slices the caller may do anything but call into the pools.
  void start(std::move_only_function<void()> root);
  bool run_for(std::uint64_t max_switches);

  const Settings& settings() const { return settings_; }
  // The virtual clock: what every design of the run waits on.
  Clock& clock() override { return *clock_; }
  Time now() const override { return Time(now_ns_.load(std::memory_order_relaxed)); }
  std::uint64_t steps() const { return steps_; }      // scheduling points reached
  std::uint64_t switches() const { return switches_.load(std::memory_order_relaxed); }
  std::uint64_t threads_started() const { return next_id_ - 1; }
  const std::vector<std::string>& leaked() const { return leaked_; }
  // The world thread's CPU time consumed by tasks and costs, per group.
  Nanos cpu_used() const { return cpu_used_; }

  // Pacing for a live view: called (on the World's OS thread) before virtual
  // time moves to `to`. It may sleep to keep virtual time near wall time
  // times a speed, or block while paused, and return true; or, where the OS
  // thread must not block (a web page's frame), return false: time stays,
  // and run_for() returns, to go on from here at the next slice.
  void set_pacer(std::function<bool(Time from, Time to)> pacer) { pacer_ = std::move(pacer); }

  // Being the scheduler (decision.h): with a Chooser set (before start()),
  // every decision (two or more threads runnable) is the Chooser's, and
  // run_for() returns false while it pauses. Unset, it costs one branch.
  void set_chooser(Chooser* chooser) { chooser_ = chooser; }
  // The thread picked at each decision so far while a Chooser was set, by
  // id: the schedule that, with the same settings, replays this run.
  const std::vector<std::uint64_t>& schedule() const { return schedule_; }

  // --- the Scheduler, for poolscope's primitives, from the running thread --
  // (scheduler.h says what each call does; here, what it costs in the World.)
  VThread& current() override { return *current_; }
  // A scheduling point: another runnable thread may run first.
  void point(const char* where) override;
  void point_on(const char* where, const void* object) override;
  // A spin-yield: a point that also burns Costs::yield of CPU.
  void yield(const char* where) override;
  // Holds a CPU for `d` of virtual time (a spin task, a cost).
  void compute(Nanos d, const char* where) override;
  // block() (the Scheduler's enlist, then sleep) on virtual time.
  void enlist(WaitList& list, const char* where, std::optional<Time> deadline) override;
  bool sleep() override;
  // The woken are ready after Costs::wake, and the waker pays
  // Costs::handoff; which one wake_one wakes is the policy's choice.
  std::size_t wake_one(WaitList& list) override;
  std::size_t wake_all(WaitList& list) override;
  void wait_on(const void* address, const std::function<bool()>& unchanged) override;
  void wake_on(const void* address, bool all) override;
  // Starts a thread running `body`; the creator pays Costs::start.
  VThread* spawn(std::string name, std::move_only_function<void()> body) override;
  // Blocks until `t` has ended, then forgets it.
  void join(ScheduledThread* t) override;
  // Lets `t` end on its own (a detached thread): the World forgets it then.
  void detach(VThread* t);
  // The modelled machine's CPUs (Settings::cpus).
  int cpus() const override { return settings_.cpus; }
  // The one random stream every choice of the run draws from.
  std::uint64_t random() override;
  // The group threads started from the current thread join (the engine
  // names each pool's threads after the pool).
  void set_group(std::string group) { current_->group = std::move(group); }

  // The current thread's value for `key` (thread_value in scheduler.h), made
  // by `make` on first use and destroyed with `destroy` when the thread is.
  void* local(const void* key, void* (*make)(), void (*destroy)(void*)) override;

  // Every thread alive, one line each: name, group, state, last point.
  std::string describe_threads() const;

  // For the stuck watch (stuck_watch.h), from another OS thread: the thread
  // switched to last, while it runs, and the last point it reached.
  const VThread* running() const { return running_.load(std::memory_order_relaxed); }
  const char* running_where() const { return running_where_.load(std::memory_order_relaxed); }

 private:
  struct Event {
    enum Kind : std::uint8_t { timeout, ready, slice_end };
    Time at;
    std::uint64_t seq;
    std::uint64_t thread;  // by id: the thread may have ended and been joined since
    Kind kind;
    std::uint64_t token;  // the thread's wait_token (timeout) or generation (ready, slice_end)
    bool operator>(const Event& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };
  class VirtualClock;
  friend class VirtualClock;

  void make_runnable(VThread* t);
  void make_ready_after(VThread* t, Nanos delay);
  void push_event(Time at, VThread* t, Event::Kind kind, std::uint64_t token);
  void fire(const Event& e);
  void delist(VThread* t);
  void wake(VThread* t);
  VThread* pick();
  std::size_t policy_index();
  VThread* choose();  // a Chooser's decision; nullptr: it pauses
  Candidate candidate(const VThread& t);
  void run_thread(VThread* t);
  void finish(VThread* t);
  bool advance();  // time on to the next event (there is one); false if the pacer holds it
  void take_cpu(VThread* t);
  void dispatch_cpus();
  void switch_out();
  void fail(std::string what);
  void count_step();

  Settings settings_;
  std::unique_ptr<Clock> clock_;
  std::atomic<std::int64_t> now_ns_{0};
  std::uint64_t rng_[4];
  std::map<std::uint64_t, std::unique_ptr<VThread>> threads_;  // alive (or ended, not yet joined), by id
  std::vector<VThread*> runnable_;                 // in the order they became runnable
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
  std::deque<VThread*> cpu_queue_;
  std::map<const void*, WaitList> futexes_;  // by address; entries stay (a list must not move while enlisted)
  int cpus_busy_ = 0;
  VThread* current_ = nullptr;
  VThread* root_ = nullptr;
  std::uint64_t next_id_ = 1;
  std::uint64_t seq_ = 0;
  std::uint64_t steps_ = 0;
  std::uint64_t steps_this_instant_ = 0;
  std::vector<std::uint64_t> pct_change_points_;  // sorted, pct only
  std::uint64_t pct_next_low_ = 0;
  std::atomic<std::uint64_t> switches_{0};
  Nanos cpu_used_{0};
  std::vector<std::string> leaked_;
  std::string failure_;  // set by fail(): run() throws it
  std::exception_ptr root_error_;
  std::function<bool(Time, Time)> pacer_;
  // What the stuck watch reads: which thread runs, and where it was last.
  std::atomic<VThread*> running_{nullptr};
  std::atomic<const char*> running_where_{nullptr};
  std::unique_ptr<StuckWatch> watch_;  // from the first slice until the run ends or fails
  bool finished_ = false;
  // Being the scheduler (decision.h).
  Chooser* chooser_ = nullptr;
  std::vector<std::uint64_t> schedule_;
  VThread* yielder_ = nullptr;        // the thread that just yielded at a point: fifo keeps it running
  std::optional<Decision> pending_;   // asked, not answered: the Chooser paused
  std::map<const void*, int> object_numbers_;
  struct Activation;
};

// The World running on this OS thread, or nullptr in a real run.
inline World* active() noexcept { return dynamic_cast<World*>(this_thread::scheduler()); }

}  // namespace poolscope::sim
