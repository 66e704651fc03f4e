// Flows: each task's submission paired with its start by task id, per pool,
// as the GUI's arrows draw them; fed in pieces as a live run grows.
#include "visualizer/model/task_flow.h"

#include <catch2/catch.hpp>

#include "tests/visualizer/rig.h"

using namespace poolscope;
using namespace poolscope::gui;

namespace {

Event event(EventKind kind, PoolId pool, TaskId task, std::int64_t t, WorkerId worker = 0, std::int64_t arg = 0) {
  return Event{.time = t, .task = task, .arg = arg, .worker = worker, .pool = pool, .kind = kind};
}

}  // namespace

TEST_CASE("task flows: a submission is paired with the start of the same task in the same pool") {
  // Two pools run tasks with the same ids; pool 1 queues task 2 and hands it
  // over later, after task 3 (LIFO would do that), to worker 7.
  const Label rule = intern_label("test-ready-stack", "the worker released last takes it");
  std::vector<Event> events = {
      event(EventKind::task_submitted, 0, 1, 100),
      event(EventKind::task_submitted, 1, 1, 100),
      event(EventKind::task_started, 0, 1, 110, 3),
      event(EventKind::task_submitted, 1, 2, 200),
      event(EventKind::task_queued, 1, 2, 201),
      event(EventKind::task_submitted, 1, 3, 300),
      event(EventKind::task_started, 1, 3, 305, 5),
      event(EventKind::task_handoff, 1, 2, 900, 7, 1),
      event(EventKind::task_started, 1, 2, 910, 7),
  };
  events[7].rule = rule;
  TaskFlows flows;
  flows.sync(std::span<const Event>(events).first(4));
  REQUIRE(flows.find(1, 2) != nullptr);
  CHECK(flows.find(1, 2)->started == -1);  // not yet
  CHECK(flows.find(1, 2)->wait() == -1);
  flows.sync(events);

  const TaskFlow* a = flows.find(0, 1);
  REQUIRE(a != nullptr);
  CHECK(a->submitted == 100);
  CHECK(a->started == 110);
  CHECK(a->worker == 3);
  CHECK(a->wait() == 10);
  CHECK_FALSE(flows.find(1, 1)->started >= 0);  // pool 1's task 1 never started: ids are per pool

  const TaskFlow* b = flows.find(1, 2);
  CHECK(b->submitted == 200);
  CHECK(b->started == 910);
  CHECK(b->worker == 7);
  CHECK(b->wait() == 710);
  CHECK(b->from_queue);
  CHECK(b->handoff == rule);
  CHECK_FALSE(flows.find(1, 3)->from_queue);
  CHECK(flows.find(2, 1) == nullptr);
  CHECK(flows.find(0, 9) == nullptr);

  // By submission time, for the arrows of every task in view.
  auto in = flows.submitted_within(1, 150, 300);
  REQUIRE(in.size() == 2);
  CHECK(in[0].task == 2);
  CHECK(in[1].task == 3);
  CHECK(flows.submitted_within(1, 301, 1000).empty());
}

TEST_CASE("task flows: in a real run every started task's flow ends where its lane slice begins") {
  auto f = test::run_and_write(true).read();
  TaskFlows flows;
  flows.sync(f.events);
  const metrics::RunMetrics m = f.metrics();
  std::size_t checked = 0;
  for (std::size_t p = 0; p < m.pools().size(); ++p)
    for (const metrics::WorkerLane& lane : m.pools()[p].lanes())
      for (const metrics::TaskSlice& s : lane.slices) {
        const TaskFlow* flow = flows.find(p, s.task);
        REQUIRE(flow != nullptr);
        CHECK(flow->started == s.start);
        CHECK(flow->worker == lane.id);
        CHECK(flow->submitted <= flow->started);
        ++checked;
      }
  CHECK(checked > 20);
}
