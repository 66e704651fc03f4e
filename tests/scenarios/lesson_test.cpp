// Lessons (scenarios/engine/lesson.h): parsed with messages naming the step
// and the field; their queries read the same figures as the comparison
// table, at the end or at a time, from a finished or a partial run; a
// student's answer graded within tolerance; a try checked on its own run; the
// saved answers graded by running the lesson again. All runs simulated.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "scenarios/engine/data_dir.h"
#include "scenarios/engine/engine.h"
#include "scenarios/engine/lesson.h"

using namespace poolscope;
using namespace poolscope::scenario;
using namespace poolscope::scenario::lesson;
using Catch::Matchers::Contains;

namespace {

// 8 tasks of 50 ms at once on ants (4 workers, purge every 1 s) and fasthttp
// (4 workers, no queue: 4 refused); then 3 s of nothing.
json lesson_json() {
  return json::parse(R"({
    "format": "poolscope-lesson/1", "title": "T", "follows": "F", "minutes": 5, "summary": "S",
    "steps": [
      {"title": "a", "text": "x", "scenario": {"inline": {
         "name": "t", "lesson": "l", "seed": 1, "simulation": {"cpus": 2},
         "task": {"kind": "sleep", "duration": "50ms"},
         "phases": [{"name": "burst", "duration": "1s", "arrival": {"kind": "burst", "count": 8}},
                    {"name": "idle", "duration": "3s", "arrival": {"kind": "idle"}}],
         "pools": [{"name": "ants", "design": "ants", "config": {"size": 4, "ExpiryDuration": "1s"}},
                   {"name": "fasthttp", "design": "fasthttp", "config": {"MaxWorkersCount": 4}}]}},
       "view": {"from": "0s", "to": "2s", "tab": "compare",
                "highlight": [{"lane": "ants"}, {"rule": "purge-tick"}, {"row": "end-to-end p99"}]}},
      {"title": "b", "text": "x",
       "predict": {"question": "q", "answer": "number", "query": {"pool": "fasthttp", "figure": "refused"},
                   "tolerance": 1, "tolerance_percent": 50, "explain": "e"}},
      {"title": "c", "text": "x",
       "predict": {"question": "q", "answer": "pool", "pick": "lowest", "ask_at": "1s",
                   "query": {"figure": "workers", "at": "3s"}, "explain": "e"}},
      {"title": "d", "text": "x",
       "try": {"pool": "fasthttp", "param": "MaxWorkersCount", "min": 1, "max": 64, "suggest": 8, "look_for": "l",
               "holds": {"query": {"pool": "fasthttp", "figure": "refused"}, "op": "==", "value": 0},
               "explain": "e"}}
    ]})");
}

Lesson parse(const json& j) { return parse_lesson(j.dump(), "t.json"); }

std::string error_of(const json& j) {
  try {
    parse(j);
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "no error";
}

RunResult run(const Scenario& s) {
  RunOptions o;
  o.keep_events = true;
  return run_scenario(s, o);
}

RunData data(const RunResult& r) { return RunData{&r.metrics, -1, r.outcome.workload_end.count()}; }

}  // namespace

TEST_CASE("a lesson parses into steps, each with its scenario, view and one question or try") {
  const Lesson l = parse(lesson_json());
  CHECK(l.name == "t");
  REQUIRE(l.steps.size() == 4);
  CHECK(l.predictions() == 2);
  CHECK(l.tries() == 1);
  // A step without a scenario runs the previous step's.
  CHECK(l.steps[3].scenario.pools.size() == 2);
  CHECK(l.steps[3].scenario.simulation.has_value());  // always simulated
  CHECK(l.steps[0].view.tab == "compare");
  REQUIRE(l.steps[0].view.highlights.size() == 3);
  CHECK(l.steps[0].view.highlights[2].name == "end to end p99");  // the runner's row name, read as the table's
  CHECK(l.steps[2].predict->ask_at == std::chrono::seconds(1));
  CHECK(l.steps[2].predict->choices == std::vector<std::string>{"ants", "fasthttp"});
  CHECK_FALSE(l.steps[2].predict->highest);
}

