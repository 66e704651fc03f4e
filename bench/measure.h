// Small instruments the benchmarks share: a completion countdown the tasks
// tick, a trace consumer that drains like the engine does, a sampler of peak
// RSS and thread count, and percentiles.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "pools/core/pool_trace.h"
#include "pools/core/sync.h"

namespace poolscope::bench {

inline std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Busy-waits: the submitter keeps its core, as in the originals' wake-up runs.
inline void spin_for(std::chrono::nanoseconds d) {
  for (auto end = now_ns() + d.count(); now_ns() < end;) {
  }
}

// Counts tasks down to zero; the benchmark thread waits for zero on a futex
// (poolscope's atomic_wait: under Go's runtime, --runtime goroutines, a
// goroutine's wait that parks the goroutine, not its OS thread).
class Countdown {
 public:
  explicit Countdown(std::int64_t n) : left_(n) {}
  void tick() {
    if (left_.fetch_sub(1, std::memory_order_acq_rel) == 1) atomic_notify_all(left_);
  }
  void wait() {
    for (auto n = left_.load(std::memory_order_acquire); n != 0; n = left_.load(std::memory_order_acquire))
      atomic_wait(left_, n, std::memory_order_acquire);
  }

 private:
  std::atomic<std::int64_t> left_;
};

// "Tracing on" as a run has it: a stream, and a consumer draining it every
// 2 ms (the engine's poll) into a reused buffer. Off: no stream at all.
class Tracing {
 public:
  explicit Tracing(bool on) {
    if (!on) return;
    stream_ = std::make_unique<TraceStream>();
    drainer_ = std::jthread([this](std::stop_token stop) {
      std::vector<Event> sink;
      sink.reserve(stream_->capacity());
      while (!stop.stop_requested()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        sink.clear();
        stream_->drain(sink);
      }
    });
  }
  TraceTarget target() const { return TraceTarget{.stream = stream_.get()}; }
  std::uint64_t dropped() const { return stream_ ? stream_->dropped() : 0; }
  std::uint64_t recorded() const { return stream_ ? stream_->recorded() : 0; }

 private:
  std::unique_ptr<TraceStream> stream_;
  std::jthread drainer_;  // last: stopped before the stream goes
};

inline std::uint64_t rss_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

// The process's threads now, whoever started them (the "Threads:" line of
// /proc/self/status): poolscope::Thread's count misses a library's own.
inline std::int64_t thread_count() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.starts_with("Threads:")) return std::stoll(line.substr(8));
  return 0;
}

// The highest resident set size and thread count seen while it lives,
// sampled every 2 ms, above what the process had when it started (its own
// sampling thread not counted).
class PeakUsage {
 public:
  PeakUsage() : base_rss_(rss_bytes()), base_threads_(thread_count()) {
    sampler_ = std::jthread([this](std::stop_token stop) {
      while (!stop.stop_requested()) {
        sample();
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
    });
  }
  double peak_mb_above_start() const {
    auto p = peak_rss_.load(std::memory_order_relaxed);
    return p > base_rss_ ? static_cast<double>(p - base_rss_) / (1 << 20) : 0.0;
  }
  std::int64_t peak_threads_above_start() const {
    return std::max<std::int64_t>(0, peak_threads_.load(std::memory_order_relaxed) - base_threads_ - 1);
  }

 private:
  void sample() {
    auto r = rss_bytes();
    if (r > peak_rss_.load(std::memory_order_relaxed)) peak_rss_.store(r, std::memory_order_relaxed);
    auto t = thread_count();
    if (t > peak_threads_.load(std::memory_order_relaxed)) peak_threads_.store(t, std::memory_order_relaxed);
  }

  std::uint64_t base_rss_;
  std::int64_t base_threads_;
  std::atomic<std::uint64_t> peak_rss_{0};
  std::atomic<std::int64_t> peak_threads_{0};
  std::jthread sampler_;
};

// The q-quantile (0..1) of `v` (sorted in place).
inline double quantile(std::vector<std::int64_t>& v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  auto i = static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5);
  return static_cast<double>(v[std::min(i, v.size() - 1)]);
}

}  // namespace poolscope::bench
