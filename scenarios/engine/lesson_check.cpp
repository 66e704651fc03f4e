// `poolscope lesson check`: every step's scenario run in the simulation,
// every question's answer computed from its run (so a change to a design
// that changes an answer shows here, not in front of a class), every try
// holding with its suggested change and failing without it. The result is
// the teacher's answer key (docs/schemas/lesson-key.schema.json for --json).
#include <cmath>
#include <map>
#include <ostream>

#include "pools/core/duration.h"
#include "scenarios/engine/engine.h"
#include "scenarios/engine/lesson.h"

namespace poolscope::scenario::lesson {

namespace {

// Runs shared by the steps that run the same scenario (most lessons reuse one).
class Runs {
 public:
  const RunResult& get(const Scenario& s) {
    const std::string key = s.to_json().dump();
    auto it = cache_.find(key);
    if (it != cache_.end()) return it->second;
    RunOptions o;
    o.keep_events = true;
    return cache_.emplace(key, run_scenario(s, o)).first->second;
  }

 private:
  std::map<std::string, RunResult> cache_;
};

// Why a run cannot answer anything, "" if it can.
std::string run_problem(const RunResult& r) {
  if (r.outcome.simulation && r.outcome.simulation->failure) return "the simulation failed: " + *r.outcome.simulation->failure;
  if (r.outcome.thread_refused) return "the run was refused a thread: " + *r.outcome.thread_refused;
  return "";
}

RunData data_of(const RunResult& r) { return RunData{&r.metrics, -1, r.outcome.workload_end.count()}; }

json try_json(const TryOutcome& t) { return {{"known", t.known}, {"holds", t.holds}, {"why", t.why}}; }

std::string seconds_or_number(double v, bool seconds) {
  if (seconds) return format_duration(Nanos(static_cast<std::int64_t>(std::llround(v * 1e9))));
  json j = v;
  if (v == std::floor(v) && std::abs(v) < 1e15) j = static_cast<std::int64_t>(v);
  return j.dump();
}

}  // namespace

bool CheckReport::ok() const {
  for (const KeyEntry& e : steps)
    if (!e.problems.empty()) return false;
  return true;
}

CheckReport check_lesson(const Lesson& lesson) {
  CheckReport rep;
  rep.file = lesson.file;
  rep.name = lesson.name;
  rep.title = lesson.title;
  Runs runs;
  for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
    const Step& st = lesson.steps[i];
    KeyEntry e;
    e.step = i + 1;
    e.title = st.title;
    const RunResult& r = runs.get(st.scenario);
    if (std::string why = run_problem(r); !why.empty()) e.problems.push_back(st.path + "/scenario: " + why);
    if (st.predict) {
      const Predict& p = *st.predict;
      e.kind = "predict";
      e.question = p.question;
      e.query = p.query.describe();
      e.answer = compute_answer(p, data_of(r));
      if (p.answer == AnswerKind::number) {
        e.tolerance = p.tolerance;
        if (p.tolerance_percent > 0) e.tolerance_percent = p.tolerance_percent;
      }
      if (!e.answer.known) e.problems.push_back(p.path + "/query: the run gives no answer: " + e.answer.why_not);
    }
    if (st.try_) {
      const Try& t = *st.try_;
      e.kind = "try";
      e.question = t.look_for;
      e.query = t.holds.describe();
      e.change = t.pool + "." + t.param + "=" + (t.suggest.is_string() ? t.suggest.get<std::string>() : t.suggest.dump());
      e.unchanged = check_try(t, data_of(r));
      const RunResult& changed = runs.get(with_change(lesson, st, t.suggest));
      if (std::string why = run_problem(changed); !why.empty()) e.problems.push_back(t.path + "/suggest: " + why);
      e.changed = check_try(t, data_of(changed));
      if (!e.unchanged.known) e.problems.push_back(t.path + "/holds: on the unchanged run: " + e.unchanged.why);
      else if (e.unchanged.holds)
        e.problems.push_back(t.path + "/holds: already holds without the change (" + e.unchanged.why +
                             "), so it tests nothing");
      if (!e.changed.known) e.problems.push_back(t.path + "/holds: with " + e.change + ": " + e.changed.why);
      else if (!e.changed.holds)
        e.problems.push_back(t.path + "/holds: does not hold with the suggested " + e.change + " (" + e.changed.why + ")");
    }
    rep.steps.push_back(std::move(e));
  }
  return rep;
}

json CheckReport::to_json() const {
  json steps_j = json::array();
  for (const KeyEntry& e : steps) {
    json s = {{"step", e.step}, {"title", e.title}, {"kind", e.kind.empty() ? "text" : e.kind}};
    if (e.kind == "predict") {
      s["question"] = e.question;
      s["query"] = e.query;
      json a = {{"known", e.answer.known}, {"text", e.answer.text()}};
      if (e.answer.known && e.answer.pools.empty()) a["number"] = e.answer.number;
      if (!e.answer.pools.empty()) a["pools"] = e.answer.pools;
      if (!e.answer.figures.empty()) {
        json f = json::object();
        for (const auto& [pool, v] : e.answer.figures) f[pool] = v;
        a["figures"] = f;
      }
      s["answer"] = a;
      if (e.tolerance) s["tolerance"] = *e.tolerance;
      if (e.tolerance_percent) s["tolerance_percent"] = *e.tolerance_percent;
    } else if (e.kind == "try") {
      s["look_for"] = e.question;
      s["condition"] = e.query;
      s["change"] = e.change;
      s["unchanged"] = try_json(e.unchanged);
      s["changed"] = try_json(e.changed);
    }
    s["problems"] = e.problems;
    steps_j.push_back(std::move(s));
  }
  return {{"format", "poolscope-lesson-key/1"}, {"file", file}, {"lesson", name}, {"title", title},
          {"ok", ok()},                          {"steps", steps_j}};
}

void print_key(std::ostream& out, const CheckReport& r) {
  out << r.file << ": \"" << r.title << "\"\n";
  for (const KeyEntry& e : r.steps) {
    if (e.kind.empty() && e.problems.empty()) continue;
    out << "  step " << e.step << " \"" << e.title << "\"";
    if (e.kind == "predict") {
      out << ": predict " << e.query << "\n    answer: " << e.answer.text();
      if (e.tolerance && (*e.tolerance > 0 || e.tolerance_percent))
        out << " (tolerance " << seconds_or_number(*e.tolerance, false)
            << (e.tolerance_percent ? " or " + seconds_or_number(*e.tolerance_percent, false) + "%" : "") << ")";
      if (!e.answer.figures.empty()) {
        out << "  [";
        bool first = true;
        for (const auto& [pool, v] : e.answer.figures) {
          out << (first ? "" : ", ") << pool << " " << format_value(v, e.answer.seconds);
          first = false;
        }
        out << "]";
      }
      out << "\n";
    } else if (e.kind == "try") {
      out << ": try " << e.change << ", look for " << e.query << "\n";
      out << "    unchanged: " << e.unchanged.why << "\n";
      out << "    changed:   " << e.changed.why << "\n";
    } else {
      out << "\n";
    }
    for (const std::string& p : e.problems) out << "    PROBLEM: " << p << "\n";
  }
  out << (r.ok() ? "  ok\n" : "  FAILED\n");
}

}  // namespace poolscope::scenario::lesson
