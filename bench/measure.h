// Small instruments the benchmarks share: a completion countdown the tasks
// tick, a trace consumer that drains like the engine does, a peak-RSS
// sampler, and percentiles.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <thread>
#include <vector>

#include "pools/core/pool_trace.h"

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

// Counts tasks down to zero; the benchmark thread waits for zero on a futex.
class Countdown {
 public:
  explicit Countdown(std::int64_t n) : left_(n) {}
  void tick() {
    if (left_.fetch_sub(1, std::memory_order_acq_rel) == 1) left_.notify_all();
  }
  void wait() {
    for (auto n = left_.load(std::memory_order_acquire); n != 0; n = left_.load(std::memory_order_acquire))
      left_.wait(n, std::memory_order_acquire);
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

// The highest resident set size seen while it lives, sampled every 2 ms,
// above what was resident when it started.
class PeakRss {
 public:
  PeakRss() : base_(rss_bytes()) {
    sampler_ = std::jthread([this](std::stop_token stop) {
      while (!stop.stop_requested()) {
        auto r = rss_bytes();
        if (r > peak_.load(std::memory_order_relaxed)) peak_.store(r, std::memory_order_relaxed);
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
    });
  }
  double peak_mb_above_start() const {
    auto p = peak_.load(std::memory_order_relaxed);
    return p > base_ ? static_cast<double>(p - base_) / (1 << 20) : 0.0;
  }

 private:
  std::uint64_t base_;
  std::atomic<std::uint64_t> peak_{0};
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
