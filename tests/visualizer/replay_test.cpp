// The replay cursor: scrub, step one event, play at a speed, and the metrics
// as of the cursor, which must be what the run had at that moment.
#include "visualizer/model/replay.h"

#include <catch2/catch.hpp>

#include "tests/visualizer/rig.h"

using namespace poolscope;
using namespace poolscope::gui;

namespace {

// The metrics of the first `n` events, built the plain way.
metrics::RunMetrics prefix(const scenario::ResultFile& f, std::size_t n) {
  metrics::RunMetrics m;
  m.set_pools(f.pool_infos());
  m.add(std::span<const Event>(f.events).first(n));
  return m;
}

void check_same(const metrics::RunMetrics& a, const metrics::RunMetrics& b) {
  REQUIRE(a.pools().size() == b.pools().size());
  for (std::size_t i = 0; i < a.pools().size(); ++i) {
    metrics::Summary sa = a.pools()[i].summary(), sb = b.pools()[i].summary();
    CHECK(sa.submitted == sb.submitted);
    CHECK(sa.completed == sb.completed);
    CHECK(sa.refused == sb.refused);
    CHECK(sa.workers_spawned == sb.workers_spawned);
    CHECK(sa.queue_wait.p50 == sb.queue_wait.p50);
    CHECK(a.pools()[i].counters() == b.pools()[i].counters());
  }
}

// Everything the metrics hold, not only what the table shows: a rebuild into
// recycled storage must leave nothing of the moment it held before.
void check_identical(const metrics::RunMetrics& a, const metrics::RunMetrics& b) {
  check_same(a, b);
  CHECK(a.event_count() == b.event_count());
  for (std::size_t i = 0; i < a.pools().size(); ++i) {
    const metrics::PoolMetrics &pa = a.pools()[i], &pb = b.pools()[i];
    REQUIRE(pa.series().size() == pb.series().size());
    for (std::size_t k = 0; k < pa.series().size(); ++k) {
      CHECK(pa.series()[k].t == pb.series()[k].t);
      CHECK(pa.series()[k].c == pb.series()[k].c);
    }
    REQUIRE(pa.markers().size() == pb.markers().size());
    for (std::size_t k = 0; k < pa.markers().size(); ++k) {
      CHECK(pa.markers()[k].t == pb.markers()[k].t);
      CHECK(pa.markers()[k].worker == pb.markers()[k].worker);
      CHECK(pa.markers()[k].kind == pb.markers()[k].kind);
    }
    REQUIRE(pa.lanes().size() == pb.lanes().size());
    for (std::size_t k = 0; k < pa.lanes().size(); ++k) {
      const metrics::WorkerLane &la = pa.lanes()[k], &lb = pb.lanes()[k];
      CHECK(la.id == lb.id);
      CHECK(la.spawned == lb.spawned);
      CHECK(la.reaped == lb.reaped);
      CHECK(la.exited == lb.exited);
      REQUIRE(la.slices.size() == lb.slices.size());
      for (std::size_t s = 0; s < la.slices.size(); ++s) {
        CHECK(la.slices[s].start == lb.slices[s].start);
        CHECK(la.slices[s].end == lb.slices[s].end);
        CHECK(la.slices[s].task == lb.slices[s].task);
      }
    }
    REQUIRE(pa.arrivals().size() == pb.arrivals().size());
    for (std::size_t k = 0; k < pa.arrivals().size(); ++k) CHECK(pa.arrivals()[k].wait == pb.arrivals()[k].wait);
    CHECK(pa.rules() == pb.rules());
    const metrics::Summary sa = pa.summary(), sb = pb.summary();
    CHECK(sa.end_to_end.p99 == sb.end_to_end.p99);
    CHECK(sa.end_to_end.max == sb.end_to_end.max);
    CHECK(sa.service.p50 == sb.service.p50);
    CHECK(sa.reaped_by_rule == sb.reaped_by_rule);
    CHECK(sa.mean_workers == sb.mean_workers);
    CHECK(sa.peak_queued == sb.peak_queued);
  }
}

// Plays `r` to its end, its snapshots made on the way, and goes back to the
// first event: the start of a test of a later jump forward.
void play_to_end_and_back(Replay& r) {
  const std::size_t n = r.size();
  r.step(static_cast<long>(n));
  REQUIRE(r.sync_at_cursor());
  r.step(1 - static_cast<long>(n));
  REQUIRE(r.sync_at_cursor());
}

}  // namespace

