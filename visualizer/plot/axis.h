// The shared time axis and the value axes of the plots.
//
// Every view of the timeline (counter plots, marker rows, worker lanes, the
// ruler) maps time to pixels through one TimeAxis, so zooming or panning one
// moves them all. Times are nanoseconds since the run's clock origin, as in
// the trace; the view is kept in doubles so zooming in and out again returns
// exactly where it started.
#pragma once

#include <algorithm>
#include <cmath>

#include <cstdint>
#include <string>
#include <vector>

namespace poolscope::plot {

// A time range mapped onto a pixel range: [t0, t1) ns onto [x0, x1) px.
struct TimeMap {
  double t0 = 0, t1 = 1;
  double x0 = 0, x1 = 1;

  double ns_per_px() const { return (t1 - t0) / (x1 - x0); }
  double to_x(double t) const { return x0 + (t - t0) / ns_per_px(); }
  double to_t(double x) const { return t0 + (x - x0) * ns_per_px(); }
  // The time range pixel column `c` covers (column 0 starts at x0).
  double column_begin(int c) const { return to_t(x0 + c); }
  int columns() const { return static_cast<int>(x1 - x0); }
};

// The view every timeline item shares: what range of time is on screen, with
// zoom around a point, pan, fit, and follow-live (the right edge tracks the
// newest data while it would otherwise run off the screen).
class TimeAxis {
 public:
  static constexpr double kMinSpan = 1e3;   // 1 µs: a single event fills the screen
  static constexpr double kMaxSpan = 1e15;  // 11.5 days

  double begin() const { return begin_; }
  double end() const { return end_; }
  double span() const { return end_ - begin_; }
  TimeMap map(double x0, double x1) const { return {begin_, end_, x0, x1}; }

  void set_view(double begin, double end);
  // Zooms by `factor` (< 1 zooms in) keeping time `anchor` where it is on screen.
  void zoom(double factor, double anchor);
  // Moves the view by `dt` ns. Moving back in time stops following.
  void pan(double dt);
  // Shows [begin, end] (with a small margin after end), and stops following.
  void fit(double begin, double end);

  bool following() const { return follow_; }
  void set_follow(bool on) { follow_ = on; }
  // Called once a frame with the newest time there is data for: in follow
  // mode, a `now` past the right edge drags the view along, keeping its span.
  void update(double now);

 private:
  double begin_ = 0, end_ = 10e9;
  bool follow_ = true;
};

// A value range mapped onto a pixel range, y growing downwards (screen space):
// [0, vmax] onto [y_bottom, y_top].
// Values to pixels, linear, or logarithmic (log(1 + v): 0 stays at the
// bottom, and a pool of 200 workers leaves room for one of 8).
struct ValueMap {
  double vmax = 1;
  double y_top = 0, y_bottom = 1;
  bool log = false;
  double to_y(double v) const {
    const double f = log ? std::log1p(std::max(0.0, v)) / std::log1p(vmax) : v / vmax;
    return y_bottom - f * (y_bottom - y_top);
  }
};

// 1, 2 or 5 times a power of ten, the smallest with at most `max_ticks` ticks over `range`.
double nice_step(double range, int max_ticks);
// The top of a value axis for data reaching `max`: a multiple of a nice step, at least 1.
double nice_ceiling(double max);

struct Tick {
  double value;  // ns for time ticks, counts for value ticks
  double pos;    // pixel position
  std::string label;
};

// Time ticks at least `min_px` apart, labelled in the unit their step needs ("250ms", "1.5s", "2m").
std::vector<Tick> time_ticks(const TimeMap& map, double min_px);
// Value ticks at least `min_px` apart on [0, vm.vmax] (on a log map: 0, 1,
// 10, 100 ..., those with room); the highest is always
// in the upper half (the top itself when a step would not fit).
std::vector<Tick> value_ticks(const ValueMap& vm, double min_px);

// A time as tooltips write it: "1.234 s", "15.250 ms", "830.0 µs", "120 ns".
std::string format_time(double ns);
// A time to three significant digits, for tables: "1.23 s", "184 ms", "27.9 ms", "63.6 µs", "950 ns".
std::string format_short(double ns);
// A label for a tick at `t` on a grid of `step` ns: only the digits the step needs.
std::string format_tick(double t, double step);

}  // namespace poolscope::plot
