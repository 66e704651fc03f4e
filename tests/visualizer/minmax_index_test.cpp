// The min/max pyramid against brute force, at sizes around every level boundary.
#include "visualizer/plot/minmax_index.h"

#include <algorithm>

#include <catch2/catch.hpp>

using namespace poolscope::plot;

namespace {

std::uint32_t next(std::uint64_t& state) {
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return static_cast<std::uint32_t>(state >> 40) % 1000;
}

}  // namespace

TEST_CASE("minmax index: every range query equals a walk over the range") {
  std::uint64_t rng = 7;
  for (std::size_t n : {1u, 2u, 15u, 16u, 17u, 33u, 255u, 256u, 257u, 4097u, 20000u}) {
    MinMaxIndex ix;
    std::vector<std::uint32_t> v;
    for (std::size_t i = 0; i < n; ++i) {
      v.push_back(next(rng));
      ix.push(v.back());
    }
    REQUIRE(ix.size() == n);
    for (int q = 0; q < 300; ++q) {
      std::size_t a = next(rng) * n / 1000, b = next(rng) * n / 1000;
      std::size_t lo = std::min(a, b), hi = std::max(a, b) + 1;
      MinMax mm = ix.range(lo, hi);
      auto [mn, mx] =
          std::minmax_element(v.begin() + static_cast<std::ptrdiff_t>(lo), v.begin() + static_cast<std::ptrdiff_t>(hi));
      INFO("n=" << n << " range [" << lo << ", " << hi << ")");
      REQUIRE(mm.min == *mn);
      REQUIRE(mm.max == *mx);
    }
    MinMax all = ix.range(0, n);
    CHECK(all.min == *std::min_element(v.begin(), v.end()));
    CHECK(all.max == *std::max_element(v.begin(), v.end()));
  }
}

TEST_CASE("minmax index: queries stay right while values are appended (a live run)") {
  MinMaxIndex ix;
  std::vector<std::uint32_t> v;
  std::uint64_t rng = 3;
  for (std::size_t i = 0; i < 3000; ++i) {
    v.push_back(next(rng));
    ix.push(v.back());
    std::size_t lo = i / 3;
    MinMax mm = ix.range(lo, i + 1);
    REQUIRE(mm.max == *std::max_element(v.begin() + static_cast<std::ptrdiff_t>(lo), v.end()));
    REQUIRE(mm.min == *std::min_element(v.begin() + static_cast<std::ptrdiff_t>(lo), v.end()));
  }
  // A single spike anywhere is found from the top of the pyramid.
  ix.clear();
  for (int i = 0; i < 100000; ++i) ix.push(i == 77777 ? 5000u : 7u);
  CHECK(ix.range(0, 100000).max == 5000);
  CHECK(ix.range(0, 77777).max == 7);
  CHECK(ix.range(77777, 77778).max == 5000);
}
