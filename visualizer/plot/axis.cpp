#include "visualizer/plot/axis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace poolscope::plot {

void TimeAxis::set_view(double begin, double end) {
  double span = std::clamp(end - begin, kMinSpan, kMaxSpan);
  // Time starts at the run's origin: a view never begins before it.
  begin_ = std::max(0.0, begin);
  end_ = begin_ + span;
}

void TimeAxis::zoom(double factor, double anchor) {
  factor = std::clamp(factor, kMinSpan / span(), kMaxSpan / span());
  set_view(anchor - (anchor - begin_) * factor, anchor + (end_ - anchor) * factor);
}

void TimeAxis::pan(double dt) {
  if (dt < 0) follow_ = false;
  set_view(begin_ + dt, end_ + dt);
}

void TimeAxis::fit(double begin, double end) {
  double span = std::max(end - begin, kMinSpan);
  set_view(begin, begin + span * 1.02);
}

void TimeAxis::update(double now) {
  if (!follow_) return;
  // Keep the newest data a little inside the right edge, scrolling smoothly.
  double edge = end_ - 0.02 * span();
  if (now > edge) set_view(begin_ + (now - edge), end_ + (now - edge));
}

double nice_step(double range, int max_ticks) {
  if (range <= 0 || max_ticks < 1) return 1;
  double raw = range / max_ticks;
  double mag = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0}) {
    if (m * mag >= raw * (1 - 1e-9)) return m * mag;
  }
  return 10 * mag;
}

double nice_ceiling(double max) {
  if (max <= 0) return 1;
  double padded = max * 1.05;  // leave the highest step a little room under the top edge
  double step = std::max(1.0, nice_step(padded, 8));
  return std::max(1.0, std::ceil(padded / step) * step);
}

namespace {

struct Unit {
  double ns;
  const char* name;
};

// The unit a grid of `step` ns is labelled in, and how many decimals its labels need.
std::pair<Unit, int> tick_unit(double step) {
  Unit u = step >= 1e8 ? Unit{1e9, "s"} : step >= 1e5 ? Unit{1e6, "ms"} : step >= 1e2 ? Unit{1e3, "µs"} : Unit{1, "ns"};
  int decimals = 0;
  double scaled = step / u.ns;
  while (decimals < 9 && std::fabs(scaled - std::round(scaled)) > 1e-6 * std::max(1.0, scaled)) {
    scaled *= 10;
    ++decimals;
  }
  return {u, decimals};
}

}  // namespace

std::string format_tick(double t, double step) {
  auto [unit, decimals] = tick_unit(step);
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f%s", decimals, t / unit.ns, unit.name);
  return buf;
}

std::string format_time(double ns) {
  char buf[48];
  double a = std::fabs(ns);
  if (a >= 1e9)
    std::snprintf(buf, sizeof buf, "%.3f s", ns / 1e9);
  else if (a >= 1e6)
    std::snprintf(buf, sizeof buf, "%.3f ms", ns / 1e6);
  else if (a >= 1e3)
    std::snprintf(buf, sizeof buf, "%.1f µs", ns / 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.0f ns", ns);
  return buf;
}

std::string format_short(double ns) {
  const double a = std::fabs(ns);
  const Unit u = a >= 1e9 ? Unit{1e9, "s"} : a >= 1e6 ? Unit{1e6, "ms"} : a >= 1e3 ? Unit{1e3, "µs"} : Unit{1, "ns"};
  const double v = ns / u.ns;
  const int decimals = u.ns == 1 || std::fabs(v) >= 99.95 ? 0 : std::fabs(v) >= 9.995 ? 1 : 2;
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f %s", decimals, v, u.name);
  return buf;
}

std::vector<Tick> time_ticks(const TimeMap& map, double min_px) {
  std::vector<Tick> ticks;
  int max_ticks = std::max(1, static_cast<int>((map.x1 - map.x0) / min_px));
  double step = std::max(1.0, nice_step(map.t1 - map.t0, max_ticks));
  double first = std::ceil(map.t0 / step) * step;
  for (double t = first, k = 1; t < map.t1; t = first + k++ * step)
    ticks.push_back({t, map.to_x(t), format_tick(t, step)});
  return ticks;
}

std::vector<Tick> value_ticks(const ValueMap& vm, double min_px) {
  std::vector<Tick> ticks;
  if (vm.log) {
    char buf[32];
    ticks.push_back({0, vm.to_y(0), "0"});
    for (double v = 1; v <= vm.vmax * (1 + 1e-9); v *= 10) {
      if (ticks.back().pos - vm.to_y(v) < min_px) continue;
      std::snprintf(buf, sizeof buf, "%.0f", v);
      ticks.push_back({v, vm.to_y(v), buf});
    }
    if (ticks.back().value < vm.vmax && ticks.back().pos - vm.to_y(vm.vmax) >= min_px * 0.6) {
      std::snprintf(buf, sizeof buf, "%.0f", vm.vmax);
      ticks.push_back({vm.vmax, vm.to_y(vm.vmax), buf});
    }
    return ticks;
  }
  int max_ticks = std::max(1, static_cast<int>((vm.y_bottom - vm.y_top) / min_px));
  double step = std::max(1.0, nice_step(vm.vmax, max_ticks));
  char buf[32];
  for (double v = 0, k = 1; v <= vm.vmax * (1 + 1e-9); v = k++ * step) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
    ticks.push_back({v, vm.to_y(v), buf});
  }
  // A plot with room for one step only (a step past the top: 50 for a top of
  // 30) would say only "0": label the top itself, a round number
  // (nice_ceiling), so every plot shows its scale.
  if (ticks.back().value < vm.vmax * 0.5) {
    std::snprintf(buf, sizeof buf, "%.0f", vm.vmax);
    ticks.push_back({vm.vmax, vm.to_y(vm.vmax), buf});
  }
  return ticks;
}

}  // namespace poolscope::plot
