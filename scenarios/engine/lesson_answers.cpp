// A student's saved answers (poolscope-lesson-answers/1,
// docs/schemas/lesson-answers.schema.json) and their grade in the labs'
// output format (docs/schemas/lab-results.schema.json): Gradescope's
// results.json or PrairieLearn's external-grader results. The grade never
// trusts the document's run values: it runs the lesson again.
#include <algorithm>
#include <map>

#include "scenarios/engine/engine.h"
#include "scenarios/engine/json_reader.h"
#include "scenarios/engine/lesson.h"

namespace poolscope::scenario::lesson {

namespace {

json answer_json(const StudentAnswer& a) {
  if (const double* v = std::get_if<double>(&a)) return *v;
  if (const auto* s = std::get_if<std::string>(&a)) return *s;
  return std::get<std::vector<std::string>>(a);
}

// The run's answer as a value: a number, a pool, pools in order (or its text, if it had none).
json run_value_json(const Predict& p, const Answer& a, const Grade& g) {
  if (!a.known) return g.run;
  if (p.answer == AnswerKind::number) return a.number;
  if (p.answer == AnswerKind::pool) return a.pools.front();
  return a.pools;
}

std::string value_text(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// A question's name in the grade: "step 3: How many workers ...?" (cut short).
std::string test_name(std::size_t step, const std::string& text) {
  std::string t = text;
  if (t.size() > 70) t = t.substr(0, 67) + "...";
  return "step " + std::to_string(step) + ": " + t;
}

StudentAnswer read_answer(const Predict& p, const json& v, const std::string& path) {
  switch (p.answer) {
    case AnswerKind::number:
      if (!v.is_number()) fail_at(path, "a number", v);
      return v.get<double>();
    case AnswerKind::pool:
      if (!v.is_string()) fail_at(path, "a pool's name", v);
      return v.get<std::string>();
    case AnswerKind::order:
      if (!v.is_array() || !std::all_of(v.begin(), v.end(), [](const json& x) { return x.is_string(); }))
        fail_at(path, "an array of pool names, in order", v);
      return v.get<std::vector<std::string>>();
  }
  return 0.0;
}

}  // namespace

json answers_document(const Lesson& lesson, const std::vector<Response>& answers, const std::vector<TryResponse>& tries,
                      const std::string& student) {
  json doc = {{"format", kAnswersFormat}, {"lesson", lesson.name}, {"title", lesson.title}};
  if (!student.empty()) doc["student"] = student;
  json a = json::array();
  std::size_t within = 0;
  for (const Response& r : answers) {
    if (r.step < 1 || r.step > lesson.steps.size() || !lesson.steps[r.step - 1].predict) continue;
    const Predict& p = *lesson.steps[r.step - 1].predict;
    within += r.grade.within;
    a.push_back({{"step", r.step},
                 {"question", p.question},
                 {"kind", std::string(to_string(p.answer))},
                 {"answer", answer_json(r.answer)},
                 {"run_value", run_value_json(p, r.run, r.grade)},
                 {"within", r.grade.within},
                 {"why", r.grade.why}});
  }
  json t = json::array();
  for (const TryResponse& r : tries) {
    if (r.step < 1 || r.step > lesson.steps.size() || !lesson.steps[r.step - 1].try_) continue;
    const Try& tr = *lesson.steps[r.step - 1].try_;
    t.push_back({{"step", r.step},
                 {"param", tr.pool + "." + tr.param},
                 {"value", r.value},
                 {"known", r.outcome.known},
                 {"holds", r.outcome.holds},
                 {"why", r.outcome.why}});
  }
  doc["answers"] = a;
  doc["tries"] = t;
  doc["summary"] = {{"questions", lesson.predictions()}, {"answered", a.size()}, {"within", within}};
  return doc;
}

json grade_answers(const json& answers, const std::string& file, const std::string& format) {
  if (format != "gradescope" && format != "prairielearn")
    throw ConfigError("--format " + format, "expected gradescope or prairielearn");
  Lesson lesson;
  std::map<std::size_t, StudentAnswer> given;
  std::map<std::size_t, json> tried;
  try {
    check_depth(answers);
    ObjectReader r(answers, "");
    if (const json* f = r.get("format"); !f || *f != kAnswersFormat)
      fail_at("/format", "\"" + std::string(kAnswersFormat) + "\"", f ? *f : json());
    const std::string name = r.string("lesson");
    (void)r.string("title", "");
    (void)r.string("student", "");
    (void)r.get("summary");  // recomputed below, never trusted
    lesson = load_lesson(resolve_lesson(name));
    const json& list = r.required("answers");
    if (!list.is_array()) fail_at("/answers", "an array of answers", list);
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string path = "/answers/" + std::to_string(i);
      ObjectReader ar(list[i], path);
      const auto step = static_cast<std::size_t>(ar.integer("step", std::nullopt, 1, static_cast<std::int64_t>(lesson.steps.size())));
      if (!lesson.steps[step - 1].predict)
        throw ConfigError(ar.path_of("step"), "expected a step with a question (step " + std::to_string(step) +
                                                  " of lesson '" + lesson.name + "' has none)");
      given[step] = read_answer(*lesson.steps[step - 1].predict, ar.required("answer"), ar.path_of("answer"));
      (void)ar.get("question"), (void)ar.get("kind"), (void)ar.get("run_value"), (void)ar.get("within"),
          (void)ar.get("why");
      ar.done();
    }
    if (const json* tl = r.get("tries")) {
      if (!tl->is_array()) fail_at("/tries", "an array of tries", *tl);
      for (std::size_t i = 0; i < tl->size(); ++i) {
        const std::string path = "/tries/" + std::to_string(i);
        ObjectReader tr((*tl)[i], path);
        const auto step = static_cast<std::size_t>(tr.integer("step", std::nullopt, 1, static_cast<std::int64_t>(lesson.steps.size())));
        if (!lesson.steps[step - 1].try_)
          throw ConfigError(tr.path_of("step"), "expected a step with a try (step " + std::to_string(step) +
                                                    " of lesson '" + lesson.name + "' has none)");
        tried[step] = tr.required("value");
        (void)tr.get("param"), (void)tr.get("known"), (void)tr.get("holds"), (void)tr.get("why");
        tr.done();
      }
    }
    r.done();
  } catch (const ScenarioError&) {
    throw;
  } catch (const ConfigError& e) {
    throw ScenarioError(file, e);
  }

