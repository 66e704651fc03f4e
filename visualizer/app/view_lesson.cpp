// The Lesson panel (view_lesson.h). Index:
//   spans, text     the markdown subset laid out: words wrapped across spans,
//                   emphasis and code in colours of their own, links
//   draw            the lesson's title and progress, the step's text, its
//                   question or try, Back/Next
//   predict         the question, its input (a number, a pool, an order),
//                   the pause, the reveal and the explanation
//   try_step        the parameter and its range, run again, the verdict
//   summary         past the last step: what was answered, Save answers
#include "visualizer/app/view_lesson.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdio>

#include "visualizer/app/draw.h"
#include "visualizer/plot/axis.h"

namespace poolscope::gui {

namespace {

using Phase = LessonProgress::Phase;

const ImVec4 kEmphasis{1.0f, 0.84f, 0.45f, 1};
const ImVec4 kCode{0.62f, 0.86f, 1.0f, 1};
const ImVec4 kLink{0.45f, 0.7f, 1.0f, 1};
const ImVec4 kTitle{0.95f, 0.8f, 0.4f, 1};
const ImVec4 kGood{0.45f, 0.9f, 0.5f, 1};
const ImVec4 kOff{1.0f, 0.6f, 0.35f, 1};
const ImVec4 kDim{0.7f, 0.7f, 0.7f, 1};

std::string seconds(Nanos t) {
  return t.count() == 0 ? std::string("the start") : plot::format_time(static_cast<double>(t.count()));
}

// One block's spans, word by word, wrapped at the panel's right edge; the
// caller has indented the block.
void spans(Ui& ui, const std::vector<TextSpan>& line) {
  const float avail = ImGui::GetContentRegionAvail().x;
  const float space = ImGui::CalcTextSize(" ").x;
  float x = 0;
  bool empty = true;
  for (const TextSpan& span : line) {
    std::size_t at = 0;
    while (at < span.text.size()) {
      // A word and the spaces after it: one item.
      std::size_t end = span.text.find(' ', at);
      end = end == std::string::npos ? span.text.size() : span.text.find_first_not_of(' ', end);
      if (end == std::string::npos) end = span.text.size();
      const std::string word = span.text.substr(at, end - at);
      at = end;
      const float w = ImGui::CalcTextSize(word.c_str()).x;
      const bool trailing = !word.empty() && word.back() == ' ';
      if (!empty && x + w - (trailing ? space : 0) > avail) {
        x = 0;  // the next item starts a line
      } else if (!empty) {
        ImGui::SameLine(0, 0);
      }
      empty = false;
      x += w;
      const ImVec2 p = ImGui::GetCursorScreenPos();
      switch (span.style) {
        case TextSpan::Style::plain:
          ImGui::TextUnformatted(word.c_str());
          break;
        case TextSpan::Style::emphasis:
          ImGui::TextColored(kEmphasis, "%s", word.c_str());
          break;
        case TextSpan::Style::code: {
          const float wc = ImGui::CalcTextSize(word.c_str(), nullptr, false).x - (trailing ? space : 0);
          ImGui::GetWindowDrawList()->AddRectFilled({p.x - 1, p.y}, {p.x + wc + 1, p.y + ImGui::GetTextLineHeight()},
                                                    IM_COL32(255, 255, 255, 22), 2);
          ImGui::TextColored(kCode, "%s", word.c_str());
          break;
        }
        case TextSpan::Style::link: {
          ImGui::TextColored(kLink, "%s", word.c_str());
          const ImVec2 r0 = ImGui::GetItemRectMin(), r1 = ImGui::GetItemRectMax();
          ImGui::GetWindowDrawList()->AddLine({r0.x, r1.y}, {r1.x - (trailing ? space : 0), r1.y},
                                              ImGui::GetColorU32(kLink));
          if (ImGui::IsItemHovered()) {
            ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
            ImGui::SetTooltip("%s (click: copy it)", span.target.c_str());
          }
          if (ImGui::IsItemClicked()) {
            ImGui::SetClipboardText(span.target.c_str());
            ui.say("copied " + span.target);
          }
          break;
        }
      }
    }
  }
}

// A button that is as wide as its label, or `width` if wider.
bool button(const char* label, float width = 0) { return ImGui::Button(label, {width, 0}); }

}  // namespace

void LessonView::text(Context& cx, const std::string& markdown) {
  auto hit = std::find_if(cache_.begin(), cache_.end(), [&](const auto& c) { return c.first == markdown; });
  if (hit == cache_.end()) {
    if (cache_.size() > 16) cache_.clear();
    cache_.emplace_back(markdown, parse_lesson_text(markdown));
    hit = cache_.end() - 1;
  }
  const float indent = ImGui::GetFontSize() * 1.1f;
  for (const TextBlock& b : hit->second) {
    if (b.kind == TextBlock::Kind::paragraph) {
      spans(cx.ui, b.spans);
    } else {
      ImGui::Indent(indent);
      const ImVec2 p = ImGui::GetCursorScreenPos();
      const std::string mark = b.kind == TextBlock::Kind::bullet ? "\xe2\x80\xa2" : std::to_string(b.number) + ".";
      ImGui::GetWindowDrawList()->AddText({p.x - indent * 0.85f, p.y}, ImGui::GetColorU32(ImGuiCol_Text),
                                          mark.c_str());
      spans(cx.ui, b.spans);
      ImGui::Unindent(indent);
    }
    ImGui::Dummy({0, ImGui::GetStyle().ItemSpacing.y * 0.5f});  // a little room between blocks
  }
}

void LessonView::draw(Context& cx, LessonProgress& lp, const LessonActions& act, float height) {
  // As tall as its content was at the last frame, up to `height` (then it scrolls).
  const float pad = 2 * ImGui::GetStyle().WindowPadding.y;
  ImGui::BeginChild("lesson", {0, content_ > 0 ? std::min(height, content_ + pad) : height}, true);
  const lesson::Lesson& l = lp.lesson();
  // The lesson and where the student is in it.
  ImGui::TextColored(kTitle, "%s", l.title.c_str());
  char where[48];
  if (lp.at_summary())
    std::snprintf(where, sizeof where, "summary");
  else
    std::snprintf(where, sizeof where, "step %zu of %zu", lp.at() + 1, lp.steps());
  ImGui::SameLine(std::max(ImGui::GetCursorPosX() + ImGui::GetStyle().ItemSpacing.x,
                           ImGui::GetWindowContentRegionMax().x - ImGui::CalcTextSize(where).x));
  ImGui::TextDisabled("%s", where);
  // Progress: one segment a step, filled up to the one shown, each answered
  // question's green (within) or orange.
  {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float w = ImGui::GetContentRegionAvail().x, h = cx.ui.px(5);
    const std::size_t n = std::max<std::size_t>(1, lp.steps());
    const float seg = w / static_cast<float>(n);
    for (std::size_t i = 0; i < n; ++i) {
      const auto& r = lp.record(i);
      ImU32 c = i <= lp.at() ? IM_COL32(200, 200, 200, 150) : IM_COL32(255, 255, 255, 35);
      if (r.grade) c = ImGui::GetColorU32(r.grade->within ? kGood : kOff);
      if (r.outcome) c = ImGui::GetColorU32(r.outcome->holds ? kGood : kOff);
      dl->AddRectFilled({p.x + seg * static_cast<float>(i) + 1, p.y},
                        {p.x + seg * static_cast<float>(i + 1) - 1, p.y + h}, c);
    }
    ImGui::Dummy({w, h});
  }

  if (lp.at_summary()) {
    summary(cx, lp, act);
  } else {
    const lesson::Step& s = *lp.step();
    if (!s.title.empty()) ImGui::TextColored(kEmphasis, "%s", s.title.c_str());
    ImGui::PushTextWrapPos(0);
    text(cx, s.text);
    if (s.predict) predict(cx, lp, act);
    if (s.try_) try_step(cx, lp, act);
    ImGui::PopTextWrapPos();
  }

  // Back / Next, by their buttons or Page Up / Page Down (a presenter's
  // clicker), even while an answer is being typed.
  if (ImGui::IsKeyPressed(GLFW_KEY_PAGE_UP, false) && lp.at() > 0) act.go(lp.at() - 1);
  if (ImGui::IsKeyPressed(GLFW_KEY_PAGE_DOWN, false) && !lp.at_summary()) act.go(lp.at() + 1);
  ImGui::Spacing();
  ImGui::BeginDisabled(lp.at() == 0);
  if (button("< Back")) act.go(lp.at() - 1);
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("the step before (Page Up)");
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(lp.at_summary());
  if (button(lp.at() + 1 == lp.steps() ? "Summary >" : "Next >")) act.go(lp.at() + 1);
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("the next step (Page Down)");
  ImGui::EndDisabled();
  if (lp.phase() == Phase::asking) {
    ImGui::SameLine();
    ImGui::TextDisabled("(Next skips the question)");
  }
  content_ = ImGui::GetCursorPosY();
  ImGui::EndChild();
}

void LessonView::predict(Context& cx, LessonProgress& lp, const LessonActions& act) {
  const lesson::Predict& p = *lp.step()->predict;
  const auto& r = lp.record();
  ImGui::Separator();
  ImGui::TextColored(kTitle, "Predict");
  ImGui::SameLine();
  text(cx, p.question);
  const Phase phase = lp.phase();
  const bool paused = cx.live && cx.live->state() == LiveSession::State::paused;
  if (phase == Phase::asking) {
    const std::string when = seconds(p.ask_at);
    if (paused)
      ImGui::TextColored(kEmphasis, "The run is paused at %s: your answer, %s?", when.c_str(),
                         answer_prompt(p).c_str());
    else
      ImGui::TextColored(kDim, "The run pauses at %s to ask: answer before, or then.", when.c_str());
    bool enter = false;
    if (p.answer == lesson::AnswerKind::number) {
      if (focus_) ImGui::SetKeyboardFocusHere();
      focus_ = false;
      ImGui::SetNextItemWidth(cx.ui.px(120));
      enter = ImGui::InputText("##answer", &lp.typed,
                               ImGuiInputTextFlags_CharsScientific | ImGuiInputTextFlags_EnterReturnsTrue);
    } else if (p.answer == lesson::AnswerKind::pool) {
      // One choice, as radio buttons in the pools' colours; Enter answers the one picked.
      for (std::size_t i = 0; i < p.choices.size(); ++i) {
        if (i > 0) same_line_or_wrap(ImGui::CalcTextSize(p.choices[i].c_str()).x + cx.ui.px(30));
        if (ImGui::RadioButton(p.choices[i].c_str(), picked_ == static_cast<int>(i))) picked_ = static_cast<int>(i);
      }
      if (picked_ >= 0 && picked_ < static_cast<int>(p.choices.size())) lp.typed = p.choices[picked_];
      enter = ImGui::IsKeyPressed(GLFW_KEY_ENTER) && !ImGui::GetIO().WantTextInput;
    } else {
      // An order: the choices, moved up and down; Enter answers as arranged.
      if (order_for_ != lp.at() || order_.size() != p.choices.size()) {
        order_ = p.choices;
        order_for_ = lp.at();
      }
      for (std::size_t i = 0; i < order_.size(); ++i) {
        ImGui::PushID(static_cast<int>(i));
        ImGui::BeginDisabled(i == 0);
        if (ImGui::ArrowButton("up", ImGuiDir_Up)) std::swap(order_[i], order_[i - 1]);
        ImGui::EndDisabled();
        ImGui::SameLine();
        ImGui::BeginDisabled(i + 1 == order_.size());
        if (ImGui::ArrowButton("down", ImGuiDir_Down)) std::swap(order_[i], order_[i + 1]);
        ImGui::EndDisabled();
        ImGui::SameLine();
        ImGui::Text("%zu. %s", i + 1, order_[i].c_str());
        ImGui::PopID();
      }
      lp.typed.clear();
      for (const std::string& c : order_) lp.typed += (lp.typed.empty() ? "" : ", ") + c;
      enter = ImGui::IsKeyPressed(GLFW_KEY_ENTER) && !ImGui::GetIO().WantTextInput;
    }
    if (p.answer != lesson::AnswerKind::order) ImGui::SameLine();
    ImGui::BeginDisabled(lp.typed.empty());
    const bool clicked = button("Answer");
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("Enter");
    if ((clicked || enter) && !lp.typed.empty()) {
      if (lp.answer_typed()) {
        picked_ = -1;
        act.answered();
      } else {
        focus_ = true;
      }
    }
    if (!lp.why().empty()) ImGui::TextColored(kOff, "%s", lp.why().c_str());
    return;
  }
  if (phase == Phase::waiting) {
    ImGui::Text("Your answer: %s.", answer_text(*r.answer).c_str());
    const std::string until = p.known_at() ? seconds(*p.known_at()) : std::string("the end of the run");
    ImGui::TextColored(kDim, "The run goes on to %s, where its answer is...", until.c_str());
    return;
  }
  // Revealed: the student's answer beside the run's, then why.
  const lesson::Grade& g = *r.grade;
  if (ImGui::BeginTable("reveal", 2, ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchSame)) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextDisabled("you said");
    ImGui::TableSetColumnIndex(1);
    ImGui::TextDisabled("the run");
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextWrapped("%s", g.student.c_str());
    ImGui::TableSetColumnIndex(1);
    ImGui::TextColored(g.within ? kGood : kOff, "%s", g.run.c_str());
    ImGui::EndTable();
  }
  ImGui::TextColored(g.within ? kGood : kOff, "%s", g.within ? "Within the tolerance." : "Not this time.");
  if (!g.why.empty()) {
    ImGui::SameLine();
    ImGui::TextWrapped("%s", g.why.c_str());
  }
  text(cx, p.explain);
  if (paused && p.known_at())
    ImGui::TextColored(kDim, "The run is paused at %s, where its answer was read: Space goes on.",
                       seconds(*p.known_at()).c_str());
}

