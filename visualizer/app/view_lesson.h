// The Lesson panel (issue 48): the step's text, its question and input, the
// reveal, a try's parameter and verdict, Back/Next, progress, the summary.
// Drawn at the top of the side panel, beside the plots, the same on the
// desktop and in the page. It draws a LessonProgress (model/lesson_progress.h)
// and asks the App, through LessonActions, for what changes the run on
// screen (app_lesson.cpp).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "visualizer/app/ui.h"
#include "visualizer/model/lesson_progress.h"
#include "visualizer/model/lesson_text.h"

namespace poolscope::gui {

// What the panel's buttons and keys ask of the App; each runs after the frame.
struct LessonActions {
  std::function<void(std::size_t)> go;      // show step i (steps(): the summary)
  std::function<void()> answered;           // the question was answered: the run goes on
  std::function<void(const json&)> run_try;  // run the step again with the try's value
  std::function<void()> save;               // Lesson -> Save answers
  std::function<void()> close;
};

class LessonView {
 public:
  // Draws the panel in a child `height` px high (the side panel's top).
  void draw(Context& cx, LessonProgress& lp, const LessonActions& act, float height);
  // Focus the answer's field at the next frame (a step that asks was opened).
  void focus_answer() { focus_ = true; }

 private:
  void predict(Context& cx, LessonProgress& lp, const LessonActions& act);
  void try_step(Context& cx, LessonProgress& lp, const LessonActions& act);
  void summary(Context& cx, LessonProgress& lp, const LessonActions& act);
  void text(Context& cx, const std::string& markdown);  // parsed once per distinct text
  std::vector<std::pair<std::string, std::vector<TextBlock>>> cache_;
  bool focus_ = false;
  float content_ = 0;                   // the panel's content height at the last frame (px)
  int picked_ = -1;                     // a pool answer: the choice picked
  std::vector<std::string> order_;      // an order answer: the choices as arranged
  std::size_t order_for_ = ~std::size_t{0};  // the step order_ was set up for
};

}  // namespace poolscope::gui
