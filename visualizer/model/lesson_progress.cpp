#include "visualizer/model/lesson_progress.h"

#include <algorithm>
#include <cstdio>

#include "pools/core/registry.h"

namespace poolscope::gui {

LessonProgress::LessonProgress(lesson::Lesson lesson, std::string shipped)
    : lesson_(std::move(lesson)), shipped_(std::move(shipped)), records_(lesson_.steps.size() + 1) {
  go(0);
}

bool LessonProgress::go(std::size_t i) {
  i = std::min(i, steps());
  const bool moved = i != at_;
  at_ = i;
  typed.clear();
  why_.clear();
  try_value = json();
  if (const lesson::Step* s = step(); s && s->try_) try_value = record().tried ? *record().tried : current(*s);
  return moved;
}

LessonProgress::Phase LessonProgress::phase() const {
  const lesson::Step* s = step();
  const Record& r = record();
  if (!s) return Phase::reading;
  if (s->predict) return !r.answer ? Phase::asking : !r.grade ? Phase::waiting : Phase::revealed;
  if (s->try_) return r.tried && r.outcome ? Phase::checked : Phase::trying;
  return Phase::reading;
}

bool LessonProgress::answer_typed() {
  if (phase() != Phase::asking) return false;
  try {
    records_[at_].answer = lesson::parse_student_answer(*step()->predict, typed);
    why_.clear();
    return true;
  } catch (const std::exception& e) {
    why_ = e.what();
    return false;
  }
}

namespace {

// When a condition's figures are all known: the latest of its queries'
// times; nullopt if one reads the end of the run.
std::optional<Nanos> condition_at(const lesson::Condition& c) {
  if (!c.left.at) return std::nullopt;
  Nanos t = *c.left.at;
  if (c.right_query) {
    if (!c.right_query->at) return std::nullopt;
    t = std::max(t, *c.right_query->at);
  }
  return t;
}

}  // namespace

json LessonProgress::current(const lesson::Step& s) {
  const lesson::Try& t = *s.try_;
  for (const scenario::PoolEntry& p : s.scenario.pools) {
    if (p.name != t.pool) continue;
    if (p.config.is_object() && p.config.contains(t.param)) return p.config[t.param];
    if (const Design* d = Registry::global().find(p.design))
      for (const ParamSpec& spec : d->params)
        if (spec.name == t.param) return spec.default_value;
  }
  return t.suggest;
}

std::optional<Nanos> LessonProgress::pause_at() const {
  switch (phase()) {
    case Phase::asking:
      return step()->predict->ask_at;
    case Phase::waiting:
      return step()->predict->known_at();
    case Phase::trying:
      return record().tried ? condition_at(step()->try_->holds) : std::nullopt;
    default:
      return std::nullopt;
  }
}

void LessonProgress::ran_try(const json& value) {
  Record& r = records_[at_];
  r.tried = value;
  r.outcome.reset();
}

bool LessonProgress::update(const lesson::RunData& run) {
  const lesson::Step* s = step();
  Record& r = records_[at_];
  if (!s || !run.metrics) return false;
  if (phase() == Phase::waiting) {
    lesson::Answer a = lesson::compute_answer(*s->predict, run);
    if (!a.known) return false;
    r.grade = lesson::grade(*s->predict, *r.answer, a);
    r.run = std::move(a);
    return true;
  }
  if (phase() == Phase::trying && r.tried) {
    lesson::TryOutcome o = lesson::check_try(*s->try_, run);
    if (!o.known) return false;
    r.outcome = std::move(o);
    return true;
  }
  return false;
}

LessonProgress::Tally LessonProgress::tally() const {
  Tally t;
  for (std::size_t i = 0; i < steps(); ++i) {
    const lesson::Step& s = lesson_.steps[i];
    const Record& r = records_[i];
    if (s.predict) {
      ++t.questions;
      t.answered += r.grade.has_value();
      t.within += r.grade && r.grade->within;
    }
    if (s.try_) {
      ++t.tries;
      t.tried += r.outcome.has_value();
      t.held += r.outcome && r.outcome->holds;
    }
  }
  return t;
}

json LessonProgress::answers() const {
  std::vector<lesson::Response> responses;
  std::vector<lesson::TryResponse> tries;
  for (std::size_t i = 0; i < steps(); ++i) {
    const Record& r = records_[i];
    if (r.answer && r.grade && r.run) responses.push_back({i + 1, *r.answer, *r.grade, *r.run});
    if (r.tried && r.outcome) tries.push_back({i + 1, *r.tried, *r.outcome});
  }
  return lesson::answers_document(lesson_, responses, tries);
}

std::string answer_prompt(const lesson::Predict& p) {
  switch (p.answer) {
    case lesson::AnswerKind::number:
      return "a number";
    case lesson::AnswerKind::pool:
      return "a pool";
    case lesson::AnswerKind::order:
      return "the pools in order";
  }
  return "";
}

std::string answer_text(const lesson::StudentAnswer& a) {
  if (const double* d = std::get_if<double>(&a)) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", *d);
    return buf;
  }
  if (const std::string* s = std::get_if<std::string>(&a)) return *s;
  std::string out;
  for (const std::string& p : std::get<std::vector<std::string>>(a)) out += (out.empty() ? "" : ", ") + p;
  return out;
}

}  // namespace poolscope::gui