void LessonView::try_step(Context& cx, LessonProgress& lp, const LessonActions& act) {
  const lesson::Try& t = *lp.step()->try_;
  const auto& r = lp.record();
  ImGui::Separator();
  ImGui::TextColored(kTitle, "Try");
  ImGui::SameLine();
  text(cx, t.look_for);
  // The parameter, its range or choices, and the value to run with.
  auto shown = [](const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); };
  std::string range;
  if (!t.choices.empty()) {
    for (const json& c : t.choices) range += (range.empty() ? "one of " : ", ") + shown(c);
  } else if (!t.min.is_null() || !t.max.is_null()) {
    range = "from " + (t.min.is_null() ? std::string("-") : shown(t.min)) + " to " +
            (t.max.is_null() ? std::string("-") : shown(t.max));
  }
  ImGui::Text("%s.%s", t.pool.c_str(), t.param.c_str());
  ImGui::SameLine();
  ImGui::TextDisabled("(%s)", range.c_str());
  ImGui::SameLine();
  help_marker(("A hint: " + shown(t.suggest) + " works.").c_str(), cx.ui.px(300));
  bool run = false;
  if (!t.choices.empty()) {
    for (std::size_t i = 0; i < t.choices.size(); ++i) {
      if (i > 0) ImGui::SameLine();
      if (ImGui::RadioButton(shown(t.choices[i]).c_str(), lp.try_value == t.choices[i])) lp.try_value = t.choices[i];
    }
  } else {
    // Typed as the scenario writes it: a number, or a duration such as 250ms.
    std::string typed = lp.try_value.is_null() ? "" : shown(lp.try_value);
    if (focus_) ImGui::SetKeyboardFocusHere();
    focus_ = false;
    ImGui::SetNextItemWidth(cx.ui.px(120));
    if (ImGui::InputText("##try", &typed, ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll))
      run = true;
    if (ImGui::IsItemEdited() || run) try {
      std::size_t used = 0;
      const double v = std::stod(typed, &used);
      lp.try_value = used == typed.size() ? json(v == static_cast<double>(static_cast<long long>(v))
                                                     ? json(static_cast<long long>(v))
                                                     : json(v))
                                          : json(typed);
    } catch (const std::exception&) {
      lp.try_value = typed;
    }
  }
  ImGui::SameLine();
  if (button("Run with it")) run = true;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("runs the step again with this value (Enter)");
  if (run) act.run_try(lp.try_value);
  if (!lp.why().empty()) ImGui::TextColored(kOff, "%s", lp.why().c_str());
  if (r.tried && !r.outcome)
    ImGui::TextColored(kDim, "Running with %s = %s...", t.param.c_str(), shown(*r.tried).c_str());
  if (r.tried && r.outcome) {
    ImGui::TextColored(r.outcome->holds ? kGood : kOff, "With %s = %s: %s", t.param.c_str(), shown(*r.tried).c_str(),
                       r.outcome->holds ? "it holds." : "not yet.");
    ImGui::TextWrapped("%s", r.outcome->why.c_str());
    if (r.outcome->holds) text(cx, t.explain);
  }
}

