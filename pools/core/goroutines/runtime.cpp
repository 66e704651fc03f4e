// The goroutine runtime's scheduler (runtime.h). Index:
//   run                       Ms, Ps and goroutine 1; the end of the run
//   m_main, find_runnable     an M's g0: its P's runnext and queue, the
//                             global queue, timers, stealing, spinning
//   execute, after_switch     running a goroutine and what it asked for
//   ready, wakep, startm,     readying a goroutine; waking or starting an M
//   stopm                     for an idle P; parking an M
//   run queues                runq_put/get (runnext), steal, global
//   the Scheduler             point, yield, compute, spawn, join, local, time
#include "pools/core/goroutines/parts.h"

#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <exception>

#include "pools/core/go/park.h"
#include "pools/core/platform.h"
#include "pools/core/sim/fiber.h"
#include "pools/core/spin.h"

namespace poolscope::goroutines {

namespace {
thread_local M* t_m = nullptr;

std::uint64_t xorshift(std::uint64_t& x) {
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return x;
}
}  // namespace

[[gnu::noinline]] M* this_m() noexcept { return t_m; }

std::int64_t steady_ns() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

Runtime* active() noexcept { return dynamic_cast<Runtime*>(this_thread::scheduler()); }

// The runtime's own clock: real time since the runtime began (what
// default_clock() gives its goroutines).
class Runtime::RealClock final : public Clock {
 public:
  explicit RealClock(const Runtime& rt) : rt_(rt) {}
  Time now() const override { return rt_.now(); }
  std::cv_status wait_until(CondVar& cv, LockRef lock, Time deadline) override {
    if (active() != &rt_) throw std::logic_error("a goroutine runtime's clock was waited on outside its runtime");
    return cv.wait_until(lock, *this, deadline);  // CondVar sees the runtime and waits in it
  }

