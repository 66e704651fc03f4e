// Being the scheduler in the live session (live.h, "being the scheduler"):
// a simulated run stepped by decision on the GUI's thread waits at each
// decision; a pick moves it on; the policy's picks are kept in the
// schedule like the student's; the schedule replays the run event for
// event; undo goes back to the decision before the last pick; a pick that
// does not fit is an error naming the decision. Deterministic: no wall clock.
#include <catch2/catch.hpp>

#include "visualizer/model/live.h"

using namespace poolscope;
using namespace poolscope::gui;

namespace {

json small_scenario() {
  return {{"name", "stepped"},
          {"lesson", "a run stepped by decision"},
          {"seed", 5},
          {"time_scale", 1},
          {"simulation", {{"cpus", 2}, {"costs", "free"}, {"policy", "random"}, {"seed", 9u}}},
          {"task", {{"duration", "10ms"}}},
          {"phases", {{{"name", "burst"}, {"duration", "100ms"}, {"arrival", {{"kind", "burst"}, {"count", 5}}}}}},
          {"pools", {{{"design", "gammazero"}, {"config", {{"maxWorkers", 2}}}}}}};
}

// Frames until the run waits at a decision or ends (a frame's slices: 8 ms of wall time at most each).
void until_decision(LiveSession& s) {
  for (int frame = 0; frame < 10'000 && !s.decision() && s.state() != LiveSession::State::finished; ++frame)
    s.tick(std::chrono::milliseconds(8));
}

std::string events(LiveSession& s) {
  std::string out;
  s.with_frame([&](const Frame& f) {
    for (const Event& e : f.events)
      out += std::to_string(e.time) + " " + std::to_string(static_cast<int>(e.kind)) + " " +
             std::to_string(e.worker) + " " + std::to_string(e.task) + "\n";
  });
  return out;
}

}  // namespace

TEST_CASE("live stepping: a run waits at each decision, picks move it on, the schedule replays it, undo goes back") {
  LiveSession s(small_scenario(), "stepped.json", ".");
  REQUIRE(s.start_stepped());
  REQUIRE(s.stepping());
  until_decision(s);
  std::optional<sim::Decision> d = s.decision();
  REQUIRE(d);
  CHECK(d->index == 0);
  REQUIRE(d->candidates.size() >= 2);
  CHECK(s.schedule().empty());

  // The student picks the last candidate, twice in a row: each pick is kept.
  std::vector<std::uint64_t> picked;
  for (int k = 0; k < 2; ++k) {
    d = s.decision();
    REQUIRE(d);
    picked.push_back(d->candidates.back().thread);
    CHECK(s.pick(picked.back()));
    CHECK_FALSE(s.decision());  // answered: on its way
    until_decision(s);
  }
  CHECK(s.schedule() == picked);
  const sim::Decision third = *s.decision();
  CHECK(third.index == 2);

  // Undo: the run again without the last pick, waiting where that pick was made.
  REQUIRE(s.undo());
  until_decision(s);
  REQUIRE(s.decision());
  CHECK(s.decision()->index == 1);
  CHECK(s.schedule() == std::vector<std::uint64_t>{picked.front()});

  // The policy picks the rest; its picks are the schedule too, and replay the same run.
  s.policy_for(1'000'000);
  until_decision(s);
  REQUIRE(s.state() == LiveSession::State::finished);
  CHECK(s.stepping_error().empty());
  const std::vector<std::uint64_t> schedule = s.schedule();
  CHECK(schedule.size() > 2);
  const std::string run = events(s);
  CHECK(std::count(run.begin(), run.end(), '\n') > 10);

  REQUIRE(s.start_stepped(schedule));
  until_decision(s);
  if (s.decision()) {  // (a last decision the schedule did not reach: let the policy end it)
    s.policy_for(1'000'000);
    until_decision(s);
  }
  REQUIRE(s.state() == LiveSession::State::finished);
  CHECK(s.schedule() == schedule);
  const bool same = events(s) == run;  // a boolean: Catch would print both traces
  CHECK(same);
}

// Known to fail until the engine drains the trace into the metrics when the
// World pauses at a decision (Run::advance_simulation, sched-engine's): until
// then a decision shows the events up to the last 10 ms poll.
TEST_CASE("live stepping: the events up to a decision are in the frame while it waits", "[!mayfail]") {
  LiveSession s(small_scenario(), "stepped.json", ".");
  REQUIRE(s.start_stepped());
  until_decision(s);
  // Let the policy on to a decision a while into the run.
  for (int k = 0; k < 12 && s.decision(); ++k) {
    s.policy_for(1);
    until_decision(s);
  }
  REQUIRE(s.decision());
  std::size_t submitted = 0;
  s.with_frame([&](const Frame& f) {
    for (const Event& e : f.events) submitted += e.kind == EventKind::task_submitted;
  });
  CHECK(submitted > 0);
}

TEST_CASE("live stepping: a replayed pick that does not fit names the decision") {
  LiveSession s(small_scenario(), "stepped.json", ".");
  REQUIRE(s.start_stepped({999}));
  until_decision(s);
  CHECK(s.state() == LiveSession::State::finished);
  CHECK_THAT(s.pick_error(), Catch::Contains("pick 1 (thread 999) does not fit the run: at decision"));
  CHECK_THAT(s.stepping_error(), Catch::Contains("thread 999"));
}
