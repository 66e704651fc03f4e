// The shared time axis: pixel mapping, zoom around a point, pan, follow-live,
// and the ticks and labels of the ruler and the value axes.
#include "visualizer/plot/axis.h"

#include <catch2/catch.hpp>

using namespace poolscope::plot;

TEST_CASE("axis: a time map turns times into pixels and back") {
  TimeMap m{.t0 = 1e9, .t1 = 3e9, .x0 = 100, .x1 = 1100};
  CHECK(m.ns_per_px() == 2e6);
  CHECK(m.to_x(1e9) == 100);
  CHECK(m.to_x(2e9) == 600);
  CHECK(m.to_t(600) == 2e9);
  CHECK(m.column_begin(0) == 1e9);
  CHECK(m.column_begin(500) == 2e9);
  CHECK(m.columns() == 1000);
}

TEST_CASE("axis: zooming keeps the time under the anchor where it is on screen") {
  TimeAxis axis;
  axis.set_view(0, 10e9);
  const double anchor = 7.5e9;
  double x_before = axis.map(0, 1000).to_x(anchor);
  axis.zoom(0.5, anchor);
  CHECK(axis.span() == Approx(5e9));
  CHECK(axis.map(0, 1000).to_x(anchor) == Approx(x_before));
  axis.zoom(2, anchor);  // and back out, exactly
  CHECK(axis.begin() == Approx(0).margin(1e-3));
  CHECK(axis.end() == Approx(10e9));
}

TEST_CASE("axis: zoom stops at a microsecond and the view never starts before time 0") {
  TimeAxis axis;
  axis.set_view(1e9, 2e9);
  for (int i = 0; i < 100; ++i) axis.zoom(0.1, 1.5e9);
  CHECK(axis.span() == Approx(TimeAxis::kMinSpan));
  CHECK(axis.begin() <= 1.5e9);
  CHECK(axis.end() >= 1.5e9);

  axis.set_view(1e9, 2e9);
  axis.zoom(4, 1.8e9);  // would begin at -1.4 s
  CHECK(axis.begin() == 0);
  CHECK(axis.span() == Approx(4e9));
  axis.pan(-5e9);
  CHECK(axis.begin() == 0);
  CHECK(axis.span() == Approx(4e9));
}

TEST_CASE("axis: follow-live drags the view along with new data, and panning back stops it") {
  TimeAxis axis;
  axis.set_view(0, 10e9);
  REQUIRE(axis.following());
  axis.update(5e9);  // inside the view: nothing moves
  CHECK(axis.begin() == 0);
  axis.update(12e9);  // past the edge: the view scrolls, keeping its span
  CHECK(axis.span() == Approx(10e9));
  CHECK(axis.end() > 12e9);
  CHECK(axis.map(0, 1000).to_x(12e9) < 1000);

  axis.pan(-1e9);
  CHECK_FALSE(axis.following());
  double begin = axis.begin();
  axis.update(30e9);
  CHECK(axis.begin() == begin);

  axis.set_follow(true);
  axis.pan(1e9);  // panning forward keeps following
  CHECK(axis.following());
}

TEST_CASE("axis: fit shows a range with a small margin after it") {
  TimeAxis axis;
  axis.fit(0, 4e9);
  CHECK(axis.begin() == 0);
  CHECK(axis.end() > 4e9);
  CHECK(axis.end() < 4.2e9);
}

TEST_CASE("axis: nice steps are 1, 2 or 5 times a power of ten") {
  CHECK(nice_step(10, 5) == 2);
  CHECK(nice_step(10, 10) == 1);
  CHECK(nice_step(1, 10) == Approx(0.1));
  CHECK(nice_step(7, 1) == 10);
  CHECK(nice_step(100, 4) == 50);
  CHECK(nice_step(3e9, 6) == 5e8);
  CHECK(nice_ceiling(0) == 1);
  CHECK(nice_ceiling(4) == 5);
  CHECK(nice_ceiling(200) == 250);
  CHECK(nice_ceiling(16) >= 16.8);
}

