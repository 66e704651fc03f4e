// The World's scheduler. Index:
//   run, start, run_for   the loop: run a runnable thread, or move time on
//   point, yield          scheduling points of a running thread
//   compute, CPUs         the machine model: threads that hold a virtual CPU
//   enlist, sleep, wake   blocking and waking on a WaitList
//   spawn, join           threads
//   advance, fire         virtual time and its events
//   fail                  what stops a simulation that cannot go on
#include "pools/core/sim/world.h"

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <sstream>

#include "pools/core/duration.h"
#include "pools/core/sim/fiber.h"
#include "pools/core/sim/stuck_watch.h"

namespace poolscope::sim {

namespace {

std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

const char* state_name(VThread::State s) {
  switch (s) {
    case VThread::State::runnable: return "runnable";
    case VThread::State::blocked: return "blocked";
    case VThread::State::delayed: return "waking up";
    case VThread::State::cpu_wait: return "waiting for a CPU";
    case VThread::State::computing: return "computing";
    case VThread::State::done: return "ended";
  }
  return "?";
}

std::string seconds(Time t) { return format_duration(t); }

// The World's every thread is a VThread: what the core's wait lists hold of it.
VThread* of(ScheduledThread* t) { return static_cast<VThread*>(t); }

}  // namespace

// The virtual clock every design of the run is given (and default_clock()
// returns inside the World). CondVar's timed waits go to the World directly;
// this is for code that calls the clock itself.
class World::VirtualClock final : public Clock {
 public:
  explicit VirtualClock(World& w) : w_(w) {}
  Time now() const override { return w_.now(); }
  std::cv_status wait_until(CondVar& cv, LockRef lock, Time deadline) override {
    if (!active()) throw std::logic_error("a simulation's clock was waited on outside its simulation");
    return cv.wait_until(lock, *this, deadline);  // CondVar sees the World and waits in it
  }

