#include <atomic>
#include <thread>
#include <map>
#include <vector>

#include "pools/core/pool_trace.h"
#include "pools/core/submit_gate.h"
#include "pools/core/thread.h"
#include "pools/core/trace_log.h"
#include "tests/support/sync.h"

using namespace poolscope;
using namespace std::chrono_literals;

TEST_CASE("trace stream: events come out in the order they went in") {
  TraceStream stream(16);
  for (int i = 0; i < 10; ++i) stream.record([&](Event& e) { e.arg = i; });
  std::vector<Event> out;
  CHECK(stream.drain(out) == 10);
  for (int i = 0; i < 10; ++i) CHECK(out[static_cast<std::size_t>(i)].arg == i);
  CHECK(stream.drain(out) == 0);
  CHECK(stream.dropped() == 0);
}

TEST_CASE("trace stream: drops are counted per pool, for the table and the GUI") {
  TraceStream stream(8);
  const PoolId a = stream.add_pool("a", "demo"), b = stream.add_pool("b", "demo");
  for (int i = 0; i < 8; ++i) stream.record([&](Event& e) { e.pool = a; });
  for (int i = 0; i < 5; ++i) stream.record([&](Event& e) { e.pool = b; });
  for (int i = 0; i < 2; ++i) stream.record([&](Event& e) { e.pool = a; });
  CHECK(stream.dropped() == 7);
  CHECK(stream.dropped(a) == 2);
  CHECK(stream.dropped(b) == 5);
}

TEST_CASE("trace stream: drain_when_full drains on the recording thread instead of dropping") {
  TraceStream stream(8);
  std::vector<Event> drained;
  int calls = 0;
  stream.drain_when_full([&] {
    ++calls;
    stream.drain(drained);
  });
  for (int i = 0; i < 100; ++i) CHECK(stream.record([&](Event& e) { e.arg = i; }));
  CHECK(stream.dropped() == 0);
  CHECK(calls > 0);
  stream.drain(drained);
  REQUIRE(drained.size() == 100);
  for (int i = 0; i < 100; ++i) CHECK(drained[static_cast<std::size_t>(i)].arg == i);
  // Another thread's records still drop: only the thread that set it may drain.
  stream.record([](Event&) {});
  std::thread other([&] {
    for (int i = 0; i < 20; ++i) stream.record([](Event&) {});
  });
  other.join();
  CHECK(stream.dropped() > 0);
  stream.drain_when_full({});
}

TEST_CASE("trace stream: a full ring drops and counts, and keeps working after a drain") {
  TraceStream stream(8);
  int kept = 0;
  for (int i = 0; i < 20; ++i) kept += stream.record([&](Event& e) { e.arg = i; });
  CHECK(kept == 8);
  CHECK(stream.dropped() == 12);
  std::vector<Event> out;
  CHECK(stream.drain(out, 3) == 3);
  CHECK(out.back().arg == 2);
  CHECK(stream.record([](Event& e) { e.arg = 100; }));
  out.clear();
  CHECK(stream.drain(out) == 6);
  CHECK(out.front().arg == 3);
  CHECK(out.back().arg == 100);
}

TEST_CASE("trace stream: many producers, one consumer, nothing lost and each producer in order") {
  TraceStream stream(1 << 10);  // small, so the consumer must keep up while producers run
  constexpr int kThreads = 4, kEach = 20000;
  std::atomic<bool> stop{false};
  std::vector<Event> got;
  Thread consumer("consumer", [&] {
    while (!stop.load() || stream.drain(got) > 0) stream.drain(got);
  });
  std::vector<Thread> producers;
  std::atomic<std::uint64_t> kept{0};
  for (int t = 0; t < kThreads; ++t) {
    producers.emplace_back("producer", [&, t] {
      for (int i = 0; i < kEach; ++i)
        kept += stream.record([&](Event& e) {
          e.worker = static_cast<WorkerId>(t);
          e.arg = i;
        });
    });
  }
  for (auto& p : producers) p.join();
  stop = true;
  consumer.join();
  CHECK(got.size() == kept.load());
  CHECK(kept.load() + stream.dropped() == std::uint64_t{kThreads} * kEach);
  std::map<WorkerId, std::int64_t> last;
  for (const Event& e : got) {
    auto [it, fresh] = last.try_emplace(e.worker, -1);
    CHECK(e.arg > it->second);
    it->second = e.arg;
  }
}

