// Hit-testing for hover, and grouping what would overlap: markers into glyph
// cells, sub-pixel task slices into one span.
#include "visualizer/plot/hit_test.h"

#include <catch2/catch.hpp>

using namespace poolscope::plot;

namespace {

struct Slice {
  std::int64_t start, end;
};

TimeMap unit_map(double width) { return TimeMap{.t0 = 0, .t1 = width, .x0 = 0, .x1 = width}; }

}  // namespace

TEST_CASE("hit test: the point in effect at a time, and the change nearest the mouse") {
  std::vector<std::int64_t> t = {0, 10, 20};
  CHECK_FALSE(point_at(t, -1));
  CHECK(point_at(t, 0) == 0u);
  CHECK(point_at(t, 15) == 1u);
  CHECK(point_at(t, 25) == 2u);

  TimeMap m = unit_map(100);
  CHECK(nearest_change(t, 100, m, 11, 3) == 1u);
  CHECK(nearest_change(t, 100, m, 9.5, 3) == 1u);
  CHECK_FALSE(nearest_change(t, 100, m, 15, 3));
  CHECK(nearest_change(t, 100, m, 19, 3) == 2u);
  CHECK_FALSE(nearest_change(t, 15, m, 19, 3));  // after the replay cursor: not there yet
}

TEST_CASE("hit test: markers closer than a glyph share one, and the mouse finds it") {
  std::vector<std::int64_t> t = {0, 1, 2, 50, 51, 90};
  std::vector<Bucket> b;
  bucket_markers(t, 100, unit_map(100), 5, b);
  REQUIRE(b.size() == 3);
  CHECK(b[0].x == 0);
  CHECK(b[0].count == 3);
  CHECK(b[1].first == 3);
  CHECK(b[1].count == 2);
  CHECK(b[2].x == 90);

  bucket_markers(t, 60, unit_map(100), 5, b);  // the cursor at 60 hides the last one
  CHECK(b.size() == 2);
  bucket_markers(t, 100, TimeMap{.t0 = 40, .t1 = 80, .x0 = 0, .x1 = 40}, 5, b);  // only those in view
  REQUIRE(b.size() == 1);
  CHECK(b[0].first == 3);

  bucket_markers(t, 100, unit_map(100), 5, b);
  CHECK(bucket_at(b, 52, 4) == &b[1]);
  CHECK(bucket_at(b, 70, 4) == nullptr);
}

TEST_CASE("hit test: task slices narrower than a pixel merge into one span") {
  // 10 ns a pixel.
  TimeMap m{.t0 = 0, .t1 = 100, .x0 = 0, .x1 = 10};
  std::vector<Slice> s = {{0, 30}, {40, 42}, {43, 44}, {45, 47}, {60, -1}};
  std::vector<Span> spans;
  visible_spans<Slice>(s, 80, m, spans);
  REQUIRE(spans.size() == 3);
  CHECK(spans[0].x0 == 0);
  CHECK(spans[0].x1 == 3);
  CHECK(spans[0].count == 1);
  CHECK(spans[1].first == 1);
  CHECK(spans[1].count == 3);
  CHECK(spans[1].x1 == Approx(5.0f));
  CHECK(spans[2].x0 == 6);
  CHECK(spans[2].x1 == 8);  // still running: drawn up to now

  visible_spans<Slice>(s, 41, m, spans);  // the replay cursor inside the second slice
  REQUIRE(spans.size() == 2);
  CHECK(spans[1].count == 1);
  CHECK(spans[1].x1 == Approx(5.0f));  // a pixel wide at least

  visible_spans<Slice>(s, 80, TimeMap{.t0 = 35, .t1 = 55, .x0 = 0, .x1 = 20}, spans);  // zoomed in on the middle ones
  REQUIRE(spans.size() == 3);
  CHECK(spans[0].first == 1);
  CHECK(spans[0].x0 == 5);
  CHECK(spans[0].x1 == 7);

  // Less than half a pixel apart: one span.
  std::vector<Slice> close = {{0, 10}, {12, 20}, {40, 50}};
  visible_spans<Slice>(close, 80, TimeMap{.t0 = 0, .t1 = 100, .x0 = 0, .x1 = 10}, spans);
  REQUIRE(spans.size() == 2);
  CHECK(spans[0].count == 2);
  CHECK(spans[0].x1 == Approx(2.2f));  // the sub-pixel second slice is drawn a pixel wide
  CHECK(spans[1].first == 2);

  CHECK(slice_at<Slice>(s, 80, 41) == 1u);
  CHECK_FALSE(slice_at<Slice>(s, 80, 50));
  CHECK(slice_at<Slice>(s, 80, 70) == 4u);
  CHECK_FALSE(slice_at<Slice>(s, 65, 70));
}
