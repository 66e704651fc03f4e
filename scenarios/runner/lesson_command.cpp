#include "scenarios/runner/lesson_command.h"

#include <iomanip>
#include <iostream>

#include "scenarios/engine/atomic_file.h"
#include "scenarios/engine/engine.h"
#include "scenarios/engine/lesson.h"

namespace poolscope::runner {

namespace {

using namespace scenario;
namespace ls = scenario::lesson;

constexpr int kOk = 0, kFailed = 1;

void write_json(const std::string& where, const json& j) {
  const Destination d = plan_destination("--json", where);
  if (d.kind == Destination::Kind::descriptor && d.fd == 1 && d.shown == "-") {
    std::cout << j.dump(2) << "\n";
    return;
  }
  write_destination(d, [&](std::ostream& o) { o << j.dump(2) << "\n"; });
}

int check(const LessonArgs& a) {
  std::vector<std::string> names = a.files;
  if (names.empty())
    for (const ls::LessonEntry& e : ls::list_lessons()) names.push_back(e.file.string());
  if (names.empty())
    throw ConfigError("", "no lessons given and none shipped in '" + ls::lessons_dir().string() + "'");
  if (!a.json_out.empty()) plan_destination("--json", a.json_out);  // refused before anything runs
  // Every lesson is parsed before any runs: a malformed one is bad input (exit 2), nothing checked.
  std::vector<ls::Lesson> lessons;
  for (const std::string& n : names) lessons.push_back(ls::load_lesson(ls::resolve_lesson(n)));
  const bool to_stdout = a.json_out == "-";
  json out = json::array();
  bool ok = true;
  for (const ls::Lesson& l : lessons) {
    const ls::CheckReport r = ls::check_lesson(l);
    ok = ok && r.ok();
    if (!to_stdout) ls::print_key(std::cout, r);
    else if (!r.ok())
      for (const ls::KeyEntry& e : r.steps)
        for (const std::string& p : e.problems) std::cerr << "poolscope: " << l.file << ": " << p << "\n";
    out.push_back(r.to_json());
  }
  if (!a.json_out.empty()) write_json(a.json_out, out);
  return ok ? kOk : kFailed;
}

int list(bool as_json) {
  const auto entries = ls::list_lessons();
  if (as_json) {
    json out = json::array();
    for (const auto& e : entries)
      out.push_back({{"name", e.name}, {"title", e.title}, {"summary", e.summary}, {"minutes", e.minutes},
                     {"file", e.file.string()}});
    std::cout << out.dump(2) << "\n";
    return kOk;
  }
  for (const auto& e : entries)
    std::cout << std::left << std::setw(22) << e.name << " " << e.title << " (" << e.minutes << " min)\n";
  return kOk;
}

int grade(const LessonArgs& a) {
  const std::string where = a.json_out.empty() ? "-" : a.json_out;
  plan_destination("--json", where);
  const json answers = read_scenario_json(a.answers);
  write_json(where, ls::grade_answers(answers, a.answers, a.format));
  return kOk;
}

// "3=50", "4=ants", "5=ants,fasthttp", "6=1s": a step (from 1) and what was answered or set.
std::pair<std::size_t, std::string> step_value(const std::string& arg, const ls::Lesson& l) {
  const auto eq = arg.find('=');
  std::size_t step = 0;
  try {
    if (eq == std::string::npos || eq == 0) throw std::invalid_argument("no step");
    std::size_t used = 0;
    step = std::stoul(arg.substr(0, eq), &used);
    if (used != eq) throw std::invalid_argument("not a number");
  } catch (const std::exception&) {
    throw ConfigError("--step " + arg, "expected STEP=VALUE, STEP a step's number counted from 1");
  }
  if (step < 1 || step > l.steps.size() || (!l.steps[step - 1].predict && !l.steps[step - 1].try_))
    throw ConfigError("--step " + arg, "expected a step of lesson '" + l.name + "' with a question or a try");
  return {step, arg.substr(eq + 1)};
}

int answer(const LessonArgs& a) {
  const std::string where = a.json_out.empty() ? "-" : a.json_out;
  plan_destination("--json", where);
  const ls::Lesson l = ls::load_lesson(ls::resolve_lesson(a.lesson));
  std::vector<std::pair<std::size_t, std::string>> given;
  for (const std::string& s : a.steps) given.push_back(step_value(s, l));
  const ls::CheckReport key = ls::check_lesson(l);  // the run's answers, as the GUI computes them
  std::vector<ls::Response> responses;
  std::vector<ls::TryResponse> tries;
  for (const auto& [step, text] : given) {
    const ls::Step& st = l.steps[step - 1];
    if (st.predict) {
      ls::StudentAnswer sa;
      try {
        sa = ls::parse_student_answer(*st.predict, text);
      } catch (const ConfigError& e) {
        throw ConfigError("--step " + std::to_string(step) + "=" + text, e.message());
      }
      const ls::Answer& run = key.steps[step - 1].answer;
      responses.push_back({step, sa, ls::grade(*st.predict, sa, run), run});
      continue;
    }
    // A try's value as --set reads one: JSON if it parses, else a string ("1s").
    json value = json::parse(text, nullptr, false);
    if (value.is_discarded()) value = text;
    RunOptions ro;
    ro.keep_events = true;
    const RunResult run = run_scenario(ls::with_change(l, st, value), ro);
    tries.push_back({step, value, ls::check_try(*st.try_, ls::RunData{&run.metrics, -1, run.outcome.workload_end.count()})});
  }
  write_json(where, ls::answers_document(l, responses, tries, a.student));
  return kOk;
}

}  // namespace

CLI::App* add_lesson_command(CLI::App& app, LessonArgs& a) {
  auto* cmd = app.add_subcommand("lesson", "check lessons and print their answer keys, list them, grade answers");
  cmd->require_subcommand(1);
  a.check = cmd->add_subcommand(
      "check", "run every step of each lesson in the simulation, check every question and try, print the answer key");
  a.check->add_option("LESSON", a.files, "lesson files or shipped lessons' names (default: every shipped lesson)");
  a.check->add_option("--json", a.json_out, "write the answer keys as JSON here ('-' for stdout, no text)");
  a.list = cmd->add_subcommand("list", "list the shipped lessons");
  a.list->add_flag("--json", a.list_json, "print JSON for scripts");
  a.grade = cmd->add_subcommand(
      "grade", "grade a student's saved answers (the lesson is run again) in the labs' Gradescope or PrairieLearn format");
  a.grade->add_option("ANSWERS", a.answers, "the answers file the GUI saved (poolscope-lesson-answers/1)")->required();
  a.grade->add_option("--format", a.format, "gradescope (default) or prairielearn")
      ->check(CLI::IsMember({"gradescope", "prairielearn"}));
  a.grade->add_option("--json", a.json_out, "write the grade here (default '-': stdout)");
  a.answer = cmd->add_subcommand(
      "answer", "write a student's answers as the GUI saves them (Lesson > Save answers), e.g. from a paper quiz");
  a.answer->add_option("LESSON", a.lesson, "a lesson file or a shipped lesson's name")->required();
  a.answer->add_option("--step", a.steps, "STEP=VALUE: the answer to step STEP's question, or the value its try set "
                                          "(repeatable; a pool order as ants,fasthttp,...)");
  a.answer->add_option("--student", a.student, "the student's name, kept in the document");
  a.answer->add_option("--json", a.json_out, "write the answers here (default '-': stdout)");
  return cmd;
}

int run_lesson(const LessonArgs& a) {
  if (*a.check) return check(a);
  if (*a.list) return list(a.list_json);
  if (*a.answer) return answer(a);
  return grade(a);
}

}  // namespace poolscope::runner
