// A student going through a lesson (scenarios/engine/lesson.h): which step
// is shown, what they answered and tried, and what the run said back. Plain
// C++, no window: the Lesson panel (visualizer/app/view_lesson.cpp) draws
// it and the App runs each step's scenario; the tests drive it directly.
//
// A step's life, as the panel shows it:
//   predict  asking    the run plays, paused by itself at the question's
//                      moment (Predict::ask_at) until the student answers
//            waiting   answered: the run goes on to the moment the answer
//                      is known (the query's time, or the run's end)
//            revealed  the student's answer beside the run's, graded
//   try      the step's run plays unchanged; the student picks a value in
//            the step's range and runs again; once that run has what the
//            condition reads, its verdict and why
// Past the last step: the summary (questions answered, within tolerance).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "scenarios/engine/lesson.h"

namespace poolscope::gui {

namespace lesson = scenario::lesson;

class LessonProgress {
 public:
  // `shipped`: the lesson's name if it is a shipped one (a link can name it), else "".
  LessonProgress(lesson::Lesson lesson, std::string shipped);

  const lesson::Lesson& lesson() const { return lesson_; }
  const std::string& shipped() const { return shipped_; }
  std::size_t steps() const { return lesson_.steps.size(); }
  // The step shown, from 0; steps() is the summary after the last one.
  std::size_t at() const { return at_; }
  bool at_summary() const { return at_ == steps(); }
  const lesson::Step* step() const { return at_summary() ? nullptr : &lesson_.steps[at_]; }
  // Moves to step i (clamped to the summary); true if it moved.
  bool go(std::size_t i);

  enum class Phase { reading, asking, waiting, revealed, trying, checked };
  Phase phase() const;

  // --- predict
  // What the student typed or picked, before it is answered.
  std::string typed;
  // Parses `typed` as the step's answer (a number; a pool; pools in order,
  // separated by commas) while it asks; false with why() when it is not
  // one (nothing else changes).
  bool answer_typed();
  const std::string& why() const { return why_; }
  // The moment the run must pause at (nullopt: it runs freely): while the
  // step asks, the question's; once answered, the moment its answer is read
  // (a query's time); while a try's run goes on, its condition's. Paused
  // there, the run's metrics hold every event up to it and none after, so
  // the figure is the one the runner's check reads (update()'s `reached`).
  std::optional<Nanos> pause_at() const;

  // --- try
  // The value the student set (the step scenario's own until they change
  // it: the suggestion is for them to find).
  json try_value;
  static json current(const lesson::Step& s);
  void ran_try(const json& value);  // a run with `value` has started

  // Once a frame, on the run on screen: reveals an answered question once
  // the run has its answer, checks a try's run once it has the condition's
  // figures. `run.reached` must be a moment up to which its metrics are
  // whole: where it paused itself at pause_at(), or -1 once it has ended.
  // Returns true when something was revealed or checked this time.
  bool update(const lesson::RunData& run);

  // What the step's record holds.
  struct Record {
    std::optional<lesson::StudentAnswer> answer;
    std::optional<lesson::Answer> run;
    std::optional<lesson::Grade> grade;
    std::optional<json> tried;  // the value of the try's run under way or checked
    std::optional<lesson::TryOutcome> outcome;
  };
  const Record& record(std::size_t i) const { return records_[i]; }
  const Record& record() const { return records_[at_]; }

  // The summary.
  struct Tally {
    std::size_t questions = 0, answered = 0, within = 0, tries = 0, tried = 0, held = 0;
  };
  Tally tally() const;
  // The answers document (poolscope-lesson-answers/1).
  json answers() const;

 private:
  lesson::Lesson lesson_;
  std::string shipped_;
  std::size_t at_ = 0;
  std::vector<Record> records_;
  std::string why_;
};

// "answer kind" words for the panel: "a number", "a pool", "the pools in order".
std::string answer_prompt(const lesson::Predict& p);
// The student's answer as text ("3", "ants", "ants, java").
std::string answer_text(const lesson::StudentAnswer& a);

}  // namespace poolscope::gui