TEST_CASE("a malformed lesson names the file, the step (from 1) and the field") {
  json j = lesson_json();
  j["steps"][1]["predict"]["query"]["figure"] = "workers peek";
  CHECK_THAT(error_of(j), Contains("t.json: /steps/1/predict/query/figure: step 2: expected a figure") &&
                              Contains("did you mean \"workers peak\"?"));
  j = lesson_json();
  j["steps"][3]["try"]["suggest"] = "lots";
  CHECK_THAT(error_of(j), Contains("t.json: /steps/3/try/suggest: step 4: expected a value from 1 to 64"));
  // In the range, and still refused by the design: its own message, under the step.
  j = lesson_json();
  j["steps"][3]["try"] = {{"pool", "ants"}, {"param", "ExpiryDuration"}, {"choices", {"-1s", "1s"}},
                          {"suggest", "-1s"}, {"look_for", "l"}, {"explain", "e"},
                          {"holds", lesson_json()["steps"][3]["try"]["holds"]}};
  CHECK_THAT(error_of(j), Contains("t.json: /steps/3/try/suggest: step 4: ") && Contains("ErrInvalidPoolExpiry"));
  j = lesson_json();
  j["steps"][2]["predict"]["query"]["pool"] = "ants";
  CHECK_THAT(error_of(j), Contains("/steps/2/predict/query/pool: step 3: expected no pool"));
}

TEST_CASE("figures are named as the comparison table, the runner's table and the result's summary name them") {
  for (const char* name : {"end to end p99", "end-to-end p99", "/end_to_end_s/p99", "end_to_end_s.p99"})
    CHECK(find_figure(name) == find_figure("end to end p99"));
  CHECK(find_figure("queue peak") == find_figure("peak queued"));
  CHECK(find_figure("workers now")->kind == FigureKind::series);
  CHECK(find_figure("no such") == nullptr);
}

TEST_CASE("docs/lessons.md names every figure a query accepts") {
  std::ifstream in(data_path("docs/lessons.md"));
  const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE_FALSE(doc.empty());
  for (const Figure& f : figures()) {
    INFO(f.name);
    CHECK(doc.find("`" + f.name + "`") != std::string::npos);
  }
}

TEST_CASE("a predict's answer comes from the run: a number, a pool, and none yet from a partial run") {
  const Lesson l = parse(lesson_json());
  const RunResult r = run(l.steps[0].scenario);
  const Predict& refused = *l.steps[1].predict;
  Answer a = compute_answer(refused, data(r));
  REQUIRE(a.known);
  CHECK(a.number == 4);  // 8 at once, 4 workers, no queue
  const Answer lowest = compute_answer(*l.steps[2].predict, data(r));
  REQUIRE(lowest.known);
  CHECK(lowest.pools == std::vector<std::string>{"ants"});  // purged; fasthttp's cleaner waits 10 s
  // A run that has reached 2 s cannot answer a question about 3 s, nor about its end.
  RunData partial = data(r);
  partial.reached = std::chrono::nanoseconds(std::chrono::seconds(2)).count();
  CHECK_FALSE(compute_answer(*l.steps[2].predict, partial).known);
  CHECK_FALSE(compute_answer(refused, partial).known);
  // A table figure at a time reads the run up to then.
  Query q = refused.query;
  q.figure = find_figure("submitted");
  q.at = std::chrono::milliseconds(0);
  CHECK(evaluate(q, data(r)).number == 0.0);
  q.at = std::chrono::seconds(2);
  CHECK(evaluate(q, data(r)).number == 8.0);
  // Events by kind and rule.
  Query first = q;
  first.pool = "ants";
  first.figure = find_figure("first event");
  first.kind = "worker_reaped";
  first.rule = "purge-tick";
  first.at.reset();
  const Value when = evaluate(first, data(r));
  REQUIRE(when.number);
  CHECK(*when.number >= 1.0);
  CHECK(*when.number <= 2.01);
}

TEST_CASE("a student's answer is graded within its tolerance, with both values") {
  const Lesson l = parse(lesson_json());
  const Predict& p = *l.steps[1].predict;
  Answer run;
  run.known = true;
  run.number = 4;
  CHECK(grade(p, 5.0, run).within);   // tolerance 1
  CHECK(grade(p, 6.0, run).within);   // or 50 %: 2
  const Grade off = grade(p, 7.0, run);
  CHECK_FALSE(off.within);
  CHECK(off.student == "7");
  CHECK(off.run == "4");
  CHECK_THAT(off.why, Contains("off by 3"));
  CHECK(std::get<double>(parse_student_answer(p, " 12.5 ")) == 12.5);
  CHECK_THROWS_AS(parse_student_answer(p, "twelve"), ConfigError);
  const Predict& pool = *l.steps[2].predict;
  CHECK(std::get<std::string>(parse_student_answer(pool, "ants")) == "ants");
  CHECK_THROWS_WITH(parse_student_answer(pool, "gopool"), Contains("expected one of the choices (ants, fasthttp)"));
}