 private:
  const Runtime& rt_;
};

Runtime::Runtime(Settings settings)
    : settings_(std::move(settings)),
      procs_(settings_.procs > 0 ? settings_.procs : go::gomaxprocs()),
      clock_(std::make_unique<RealClock>(*this)),
      origin_ns_(steady_ns()) {
  for (int i = 0; i < procs_; ++i) {
    auto p = std::make_unique<P>();
    p->id = i;
    ps_.push_back(std::move(p));
  }
}

Runtime::~Runtime() {
  // Goroutines left where they stood (a leak, a deadlock) are never resumed:
  // their stacks are kept, as a thread that never ends keeps its own.
  static auto* graveyard = new std::vector<std::unique_ptr<sim::Fiber>>;
  static std::mutex graveyard_lock;
  std::lock_guard hold(graveyard_lock);
  for (G* g : gs_) {
    if (g->fiber && !g->fiber->finished()) {
      g->fiber->abandon();
      graveyard->push_back(std::move(g->fiber));
    }
    delete g;
  }
}

Time Runtime::now() const { return Time(steady_ns() - origin_ns_); }
Clock& Runtime::clock() { return *clock_; }

Nanos Runtime::span_on_own_time(const Clock& clock, Nanos ahead) const {
  if (&clock == clock_.get()) return ahead;
  double rate = 1.0;
  if (auto* steady = dynamic_cast<const SteadyClock*>(&clock)) rate = steady->scale();
  if (auto* adjustable = dynamic_cast<const AdjustableClock*>(&clock)) rate = adjustable->scale();
  if (rate == 1.0) return ahead;
  const double real = static_cast<double>(ahead.count()) / rate;
  return real >= 9e18 ? Nanos::max() : Nanos(static_cast<std::int64_t>(real));
}

Stats Runtime::stats() const {
  Stats s;
  {
    std::lock_guard g(sched_m_);
    s.goroutines = next_gid_ - 1;
    s.ms = ms_.size();
  }
  s.switches = n_switches_.load();
  s.runnext = n_runnext_.load();
  s.stolen = n_stolen_.load();
  s.global = n_global_.load();
  s.m_parks = n_m_parks_.load();
  s.m_wakes = n_m_wakes_.load();
  s.handoffs = n_handoffs_.load();
  s.timers_fired = n_timers_.load();
  return s;
}

// --- run ----------------------------------------------------------------

void Runtime::run(std::move_only_function<void()> root) {
  if (root_) throw std::logic_error("goroutines::Runtime::run: this Runtime has run already");
  {
    std::lock_guard g(sched_m_);
    root_ = new G();
    root_->id = next_gid_++;
    root_->name = "main";
    // The caller's code (the engine, a test): a large stack, as a main thread has.
    root_->fiber = std::make_unique<sim::Fiber>(std::max<std::size_t>(settings_.stack_bytes, 8u << 20),
                                                std::move(root));
    gs_.insert(root_);
  }
  // P 0 runs main; the other Ps are idle until there is work for them.
  ps_[0]->runq.push_back(root_);
  ps_[0]->size = 1;
  for (int i = procs_ - 1; i >= 1; --i) pidle_put(ps_[static_cast<std::size_t>(i)].get());
  {
    std::lock_guard g(sched_m_);
    M* m = new_m();
    m->p = ps_[0].get();
    ps_[0]->owner = m;
    m->thread = std::thread([this, m] { m_main(m); });
  }
  sysmon_ = std::thread([this] { sysmon(); });
  {
    std::unique_lock lock(done_m_);
    done_cv_.wait(lock, [&] { return root_done_; });
  }
  stopping_ = true;
  {
    std::lock_guard g(sched_m_);
    for (auto& m : ms_) {
      std::lock_guard pm(m->park_m);
      m->woken = true;
      m->park_cv.notify_one();
    }
  }
  sysmon_.join();
  // Every M but those blocked outside the primitives (their goroutine is
  // leaked with them: its thread is detached, as Go's main ending leaves it).
  std::vector<std::thread> threads;
  {
    std::lock_guard g(sched_m_);
    for (auto& m : ms_) threads.push_back(std::move(m->thread));
  }
  for (auto& t : threads) t.join();
  for (G* g : gs_)
    if (g != root_ && g->status.load() != G::dead) leaked_.push_back(g->name + " [" + g->where.load() + "]");
  if (root_error_) std::rethrow_exception(root_error_);
}

M* Runtime::new_m() {  // under sched_m_
  auto owned = std::make_unique<M>();
  M* m = owned.get();
  m->id = static_cast<int>(ms_.size());
  m->rng = 0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(m->id + 1);
  ms_.push_back(std::move(owned));
  return m;
}

// --- an M's g0 ----------------------------------------------------------------

void Runtime::m_main(M* m) {
  t_m = m;
  this_thread::set_scheduler(this);
  platform::name_this_thread("goroutines-m" + std::to_string(m->id));
  m->tid = static_cast<int>(gettid());
  if (pthread_getcpuclockid(pthread_self(), &m->cpu_clock) == 0) m->cpu_clock_set = true;
  while (!stopping_.load(std::memory_order_acquire)) {
    if (!m->p) {
      stopm(m);
      continue;
    }
    if (G* g = find_runnable(m)) {
      // A spinning M that found work stops spinning, and if it was the last
      // one, wakes another to look for more (Go's resetspinning).
      if (m->spinning) {
        m->spinning = false;
        if (nmspinning_.fetch_sub(1) == 1) wakep();
      }
      execute(m, g);
    }
  }
  this_thread::set_scheduler(nullptr);
}

G* Runtime::find_runnable(M* m) {
  P* p = m->p;
  for (;;) {
    if (stopping_.load(std::memory_order_relaxed)) return nullptr;
    if (p->owner.load(std::memory_order_acquire) != m) {  // sysmon gave it to another M
      m->p = nullptr;
      if (m->spinning) {
        m->spinning = false;
        nmspinning_.fetch_sub(1);
      }
      return nullptr;
    }
    if (first_timer_.load(std::memory_order_relaxed) <= now().count()) run_timers();
    // Fairness: the global queue first now and then, or two goroutines that
    // ready each other would keep it waiting forever.
    if (++m->schedtick % 61 == 0 && global_size_.load(std::memory_order_relaxed) > 0)
      if (G* g = global_get(p)) return g;
    bool next = false;
    if (G* g = runq_get(p, &next)) {
      if (next) n_runnext_.fetch_add(1, std::memory_order_relaxed);
      return g;
    }
    if (global_size_.load(std::memory_order_relaxed) > 0)
      if (G* g = global_get(p)) return g;

    // Nothing here: spin, stealing, if not too many Ms spin already
    // (Go: at most half the busy Ps' worth).
    if (!m->spinning && 2 * nmspinning_.load() < procs_ - npidle_.load()) {
      m->spinning = true;
      nmspinning_.fetch_add(1);
    }
    if (m->spinning) {
      const std::int64_t until = steady_ns() + settings_.spin.count();
      do {
        for (int round = 0; round < 4; ++round) {
          const std::size_t start = xorshift(m->rng) % ps_.size();
          for (std::size_t k = 0; k < ps_.size(); ++k) {
            P* victim = ps_[(start + k) % ps_.size()].get();
            if (victim == p || victim->size.load(std::memory_order_relaxed) == 0) continue;
            if (G* g = steal_from(victim, p, round == 3)) {
              n_stolen_.fetch_add(1, std::memory_order_relaxed);
              m->spinning = false;
              // The last spinning M found work: another may be needed.
              if (nmspinning_.fetch_sub(1) == 1) wakep();
              return g;
            }
          }
        }
        if (global_size_.load(std::memory_order_relaxed) > 0 || p->size.load(std::memory_order_relaxed) > 0 ||
            first_timer_.load(std::memory_order_relaxed) <= now().count())
          break;  // back to the top, which takes it
        for (int i = 0; i < 64; ++i) cpu_relax();
      } while (steady_ns() < until && !stopping_.load(std::memory_order_relaxed));
      if (global_size_.load(std::memory_order_relaxed) > 0 || p->size.load(std::memory_order_relaxed) > 0 ||
          first_timer_.load(std::memory_order_relaxed) <= now().count()) {
        if (m->spinning) {
          m->spinning = false;
          if (nmspinning_.fetch_sub(1) == 1) wakep();
        }
        continue;
      }
    }
    // Give the P up and park (stopm, in m_main). Work readied after the
    // last look wakes an M through wakep, which sees this P idle.
    {
      std::lock_guard g(sched_m_);
      if (!global_.empty()) continue;
      p->owner.store(nullptr, std::memory_order_release);
      pidle_.push_back(p);
      npidle_.fetch_add(1);
    }
    m->p = nullptr;
    if (m->spinning) {
      m->spinning = false;
      nmspinning_.fetch_sub(1);
    }
    // Go's "delicate dance": a goroutine readied into another P's queue
    // between our last look and giving up, with no M spinning, would wait
    // there unseen; look once more.
    for (auto& other : ps_)
      if (other->size.load(std::memory_order_acquire) > 0) {
        wakep();
        break;
      }
    return nullptr;
  }
}

void Runtime::execute(M* m, G* g) {
  m->curg.store(g, std::memory_order_release);
  g->m = m;
  g->status.store(G::running, std::memory_order_release);
  m->run_started_ns.store(steady_ns(), std::memory_order_relaxed);
  m->preempt.store(false, std::memory_order_relaxed);
  if (m->p) m->p->schedtick.fetch_add(1, std::memory_order_relaxed);
  n_switches_.fetch_add(1, std::memory_order_relaxed);
  g->fiber->resume();
  m->curg.store(nullptr, std::memory_order_release);
  if (m->p) m->p->schedtick.fetch_add(1, std::memory_order_relaxed);
  after_switch(m, g);
}

void Runtime::after_switch(M* m, G* g) {
  if (g->fiber->finished()) return finish(m, g);
  // Its P taken while it ran (blocked outside the primitives): g0 goes on
  // without it, and the goroutine waits for any P.
  const bool lost = m->p && m->p->owner.load(std::memory_order_acquire) != m;
  if (lost) m->p = nullptr;
  // Whatever goes to the global queue from an M without a P needs an M
  // that has one (this one parks next).
  struct WakeIfNoP {
    Runtime& rt;
    M* m;
    ~WakeIfNoP() {
      if (!m->p && rt.global_size_.load(std::memory_order_acquire) > 0) rt.wakep();
    }
  } wake_if_no_p{*this, m};
  switch (g->action) {
    case kPark: {
      int waiting = G::waiting;
      if (g->status.compare_exchange_strong(waiting, G::parked, std::memory_order_acq_rel)) return;
      // Woken between its enlist and this: runnable again, next on this P.
      g->status.store(G::runnable, std::memory_order_release);
      if (m->p)
        runq_put(m->p, g, true);
      else
        global_put(g);
      return;
    }
    case kPreempted:
      g->status.store(G::runnable, std::memory_order_release);
      if (m->p)
        runq_put(m->p, g, false);
      else
        global_put(g);
      return;
    case kYield:
    case kLostP:
    default:
      g->status.store(G::runnable, std::memory_order_release);
      global_put(g);
      return;
  }
}

void Runtime::finish(M* m, G* g) {
  (void)m;
  if (std::exception_ptr e = g->fiber->error(); e && g != root_) {
    // As std::thread does with an exception that escapes its body.
    std::string what = "an exception";
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& ex) {
      what = ex.what();
    } catch (...) {
    }
    std::fprintf(stderr, "poolscope: goroutine %llu '%s' ended with %s\n", static_cast<unsigned long long>(g->id),
                 g->name.c_str(), what.c_str());
    std::terminate();
  }
  const bool is_root = g == root_;
  std::exception_ptr root_error = is_root ? g->fiber->error() : nullptr;
  std::vector<G*> joiners;
  {
    std::lock_guard w(wait_m_);
    g->status.store(G::dead, std::memory_order_release);
    take_off(g->joiners, true, joiners);
    g->done = true;  // from here the joiner may destroy it
  }
  for (G* j : joiners) ready(j);
  if (is_root) {
    std::lock_guard d(done_m_);
    root_error_ = root_error;
    root_done_ = true;
    done_cv_.notify_all();
  }
}

