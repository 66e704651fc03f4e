// A lesson (docs/lessons.md): steps of short text, each running a scenario
// in the simulation, with at most one question whose answer is a figure of
// the run itself (predict) or one parameter change to try. This header is
// what the runner's `lesson` command and the GUI's Lesson panel share.
//
// Index:
//   Query, Figure       what a question asks of a run: a pool's figure
//   Predict, Try, Step  a step and its one question or change
//   Lesson              parse, load, list the shipped ones
//   RunData             a run's data as the GUI and the check hold it
//   compute / grade     a predict's answer from a run, a student's graded
//   check_try           a try's condition on a run
//   check_lesson        every step run, every answer computed: the answer key
//   answers / grading   the saved-answers document and its grade
//
// Every error is a ScenarioError naming the lesson file, the JSON path (the
// step: "/steps/2/predict/query/figure") and what was expected.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "pools/core/clock.h"
#include "pools/core/params.h"
#include "scenarios/engine/metrics.h"
#include "scenarios/engine/scenario.h"

namespace poolscope::scenario::lesson {

inline constexpr std::string_view kLessonFormat = "poolscope-lesson/1";
inline constexpr std::string_view kAnswersFormat = "poolscope-lesson-answers/1";
inline constexpr std::size_t kMaxSteps = 100;
inline constexpr std::uintmax_t kMaxLessonBytes = 4ull << 20;

// ---------------------------------------------------------------- queries

// A figure the engine already computes, named as the comparison table (and
// the runner's table, and the result's summary keys) name it.
enum class FigureKind {
  summary,      // a comparison-table row: at the end of the run, or at `at`
  series,       // a counter (workers, busy, queued, blocked) at `at`
  first_event,  // the time (s) of the pool's first event of `kind` (and `rule`), up to `at` if given
  events,       // how many events of `kind` (and `rule`) up to `at` (else the whole run)
};

struct Figure {
  std::string name;  // canonical: the GUI comparison table's row, "workers peak"
  FigureKind kind = FigureKind::summary;
  bool seconds = false;  // a time, in seconds
  std::string help;
};
// Every figure a query may name, canonical names first (docs/lessons.md lists them).
const std::vector<Figure>& figures();
// The figure of that name or alias ("end-to-end p99", "/workers/peak",
// "workers.peak" name the same as "end to end p99", "workers peak"), else null.
const Figure* find_figure(std::string_view name);
// Every name a query accepts, aliases included, for messages.
std::vector<std::string> figure_names();

// A query's `at` may reach past the workload's end into the drain by this much.
inline Nanos overrun_grace() { return std::chrono::seconds(60); }

// A figure's value as the key and the panel show it: at most three
// decimals ("0.251", "20", "3.4 s" for a time).
std::string format_value(double v, bool seconds);

// What a question or a try's condition reads from a run.
struct Query {
  std::string pool;              // a pool of the step's scenario ("" for a choice or an order: each choice)
  const Figure* figure = nullptr;
  std::optional<Nanos> at;       // scenario time; unset: the end of the run
  std::string kind;              // first_event, events: an event kind ("worker_reaped"), see kind_name()
  std::string rule;              // optional: only events (or by-rule counts) of this rule code
  std::string path;              // JSON path of the query in the lesson, for messages
  // "workers peak of ants at 2s", for the answer key and the GUI.
  std::string describe() const;
};

// ------------------------------------------------------- steps and lessons

enum class AnswerKind { number, pool, order };
std::string_view to_string(AnswerKind k);

struct Predict {
  std::string question;         // markdown subset
  AnswerKind answer = AnswerKind::number;
  Query query;                  // number: its pool's figure; pool and order: the figure, over the choices
  double tolerance = 0;         // number: absolute, in the figure's unit
  double tolerance_percent = 0; // number: relative to the run's value (either tolerance is enough)
  std::vector<std::string> choices;  // pool, order: pools (default: every pool of the step's run)
  bool highest = true;          // pool: the highest figure wins (false: the lowest); order: highest first
  Nanos ask_at{0};              // the run pauses here to ask (scenario time)
  std::string explain;          // shown after the reveal (markdown subset)
  std::string path;             // "/steps/2/predict"
  // When the answer is known: the query's time, else the end of the run (nullopt).
  std::optional<Nanos> known_at() const { return query.at; }
};

// A comparison of two figures, or of a figure and a number.
struct Condition {
  Query left;
  std::string op;  // <, <=, >, >=, ==, !=
  std::optional<Query> right_query;
  double right_value = 0;
  std::string path;
  std::string describe() const;  // "reaped of ants > 0"
};

struct Try {
  std::string pool, param;       // the parameter the student changes (POOL.PARAM, as --set names it)
  json min, max;                 // its range as the step offers it (config form: numbers, "1s")
  std::vector<json> choices;     // or, for a choice parameter, the values offered
  json suggest;                  // the change the step suggests (the check runs it)
  std::string look_for;          // what to look for (markdown subset)
  Condition holds;               // checked on the student's run: true once the change works
  std::string explain;           // why it holds, shown with the result (markdown subset)
  std::string path;              // "/steps/4/try"
};

// What the view shows while the step runs (the GUI's business; the check
// only validates the names).
struct Highlight {
  enum class What { lane, rule, row } what = What::lane;
  std::string pool;  // lane: the pool whose lanes; rule, row: optional, one pool's
  std::string name;  // rule: the rule's code; row: the comparison table's row (canonical figure name)
};
struct View {
  std::optional<Nanos> from, to;    // the time range shown (unset: all)
  std::vector<std::string> pools;   // pools shown (empty: all)
  std::string tab;                  // side tab: "compare", "explain", "findings", "scenario", "" (leave as is)
  std::vector<Highlight> highlights;
};
// The side tabs a view may name.
const std::vector<std::string>& view_tabs();

// The scenario a step runs: a shipped scenario's name (or a path, relative
// to the lesson's file), or one written inline, with optional overrides;
// always simulated.
struct StepScenario {
  std::string ref;                 // name or path as written ("" when inline)
  json inline_json;                // the inline scenario, if any
  std::vector<std::string> pools;  // run only these (Overrides::pools)
  std::vector<std::pair<std::string, json>> set;  // "POOL.PARAM" -> value
  std::optional<std::uint64_t> seed;
};

struct Step {
  std::string title;
  std::string text;  // markdown subset: paragraphs, *emphasis*, `code`, - lists, [links](docs/x.md)
  StepScenario scenario_ref;
  Scenario scenario;  // resolved and validated: what the step runs (simulated)
  View view;
  std::optional<Predict> predict;
  std::optional<Try> try_;
  std::string path;  // "/steps/2"
};

struct Lesson {
  std::string file;     // where it was read from
  std::string name;     // the file's stem: what `lesson=NAME` names
  std::string title;
  std::string follows;  // the seed or source it follows
  int minutes = 0;
  std::string summary;  // one line, for the menu
  std::vector<Step> steps;
  std::size_t predictions() const;
  std::size_t tries() const;
};

// Parses a lesson's text; `file` names it in messages (and its directory
// resolves scenario paths). Resolves and validates every step's scenario,
// every pool, figure, event kind, parameter and tab it names; errors are
// ScenarioErrors ("why-a-pool.json: /steps/2/predict/query/figure: ...").
Lesson parse_lesson(std::string_view text, const std::string& file);
// The same from a file (at most kMaxLessonBytes).
Lesson load_lesson(const std::filesystem::path& file);

struct LessonEntry {
  std::string name, title, summary;
  int minutes = 0;
  std::filesystem::path file;
};
// $POOLSCOPE_LESSONS if set, else data_root()/scenarios/lessons (in the page: the embedded copy).
std::filesystem::path lessons_dir();
// Every shipped lesson, sorted by name; an unreadable one is listed with its error as the summary.
std::vector<LessonEntry> list_lessons();
// An existing file as given, else a shipped lesson's name ("why-a-pool" or
// "why-a-pool.json"). Throws ConfigError naming the shipped ones if neither.
std::filesystem::path resolve_lesson(const std::string& name_or_path);

// The step's scenario with the try's change applied (its suggestion, or the
// student's `value`): what a student's try runs.
Scenario with_change(const Lesson& lesson, const Step& step, const json& value);

// ------------------------------------------------------------ evaluation

// A run as the GUI and the check hold it: its metrics (with their events
// kept, RunOptions::keep_events, so a figure can be read at a time), the
// scenario time the run has reached, and when its workload ended.
struct RunData {
  const metrics::RunMetrics* metrics = nullptr;
  std::int64_t reached = -1;       // scenario ns the run has reached; -1: finished
  std::int64_t workload_end = -1;  // RunOutcome::workload_end, or the scenario's duration
  bool finished() const { return reached < 0; }
};
RunData run_data(const metrics::RunMetrics& m, const Scenario& s, std::int64_t reached = -1);

// A figure's value: a number (seconds for times), or why it has none (the
// run has not reached it, no such event happened, an unknown pool).
struct Value {
  std::optional<double> number;
  std::string why_not;
};
Value evaluate(const Query& q, const RunData& run);

// The run's answer to a predict: a number, a pool, or an order of pools,
// each with the figures behind it.
struct Answer {
  bool known = false;
  std::string why_not;  // when not known
  double number = 0;    // number
  bool seconds = false; // number: a time, in seconds
  std::vector<std::string> pools;  // pool: one; order: every choice, in order
  std::vector<std::pair<std::string, double>> figures;  // pool, order: each choice's value
  // "3", "20 s", "ants", "ants, fasthttp, gopool" (an order, in the predict's direction).
  std::string text() const;
};
Answer compute_answer(const Predict& p, const RunData& run);

// A student's answer: a number, a pool, or pools in order.
using StudentAnswer = std::variant<double, std::string, std::vector<std::string>>;
struct Grade {
  bool within = false;
  std::string student, run;  // both values as text
  std::string why;           // "off by 2, tolerance 1"
};
Grade grade(const Predict& p, const StudentAnswer& student, const Answer& run);
// Parses what a student typed (a number; a pool name; pool names separated by
// commas or spaces): throws ConfigError("answer", what was expected).
StudentAnswer parse_student_answer(const Predict& p, std::string_view typed);

struct TryOutcome {
  bool known = false;  // false: the run has not reached the condition's time
  bool holds = false;
  std::string why;     // "reaped of ants is 3, > 0: holds"
};
TryOutcome check_try(const Try& t, const RunData& run);

// ------------------------------------------------------------- the check

// One step's part of the answer key.
struct KeyEntry {
  std::size_t step = 0;  // from 1
  std::string title;
  std::string kind;      // "predict", "try", "" (text only)
  std::string question, query;
  Answer answer;
  std::optional<double> tolerance, tolerance_percent;
  TryOutcome unchanged, changed;  // a try on the step's run, and with its suggestion
  std::string change;             // "ants.ExpiryDuration=1s"
  std::vector<std::string> problems;  // empty: the step passes
};
struct CheckReport {
  std::string file, name, title;
  std::vector<KeyEntry> steps;
  bool ok() const;
  json to_json() const;
};
// Runs every step's scenario (and each try's change) in the simulation and
// checks that every answer computes (no tie for a pool or an order), every
// try holds with its suggestion and fails without. One run at a time.
CheckReport check_lesson(const Lesson& lesson);
// The report as the runner prints it: the teacher's answer key.
void print_key(std::ostream& out, const CheckReport& r);

// ------------------------------------------------- saved answers, grading

// One answered question, as the GUI records it.
struct Response {
  std::size_t step = 0;   // from 1
  StudentAnswer answer;
  Grade grade;
  Answer run;             // the run's answer it was graded against
};
struct TryResponse {
  std::size_t step = 0;
  json value;  // what the student set
  TryOutcome outcome;
};
// The answers document (poolscope-lesson-answers/1, docs/schemas/lesson-answers.schema.json).
json answers_document(const Lesson& lesson, const std::vector<Response>& answers,
                      const std::vector<TryResponse>& tries, const std::string& student = "");
// Grades an answers document against the lesson it names, recomputing every
// run's value (a tampered run_value changes nothing), into the labs' output
// format: "gradescope" (results.json) or "prairielearn". One point a question.
json grade_answers(const json& answers, const std::string& file, const std::string& format);

}  // namespace poolscope::scenario::lesson
