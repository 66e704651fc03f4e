// Step lines decimated to pixel columns: exact steps when zoomed in, a min/max
// envelope when zoomed out, clipped at the replay cursor.
#include "visualizer/plot/step_line.h"

#include <catch2/catch.hpp>

using namespace poolscope::plot;

namespace {

struct Series {
  std::vector<std::int64_t> times;
  MinMaxIndex values;
  Series(std::vector<std::int64_t> t, const std::vector<std::uint32_t>& v) : times(std::move(t)) {
    for (auto x : v) values.push(x);
  }
  std::vector<Column> columns(std::int64_t end, const TimeMap& map) const {
    std::vector<ColumnRange> ranges;
    std::vector<Column> out;
    column_ranges(times, end, map, ranges);
    decimate_steps(ranges, values, out);
    return out;
  }
};

// One ns per pixel from time 0.
TimeMap unit_map(double width) { return TimeMap{.t0 = 0, .t1 = width, .x0 = 0, .x1 = width}; }

}  // namespace

TEST_CASE("step line: zoomed in, each change is one exact step") {
  Series s({0, 10, 20}, {1, 3, 2});
  auto cols = s.columns(30, unit_map(30));
  REQUIRE(cols.size() == 30);
  CHECK(cols[0].enter == 1);
  CHECK(cols[9].exit == 1);
  CHECK(cols[10].enter == 1);
  CHECK(cols[10].max == 3);
  CHECK(cols[10].exit == 3);
  CHECK(cols[20].enter == 3);
  CHECK(cols[20].exit == 2);

  std::vector<Point> line;
  step_line(cols, ValueMap{.vmax = 4, .y_top = 0, .y_bottom = 40}, line);
  // y = 40 - 10 v: the three levels at 30, 10 and 20.
  std::vector<Point> expected = {{0, 30}, {10, 30}, {10, 10}, {20, 10}, {20, 20}, {30, 20}};
  CHECK(line == expected);
}

TEST_CASE("step line: zoomed out, each column keeps the extremes it hides") {
  // A million alternating points, 10,000 per pixel column.
  std::vector<std::int64_t> t;
  std::vector<std::uint32_t> v;
  for (int i = 0; i < 1'000'000; ++i) {
    t.push_back(i);
    v.push_back(i % 2 == 0 ? 0 : 5);
  }
  v[123'456] = 9;  // one spike, in column 12
  Series s(std::move(t), v);
  TimeMap map{.t0 = 0, .t1 = 1e6, .x0 = 0, .x1 = 100};
  auto cols = s.columns(1'000'000, map);
  REQUIRE(cols.size() == 100);
  for (std::size_t c = 0; c < cols.size(); ++c) {
    INFO("column " << c);
    CHECK(cols[c].min == 0);
    CHECK(cols[c].max == (c == 12 ? 9u : 5u));
  }
  CHECK(columns_max(cols) == 9);
  std::vector<Point> line;
  step_line(cols, ValueMap{.vmax = 10, .y_top = 0, .y_bottom = 100}, line);
  CHECK(line.size() < 600);  // a handful of points a column, not a million
}

TEST_CASE("step line: the series starts where its first point is and stops at the cursor") {
  Series s({10, 20, 30}, {2, 4, 1});
  auto cols = s.columns(25, unit_map(40));  // a replay cursor at 25: the point at 30 has not happened
  REQUIRE(cols.size() == 15);               // columns 10 .. 24
  CHECK(cols.front().x_first == 10);
  CHECK(cols.front().enter == 2);
  CHECK(cols.back().x_last == 25);
  CHECK(cols.back().exit == 4);
  CHECK(columns_max(cols) == 4);

  // A cursor inside a column ends the line inside it.
  cols = s.columns(24, TimeMap{.t0 = 0, .t1 = 40, .x0 = 0, .x1 = 20});  // 2 ns a pixel
  CHECK(cols.back().x_last == 12);

  // Nothing before the first point, nothing for a view before it.
  CHECK(s.columns(5, unit_map(40)).empty());
  CHECK(s.columns(100, TimeMap{.t0 = 0, .t1 = 8, .x0 = 0, .x1 = 8}).empty());
}

TEST_CASE("step line: a view that starts late carries the value in from before it") {
  Series s({0, 10}, {7, 3});
  auto cols = s.columns(100, TimeMap{.t0 = 50, .t1 = 60, .x0 = 200, .x1 = 210});
  REQUIRE(cols.size() == 10);
  CHECK(cols[0].x_first == 200);
  CHECK(cols[0].enter == 3);
  CHECK(cols[0].max == 3);
  CHECK(cols[9].x_last == 210);
}

static void check_same_columns(const std::vector<Column>& kept, const std::vector<Column>& fresh) {
  REQUIRE(kept.size() == fresh.size());
  for (std::size_t i = 0; i < kept.size(); ++i) {
    INFO("column " << i);
    CHECK(kept[i].x_first == fresh[i].x_first);
    CHECK(kept[i].x_last == fresh[i].x_last);
    CHECK(kept[i].enter == fresh[i].enter);
    CHECK(kept[i].min == fresh[i].min);
    CHECK(kept[i].max == fresh[i].max);
    CHECK(kept[i].exit == fresh[i].exit);
  }
}

TEST_CASE("step line: decimating again keeps the columns whose range is unchanged, as if done from nothing") {
  std::vector<std::int64_t> t;
  std::vector<std::uint32_t> v;
  for (int i = 0; i < 100'000; ++i) {
    t.push_back(i * 3);
    v.push_back(static_cast<std::uint32_t>((i * 7919) % 101));
  }
  Series s(t, v);
  const TimeMap map{.t0 = 0, .t1 = 300'000, .x0 = 0, .x1 = 500};
  std::vector<ColumnRange> before, now;
  std::vector<Column> kept, fresh;
  // A cursor moving forward, then back; then the view panned.
  for (std::int64_t end : {1'000, 120'000, 121'000, 299'999, 50'000}) {
    INFO("cursor at " << end);
    column_ranges(s.times, end, map, now);
    decimate_steps(now, before, s.values, kept);
    decimate_steps(now, s.values, fresh);
    check_same_columns(kept, fresh);
    before = now;
  }
  const TimeMap panned{.t0 = 600, .t1 = 300'600, .x0 = 0, .x1 = 500};
  column_ranges(s.times, 299'999, panned, now);
  decimate_steps(now, before, s.values, kept);
  decimate_steps(now, s.values, fresh);
  check_same_columns(kept, fresh);
}
