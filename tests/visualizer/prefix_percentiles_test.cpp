// The replay's percentiles, kept up to date as its cursor moves, must be
// exactly what the runner computes by copying and sorting every latency:
// the same samples and the same means, wherever the cursor goes.
#include "visualizer/model/prefix_percentiles.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>

#include <catch2/catch.hpp>

#include "visualizer/model/replay.h"

using namespace poolscope;
using namespace poolscope::gui;

namespace {

// The definition written out: sort the first values, take the nearest rank,
// sum in arrival order.
metrics::Percentiles by_sorting(std::vector<std::int64_t> v) {
  metrics::Percentiles p;
  p.count = v.size();
  if (v.empty()) return p;
  double sum = 0;
  for (std::int64_t x : v) sum += static_cast<double>(x);
  std::sort(v.begin(), v.end());
  auto at = [&](double q) {
    auto k = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size())));
    return v[std::clamp<std::size_t>(k, 1, v.size()) - 1];
  };
  p.p50 = at(0.50);
  p.p95 = at(0.95);
  p.p99 = at(0.99);
  p.max = v.back();
  p.mean = sum / static_cast<double>(v.size());
  return p;
}

void check_equal(const metrics::Percentiles& a, const metrics::Percentiles& b) {
  CHECK(a.count == b.count);
  CHECK(a.p50 == b.p50);
  CHECK(a.p95 == b.p95);
  CHECK(a.p99 == b.p99);
  CHECK(a.max == b.max);
  CHECK(a.mean == b.mean);  // exactly: the same sums in the same order
}

}  // namespace

TEST_CASE("prefix percentiles: the first m values' percentiles exactly, forward, back and after jumps") {
  std::mt19937_64 rng(3);
  // Mostly a few small values, so ties are many, and a tail of large ones.
  std::vector<std::int64_t> values(997);
  for (std::int64_t& v : values)
    v = static_cast<std::int64_t>(rng() % 8 == 0 ? rng() % 1'000'000'000 : rng() % 50);
  PrefixPercentiles p(values);
  REQUIRE(p.size() == values.size());
  // One at a time, jumps both ways (removing a few, or counting again from nothing), the ends.
  std::vector<std::size_t> counts = {0, 1, 2, 3, 500, 997, 996, 10, 0, 997, 400, 401, 399, 2, 5000};
  for (int i = 0; i < 200; ++i) counts.push_back(rng() % (values.size() + 1));
  for (std::size_t m : counts) {
    p.set_count(m);
    const std::size_t n = std::min(m, values.size());
    INFO("m = " << m);
    CHECK(p.count() == n);
    check_equal(p.percentiles(), by_sorting({values.begin(), values.begin() + static_cast<std::ptrdiff_t>(n)}));
  }
}

TEST_CASE("prefix percentiles: no value, one value, all equal") {
  PrefixPercentiles none(std::vector<std::int64_t>{});
  none.set_count(3);
  CHECK(none.percentiles().count == 0);
  PrefixPercentiles one(std::vector<std::int64_t>{42});
  one.set_count(1);
  check_equal(one.percentiles(), by_sorting({42}));
  const std::vector<std::int64_t> same(64, 7);
  PrefixPercentiles equal(same);
  for (std::size_t m : {64, 1, 33}) {
    equal.set_count(m);
    check_equal(equal.percentiles(), by_sorting({same.begin(), same.begin() + static_cast<std::ptrdiff_t>(m)}));
  }
}

TEST_CASE("replay: the table's percentiles as of the cursor are the runner's, forward and after going back") {
  // A shipped scenario, simulated so it is the same run each time; in it ants
  // blocks its submitters, so every kind of latency has samples.
  const std::string out = "prefix-percentiles-overload.result.json";
  const std::string cmd = std::string(POOLSCOPE_RUNNER) + " run overload --sim --events -q --out " + out;
  REQUIRE(std::system(cmd.c_str()) == 0);
  std::ifstream in(out);
  // A snapshot every 2,000 events: going back rebuilds from one.
  Replay r(scenario::read_result(in, out), 2000);
  const std::size_t n = r.size();
  REQUIRE(n > 20'000);
  bool blocked = false;
  auto check_at_cursor = [&] {
    while (!r.sync_at_cursor()) {
    }
    INFO("cursor at event " << r.position() << " of " << n);
    for (std::size_t i = 0; i < r.at_cursor().pools().size(); ++i) {
      const metrics::PoolMetrics& pm = r.at_cursor().pools()[i];
      INFO("pool " << pm.info().name);
      metrics::Summary kept = pm.summary_without_percentiles();
      r.percentiles().fill(i, kept);
      const metrics::Summary sorted = pm.summary();  // the runner's way: copy and sort
      for (metrics::Latency k : metrics::kLatencies) check_equal(kept.latency(k), sorted.latency(k));
      blocked = blocked || kept.blocked.count > 0;
    }
  };
  // Forward, then back: far, a little, one event, to the start; then to the end again.
  for (std::size_t at : {n / 3, 2 * n / 3, n, n / 2, n / 2 - 1000, n / 10, std::size_t{1}, std::size_t{0}, n}) {
    r.seek(at == 0 ? 0 : r.file().events[at - 1].time);
    check_at_cursor();
  }
  r.step(-1);
  check_at_cursor();
  CHECK(blocked);
  // At the end, the figures the runner wrote in the file.
  r.seek(r.end_time());
  check_at_cursor();
  for (std::size_t i = 0; i < r.file().pools.size(); ++i) {
    metrics::Summary s = r.at_cursor().pools()[i].summary_without_percentiles();
    r.percentiles().fill(i, s);
    const json& written = r.file().pools[i].summary;
    INFO("pool " << r.file().pools[i].info.name);
    for (auto [key, p] : {std::pair{"queue_wait_s", s.queue_wait}, {"end_to_end_s", s.end_to_end}, {"blocked_s", s.blocked}}) {
      CHECK(written[key]["count"].get<std::uint64_t>() == p.count);
      CHECK(written[key]["p99"].get<double>() == static_cast<double>(p.p99) / 1e9);
      CHECK(written[key]["max"].get<double>() == static_cast<double>(p.max) / 1e9);
      CHECK(written[key]["mean"].get<double>() == p.mean / 1e9);
    }
  }
}
