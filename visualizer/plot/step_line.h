// Counter plots as step lines, decimated to the pixels they cover.
//
// A counter series is a step function: value i holds from times[i] until
// times[i + 1] (the last until `end`, the newest time there is data for).
// column_ranges() finds, for each pixel column of the view, which points
// matter to it (one binary search a column); decimate_steps() reduces each
// range to the value entering the column, the extremes inside it and the
// value leaving it (a MinMaxIndex query), so the work is proportional to the
// pixel width however many points the view holds. Every counter of a pool
// shares its times, so the ranges are found once for all of them.
// step_line() turns the columns into a polyline that is exact when zoomed in
// (one step per change) and an honest min/max envelope when zoomed out.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "visualizer/plot/axis.h"
#include "visualizer/plot/minmax_index.h"

namespace poolscope::plot {

// The points [first, last) matter to a pixel column: `first` carries the value
// in from the left edge (or is the series' first point), the others change it.
struct ColumnRange {
  std::uint32_t first, last;
  float x_first;  // where the drawn part starts: the column's left edge, or where the series starts inside it
  float x_last;   // where it ends: the right edge, or `end` inside the column
  friend bool operator==(const ColumnRange&, const ColumnRange&) = default;
};

// The ranges of the columns of `map` the series covers up to `end` (pass the
// replay cursor to clip it there); points after `end` are left out. `times`
// must be non-decreasing.
void column_ranges(std::span<const std::int64_t> times, std::int64_t end, const TimeMap& map,
                   std::vector<ColumnRange>& out);

struct Column {
  float x_first, x_last;
  std::uint32_t enter;  // the value at the column's left edge (or at the series' first point)
  std::uint32_t min;    // the extremes the value takes inside the column
  std::uint32_t max;
  std::uint32_t exit;  // the value at the column's right edge
};

void decimate_steps(std::span<const ColumnRange> ranges, const MinMaxIndex& values, std::vector<Column>& out);
// The same, where `out` holds the columns decimated from `before` over the
// same values (which may only have grown since): the leading columns whose
// range is unchanged are kept, the rest decimated again. While a replay
// plays in a still view only the columns at the cursor change.
void decimate_steps(std::span<const ColumnRange> ranges, std::span<const ColumnRange> before, const MinMaxIndex& values,
                    std::vector<Column>& out);

struct Point {
  float x, y;
  friend bool operator==(const Point&, const Point&) = default;
};

// The polyline through the columns: horizontal at each value, vertical at each
// change, and in a column with several changes a vertical stroke over their
// range. Points on a straight line are merged.
void step_line(std::span<const Column> columns, const ValueMap& vm, std::vector<Point>& out);

// The highest value in the columns (0 if none): what the value axis must reach.
std::uint32_t columns_max(std::span<const Column> columns);

}  // namespace poolscope::plot