TEST_CASE("trace stream: events of one slot and of two share the blocks and come out whole") {
  // An event with its own time, an arg beyond 32 bits or an arg2 takes two
  // slots; one that finds a single slot left in its block pads it and takes
  // the next. Blocks of 2 slots here, so every other event crosses a block.
  TraceStream stream(1 << 8);
  REQUIRE(stream.block_slots() == 2);
  constexpr int kThreads = 3, kEach = 5000;
  auto expected = [](int t, int i) {
    Event e;
    e.worker = static_cast<WorkerId>(t);
    e.task = static_cast<TaskId>(i) << 33 | 5;  // beyond 32 bits: TaskId is carried whole
    e.pool = static_cast<PoolId>(t);
    e.rule = static_cast<Label>(i & 0xFF);
    e.kind = static_cast<EventKind>(i % kEventKindCount);
    switch (i % 4) {
      case 0: e.arg = i; break;                                   // short
      case 1: e.time = 1000 + i; e.arg = -i; break;               // long: its own time
      case 2: e.arg = (std::int64_t{i} << 32) + 7; break;         // long: arg beyond 32 bits
      case 3: e.arg = -1; e.arg2 = i; break;                      // long: arg2
    }
    return e;
  };
  std::atomic<bool> stop{false};
  std::vector<Event> got;
  Thread consumer("consumer", [&] {
    while (!stop.load() || stream.drain(got, 7) > 0) stream.drain(got, 7);
  });
  std::vector<Thread> producers;
  std::atomic<std::uint64_t> kept{0};
  for (int t = 0; t < kThreads; ++t)
    producers.emplace_back("producer", [&, t] {
      for (int i = 0; i < kEach; ++i) kept += stream.record([&](Event& e) { e = expected(t, i); });
    });
  for (auto& p : producers) p.join();
  stop = true;
  consumer.join();
  REQUIRE(got.size() == kept.load());
  CHECK(kept.load() + stream.dropped() == std::uint64_t{kThreads} * kEach);
  std::map<WorkerId, int> next;  // per producer, the index its next event may have (drops skip some)
  int wrong = 0;
  for (const Event& e : got) {
    const int i = static_cast<int>(e.task >> 33);
    int& from = next[e.worker];
    const Event want = expected(static_cast<int>(e.worker), i);
    wrong += i < from || e.time != want.time || e.arg != want.arg || e.arg2 != want.arg2 || e.pool != want.pool ||
             e.rule != want.rule || e.kind != want.kind || e.task != want.task;
    from = i + 1;
  }
  CHECK(wrong == 0);
}

TEST_CASE("trace stream: an event caused by another thread's event comes after it") {
  // Two threads pass a token back and forth; each records an event just
  // after receiving it. Merged by time stamp, the events must alternate.
  TraceStream stream(1 << 16);
  constexpr int kPasses = 20000;
  std::atomic<int> turn{0};
  auto side = [&](int me) {
    for (int i = me; i < kPasses; i += 2) {
      while (turn.load(std::memory_order_acquire) != i) {
      }
      stream.record([&](Event& e) { e.arg = i; });
      turn.store(i + 1, std::memory_order_release);
    }
  };
  std::vector<Event> got;
  std::atomic<bool> stop{false};
  Thread consumer("consumer", [&] {
    while (!stop.load()) stream.drain(got);
  });
  {
    Thread other("side-1", [&] { side(1); });
    side(0);
  }
  stop = true;
  consumer.join();
  stream.drain(got);
  REQUIRE(got.size() == kPasses);
  int out_of_order = 0;
  for (int i = 0; i < kPasses; ++i) out_of_order += got[static_cast<std::size_t>(i)].arg != i;
  CHECK(out_of_order == 0);
}

TEST_CASE("trace stream: threads that come and go leave their queues to the next ones, nothing lost") {
  // Each live recording thread holds a block; a small stream can serve many
  // more threads over time than it has blocks, if they exit and are drained.
  TraceStream stream(64);
  const std::size_t blocks = stream.capacity() / stream.block_slots();
  std::vector<Event> got;
  std::uint64_t sent = 0;
  for (std::size_t round = 0; round < 4 * blocks; ++round) {
    Thread t("short-lived", [&] {
      for (int i = 0; i < 3; ++i) stream.record([&](Event& e) { e.arg = static_cast<std::int64_t>(round); });
    });
    t.join();
    sent += 3;
    stream.drain(got);
  }
  stream.drain(got);
  CHECK(stream.dropped() == 0);
  CHECK(got.size() == sent);
  CHECK(stream.recorded() == sent);
  CHECK(stream.consumed() == sent);
}