void Runtime::destroy(G* g) {
  {
    std::lock_guard s(sched_m_);
    gs_.erase(g);
  }
  delete g;
}

// --- readying a goroutine, and the Ms that run it ------------------------------

void Runtime::ready(G* g) {
  for (;;) {
    int s = g->status.load(std::memory_order_acquire);
    if (s == G::waiting) {
      if (g->status.compare_exchange_weak(s, G::woken_early, std::memory_order_acq_rel)) return;
    } else if (s == G::parked) {
      if (g->status.compare_exchange_weak(s, G::runnable, std::memory_order_acq_rel)) {
        make_runnable(g, true);
        return;
      }
    } else {
      return;
    }
  }
}

void Runtime::make_runnable(G* g, bool next) {
  // Readied by a goroutine (or by g0's timers): on the readier's P, next
  // (Go's ready: runqput(pp, gp, next=true)); else the global queue.
  M* m = this_m();
  if (m && m->p && m->p->owner.load(std::memory_order_relaxed) == m)
    runq_put(m->p, g, next);
  else
    global_put(g);
  wakep();
}

void Runtime::wakep() {
  // One spinning M at a time: it finds the work, and wakes the next if it
  // finds some (find_runnable).
  if (npidle_.load(std::memory_order_acquire) == 0) return;
  int none = 0;
  if (!nmspinning_.compare_exchange_strong(none, 1)) return;
  startm(nullptr, true);
}

