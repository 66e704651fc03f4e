// sysmon and checkdead (runtime.h): the runtime's watcher thread, which
// takes a P back from an M whose goroutine blocked outside the primitives
// and asks a goroutine that ran too long to yield; and the deadlock check,
// made as an M parks.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "pools/core/goroutines/parts.h"

namespace poolscope::goroutines {

namespace {

std::int64_t cpu_ns(const M& m) {
  if (!m.cpu_clock_set.load(std::memory_order_acquire)) return -1;
  timespec ts{};
  if (clock_gettime(m.cpu_clock, &ts) != 0) return -1;
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// Whether the M's thread sleeps in the kernel (state S or D), not merely
// waits for a CPU (R: a loaded machine, where its CPU time stands still too).
bool asleep_in_kernel(const M& m) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/self/task/%d/stat", m.tid);
  std::FILE* f = std::fopen(path, "r");
  if (!f) return false;
  char buf[512];
  const std::size_t n = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  buf[n] = '\0';
  const char* close = std::strrchr(buf, ')');  // the name, in parentheses, may hold anything
  return close && close[1] == ' ' && (close[2] == 'S' || close[2] == 'D');
}

}  // namespace

// Go's sysmon: 20 µs between looks while something happens, doubling after
// 50 quiet ones up to 10 ms. A P whose M has run the same goroutine since
// the last look, for retake_after or more, without its thread using CPU in
// between, is blocked in the OS (Go would have seen it enter a system call):
// it loses its P to another M, which runs the P's queue meanwhile (handoffp).
void Runtime::sysmon() {
  std::int64_t delay_us = 20;
  int quiet = 0;
  while (!stopping_.load(std::memory_order_acquire)) {
    std::this_thread::sleep_for(std::chrono::microseconds(delay_us));
    bool acted = false;
    const std::int64_t t = steady_ns();
    for (auto& owned : ps_) {
      P* p = owned.get();
      M* m = p->owner.load(std::memory_order_acquire);
      G* g = m ? m->curg.load(std::memory_order_acquire) : nullptr;
      const std::uint64_t tick = p->schedtick.load(std::memory_order_relaxed);
      if (!g || tick != p->seen_tick) {
        p->seen_tick = tick;
        p->seen_at = t;
        p->seen_cpu = -1;
        continue;
      }
      if (t - p->seen_at < settings_.retake_after.count()) continue;
      const std::int64_t cpu = cpu_ns(*m);
      if (cpu < 0) continue;
      if (p->seen_cpu < 0 || cpu != p->seen_cpu) {
        // Computing (or first seen): it keeps its P, and yields at its next
        // point once it has run for preempt_after.
        p->seen_cpu = cpu;
        if (t - p->seen_at >= settings_.preempt_after.count()) m->preempt.store(true, std::memory_order_relaxed);
        continue;
      }
      if (!asleep_in_kernel(*m)) continue;  // runnable, waiting for a CPU the machine lends to others
      M* expected = m;
      if (!p->owner.compare_exchange_strong(expected, nullptr, std::memory_order_acq_rel)) continue;
      n_handoffs_.fetch_add(1, std::memory_order_relaxed);
      acted = true;
      p->seen_cpu = -1;
      if (p->size.load(std::memory_order_acquire) > 0 || global_size_.load(std::memory_order_acquire) > 0)
        startm(p, false);
      else
        pidle_put(p);
    }
    if (acted) {
      quiet = 0;
      delay_us = 20;
    } else if (++quiet > 50) {
      delay_us = std::min<std::int64_t>(delay_us * 2, 10'000);
    }
  }
}

std::string Runtime::describe_goroutines() const {
  std::lock_guard s(sched_m_);
  std::vector<G*> all(gs_.begin(), gs_.end());
  std::sort(all.begin(), all.end(), [](const G* a, const G* b) { return a->id < b->id; });
  std::string out;
  for (const G* g : all) {
    if (g->status.load(std::memory_order_acquire) == G::dead) continue;
    out += "goroutine " + std::to_string(g->id) + " [" + g->where.load(std::memory_order_relaxed) + "]:\n\t" +
           g->name + "\n\n";
  }
  return out;
}

// Go's checkdead: every M parked for want of work (none blocked outside the
// primitives), no goroutine runnable, no timer pending, and main not ended:
// nothing can ever wake anyone.
void Runtime::check_dead() {
  if (dead_reported_.load(std::memory_order_acquire)) return;
  {
    std::lock_guard w(wait_m_);
    if (!timers_.empty()) return;
    std::lock_guard s(sched_m_);
    if (midle_.size() != ms_.size() || !global_.empty()) return;
    for (const auto& p : ps_)
      if (p->size.load(std::memory_order_acquire) > 0) return;
    if (!root_ || root_->status.load(std::memory_order_acquire) == G::dead) return;
  }
  if (dead_reported_.exchange(true)) return;
  const std::string report = "all goroutines are asleep - deadlock!\n\n" + describe_goroutines();
  if (!on_deadlock_) {
    std::fprintf(stderr, "fatal error: %s", report.c_str());
    std::fflush(stderr);
    std::_Exit(2);
  }
  on_deadlock_(report);
  // The run ends: run() throws the report.
  std::lock_guard d(done_m_);
  root_error_ = std::make_exception_ptr(Deadlock(report));
  root_done_ = true;
  done_cv_.notify_all();
}

}  // namespace poolscope::goroutines