TEST_CASE(
    "replay: every jump, back or forward, gives exactly the metrics of a replay from the start, whatever the "
    "storage it reused") {
  auto w = test::run_and_write(true);
  Replay r(w.read(), 64);
  const auto& f = r.file();
  // Far back, a little forward, back past the first snapshot, to the end, back one event:
  // each rebuild copies a snapshot into the storage the one before left behind.
  const std::size_t n = r.size();
  for (std::size_t target : {n, n / 3, n / 3 + 70, n / 2, 10UL, n - 1, n * 3 / 4, n * 3 / 4 - 1, 0UL, n / 5}) {
    r.step(static_cast<long>(target) - static_cast<long>(r.position()));
    REQUIRE(r.position() == target);
    int calls = 0;
    while (!r.sync_at_cursor(true, 50)) REQUIRE(++calls < 1000);
    INFO("position " << target);
    check_identical(r.at_cursor(), prefix(f, target));
  }
}

TEST_CASE("replay: a jump far ahead catches up a budget at a time") {
  auto w = test::run_and_write(true);
  Replay r(w.read());
  r.step(static_cast<long>(r.size()));
  int calls = 0;
  while (!r.sync_at_cursor(true, 100)) {
    CHECK(r.behind());
    REQUIRE(++calls < 1000);
  }
  CHECK(calls == static_cast<int>((r.size() - 1) / 100));
  check_identical(r.at_cursor(), r.metrics());
}

TEST_CASE("replay: a jump far ahead past a snapshot starts from it, copying it a pool a call") {
  auto w = test::run_and_write(true);
  Replay r(w.read(), 64);
  const std::size_t n = r.size();
  REQUIRE(n > 200);
  play_to_end_and_back(r);
  r.step(static_cast<long>(n) - 2);
  REQUIRE(r.position() == n - 1);
  int calls = 0;
  while (!r.sync_at_cursor(true, 50)) {
    CHECK(r.at_cursor().event_count() == 1);  // the old moment, until the rebuild is done
    REQUIRE(++calls < 1000);
  }
  CHECK(r.last_rebuild_events() < 64);  // from the last snapshot, not from event 1
  CHECK(calls >= static_cast<int>(r.metrics().pools().size()));
  check_identical(r.at_cursor(), prefix(r.file(), n - 1));
}

TEST_CASE("replay: a rebuild under way starts again from a snapshot the cursor has moved past") {
  auto w = test::run_and_write(true);
  Replay r(w.read(), 16);
  const std::size_t n = r.size();
  REQUIRE(n > 100);
  play_to_end_and_back(r);
  // Far ahead, 8 events past a snapshot: a rebuild from it, its pools
  // copied and an event added, one a call; then on, past more snapshots.
  const std::size_t halfway = 16 * (n / 32) + 8;
  r.step(static_cast<long>(halfway) - 1);
  for (int i = 0; i < 3; ++i) REQUIRE_FALSE(r.sync_at_cursor(true, 1));
  r.step(static_cast<long>(n - 2 - halfway));
  int calls = 0;
  while (!r.sync_at_cursor(true, 50)) REQUIRE(++calls < 1000);
  CHECK(r.last_rebuild_events() < 16);
  check_identical(r.at_cursor(), prefix(r.file(), n - 2));
}

TEST_CASE("replay: a result without events cannot be replayed, and the error says how to get one") {
  auto w = test::run_and_write(false);
  CHECK_THROWS_WITH(Replay(w.read()), Catch::Contains("--events"));
}

