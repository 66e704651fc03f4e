// A student's progress through a lesson, as the Lesson panel drives it: a
// question asks until answered, pauses the run where its answer is read,
// and reveals the answer the runner's check computes; a try is checked on
// the student's own run; the answers document holds both.
#include "visualizer/model/lesson_progress.h"

#include <catch2/catch.hpp>

#include "scenarios/engine/engine.h"

using namespace poolscope;
using namespace poolscope::gui;
using Phase = LessonProgress::Phase;

namespace {

// A whole run of a step's scenario (or of the try's change), as the check runs it.
scenario::RunResult run_of(const scenario::Scenario& s) {
  return scenario::run_scenario(s, scenario::RunOptions{.keep_events = true});
}

std::size_t first_step_with(const lesson::Lesson& l, bool predict) {
  for (std::size_t i = 0; i < l.steps.size(); ++i)
    if (predict ? l.steps[i].predict.has_value() : l.steps[i].try_.has_value()) return i;
  FAIL("no such step in " << l.file);
  return 0;
}

}  // namespace

TEST_CASE("lesson progress: a question asks, then waits for its moment, then shows the check's answer") {
  const lesson::Lesson l = lesson::load_lesson(lesson::resolve_lesson("after-the-burst"));
  const std::size_t i = first_step_with(l, true);
  LessonProgress lp(l, "after-the-burst");
  lp.go(i);
  REQUIRE(lp.phase() == Phase::asking);
  CHECK(lp.pause_at() == l.steps[i].predict->ask_at);

  lp.typed = "not a number";
  if (l.steps[i].predict->answer == lesson::AnswerKind::number) {
    CHECK_FALSE(lp.answer_typed());
    CHECK_FALSE(lp.why().empty());
    CHECK(lp.phase() == Phase::asking);
  }
  lp.typed = l.steps[i].predict->answer == lesson::AnswerKind::number ? "40" : l.steps[i].predict->choices.at(0);
  REQUIRE(lp.answer_typed());
  REQUIRE(lp.phase() == Phase::waiting);
  CHECK(lp.pause_at() == l.steps[i].predict->known_at());

  // Not before the run has its answer ...
  const scenario::RunResult r = run_of(l.steps[i].scenario);
  CHECK_FALSE(lp.update(lesson::run_data(r.metrics, l.steps[i].scenario, 0)));
  CHECK(lp.phase() == Phase::waiting);
  // ... then the check's answer, graded.
  REQUIRE(lp.update(lesson::run_data(r.metrics, l.steps[i].scenario, -1)));
  REQUIRE(lp.phase() == Phase::revealed);
  const lesson::CheckReport key = lesson::check_lesson(l);
  CHECK(lp.record().run->text() == key.steps[i].answer.text());
  CHECK(lp.tally().answered == 1);
  CHECK_FALSE(lp.pause_at());

  // Another step and back: the answer is kept, not asked again.
  lp.go(i + 1);
  lp.go(i);
  CHECK(lp.phase() == Phase::revealed);
  const json doc = lp.answers();
  CHECK(doc["format"] == std::string(lesson::kAnswersFormat));
  CHECK(doc["answers"].size() == 1);
}

TEST_CASE("lesson progress: a try starts at the scenario's value and is checked on the student's run") {
  const lesson::Lesson l = lesson::load_lesson(lesson::resolve_lesson("after-the-burst"));
  const std::size_t i = first_step_with(l, false);
  const lesson::Try& t = *l.steps[i].try_;
  LessonProgress lp(l, "after-the-burst");
  lp.go(i);
  REQUIRE(lp.phase() == Phase::trying);
  CHECK(lp.try_value != t.suggest);  // the suggestion is the student's to find
  CHECK_FALSE(lp.pause_at());        // the unchanged run plays freely

  lp.ran_try(t.suggest);
  const scenario::Scenario changed = lesson::with_change(l, l.steps[i], t.suggest);
  const scenario::RunResult r = run_of(changed);
  REQUIRE(lp.update(lesson::run_data(r.metrics, changed, -1)));
  REQUIRE(lp.phase() == Phase::checked);
  CHECK(lp.record().outcome->holds);
  CHECK(lp.tally().held == 1);
  CHECK(lp.answers()["tries"].size() == 1);

  lp.go(lp.steps());
  CHECK(lp.at_summary());
  CHECK_FALSE(lp.step());
}