void Runtime::startm(P* p, bool spinning) {
  std::unique_lock g(sched_m_);
  if (!p) {
    p = pidle_get();
    if (!p) {
      g.unlock();
      if (spinning) nmspinning_.fetch_sub(1);
      return;
    }
  }
  n_m_wakes_.fetch_add(1, std::memory_order_relaxed);
  if (!midle_.empty()) {
    M* m = midle_.back();
    midle_.pop_back();
    p->owner.store(m, std::memory_order_release);
    std::lock_guard pm(m->park_m);
    m->handed = p;
    m->handed_spinning = spinning;
    m->woken = true;
    m->park_cv.notify_one();
    return;
  }
  M* m = new_m();
  m->p = p;
  m->spinning = spinning;
  p->owner.store(m, std::memory_order_release);
  m->thread = std::thread([this, m] { m_main(m); });
}

void Runtime::stopm(M* m) {
  {
    std::lock_guard g(sched_m_);
    midle_.push_back(m);
  }
  check_dead();
  n_m_parks_.fetch_add(1, std::memory_order_relaxed);
  std::unique_lock pm(m->park_m);
  while (!m->woken && !stopping_.load(std::memory_order_acquire)) {
    const std::int64_t due = first_timer_.load(std::memory_order_acquire);
    if (due == INT64_MAX) {
      m->park_cv.wait(pm);
      continue;
    }
    const auto at = std::chrono::steady_clock::time_point(std::chrono::nanoseconds(origin_ns_ + due));
    if (m->park_cv.wait_until(pm, at) == std::cv_status::timeout && !m->woken) {
      // A timer is due: take an idle P, if any, and run it (find_runnable).
      pm.unlock();
      std::unique_lock g(sched_m_);
      pm.lock();
      if (m->woken) break;
      auto it = std::find(midle_.begin(), midle_.end(), m);
      P* p = pidle_get();
      if (p) {
        if (it != midle_.end()) midle_.erase(it);
        p->owner.store(m, std::memory_order_release);
        m->handed = p;
        m->handed_spinning = false;
        m->woken = true;
        break;
      }
    }
  }
  m->woken = false;
  m->p = m->handed;
  m->spinning = m->handed_spinning;
  m->handed = nullptr;
}

