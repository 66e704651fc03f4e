#include "visualizer/plot/step_line.h"

#include <algorithm>
#include <cmath>

namespace poolscope::plot {

void column_ranges(std::span<const std::int64_t> times, std::int64_t end, const TimeMap& map,
                   std::vector<ColumnRange>& out) {
  out.clear();
  const auto t_end = static_cast<double>(end);
  // Points after `end` do not exist yet (a replay cursor, or a clock read late).
  const auto n = static_cast<std::size_t>(std::upper_bound(times.begin(), times.end(), end) - times.begin());
  if (n == 0 || t_end < map.t0 || static_cast<double>(times[0]) >= map.t1) return;

  const double x_begin = std::max(map.x0, map.to_x(static_cast<double>(times[0])));
  const double x_end = std::min(map.x1, map.to_x(t_end));
  const int c0 = static_cast<int>(std::floor(x_begin - map.x0));
  // The last column the series reaches into (one ending on a column's left edge does not).
  const int c1 = std::min(map.columns() - 1, static_cast<int>(std::ceil(x_end - map.x0)) - 1);
  // The first index at or after `from` whose time is at or after t.
  auto at_or_after = [&](std::size_t from, double t) {
    auto first = times.begin() + static_cast<std::ptrdiff_t>(from),
         last = times.begin() + static_cast<std::ptrdiff_t>(n);
    return static_cast<std::size_t>(
        std::partition_point(first, last, [t](std::int64_t x) { return static_cast<double>(x) < t; }) - times.begin());
  };

  std::size_t lo = at_or_after(0, map.column_begin(c0));
  for (int c = c0; c <= c1; ++c) {
    // Points [lo, hi) change the value inside this column; lo - 1 carries it in.
    std::size_t hi = at_or_after(lo, map.column_begin(c + 1));
    if (hi > 0) {
      const auto left = static_cast<float>(map.x0 + c);
      out.push_back({static_cast<std::uint32_t>(lo > 0 ? lo - 1 : 0), static_cast<std::uint32_t>(hi),
                     std::max(left, static_cast<float>(x_begin)), std::min(left + 1, static_cast<float>(x_end))});
    }
    lo = hi;
  }
}

void decimate_steps(std::span<const ColumnRange> ranges, const MinMaxIndex& values, std::vector<Column>& out) {
  decimate_steps(ranges, {}, values, out);
}

void decimate_steps(std::span<const ColumnRange> ranges, std::span<const ColumnRange> before, const MinMaxIndex& values,
                    std::vector<Column>& out) {
  std::size_t kept = 0;
  const std::size_t most = std::min({ranges.size(), before.size(), out.size()});
  while (kept < most && ranges[kept] == before[kept]) ++kept;
  out.resize(kept);
  for (const ColumnRange& r : ranges.subspan(kept)) {
    MinMax mm = values.range(r.first, r.last);
    out.push_back({r.x_first, r.x_last, values[r.first], mm.min, mm.max, values[r.last - 1]});
  }
}

namespace {

// Appends p, merging it with the last point where the three lie on one
// horizontal line, or on one vertical line going the same way.
void add(std::vector<Point>& out, Point p) {
  if (!out.empty() && out.back() == p) return;
  if (out.size() >= 2) {
    const Point& a = out[out.size() - 2];
    Point& b = out.back();
    if ((a.y == b.y && b.y == p.y) || (a.x == b.x && b.x == p.x && (b.y - a.y) * (p.y - b.y) >= 0)) {
      b = p;
      return;
    }
  }
  out.push_back(p);
}

}  // namespace

void step_line(std::span<const Column> columns, const ValueMap& vm, std::vector<Point>& out) {
  out.clear();
  auto y = [&](std::uint32_t v) { return static_cast<float>(vm.to_y(v)); };
  for (const Column& c : columns) {
    const float x = c.x_first;
    add(out, {x, y(c.enter)});
    // Visit the extreme farther from the exit value first, so the stroke ends at the exit.
    bool rising = c.exit >= c.enter;
    add(out, {x, y(rising ? c.min : c.max)});
    add(out, {x, y(rising ? c.max : c.min)});
    add(out, {x, y(c.exit)});
    add(out, {c.x_last, y(c.exit)});
  }
}

std::uint32_t columns_max(std::span<const Column> columns) {
  std::uint32_t m = 0;
  for (const Column& c : columns) m = std::max(m, c.max);
  return m;
}

}  // namespace poolscope::plot