void LessonView::summary(Context& cx, LessonProgress& lp, const LessonActions& act) {
  const LessonProgress::Tally t = lp.tally();
  ImGui::TextColored(kEmphasis, "Summary");
  ImGui::Text("Questions answered: %zu of %zu, within the tolerance: %zu.", t.answered, t.questions, t.within);
  ImGui::Text("Changes tried: %zu of %zu, holding: %zu.", t.tried, t.tries, t.held);
  if (ImGui::BeginTable("answers", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
    for (std::size_t i = 0; i < lp.steps(); ++i) {
      const lesson::Step& s = lp.lesson().steps[i];
      const auto& r = lp.record(i);
      if (!s.predict && !s.try_) continue;
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::Text("%zu", i + 1);
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(s.title.empty() ? (s.predict ? "predict" : "try") : s.title.c_str());
      ImGui::TableSetColumnIndex(2);
      if (r.grade)
        ImGui::TextColored(r.grade->within ? kGood : kOff, "%s / %s", r.grade->student.c_str(), r.grade->run.c_str());
      else if (r.outcome)
        ImGui::TextColored(r.outcome->holds ? kGood : kOff, "%s", r.outcome->holds ? "holds" : "does not hold");
      else
        ImGui::TextDisabled("-");
    }
    ImGui::EndTable();
  }
  if (button("Save answers")) act.save();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("a JSON file your teacher can grade (Ctrl+A)");
  (void)cx;
}

}  // namespace poolscope::gui