TEST_CASE("axis: time ticks fall on a nice grid and say only the digits it needs") {
  TimeMap m{.t0 = 0, .t1 = 1e9, .x0 = 0, .x1 = 1000};
  auto ticks = time_ticks(m, 100);
  REQUIRE(ticks.size() == 10);
  CHECK(ticks[0].label == "0.0s");
  CHECK(ticks[3].label == "0.3s");
  CHECK(ticks[3].pos == Approx(300));

  TimeMap late{.t0 = 1.1e9, .t1 = 1.9e9, .x0 = 0, .x1 = 800};
  ticks = time_ticks(late, 150);
  REQUIRE(!ticks.empty());
  CHECK(ticks[0].value >= 1.1e9);
  CHECK(ticks.front().label == "1.2s");

  CHECK(format_tick(1.25e9, 2.5e8) == "1.25s");
  CHECK(format_tick(5e5, 1e5) == "0.5ms");
  CHECK(format_tick(3e9, 1e9) == "3s");
  CHECK(format_tick(1500, 500) == "1.5µs");
  CHECK(format_time(1.5e9) == "1.500 s");
  CHECK(format_time(2.5e6) == "2.500 ms");
  CHECK(format_time(2500) == "2.5 µs");
  CHECK(format_time(40) == "40 ns");
  CHECK(format_short(1.234e9) == "1.23 s");
  CHECK(format_short(184.2e6) == "184 ms");
  CHECK(format_short(27.94e6) == "27.9 ms");
  CHECK(format_short(63.6e3) == "63.6 µs");
  CHECK(format_short(950) == "950 ns");
  CHECK(format_short(12.3e9) == "12.3 s");
}

TEST_CASE("axis: value ticks run from 0 to the top at least min_px apart") {
  ValueMap vm{.vmax = 10, .y_top = 0, .y_bottom = 100};
  CHECK(vm.to_y(0) == 100);
  CHECK(vm.to_y(10) == 0);
  auto ticks = value_ticks(vm, 20);
  REQUIRE(ticks.size() == 6);  // 0, 2, 4, 6, 8, 10
  CHECK(ticks[1].label == "2");
  CHECK(ticks[1].pos == Approx(80));
  // Counts never get fractional ticks.
  ValueMap small{.vmax = 1, .y_top = 0, .y_bottom = 300};
  CHECK(value_ticks(small, 20).size() == 2);
}

TEST_CASE("axis: a short plot still labels a tick near its top, never only 0") {
  // The presentation screenshot's queued plot: a top of 30 with room for one
  // step, which nice_step makes 50, past the top.
  ValueMap queued{.vmax = 30, .y_top = 0, .y_bottom = 50};
  auto ticks = value_ticks(queued, 40);
  REQUIRE(ticks.size() == 2);
  CHECK(ticks[0].label == "0");
  CHECK(ticks[1].label == "30");
  CHECK(ticks[1].pos == Approx(0));
  // Whatever the height and the top, the highest label is in the upper half.
  for (double top : {1.0, 2.0, 3.0, 5.0, 7.0, 30.0, 45.0, 250.0, 1e6})
    for (double height : {30.0, 50.0, 79.0, 120.0, 400.0}) {
      ValueMap vm{.vmax = nice_ceiling(top), .y_top = 0, .y_bottom = height};
      auto t = value_ticks(vm, 40);
      INFO("top " << top << ", " << height << " px");
      REQUIRE(t.size() >= 2);
      CHECK(t.back().value >= vm.vmax * 0.5);
      CHECK(t.back().value <= vm.vmax);
    }
}

TEST_CASE("axis: a log value map keeps 0 at the bottom and gives small pools room beside a big one (issue 21)") {
  ValueMap lin{.vmax = 200, .y_top = 0, .y_bottom = 100};
  ValueMap log{.vmax = 200, .y_top = 0, .y_bottom = 100, .log = true};
  CHECK(log.to_y(0) == 100);
  CHECK(log.to_y(200) == Approx(0));
  CHECK(log.to_y(-3) == 100);  // never below the bottom
  // 8 workers beside 200: 4 px above the bottom on a linear scale, more than half the height on a log one.
  CHECK(lin.to_y(8) == Approx(96));
  CHECK(log.to_y(8) < 60);
  CHECK(log.to_y(16) < log.to_y(8));  // still increasing

  auto ticks = value_ticks(log, 12);
  REQUIRE(ticks.size() >= 3);
  CHECK(ticks[0].label == "0");
  CHECK(ticks[1].label == "1");
  CHECK(ticks[2].label == "10");
  for (std::size_t i = 1; i < ticks.size(); ++i) CHECK(ticks[i - 1].pos - ticks[i].pos >= 12 * 0.6);
}