TEST_CASE("replay: seeking to a time makes every event up to it happen, and only those") {
  auto w = test::run_and_write(true);
  Replay r(w.read());
  const auto& events = r.file().events;
  REQUIRE(r.size() > 100);
  CHECK(r.position() == 0);
  CHECK(r.current() == nullptr);

  const std::int64_t t = events[r.size() / 2].time;
  r.seek(t);
  CHECK(r.time() == t);
  REQUIRE(r.current() != nullptr);
  CHECK(r.current()->time <= t);
  if (r.position() < r.size()) CHECK(events[r.position()].time > t);

  r.seek(r.end_time() + 1'000'000'000);  // past the end: clamped
  CHECK(r.position() == r.size());
  CHECK(r.time() == r.end_time());
  r.seek(-5);
  CHECK(r.time() == 0);
}

TEST_CASE("replay: stepping moves one event forward or back, to that event's time") {
  auto w = test::run_and_write(true);
  Replay r(w.read());
  r.step(1);
  CHECK(r.position() == 1);
  CHECK(r.current() == &r.file().events[0]);
  CHECK(r.time() == r.file().events[0].time);
  r.step(10);
  CHECK(r.position() == 11);
  r.step(-1);
  CHECK(r.position() == 10);
  CHECK(r.current() == &r.file().events[9]);
  r.step(-100);
  CHECK(r.position() == 0);
  CHECK(r.time() == 0);
  r.set_playing(true);
  r.step(1);
  CHECK_FALSE(r.playing());  // stepping pauses
}

TEST_CASE("replay: playing moves the cursor at the chosen speed and stops at the end") {
  auto w = test::run_and_write(true);
  Replay r(w.read());
  r.advance(1.0, 1.0);
  CHECK(r.time() == 0);  // not playing: nothing moves
  r.set_playing(true);
  r.advance(0.25, 2.0);  // half a second of the run in a quarter second
  CHECK(r.time() == 500'000'000);
  r.advance(3600, 1.0);
  CHECK(r.time() == r.end_time());
  CHECK(r.position() == r.size());
  CHECK_FALSE(r.playing());
  r.set_playing(true);  // playing again starts over
  CHECK(r.time() == 0);
}

TEST_CASE("replay: the metrics at the cursor are the run's metrics at that moment, backwards too") {
  auto w = test::run_and_write(true);
  Replay r(w.read());
  const auto& f = r.file();

  r.seek(f.events[f.events.size() * 2 / 3].time);
  REQUIRE(r.sync_at_cursor());
  check_same(r.at_cursor(), prefix(f, r.position()));

  r.step(1);  // forward: brought up to date incrementally
  REQUIRE(r.sync_at_cursor(false));
  check_same(r.at_cursor(), prefix(f, r.position()));

  r.seek(f.events[f.events.size() / 4].time);  // back: a rebuild, which can wait
  CHECK_FALSE(r.sync_at_cursor(false));
  REQUIRE(r.sync_at_cursor(true));
  check_same(r.at_cursor(), prefix(f, r.position()));

  r.seek(r.end_time());
  REQUIRE(r.sync_at_cursor());
  check_same(r.at_cursor(), r.metrics());
}

TEST_CASE("replay: the frame shows the whole run, clipped at the cursor") {
  auto w = test::run_and_write(true);
  Replay r(w.read());
  r.seek(123'000'000);
  bool called = false;
  r.with_frame([&](const Frame& f) {
    called = true;
    CHECK(f.replay);
    CHECK(f.now == 123'000'000);
    CHECK(f.events.size() == r.size());
    CHECK(&f.metrics == &r.metrics());
    CHECK(f.index.pools() == 2);
  });
  CHECK(called);
}

TEST_CASE(
    "replay: seeking finds the events that happened by t even when pools' clocks interleave a few ns out of order") {
  auto w = test::run_and_write(true);
  scenario::ResultFile f = w.read();
  // Two pools' events a few ns out of order across pools, as two threads'
  // clocks can record them: every tenth event of pool 1 a little late.
  for (std::size_t i = 1; i < f.events.size(); ++i)
    if (f.events[i].pool == 1 && i % 10 == 0) f.events[i].time += 5'000;
  Replay r(std::move(f));
  const auto& events = r.file().events;
  std::vector<std::int64_t> times;
  for (const Event& e : events) times.insert(times.end(), {e.time - 1, e.time, e.time + 1});
  for (std::int64_t t : times) {
    r.seek(t);
    const std::int64_t at = r.time();  // t, clamped to the run
    INFO("t = " << at << ", position " << r.position());
    // A prefix: every event before the cursor happened by t, the next one not (yet).
    bool ok = true;
    for (std::size_t i = 0; i < r.position(); ++i) ok = ok && events[i].time <= at;
    CHECK(ok);
    if (r.position() < r.size()) CHECK(events[r.position()].time > at);
  }
}

TEST_CASE("replay: going back rebuilds the metrics from the nearest snapshot, not from the start") {
  auto w = test::run_and_write(true);
  CHECK(Replay(w.read()).snapshot_every() == Replay::kSnapshotEvery);  // by default; a million events: every eighth
  constexpr std::size_t every = 40;
  Replay r(w.read(), every);
  const auto& f = r.file();
  REQUIRE(r.size() > 4 * every);

  r.seek(r.end_time());
  REQUIRE(r.sync_at_cursor());
  CHECK(r.snapshots() == r.size() / every);  // one at every multiple passed

  // One step back from the end, many times: each rebuild replays fewer than `every` events.
  for (int k = 0; k < 30; ++k) {
    r.step(-1);
    REQUIRE(r.sync_at_cursor());
    CHECK(r.last_rebuild_events() < every);
    check_same(r.at_cursor(), prefix(f, r.position()));
  }
  // A jump back to the middle, then forward again, then back past the first snapshot.
  r.seek(f.events[f.events.size() / 2].time);
  REQUIRE(r.sync_at_cursor());
  CHECK(r.last_rebuild_events() < every);
  check_same(r.at_cursor(), prefix(f, r.position()));
  r.step(every * 2 + 3);
  REQUIRE(r.sync_at_cursor());
  check_same(r.at_cursor(), prefix(f, r.position()));
  r.seek(0);
  r.step(every / 2);
  REQUIRE(r.sync_at_cursor());
  CHECK(r.last_rebuild_events() == every / 2);
  check_same(r.at_cursor(), prefix(f, r.position()));
  CHECK(r.snapshots() == r.size() / every);  // none taken twice
}

TEST_CASE("replay: the workers at the end of the workload and the submit lateness are the runner's (issue 21)") {
  auto w = test::run_and_write(true);
  Replay r(w.read());
  // two_pools(): 1 s of bursts, then 600 ms quiet.
  CHECK(r.workload_end() == 1'600'000'000);
  CHECK(r.workload_end() == w.run.outcome.workload_end.count());
  REQUIRE(r.lateness().size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    const json& summary = r.file().pools[i].summary;
    // "workers final" as the runner wrote it: the counters where the workload ended, not at the end of the trace.
    CHECK(r.metrics().pools()[i].summary(r.workload_end()).final_workers ==
          summary["workers"]["final"].get<std::uint32_t>());
    CHECK(r.lateness()[i].known);
    CHECK(r.lateness()[i].max == std::llround(summary["submission_lateness_s"]["max"].get<double>() * 1e9));
    CHECK(r.lateness()[i].p99 <= r.lateness()[i].max);
  }
  bool seen = false;
  r.with_frame([&](const Frame& f) {
    seen = true;
    CHECK(f.workload_end == r.workload_end());
    CHECK(f.lateness.size() == 2);
  });
  CHECK(seen);
}

TEST_CASE("replay: going back with a budget rebuilds over several calls, the old metrics kept until it is done") {
  auto w = test::run_and_write(true);
  Replay r(w.read(), 100);  // a snapshot every 100 events
  r.seek(r.end_time());
  REQUIRE(r.sync_at_cursor());
  const std::uint64_t at_end = r.at_cursor().event_count();
  const std::size_t target = r.size() / 200 * 100 + 37;  // 37 events past a snapshot
  r.step(static_cast<long>(target) - static_cast<long>(r.position()));
  REQUIRE(r.position() == target);
  int calls = 0;
  while (!r.sync_at_cursor(true, 10)) {
    ++calls;
    CHECK(r.behind());
    CHECK(r.at_cursor().event_count() == at_end);  // still the old moment's, whole
    REQUIRE(calls < 100);
  }
  CHECK(calls >= 3);  // 37 events past the snapshot, 10 a call
  CHECK_FALSE(r.behind());
  CHECK(r.last_rebuild_events() == 37);
  check_same(r.at_cursor(), prefix(r.file(), target));
}