P* Runtime::pidle_get() {  // under sched_m_
  if (pidle_.empty()) return nullptr;
  P* p = pidle_.back();
  pidle_.pop_back();
  npidle_.fetch_sub(1);
  return p;
}

void Runtime::pidle_put(P* p) {
  std::lock_guard g(sched_m_);
  p->owner.store(nullptr, std::memory_order_release);
  pidle_.push_back(p);
  npidle_.fetch_add(1);
}

// --- run queues ------------------------------------------------------------------

void Runtime::runq_put(P* p, G* g, bool next) {
  std::lock_guard l(p->m);
  if (next) {
    if (G* old = std::exchange(p->runnext, g)) p->runq.push_back(old);  // the one it displaces: the tail
  } else {
    p->runq.push_back(g);
  }
  p->size.fetch_add(1, std::memory_order_release);
}

G* Runtime::runq_get(P* p, bool* from_next) {
  if (p->size.load(std::memory_order_acquire) == 0) return nullptr;
  std::lock_guard l(p->m);
  G* g = nullptr;
  if (p->runnext) {
    g = std::exchange(p->runnext, nullptr);
    *from_next = true;
  } else if (!p->runq.empty()) {
    g = p->runq.front();
    p->runq.pop_front();
  }
  if (g) p->size.fetch_sub(1, std::memory_order_release);
  return g;
}

// Go waits 3 µs before it takes a running P's runnext, long enough on an
// idle machine for the readier to block and run it itself. Here an OS that
// lends the CPUs to others stretches the readier's turn, so its runnext is
// left to it while its goroutine has run under kRunnextGrace: a hand-off then
// stays on its P, as Go's mostly does, instead of waking an M per task.
constexpr std::int64_t kRunnextGrace = 100'000;  // ns

bool runnext_stealable(P* victim) {
  M* owner = victim->owner.load(std::memory_order_acquire);
  if (!owner || !owner->curg.load(std::memory_order_acquire)) return true;
  return steady_ns() - owner->run_started_ns.load(std::memory_order_relaxed) >= kRunnextGrace;
}

G* Runtime::steal_from(P* victim, P* into, bool take_next) {
  std::vector<G*> taken;
  {
    std::lock_guard l(victim->m);
    const std::size_t n = victim->runq.size();
    for (std::size_t k = 0; k < n - n / 2; ++k) {  // half, rounded up
      taken.push_back(victim->runq.front());
      victim->runq.pop_front();
    }
    if (taken.empty() && take_next && victim->runnext && runnext_stealable(victim)) {
      // Go's runqgrab: a P that readied a goroutine into runnext is usually
      // about to run it; steal it only if it is still there a moment later.
      G* seen = victim->runnext;
      victim->m.unlock();
      for (int i = 0; i < 3000 / 10; ++i) cpu_relax();  // about 3 µs
      victim->m.lock();
      if (victim->runnext == seen) taken.push_back(std::exchange(victim->runnext, nullptr));
    }
    if (!taken.empty()) victim->size.fetch_sub(static_cast<int>(taken.size()), std::memory_order_release);
  }
  if (taken.empty()) return nullptr;
  G* first = taken.front();
  if (taken.size() > 1) {
    std::lock_guard l(into->m);
    for (std::size_t k = 1; k < taken.size(); ++k) into->runq.push_back(taken[k]);
    into->size.fetch_add(static_cast<int>(taken.size() - 1), std::memory_order_release);
  }
  return first;
}