// Each event's time, turned from its tick, lies between the clock's readings
// just before and just after it was recorded: good to a few microseconds of
// real time, so 1 ms of clock time is allowed.
static void check_times_within(const std::vector<Event>& events, const std::vector<std::pair<std::int64_t, std::int64_t>>& around) {
  REQUIRE(events.size() == around.size());
  for (std::size_t i = 0; i < events.size(); ++i) {
    CHECK(events[i].time >= around[i].first - 1'000'000);
    CHECK(events[i].time <= around[i].second + 1'000'000);
  }
}

TEST_CASE("trace stream: a pool on a real clock gets its clock's time from the tick") {
  TraceStream stream;
  SteadyClock clock(10.0);  // scaled: 10 clock-seconds per real second
  PoolTrace trace({.clock = &clock, .stream = &stream}, "demo");
  std::vector<std::pair<std::int64_t, std::int64_t>> around;  // clock before and after each event
  for (int i = 0; i < 5; ++i) {
    const auto before = clock.now().count();
    trace.spawned(trace.new_worker_id(), kNoLabel);
    around.emplace_back(before, clock.now().count());
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  std::vector<Event> events;
  stream.drain(events);
  REQUIRE(events.size() == 5);
  check_times_within(events, around);
  for (std::size_t i = 0; i < events.size(); ++i) CHECK(events[i].counters.workers == i + 1);
}

TEST_CASE("trace stream: a pool on the engine's adjustable clock gets its time from the tick, across pauses and speeds") {
  TraceStream stream;
  AdjustableClock clock(10.0);
  PoolTrace trace({.clock = &clock, .stream = &stream}, "demo");
  std::vector<std::pair<std::int64_t, std::int64_t>> around;  // clock before and after each event
  auto record = [&] {
    const auto before = clock.now().count();
    trace.spawned(trace.new_worker_id(), kNoLabel);
    around.emplace_back(before, clock.now().count());
    // Real time passes between events: a wrong piece would be off by 20 ms
    // of clock time at 10x, far beyond the tolerance below.
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  };
  record();
  clock.pause();
  record();
  record();  // both at the pause's time
  clock.set_scale(100.0);
  clock.resume();
  record();
  clock.set_scale(1.0);
  record();
  std::vector<Event> events;
  stream.drain(events);
  REQUIRE(events.size() == 5);
  check_times_within(events, around);
  CHECK(events[1].time == events[2].time);
  CHECK(around[1].first == around[2].second);  // the clock did stand still
}

TEST_CASE("pool trace: each operation moves the right counters and the accounting") {
  ManualClock clock;
  TraceStream stream;
  PoolTrace trace({.clock = &clock, .stream = &stream, .name = "p"}, "demo");
  Label rule = intern_label("test-rule", "a rule used by this test");

  WorkerId w = trace.new_worker_id();
  trace.spawned(w, rule);
  TaskId a = trace.submitted();
  trace.queued(a, rule);
  CHECK(trace.counters() == Counters{1, 0, 1, 0});
  trace.handoff(a, w, rule, /*from_queue=*/true);
  clock.advance(5ms);
  trace.started(w, a);
  CHECK(trace.counters() == Counters{1, 1, 0, 0});
  trace.finished(w, a);
  TaskId b = trace.submitted();
  trace.blocked(b);
  CHECK(trace.counters().blocked == 1);
  trace.unblocked(b);
  trace.refused(b, rule);
  TaskId c = trace.submitted();
  trace.queued(c, rule);
  trace.dropped(c, rule);
  TaskId d = trace.submitted();
  Job job{d, [] { throw std::runtime_error("boom"); }};
  CHECK(trace.run(w, job) != nullptr);
  trace.exited(w, rule);

  Accounting acc = trace.accounting();
  CHECK(acc.submitted == 4);
  CHECK(acc.completed == 1);
  CHECK(acc.refused == 1);
  CHECK(acc.dropped == 1);
  CHECK(acc.threw == 1);
  CHECK(acc.balanced());
  CHECK(trace.counters() == Counters{0, 0, 0, 0});

  std::vector<Event> events;
  stream.drain(events);
  REQUIRE(events.size() == 17);
  CHECK(events[0].kind == EventKind::worker_spawned);
  CHECK(events[0].counters.workers == 1);
  CHECK(events[0].rule == rule);
  CHECK(events[4].kind == EventKind::task_started);
  CHECK(events[4].time == 5'000'000);
  CHECK(events[4].task == a);
  CHECK(events[4].worker == w);
  CHECK(label_code(events[0].rule) == "test-rule");
  CHECK(label_text(events[0].rule) == "a rule used by this test");
}

TEST_CASE("pool trace: the last event's counters equal the gauges, however threads interleave") {
  TraceStream stream(1 << 20);
  PoolTrace trace({.stream = &stream}, "demo");
  std::vector<Thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back("worker", [&] {
      WorkerId w = trace.new_worker_id();
      trace.spawned(w, kNoLabel);
      for (int i = 0; i < 5000; ++i) {
        TaskId id = trace.submitted();
        trace.queued(id, kNoLabel);
        trace.handoff(id, w, kNoLabel, true);
        trace.started(w, id);
        trace.finished(w, id);
      }
      if (w % 2 == 0) trace.exited(w, kNoLabel);
    });
  }
  for (auto& t : threads) t.join();
  std::vector<Event> events;
  stream.drain(events);
  REQUIRE(stream.dropped() == 0);
  CHECK(events.back().counters == trace.counters());
  CHECK(trace.counters() == Counters{2, 0, 0, 0});
  CHECK(trace.accounting().balanced());
}