  const CheckReport key = check_lesson(lesson);
  struct Test {
    std::string name, output;
    bool passed;
  };
  std::vector<Test> tests;
  for (const KeyEntry& e : key.steps) {
    const Step& st = lesson.steps[e.step - 1];
    if (st.predict) {
      auto it = given.find(e.step);
      if (it == given.end()) {
        tests.push_back({test_name(e.step, st.predict->question), "NOT ANSWERED: the run says " + e.answer.text(), false});
        continue;
      }
      const Grade g = grade(*st.predict, it->second, e.answer);
      tests.push_back({test_name(e.step, st.predict->question),
                       std::string(g.within ? "PASS" : "FAIL") + ": answered " + g.student + ", the run says " + g.run +
                           " (" + g.why + ")",
                       g.within});
    } else if (st.try_) {
      const std::string name = test_name(e.step, "try " + st.try_->pool + "." + st.try_->param);
      auto it = tried.find(e.step);
      if (it == tried.end()) {
        tests.push_back({name, "NOT TRIED", false});
        continue;
      }
      // The student's own value, run again: the document's "holds" is not trusted.
      TryOutcome o;
      try {
        RunOptions ro;
        ro.keep_events = true;
        const Scenario s = with_change(lesson, st, it->second);
        const RunResult run = run_scenario(s, ro);
        o = check_try(*st.try_, RunData{&run.metrics, -1, run.outcome.workload_end.count()});
      } catch (const ConfigError& err) {
        o.why = std::string("the value ") + value_text(it->second) + " is not valid: " + err.what();
      }
      tests.push_back({name,
                       std::string(o.holds ? "PASS" : "FAIL") + ": " + st.try_->pool + "." + st.try_->param + "=" +
                           value_text(it->second) + ": " + o.why,
                       o.holds});
    }
  }
  const auto passed = static_cast<std::size_t>(std::count_if(tests.begin(), tests.end(), [](const Test& t) { return t.passed; }));
  const std::string summary = "lesson " + lesson.name + ": " + std::to_string(passed) + " of " +
                              std::to_string(tests.size()) + " (questions within tolerance, tries that held)";
  json out_tests = json::array();
  if (format == "gradescope") {
    for (const Test& t : tests)
      out_tests.push_back({{"name", t.name},
                           {"score", t.passed ? 1 : 0},
                           {"max_score", 1},
                           {"status", t.passed ? "passed" : "failed"},
                           {"output", t.output}});
    return {{"score", passed}, {"max_score", tests.size()}, {"output", summary}, {"tests", out_tests}};
  }
  for (const Test& t : tests)
    out_tests.push_back({{"name", t.name}, {"points", t.passed ? 1 : 0}, {"max_points", 1}, {"output", t.output}});
  const double score = tests.empty() ? 0 : static_cast<double>(passed) / static_cast<double>(tests.size());
  return {{"gradable", true}, {"score", score}, {"message", summary}, {"tests", out_tests}};
}

}  // namespace poolscope::scenario::lesson
