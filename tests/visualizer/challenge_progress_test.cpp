// The challenges' progress as kept between sessions: a win and its schedule
// read back, the shorter win kept, and a damaged document set aside with a
// message naming where it was kept and the field, never fatal.
#include "visualizer/model/challenge_progress.h"

#include <catch2/catch.hpp>

using namespace poolscope::gui;

TEST_CASE("challenge progress: wins read back with their schedules, and the shorter win stays") {
  std::string problem;
  ChallengeProgress p = ChallengeProgress::parse("", "kept", problem);
  CHECK(problem.empty());
  CHECK(p.won_count() == 0);
  p.won("lab01-lost-wakeup", "2.1.1.2", 4);
  p.won("lab01-lost-wakeup", "2.1.1.2.1.1", 6);  // longer: the first stays
  p.won("ants-two-tickers", "1", 1);
  const ChallengeProgress q = ChallengeProgress::parse(p.to_json(), "kept", problem);
  CHECK(problem.empty());
  CHECK(q.won_count() == 2);
  REQUIRE(q.find("lab01-lost-wakeup"));
  CHECK(q.find("lab01-lost-wakeup")->schedule == "2.1.1.2");
  CHECK(q.find("lab01-lost-wakeup")->decisions == 4);
  CHECK(q.is_won("ants-two-tickers"));
  CHECK_FALSE(q.is_won("gammazero-one-per-tick"));
  p.won("lab01-lost-wakeup", "2.2", 2);  // shorter: it replaces the first
  CHECK(p.find("lab01-lost-wakeup")->schedule == "2.2");
}

TEST_CASE("challenge progress: a damaged document is set aside with a message naming where and the field") {
  std::string problem;
  CHECK(ChallengeProgress::parse("{not json", "~/.local/share/poolscope/challenges.json", problem).won_count() == 0);
  CHECK(problem == "~/.local/share/poolscope/challenges.json: not a JSON object: the challenges' progress starts again");
  ChallengeProgress::parse(R"({"format": "poolscope-challenge-progress/9", "challenges": {}})", "kept", problem);
  CHECK(problem == "kept: format: expected \"poolscope-challenge-progress/1\": the challenges' progress starts again");
  const ChallengeProgress p = ChallengeProgress::parse(
      R"({"format": "poolscope-challenge-progress/1", "challenges": {
            "a": {"won": true, "schedule": "1.2", "decisions": 2},
            "b": {"won": true, "schedule": 12}}})",
      "kept", problem);
  CHECK(problem == "kept: challenges.b: expected \"schedule\" (a string) and \"decisions\" (a count)");
  CHECK(p.is_won("a"));
  CHECK_FALSE(p.is_won("b"));
}