TEST_CASE("pool trace: untraced pools keep their gauges and accounting") {
  PoolTrace trace({}, "demo");
  CHECK_FALSE(trace.traced());
  TaskId id = trace.submitted();
  trace.refused(id, rules::pool_closed());
  CHECK(trace.accounting().refused == 1);
  CHECK(trace.name() == "demo");
}

TEST_CASE("trace log: wait_for finds the next matching event after the previous match") {
  TraceStream stream;
  TraceLog log(stream);
  PoolTrace trace({.stream = &stream}, "demo");
  TaskId a = trace.submitted();
  TaskId b = trace.submitted();
  auto first = test::await_event(log, is_kind(EventKind::task_submitted), "first submission");
  auto second = test::await_event(log, is_kind(EventKind::task_submitted), "second submission");
  CHECK(first.task == a);
  CHECK(second.task == b);
  CHECK_FALSE(log.wait_for(is_kind(EventKind::task_submitted), 1ms).has_value());
  log.mark();
  trace.refused(trace.submitted(), rules::pool_closed());
  CHECK(test::await_event(log, is_kind(EventKind::task_refused, rules::pool_closed()), "refusal").task == 3);
  CHECK(log.last_counters(trace.id()) == Counters{});
}

TEST_CASE("submit gate: close waits out the submits already inside") {
  SubmitGate gate;
  REQUIRE(gate.enter());
  CHECK(gate.close());
  CHECK_FALSE(gate.close());
  CHECK_FALSE(gate.enter());
  std::atomic<bool> drained{false};
  Thread waiter("drain", [&] {
    gate.wait_empty();
    drained = true;
  });
  CHECK_FALSE(drained);
  gate.leave();
  waiter.join();
  CHECK(drained);
}

TEST_CASE("threads: Thread is counted while it runs and joined on destruction") {
  const test::OsThreads os_before;  // by id: a thread joined just before may still be listed
  auto before = live_threads();
  test::Gate gate;
  {
    Thread t("counted", gate.task());
    gate.await_arrivals(1);
    CHECK(live_threads() == before + 1);
    CHECK(os_before.added() == 1);
    gate.open();
  }
  CHECK(live_threads() == before);
  os_before.await_none_added("the OS reaped the thread");
}

TEST_CASE("labels: designs can share a code, each with its own text") {
  Label a = intern_label("shared-code", "design A's reason");
  Label b = intern_label("shared-code", "design B's reason");
  CHECK(a != b);
  CHECK(intern_label("shared-code", "design A's reason") == a);
  CHECK(label_code(a) == label_code(b));
  CHECK(label_text(b) == "design B's reason");
  CHECK(find_label("shared-code") == a);
  CHECK(label_text(intern_label("bare-code")) == "bare-code");
}
