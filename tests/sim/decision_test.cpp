// Being the scheduler (pools/core/sim/decision.h): a simulated run stepped
// decision by decision, by explicit picks, and its schedule replayed.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "pools/core/sim/decision.h"
#include "pools/core/sim/schedule.h"
#include "pools/core/sim/world.h"
#include "pools/core/sync.h"
#include "pools/core/thread.h"

using namespace poolscope;

namespace {

sim::Settings settings(std::uint64_t seed, sim::Policy policy = sim::Policy::random) {
  sim::Settings s;
  s.seed = seed;
  s.policy = policy;
  s.costs = sim::costs_preset("free");
  return s;
}

// Three threads append their name to a log around a mutex, three times each:
// the log is the interleaving; `schedule` gets the World's picks.
struct Interleaving {
  std::string log;
  std::vector<std::uint64_t> schedule;
  std::vector<sim::Decision> seen;
};

// Runs it in slices of one switch, so a pausing Chooser works as a GUI's
// would; `answer` is asked whenever the stepper pauses.
Interleaving interleave(const sim::Settings& s, sim::Chooser* chooser,
                        const std::function<void(sim::Stepper&, const sim::Decision&)>& answer = {}) {
  Interleaving out;
  sim::World w(s);
  if (chooser) w.set_chooser(chooser);
  Mutex m;
  w.start([&] {
    std::vector<Thread> threads;
    for (char c : std::string("abc"))
      threads.emplace_back(std::string(1, c), [&, c] {
        for (int i = 0; i < 3; ++i) {
          std::lock_guard g(m);
          out.log += c;
        }
      });
  });
  auto* stepper = dynamic_cast<sim::Stepper*>(chooser);
  for (int guard = 0; !w.run_for(1); ++guard) {
    REQUIRE(guard < 100000);
    if (stepper)
      if (std::optional<sim::Decision> d = stepper->waiting()) {
        out.seen.push_back(*d);
        REQUIRE(answer);
        answer(*stepper, *d);
      }
  }
  out.schedule = w.schedule();
  return out;
}

}  // namespace

TEST_CASE("a chooser that takes the policy's pick runs the seed's own run, for every policy") {
  for (sim::Policy p : {sim::Policy::random, sim::Policy::pct, sim::Policy::fifo})
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      CAPTURE(sim::to_string(p), seed);
      const std::string alone = interleave(settings(seed, p), nullptr).log;
      sim::Stepper policy({}, sim::Stepper::After::policy);
      Interleaving chosen = interleave(settings(seed, p), &policy);
      CHECK(chosen.log == alone);
      CHECK(!chosen.schedule.empty());
    }
}

TEST_CASE("a run stepped by explicit picks: each decision shows its candidates, and the schedule replays it") {
  // Always the first candidate (the one runnable longest): every thread that
  // reaches a point lets the others go first, so they meet at the lock.
  sim::Stepper student;
  Interleaving stepped = interleave(settings(7), &student, [](sim::Stepper& s, const sim::Decision& d) {
    REQUIRE(d.candidates.size() >= 2);
    for (const sim::Candidate& c : d.candidates) {
      CHECK(!c.name.empty());
      CHECK(!c.where.empty());
      CHECK(!c.next.empty());
    }
    REQUIRE(s.pick(d.candidates.front().thread));
  });
  REQUIRE(stepped.seen.size() == stepped.schedule.size());
  for (std::size_t i = 0; i < stepped.seen.size(); ++i) {
    CHECK(stepped.seen[i].index == i);
    CHECK(stepped.schedule[i] == stepped.seen[i].candidates.front().thread);
  }
  CHECK(stepped.log.size() == 9);

  // Two threads at Mutex::lock of the same mutex: a decision that matters, the lock named.
  bool contended = false;
  for (const sim::Decision& d : stepped.seen)
    if (d.matters()) {
      contended = true;
      int at_lock = 0;
      for (const sim::Candidate& c : d.candidates)
        if (c.where == "Mutex::lock") {
          ++at_lock;
          CHECK(c.object_label == "lock #1");
        }
      CHECK(at_lock >= 2);
    }
  CHECK(contended);

  // The schedule replayed (then the policy on): the same interleaving, no pause.
  sim::Stepper replay(stepped.schedule, sim::Stepper::After::policy);
  Interleaving again = interleave(settings(7), &replay);
  CHECK(again.log == stepped.log);
  CHECK(again.schedule == stepped.schedule);

  // Undo: the schedule minus its last pick, then paused at that same decision.
  std::vector<std::uint64_t> undone(stepped.schedule.begin(), stepped.schedule.end() - 1);
  sim::Stepper back(undone);
  Interleaving redo = interleave(settings(7), &back, [&](sim::Stepper& s, const sim::Decision& d) {
    if (d.index == undone.size()) CHECK(d.describe() == stepped.seen.back().describe());
    REQUIRE(s.pick(d.candidates.front().thread));
  });
  CHECK(redo.log == stepped.log);
}

TEST_CASE("the policy for N decisions, and on to the next decision that matters") {
  sim::Stepper s;
  std::vector<std::uint64_t> paused_at;
  int turn = 0;
  interleave(settings(3), &s, [&](sim::Stepper& st, const sim::Decision& d) {
    paused_at.push_back(d.index);
    if (turn++ % 2 == 0)
      st.policy_for(3);
    else
      st.to_next_that_matters();
  });
  REQUIRE(paused_at.size() >= 2);
  CHECK(paused_at[0] == 0);
  CHECK(paused_at[1] == 3);  // three decisions taken by the policy
}

TEST_CASE("a pick that does not fit the run fails it, saying at which decision") {
  sim::Stepper wrong({99}, sim::Stepper::After::policy);
  CHECK_THROWS_WITH(interleave(settings(1), &wrong),
                    Catch::Contains("pick 1 (thread 99) does not fit the run: at decision 0") &&
                        Catch::Contains("thread 99 is not runnable there"));
  CHECK(wrong.error().find("decision 0") != std::string::npos);
}

TEST_CASE("a schedule as text: picks by thread id, repeats folded, errors that say which pick") {
  CHECK(sim::format_picks({3, 5, 5, 5, 5, 3}) == "3.5x4.3");
  CHECK(sim::format_picks({}) == "");
  CHECK(sim::parse_picks("3.5x4.3") == std::vector<std::uint64_t>{3, 5, 5, 5, 5, 3});
  CHECK(sim::parse_picks("").empty());
  CHECK_THROWS_WITH(sim::parse_picks("3.a.4"), Catch::StartsWith("pick 2 ('a'): expected a thread id"));
  CHECK_THROWS_WITH(sim::parse_picks("3.5x"), Catch::StartsWith("pick 2 (''): expected a repeat count"));
  CHECK_THROWS_WITH(sim::parse_picks("3..4"), Catch::StartsWith("pick 2"));
  CHECK_THROWS_WITH(sim::parse_picks("0"), Catch::StartsWith("pick 1 ('0')"));
}
