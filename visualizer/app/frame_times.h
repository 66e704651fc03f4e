// CPU time per frame: the last few seconds for the overlay, all of them for
// --bench-frames.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace poolscope::gui {

struct FrameStats {
  double median = 0, p99 = 0, max = 0;
  std::size_t frames = 0;
};

// Nearest-rank percentiles of `ms`.
inline FrameStats frame_stats(std::vector<double> ms) {
  FrameStats s;
  s.frames = ms.size();
  if (ms.empty()) return s;
  std::sort(ms.begin(), ms.end());
  auto rank = [&](double q) {
    auto k = static_cast<std::size_t>(std::ceil(q * static_cast<double>(ms.size())));
    return ms[std::clamp<std::size_t>(k, 1, ms.size()) - 1];
  };
  s.median = rank(0.5);
  s.p99 = rank(0.99);
  s.max = ms.back();
  return s;
}

class FrameTimes {
 public:
  void add(double ms) {
    if (ring_.size() < kWindow)
      ring_.push_back(ms);
    else
      ring_[next_] = ms;
    next_ = (next_ + 1) % kWindow;
    last_ = ms;
  }
  double last() const { return last_; }
  FrameStats stats() const { return frame_stats(ring_); }

 private:
  static constexpr std::size_t kWindow = 240;
  std::vector<double> ring_;
  std::size_t next_ = 0;
  double last_ = 0;
};

}  // namespace poolscope::gui