G* Runtime::global_get(P* p) {
  std::vector<G*> batch;
  {
    std::lock_guard g(sched_m_);
    if (global_.empty()) return nullptr;
    // Go's globrunqget: a fair share of it, at most half a local queue.
    std::size_t n = std::min<std::size_t>(global_.size() / static_cast<std::size_t>(procs_) + 1, 128);
    n = std::min(n, global_.size());
    for (std::size_t k = 0; k < n; ++k) {
      batch.push_back(global_.front());
      global_.pop_front();
    }
    global_size_.store(static_cast<int>(global_.size()), std::memory_order_release);
  }
  n_global_.fetch_add(1, std::memory_order_relaxed);
  if (batch.size() > 1) {
    std::lock_guard l(p->m);
    for (std::size_t k = 1; k < batch.size(); ++k) p->runq.push_back(batch[k]);
    p->size.fetch_add(static_cast<int>(batch.size() - 1), std::memory_order_release);
  }
  return batch.front();
}

void Runtime::global_put(G* g) {
  {
    std::lock_guard l(sched_m_);
    global_.push_back(g);
    global_size_.store(static_cast<int>(global_.size()), std::memory_order_release);
  }
}

// --- the Scheduler: from a goroutine ---------------------------------------------

G& Runtime::current() { return *this_m()->curg.load(std::memory_order_relaxed); }

void Runtime::switch_to_g0(G* g, int why) {
  g->action = why;
  sim::Fiber::suspend();
  // Resumed, maybe by another M.
}

void Runtime::point(const char* where) {
  M* m = this_m();
  G* g = m->curg.load(std::memory_order_relaxed);
  g->where.store(where, std::memory_order_relaxed);
  if (g->status.load(std::memory_order_relaxed) != G::running) return;  // enlisted: it sleeps next
  if (!m->p || m->p->owner.load(std::memory_order_relaxed) != m) {
    // Back from a wait outside the primitives to find its P gone (Go's
    // exitsyscall): the goroutine waits for a P in the global queue.
    switch_to_g0(g, kLostP);
    return;
  }
  if (m->preempt.load(std::memory_order_relaxed)) switch_to_g0(g, kPreempted);
}

void Runtime::yield(const char* where) {
  G* g = this_m()->curg.load(std::memory_order_relaxed);
  g->where.store(where, std::memory_order_relaxed);
  if (g->status.load(std::memory_order_relaxed) != G::running) return;
  switch_to_g0(g, kYield);  // runtime.Gosched: to the global queue
}

void Runtime::compute(Nanos d, const char* where) {
  if (d <= Nanos::zero()) return;
  point(where);
  const std::int64_t end = steady_ns() + d.count();
  while (steady_ns() < end) {
    for (int i = 0; i < 32; ++i) cpu_relax();
    point(where);  // preempted here when sysmon asks
  }
}

G* Runtime::spawn(std::string name, std::move_only_function<void()> body) {
  G* g = new G();
  g->name = std::move(name);
  g->fiber = std::make_unique<sim::Fiber>(settings_.stack_bytes, std::move(body));
  {
    std::lock_guard l(sched_m_);
    g->id = next_gid_++;
    gs_.insert(g);
  }
  g->status.store(G::runnable, std::memory_order_release);
  make_runnable(g, true);  // newproc: runqput(pp, newg, true), then wakep
  return g;
}

void Runtime::join(ScheduledThread* t) {
  G* target = static_cast<G*>(t);
  G* self = &current();
  {
    std::unique_lock w(wait_m_);
    if (!target->done) {
      enlist_locked(self, target->joiners, "Thread::join", std::nullopt);
      w.unlock();
      sleep();
    }
  }
  destroy(target);
}

std::uint64_t Runtime::random() { return xorshift(this_m()->rng); }

void* Runtime::local(const void* key, void* (*make)(), void (*destroy_value)(void*)) {
  G& g = current();
  for (auto& [k, v] : g.locals)
    if (k == key) return v.get();
  g.locals.emplace_back(key, std::shared_ptr<void>(make(), destroy_value));
  return g.locals.back().second.get();
}

void Runtime::on_deadlock(std::function<void(const std::string&)> handler) { on_deadlock_ = std::move(handler); }

}  // namespace poolscope::goroutines