 private:
  World& w_;
};

World::World(Settings settings) : settings_(std::move(settings)), clock_(std::make_unique<VirtualClock>(*this)) {
  std::uint64_t x = settings_.seed;
  for (auto& r : rng_) r = splitmix64(x);
  if (settings_.policy == Policy::pct) {
    // d-1 points among the first pct_steps where the running thread's
    // priority drops below every other's (Burckhardt et al., ASPLOS 2010).
    for (int i = 1; i < settings_.pct_depth; ++i)
      pct_change_points_.push_back(1 + random() % std::max<std::uint64_t>(1, settings_.pct_steps));
    std::sort(pct_change_points_.begin(), pct_change_points_.end());
  }
}

World::~World() {
  // Threads a failed run (or a leak) left where they stood are never resumed.
  // Their fibers are kept, reachable and never destroyed, as threads that
  // never end would be: their frames still point into what they held.
  // Worlds on different OS threads may end at once: the list has a lock.
  static auto* graveyard = new std::vector<std::unique_ptr<Fiber>>;
  static std::mutex graveyard_lock;
  std::lock_guard<std::mutex> hold(graveyard_lock);
  for (auto& [id, t] : threads_)
    if (t->state != VThread::State::done) {
      t->fiber->abandon();
      graveyard->push_back(std::move(t->fiber));
    }
}

std::uint64_t World::random() {
  // xoshiro256**: the same stream on every machine.
  const std::uint64_t result = rotl(rng_[1] * 5, 7) * 9;
  const std::uint64_t t = rng_[1] << 17;
  rng_[2] ^= rng_[0];
  rng_[3] ^= rng_[1];
  rng_[1] ^= rng_[2];
  rng_[0] ^= rng_[3];
  rng_[2] ^= t;
  rng_[3] = rotl(rng_[3], 45);
  return result;
}

// --- run ----------------------------------------------------------------

// Makes `w` the Scheduler of this OS thread for as long as it lives.
struct World::Activation {
  explicit Activation(World* w) {
    if (this_thread::scheduler() && this_thread::scheduler() != w)
      throw std::logic_error("sim::World: another simulation is running on this thread");
    outer = this_thread::set_scheduler(w);
  }
  ~Activation() { this_thread::set_scheduler(outer); }
  Scheduler* outer;
};

void World::run(std::move_only_function<void()> root) {
  start(std::move(root));
  run_for(~std::uint64_t{0});  // no limit: it returns once root has
}

void World::start(std::move_only_function<void()> root) {
  if (root_) throw std::logic_error("sim::World::start: this World has run already");
  Activation on(this);
  // The root runs on a large stack: it is the caller's code (the engine, a test).
  std::size_t keep = settings_.stack_bytes;
  settings_.stack_bytes = std::max<std::size_t>(keep, 8u << 20);
  current_ = nullptr;
  root_ = spawn("main", std::move(root));
  settings_.stack_bytes = keep;
}

bool World::run_for(std::uint64_t max_switches) {
  if (!root_) throw std::logic_error("sim::World::run_for: start() first");
  if (finished_) return true;
  Activation on(this);
  // Watching the OS thread that runs the slices (the first one's).
  if (!watch_) watch_ = std::make_unique<StuckWatch>(*this);
  // On a failure or the end, the watch stops before anything is thrown.
  struct EndWatch {
    World& w;
    ~EndWatch() {
      if (w.finished_ || !w.failure_.empty()) w.watch_.reset();
    }
  } end_watch{*this};
  for (std::uint64_t n = 0; root_->state != VThread::State::done; ++n) {
    if (n == max_switches) return false;
    VThread* t;
    if (chooser_ && runnable_.size() > 1) [[unlikely]] {
      if (!(t = choose())) return false;  // paused: the same decision is asked at the next slice
    } else {
      t = pick();
    }
    if (t) {
      run_thread(t);
    } else if (events_.empty()) {
      fail("deadlock: every thread is blocked and nothing is due");
    } else if (!advance()) {
      return false;  // the pacer holds virtual time back: the next slice goes on
    }
    if (!failure_.empty()) throw Failure(failure_);
  }
  finished_ = true;
  for (auto& [id, t] : threads_)
    if (t.get() != root_ && t->state != VThread::State::done)
      leaked_.push_back(t->name + (t->group.empty() ? "" : " (" + t->group + ")") + " " + state_name(t->state) +
                        " at " + t->where);
  if (root_error_) std::rethrow_exception(root_error_);
  return true;
}

std::size_t World::policy_index() {
  std::size_t i = 0;
  switch (settings_.policy) {
    case Policy::fifo:
      // Without a Chooser the yielder never left: it goes on, as fifo does.
      if (yielder_) i = static_cast<std::size_t>(std::find(runnable_.begin(), runnable_.end(), yielder_) - runnable_.begin());
      break;
    case Policy::random: i = random() % runnable_.size(); break;
    case Policy::pct:
      for (std::size_t k = 1; k < runnable_.size(); ++k)
        if (runnable_[k]->priority > runnable_[i]->priority) i = k;
      break;
  }
  return i;
}

VThread* World::pick() {
  if (runnable_.empty()) return nullptr;
  const std::size_t i = policy_index();
  VThread* t = runnable_[i];
  runnable_.erase(runnable_.begin() + static_cast<std::ptrdiff_t>(i));
  return t;
}

// --- being the scheduler ---------------------------------------------------

namespace {

// What a thread standing at `where` does when it runs on.
std::string next_step(const VThread& t) {
  const std::string_view w = t.where;
  if (w == "start") return "starts running";
  if (w == "Mutex::lock") return "takes the lock, or waits if another thread holds it";
  if (w == "Mutex::try_lock") return "tries the lock once";
  if (w == "Mutex::lock (held)") return "woken by an unlock: tries the lock again";
  if (w == "CondVar::wait" || w == "CondVar::wait_until")
    return t.timed_out ? "its wait timed out: takes its lock back" : "woken: takes its lock back and looks again";
  if (w == "CondVar::wait_until (deadline passed)") return "goes on: its deadline had passed";
  if (w == "CondVar::notify_one") return "wakes one waiter of the condition";
  if (w == "CondVar::notify_all") return "wakes every waiter of the condition";
  if (w == "Thread start") return "goes on after starting a thread";
  if (w == "Thread::join") return "goes on: the thread it joined has ended";
  if (w == "atomic wait") return "woken: reads the value again";
  if (w == "wake-up" || w == "wake-up hand-off") return "goes on after the wake-up";
  return "goes on from " + std::string(w);
}

const char* object_kind(std::string_view where) {
  if (where.starts_with("Mutex")) return "lock";
  if (where.starts_with("CondVar")) return "condition";
  if (where.starts_with("atomic")) return "futex";
  return "object";
}

}  // namespace

Candidate World::candidate(const VThread& t) {
  Candidate c{.thread = t.id, .name = t.name, .group = t.group, .where = t.where, .next = next_step(t), .object = t.object};
  if (t.object) {
    auto [it, added] = object_numbers_.try_emplace(t.object, static_cast<int>(object_numbers_.size()) + 1);
    c.object_label = std::string(object_kind(t.where)) + " #" + std::to_string(it->second);
  }
  return c;
}

VThread* World::choose() {
  if (!pending_) {
    // The policy's pick first, drawing from the random stream as pick()
    // would: a Chooser that takes it runs the seed's own run.
    Decision d{.index = schedule_.size(), .at = now(), .candidates = {}, .policy_pick = policy_index()};
    for (const VThread* t : runnable_) d.candidates.push_back(candidate(*t));
    pending_ = std::move(d);
  }
  const std::optional<std::size_t> c = chooser_->choose(*pending_);
  if (!c) return nullptr;
  if (*c >= runnable_.size()) throw std::logic_error("sim::Chooser picked a candidate that does not exist");
  VThread* t = runnable_[*c];
  runnable_.erase(runnable_.begin() + static_cast<std::ptrdiff_t>(*c));
  schedule_.push_back(t->id);
  pending_.reset();
  yielder_ = nullptr;
  return t;
}

void World::run_thread(VThread* t) {
  current_ = t;
  running_.store(t, std::memory_order_relaxed);
  switches_.fetch_add(1, std::memory_order_relaxed);
  bool ended = t->fiber->resume();
  running_.store(nullptr, std::memory_order_relaxed);
  current_ = nullptr;
  if (ended) finish(t);
}

void World::switch_out() {
  running_where_.store(current_->where, std::memory_order_relaxed);
  Fiber::suspend();
}

// --- points -------------------------------------------------------------

void World::count_step() {
  running_where_.store(current_->where, std::memory_order_relaxed);
  ++steps_;
  if (++steps_this_instant_ > settings_.max_steps_per_instant)
    fail("livelock: " + std::to_string(settings_.max_steps_per_instant) +
         " scheduling points without virtual time moving (a loop that locks, notifies or polls without "
         "ever waiting or yielding)");
}

void World::point(const char* where) { point_on(where, nullptr); }

void World::point_on(const char* where, const void* object) {
  VThread* self = current_;
  self->where = where;
  self->object = object;
  count_step();
  if (runnable_.empty()) return;
  if (settings_.policy == Policy::pct && pct_next_low_ < pct_change_points_.size() &&
      steps_ >= pct_change_points_[pct_next_low_]) {
    ++pct_next_low_;
    self->priority = static_cast<std::uint64_t>(settings_.pct_depth) - pct_next_low_;
  }
  if (chooser_) [[unlikely]] {
    // Every point with another thread runnable is a decision, the Chooser's.
    // Whether this thread would have gone on is the policy's pick
    // (policy_index): fifo keeps the yielder, pct the highest priority.
    yielder_ = self;
    make_runnable(self);
    return switch_out();
  }
  if (settings_.policy == Policy::fifo) return;
  if (settings_.policy == Policy::pct) {
    bool outranked = std::any_of(runnable_.begin(), runnable_.end(),
                                 [&](VThread* t) { return t->priority > self->priority; });
    if (!outranked) return;
  }
  make_runnable(self);
  switch_out();
}

void World::yield(const char* where) {
  current_->where = where;
  current_->object = nullptr;
  count_step();
  compute(settings_.costs.yield, where);
}

// --- the machine: CPUs ----------------------------------------------------

void World::compute(Nanos d, const char* where) {
  if (d <= Nanos(0)) return;
  VThread* self = current_;
  self->where = where;
  self->object = nullptr;
  self->cpu_left = d;
  take_cpu(self);
  switch_out();
}

void World::take_cpu(VThread* t) {
  if (cpus_busy_ < settings_.cpus) {
    ++cpus_busy_;
    t->state = VThread::State::computing;
    t->slice = std::min(t->cpu_left, settings_.costs.quantum);
    push_event(now() + t->slice, t, Event::slice_end, ++t->generation);
  } else {
    t->state = VThread::State::cpu_wait;
    cpu_queue_.push_back(t);
  }
}

void World::dispatch_cpus() {
  while (cpus_busy_ < settings_.cpus && !cpu_queue_.empty()) {
    VThread* t = cpu_queue_.front();
    cpu_queue_.pop_front();
    take_cpu(t);
  }
}

// --- blocking and waking ----------------------------------------------------

void World::enlist(WaitList& list, const char* where, std::optional<Time> deadline) {
  VThread* self = current_;
  self->where = where;
  self->object = &list;
  self->list = &list;
  self->prev = list.tail;
  self->next = nullptr;
  (list.tail ? list.tail->next : list.head) = self;
  list.tail = self;
  self->timed_out = false;
  ++self->wait_token;
  if (deadline && *deadline != Time::max()) push_event(std::max(*deadline, now()), self, Event::timeout, self->wait_token);
}

bool World::sleep() {
  VThread* self = current_;
  if (self->list) {  // not woken (or timed out) since it enlisted
    self->state = VThread::State::blocked;
    switch_out();
    // Back onto a CPU. A timer's sleeper is exempt, so that a deadline reads
    // exactly (a keep-alive of 60 s ends at 60 s, not 60 s and 2 µs).
    if (!self->timed_out) compute(settings_.costs.resume, "wake-up");
  }
  return !self->timed_out;
}

void World::delist(VThread* t) {
  WaitList& l = *t->list;
  (t->prev ? t->prev->next : l.head) = t->next;
  (t->next ? t->next->prev : l.tail) = t->prev;
  t->list = nullptr;
  t->prev = t->next = nullptr;
  ++t->wait_token;
}

void World::wake(VThread* t) {
  delist(t);
  // A thread woken between enlist() and sleep() (switched out to pay a cost)
  // only leaves the list; sleep() then returns at once.
  if (t->state == VThread::State::blocked) make_ready_after(t, settings_.costs.wake);
}

std::size_t World::wake_one(WaitList& list) {
  if (list.empty()) return 0;
  ScheduledThread* t = list.head;
  if (settings_.policy == Policy::random) {
    // Which waiter a notify_one or an unlock wakes is the scheduler's choice, as POSIX leaves it.
    std::size_t n = 0;
    for (ScheduledThread* w = list.head; w; w = w->next) ++n;
    for (std::size_t k = random() % n; k > 0; --k) t = t->next;
  }
  wake(of(t));
  if (current_) compute(settings_.costs.handoff, "wake-up hand-off");
  return 1;
}

std::size_t World::wake_all(WaitList& list) {
  std::size_t n = 0;
  while (!list.empty()) {
    wake(of(list.head));
    ++n;
  }
  if (n > 0 && current_) compute(settings_.costs.handoff, "wake-up hand-off");
  return n;
}

void World::make_runnable(VThread* t) {
  t->state = VThread::State::runnable;
  runnable_.push_back(t);
}

void World::make_ready_after(VThread* t, Nanos delay) {
  if (delay <= Nanos(0)) return make_runnable(t);
  t->state = VThread::State::delayed;
  push_event(now() + delay, t, Event::ready, ++t->generation);
}

void World::wait_on(const void* address, const std::function<bool()>& unchanged) {
  WaitList& list = futexes_[address];
  enlist(list, "atomic wait", std::nullopt);
  if (!unchanged()) {
    delist(current_);
    return;
  }
  sleep();
}

void World::wake_on(const void* address, bool all) {
  auto it = futexes_.find(address);
  if (it == futexes_.end() || it->second.empty()) return;
  all ? wake_all(it->second) : wake_one(it->second);
}

// --- threads ------------------------------------------------------------------

VThread* World::spawn(std::string name, std::move_only_function<void()> body) {
  auto owned = std::make_unique<VThread>();
  VThread* t = owned.get();
  t->id = next_id_++;
  t->name = std::move(name);
  if (current_) t->group = current_->group;
  // pct: distinct random priorities, all above the values change points assign.
  t->priority = static_cast<std::uint64_t>(settings_.pct_depth) + (random() >> 8);
  t->fiber = std::make_unique<Fiber>(settings_.stack_bytes, std::move(body));
  threads_.emplace(t->id, std::move(owned));
  if (!current_) {
    make_runnable(t);
    return t;
  }
  // The creator pays the start; the new thread runs a wake-up after that.
  compute(settings_.costs.start, "Thread start");
  make_ready_after(t, settings_.costs.wake);
  point("Thread start");
  return t;
}

void World::join(ScheduledThread* joined) {
  VThread* t = of(joined);
  if (t->state != VThread::State::done) block(t->joiners, "Thread::join");
  threads_.erase(t->id);
}

void World::detach(VThread* t) {
  if (t->state == VThread::State::done)
    threads_.erase(t->id);
  else
    t->detached = true;
}

void World::finish(VThread* t) {
  t->state = VThread::State::done;
  if (std::exception_ptr e = t->fiber->error()) {
    if (t == root_) {
      root_error_ = e;
    } else {
      // As std::thread would terminate the process: fail the run, naming the thread.
      std::string what = "an exception";
      try {
        std::rethrow_exception(e);
      } catch (const std::exception& ex) {
        what = std::string("exception: ") + ex.what();
      } catch (...) {
      }
      fail("thread '" + t->name + "' ended with " + what + " (a real thread would terminate the process)");
    }
  }
  while (!t->joiners.empty()) wake(of(t->joiners.head));
  if (t->detached) threads_.erase(t->id);
}

void* World::local(const void* key, void* (*make)(), void (*destroy)(void*)) {
  for (auto& [k, v] : current_->locals)
    if (k == key) return v.get();
  current_->locals.emplace_back(key, std::shared_ptr<void>(make(), destroy));
  return current_->locals.back().second.get();
}

// --- virtual time ---------------------------------------------------------

void World::push_event(Time at, VThread* t, Event::Kind kind, std::uint64_t token) {
  events_.push(Event{at, seq_++, t->id, kind, token});
}

bool World::advance() {
  const Time at = events_.top().at;
  if (at > now()) {
    if (pacer_ && !pacer_(now(), at)) return false;
    now_ns_.store(at.count(), std::memory_order_relaxed);
    steps_this_instant_ = 0;
  }
  while (!events_.empty() && events_.top().at == at) {
    Event e = events_.top();
    events_.pop();
    fire(e);
  }
  dispatch_cpus();
  return true;
}

void World::fire(const Event& e) {
  auto it = threads_.find(e.thread);
  if (it == threads_.end()) return;  // ended and joined: the event is stale
  VThread* t = it->second.get();
  switch (e.kind) {
    case Event::timeout:
      if (t->wait_token != e.token || !t->list) return;  // woken first
      delist(t);
      t->timed_out = true;
      if (t->state == VThread::State::blocked) make_runnable(t);
      return;
    case Event::ready:
      if (t->generation != e.token || t->state != VThread::State::delayed) return;
      make_runnable(t);
      return;
    case Event::slice_end:
      if (t->generation != e.token || t->state != VThread::State::computing) return;
      --cpus_busy_;
      cpu_used_ += t->slice;
      t->cpu_left -= t->slice;
      if (t->cpu_left > Nanos(0)) {
        // Preempted at the quantum's end: behind whoever waits for a CPU.
        t->state = VThread::State::cpu_wait;
        cpu_queue_.push_back(t);
      } else {
        make_runnable(t);
      }
      return;
  }
}

// --- failures -------------------------------------------------------------

std::string World::describe_threads() const {
  std::ostringstream out;
  for (const auto& [id, t] : threads_) {
    if (t->state == VThread::State::done) continue;
    out << "  thread " << t->id << " '" << t->name << "'";
    if (!t->group.empty()) out << " of " << t->group;
    out << ": " << state_name(t->state) << " at " << t->where << "\n";
  }
  return out.str();
}

void World::fail(std::string what) {
  if (failure_.empty())
    failure_ = "simulation failed at virtual time " + seconds(now()) + " (seed " + std::to_string(settings_.seed) +
               ", " + std::string(to_string(settings_.policy)) + " schedule): " + what + "\n" + describe_threads();
  // From a thread: never resumed again (the World throws, and abandons it).
  if (current_) switch_out();
}

}  // namespace poolscope::sim