TEST_CASE("a try holds on its suggested change and fails on the unchanged run") {
  const Lesson l = parse(lesson_json());
  const Step& st = l.steps[3];
  const TryOutcome before = check_try(*st.try_, data(run(st.scenario)));
  CHECK(before.known);
  CHECK_FALSE(before.holds);
  CHECK_THAT(before.why, Contains("refused of fasthttp at the end is 4, not == 0"));
  const TryOutcome after = check_try(*st.try_, data(run(with_change(l, st, st.try_->suggest))));
  CHECK(after.holds);
  CHECK_THROWS_AS(with_change(l, st, json("lots")), ScenarioError);
  CHECK_THROWS_WITH(with_change(l, st, json(100)),
                    Contains("t.json: /steps/3/try/value: step 4: expected a value from 1 to 64, got 100"));
  CHECK_NOTHROW(with_change(l, st, json(64)));
}

TEST_CASE("the check computes every answer and finds a question with no single answer") {
  CheckReport ok = check_lesson(parse(lesson_json()));
  CHECK(ok.ok());
  CHECK(ok.to_json()["steps"][1]["answer"]["number"] == 4.0);
  json j = lesson_json();
  j["steps"][2]["predict"]["query"]["at"] = "500ms";  // both still have 4 workers: a tie
  j["steps"][2]["predict"]["ask_at"] = "0s";
  CheckReport tie = check_lesson(parse(j));
  CHECK_FALSE(tie.ok());
  REQUIRE(tie.steps[2].problems.size() == 1);
  CHECK_THAT(tie.steps[2].problems[0], Contains("a tie: ants and fasthttp both have 4"));
  j = lesson_json();
  j["steps"][3]["try"]["holds"]["op"] = "!=";  // holds already: tests nothing
  CheckReport vacuous = check_lesson(parse(j));
  CHECK_THAT(vacuous.steps[3].problems.at(0), Contains("already holds without the change"));
}

TEST_CASE("saved answers grade by running the lesson again: a tampered run value changes nothing") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("poolscope-lessons-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "t.json") << lesson_json().dump();
  ::setenv("POOLSCOPE_LESSONS", dir.c_str(), 1);
  const Lesson l = load_lesson(resolve_lesson("t"));
  const CheckReport key = check_lesson(l);
  std::vector<Response> answers = {{2, 4.0, grade(*l.steps[1].predict, 4.0, key.steps[1].answer), key.steps[1].answer},
                                   {3, std::string("fasthttp"),
                                    grade(*l.steps[2].predict, std::string("fasthttp"), key.steps[2].answer),
                                    key.steps[2].answer}};
  json doc = answers_document(l, answers, {{4, json(2), TryOutcome{}}}, "alice");
  CHECK(doc["format"] == "poolscope-lesson-answers/1");
  CHECK(doc["summary"]["within"] == 1);
  CHECK(doc["answers"][1]["run_value"] == "ants");
  doc["answers"][1]["within"] = true;
  doc["answers"][1]["run_value"] = "fasthttp";
  const json gs = grade_answers(doc, "answers.json", "gradescope");
  CHECK(gs["score"] == 1);  // step 2 only: step 3 is wrong, the try with 2 workers refuses more
  CHECK(gs["max_score"] == 3);
  const json pl = grade_answers(doc, "answers.json", "prairielearn");
  CHECK(pl["gradable"] == true);
  CHECK(pl["tests"].size() == 3);
  doc["answers"][0]["step"] = 1;  // a step without a question
  CHECK_THROWS_WITH(grade_answers(doc, "answers.json", "gradescope"),
                    Contains("answers.json: /answers/0/step: expected a step with a question"));
  ::unsetenv("POOLSCOPE_LESSONS");
  fs::remove_all(dir);
}
