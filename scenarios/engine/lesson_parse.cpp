// Reading a lesson file (docs/lessons.md): every field through ObjectReader,
// so an error names the file, the step's JSON path and what was expected;
// every scenario resolved and validated, every pool, figure, event kind,
// rule, parameter and tab checked against what exists.
#include <algorithm>
#include <cstdlib>

#include "pools/core/duration.h"
#include "pools/core/event.h"
#include "pools/core/labels.h"
#include "pools/core/registry.h"
#include "pools/core/suggest.h"
#include "scenarios/engine/data_dir.h"
#include "scenarios/engine/json_reader.h"
#include "scenarios/engine/lesson.h"
#include "scenarios/engine/library.h"

namespace poolscope::scenario::lesson {

namespace {

std::string quoted_list(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

bool has_pool(const Scenario& s, const std::string& name) {
  return std::any_of(s.pools.begin(), s.pools.end(), [&](const PoolEntry& e) { return e.name == name; });
}

std::vector<std::string> pool_names(const Scenario& s) {
  std::vector<std::string> out;
  for (const PoolEntry& e : s.pools) out.push_back(e.name);
  return out;
}

void check_pool(const Scenario& s, const std::string& name, const std::string& path) {
  if (!has_pool(s, name))
    throw ConfigError(path, "expected a pool of the step's scenario (" + quoted_list(pool_names(s)) + "), got \"" +
                                name + "\"");
}

std::vector<std::string> string_list(const json& j, const std::string& path) {
  if (!j.is_array()) fail_at(path, "an array of strings", j);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < j.size(); ++i) {
    if (!j[i].is_string()) fail_at(path + "/" + std::to_string(i), "a string", j[i]);
    out.push_back(j[i].get<std::string>());
  }
  return out;
}

// A non-empty string in the markdown subset: kept as source text.
std::string text_field(ObjectReader& r, std::string_view key, std::optional<std::string> fallback = std::nullopt) {
  std::string s = r.string(key, fallback);
  if (!fallback && s.empty()) r.fail(key, "a non-empty text", r.get(key));
  return s;
}

void check_rule(const std::string& rule, const std::string& path) {
  if (find_label(rule) == kNoLabel) {
    std::vector<std::string> codes;
    for (Label l : all_labels()) {
      std::string c(label_code(l));
      if (std::find(codes.begin(), codes.end(), c) == codes.end()) codes.push_back(c);
    }
    std::string near = nearest_name(rule, codes).value_or("");
    throw ConfigError(path, "expected a rule code a design names (as the trace's markers and the result's "
                            "by-rule counts do), got \"" + rule + "\"" +
                                (near.empty() ? "" : "; did you mean \"" + near + "\"?"));
  }
}

// The figures a query may filter by rule: the summary's by-rule counts.
bool summary_has_rules(const Figure& f) {
  return f.name == "refused" || f.name == "dropped" || f.name == "spawned" || f.name == "reaped" || f.name == "exited";
}

Query parse_query(const json& j, const std::string& path, const Scenario& s, bool pool_required) {
  ObjectReader r(j, path);
  Query q;
  q.path = path;
  if (pool_required) {
    q.pool = r.string("pool");
    check_pool(s, q.pool, r.path_of("pool"));
  } else if (r.has("pool")) {
    throw ConfigError(r.path_of("pool"), "expected no pool: a question answered by a pool or an order of pools "
                                         "reads its figure of each choice (\"choices\")");
  }
  const std::string name = r.string("figure");
  q.figure = find_figure(name);
  if (!q.figure) {
    std::string near = nearest_name(name, figure_names()).value_or("");
    throw ConfigError(r.path_of("figure"), "expected a figure (docs/lessons.md lists them: the comparison table's "
                                           "rows, workers/busy/queued/blocked at a time, \"first event\", "
                                           "\"events\"), got \"" + name + "\"" +
                                               (near.empty() ? "" : "; did you mean \"" + near + "\"?"));
  }
  if (r.has("at")) q.at = r.duration("at", std::nullopt, Nanos(0));
  if (q.figure->kind == FigureKind::series && !q.at)
    throw ConfigError(r.path_of("at"), "expected a time such as \"2s\": \"" + q.figure->name +
                                           "\" is a counter, read at a moment of the run");
  if (q.at && *q.at > s.duration() + overrun_grace())
    throw ConfigError(r.path_of("at"), "expected a time within the run (its workload lasts " +
                                           format_duration(s.duration()) + "), got " + format_duration(*q.at));
  const bool events = q.figure->kind == FigureKind::first_event || q.figure->kind == FigureKind::events;
  if (events) {
    q.kind = r.string("kind");
    if (!parse_kind(q.kind)) {
      std::vector<std::string> kinds;
      for (int k = 0; k < kEventKindCount; ++k) kinds.emplace_back(kind_name(static_cast<EventKind>(k)));
      throw ConfigError(r.path_of("kind"), "expected an event kind (" + quoted_list(kinds) + "), got \"" + q.kind +
                                               "\"");
    }
  }
  if (r.has("rule")) {
    if (!events && !summary_has_rules(*q.figure))
      throw ConfigError(r.path_of("rule"), "expected no rule: only \"events\", \"first event\" and the by-rule "
                                           "counts (refused, dropped, spawned, reaped, exited) take one");
    q.rule = r.string("rule");
    check_rule(q.rule, r.path_of("rule"));
  }
  r.done();
  return q;
}

Condition parse_condition(const json& j, const std::string& path, const Scenario& s) {
  ObjectReader r(j, path);
  Condition c;
  c.path = path;
  c.left = parse_query(r.required("query"), r.path_of("query"), s, true);
  c.op = r.choice("op", {"<", "<=", ">", ">=", "==", "!="});
  const bool value = r.has("value"), than = r.has("than");
  if (value == than)
    throw ConfigError(path, "expected one of \"value\" (a number) or \"than\" (another query) to compare with");
  if (value) c.right_value = r.number("value");
  else c.right_query = parse_query(r.required("than"), r.path_of("than"), s, true);
  r.done();
  return c;
}

Predict parse_predict(const json& j, const std::string& path, const Scenario& s) {
  ObjectReader r(j, path);
  Predict p;
  p.path = path;
  p.question = text_field(r, "question");
  const std::string kind = r.choice("answer", {"number", "pool", "order"});
  p.answer = kind == "number" ? AnswerKind::number : kind == "pool" ? AnswerKind::pool : AnswerKind::order;
  if (p.answer != AnswerKind::number) {
    if (const json* c = r.get("choices")) {
      p.choices = string_list(*c, r.path_of("choices"));
      for (std::size_t i = 0; i < p.choices.size(); ++i)
        check_pool(s, p.choices[i], r.path_of("choices") + "/" + std::to_string(i));
    } else {
      p.choices = pool_names(s);
    }
    if (p.choices.size() < 2)
      throw ConfigError(r.path_of("choices"), "expected at least two pools to choose among, got " +
                                                  std::to_string(p.choices.size()));
    p.highest = r.choice("pick", {"highest", "lowest"}, "highest") == "highest";
  }
  p.query = parse_query(r.required("query"), r.path_of("query"), s, p.answer == AnswerKind::number);
  if (p.answer == AnswerKind::number) {
    p.tolerance = r.number("tolerance", 0.0, 0.0);
    p.tolerance_percent = r.number("tolerance_percent", 0.0, 0.0, 100.0);
  }
  p.ask_at = r.duration("ask_at", Nanos(0), Nanos(0));
  if (p.query.at && p.ask_at > *p.query.at)
    throw ConfigError(r.path_of("ask_at"), "expected a moment at or before the query's \"at\" (" +
                                               format_duration(*p.query.at) + "): the question is asked before "
                                               "the run reaches what it is about");
  if (p.ask_at > s.duration())
    throw ConfigError(r.path_of("ask_at"), "expected a moment within the workload (" +
                                               format_duration(s.duration()) + ")");
  p.explain = text_field(r, "explain");
  r.done();
  return p;
}

Try parse_try(const json& j, const std::string& path, const Scenario& s) {
  ObjectReader r(j, path);
  Try t;
  t.path = path;
  t.pool = r.string("pool");
  check_pool(s, t.pool, r.path_of("pool"));
  t.param = r.string("param");
  const PoolEntry& entry = *std::find_if(s.pools.begin(), s.pools.end(), [&](const PoolEntry& e) { return e.name == t.pool; });
  const Design& design = Registry::global().get(entry.design);
  const auto spec = std::find_if(design.params.begin(), design.params.end(),
                                 [&](const ParamSpec& p) { return p.name == t.param; });
  if (spec == design.params.end()) {
    std::vector<std::string> names;
    for (const ParamSpec& p : design.params) names.push_back(p.name);
    throw ConfigError(r.path_of("param"), "expected a parameter of design '" + entry.design + "' (" +
                                              quoted_list(names) + "), got \"" + t.param + "\"");
  }
  if (const json* v = r.get("min")) t.min = *v;
  if (const json* v = r.get("max")) t.max = *v;
  if (const json* c = r.get("choices")) {
    if (!c->is_array() || c->empty()) fail_at(r.path_of("choices"), "a non-empty array of values", *c);
    t.choices = c->get<std::vector<json>>();
  }
  if (t.choices.empty() && (t.min.is_null() || t.max.is_null()))
    throw ConfigError(path, "expected the range the student may set: \"min\" and \"max\", or \"choices\"");
  t.suggest = r.required("suggest");
  t.look_for = text_field(r, "look_for");
  t.holds = parse_condition(r.required("holds"), r.path_of("holds"), s);
  t.explain = text_field(r, "explain");
  r.done();
  return t;
}

View parse_view(const json& j, const std::string& path, const Scenario& s) {
  ObjectReader r(j, path);
  View v;
  if (r.has("from")) v.from = r.duration("from", std::nullopt, Nanos(0));
  if (r.has("to")) v.to = r.duration("to", std::nullopt, Nanos(0), true);
  if (v.from && v.to && *v.from >= *v.to)
    throw ConfigError(r.path_of("to"), "expected a time after \"from\" (" + format_duration(*v.from) + ")");
  if (const json* p = r.get("pools")) {
    v.pools = string_list(*p, r.path_of("pools"));
    for (std::size_t i = 0; i < v.pools.size(); ++i)
      check_pool(s, v.pools[i], r.path_of("pools") + "/" + std::to_string(i));
  }
  if (r.has("tab")) {
    std::vector<std::string> tabs = view_tabs();
    v.tab = r.choice("tab", tabs);
  }
  if (const json* h = r.get("highlight")) {
    if (!h->is_array()) fail_at(r.path_of("highlight"), "an array of {\"lane\": POOL}, {\"rule\": CODE}, {\"row\": FIGURE}", *h);
    for (std::size_t i = 0; i < h->size(); ++i) {
      const std::string hp = r.path_of("highlight") + "/" + std::to_string(i);
      ObjectReader hr((*h)[i], hp);
      Highlight x;
      const int given = hr.has("lane") + hr.has("rule") + hr.has("row");
      if (given != 1) throw ConfigError(hp, "expected exactly one of \"lane\", \"rule\", \"row\"");
      if (hr.has("lane")) {
        x.what = Highlight::What::lane;
        x.pool = hr.string("lane");
        check_pool(s, x.pool, hr.path_of("lane"));
      } else {
        if (hr.has("pool")) {
          x.pool = hr.string("pool");
          check_pool(s, x.pool, hr.path_of("pool"));
        }
        if (hr.has("rule")) {
          x.what = Highlight::What::rule;
          x.name = hr.string("rule");
          check_rule(x.name, hr.path_of("rule"));
        } else {
          x.what = Highlight::What::row;
          const std::string row = hr.string("row");
          const Figure* f = find_figure(row);
          if (!f || f->kind != FigureKind::summary)
            throw ConfigError(hr.path_of("row"), "expected a row of the comparison table (a summary figure of "
                                                 "docs/lessons.md), got \"" + row + "\"");
          x.name = f->name;
        }
      }
      hr.done();
      v.highlights.push_back(std::move(x));
    }
  }
  r.done();
  return v;
}

// "/steps/1/...: step 2: expected ...": JSON paths count from 0, a teacher
// and the Lesson panel from 1.
ConfigError with_step_number(const ConfigError& e) {
  const std::string& p = e.path();
  if (!p.starts_with("/steps/")) return e;
  const std::size_t end = p.find('/', 7);
  const std::string index = p.substr(7, end == std::string::npos ? std::string::npos : end - 7);
  if (index.empty() || index.find_first_not_of("0123456789") != std::string::npos || index.size() > 4) return e;
  return ConfigError(p, "step " + std::to_string(std::stoi(index) + 1) + ": " + e.message());
}

// Reads a step's "scenario": a name or path, or an object naming one (or
// holding one inline) with optional overrides.
StepScenario parse_scenario_ref(const json& j, const std::string& path) {
  StepScenario out;
  if (j.is_string()) {
    out.ref = j.get<std::string>();
    if (out.ref.empty()) fail_at(path, "a shipped scenario's name or a path", j);
    return out;
  }
  ObjectReader r(j, path);
  const bool named = r.has("name"), inline_ = r.has("inline");
  if (named == inline_)
    throw ConfigError(path, "expected a scenario's name (a string, or {\"name\": ...}) or one written inline "
                            "({\"inline\": {...}})");
  if (named) out.ref = r.string("name");
  else out.inline_json = r.required("inline");
  if (const json* p = r.get("pools")) out.pools = string_list(*p, r.path_of("pools"));
  if (const json* s = r.get("set")) {
    if (!s->is_object()) fail_at(r.path_of("set"), "an object of \"POOL.PARAM\": value", *s);
    for (const auto& [k, v] : s->items()) {
      if (k.find('.') == std::string::npos)
        throw ConfigError(r.path_of("set") + "/" + k, "expected a key POOL.PARAM, as --set names it");
      out.set.emplace_back(k, v);
    }
  }
  if (r.has("seed")) out.seed = static_cast<std::uint64_t>(r.integer("seed", std::nullopt, 0));
  r.done();
  return out;
}

// The scenario a step runs, always simulated: resolved, overridden, validated.
Scenario resolve_step_scenario(const StepScenario& ref, const std::string& lesson_file,
                               const std::vector<std::pair<std::string, json>>& extra_set, const std::string& path) {
  json j;
  std::string file;
  std::filesystem::path base;
  try {
    if (!ref.ref.empty()) {
      std::filesystem::path p = ref.ref;
      const std::filesystem::path beside = std::filesystem::path(lesson_file).parent_path() / p;
      if (p.is_relative() && p.has_parent_path() && std::filesystem::is_regular_file(beside)) p = beside;
      else p = resolve_scenario(ref.ref);
      j = read_scenario_json(p);
      file = p.string();
      base = p.parent_path();
    } else {
      j = ref.inline_json;
      file = lesson_file + " (inline scenario)";
      base = std::filesystem::path(lesson_file).parent_path();
    }
    Overrides o;
    o.pools = ref.pools;
    o.settings = ref.set;
    for (const auto& s : extra_set) o.settings.push_back(s);
    o.seed = ref.seed;
    o.simulate = true;
    j = apply_overrides(std::move(j), o);
    return parse_scenario(j, file, base);
  } catch (const ConfigError& e) {
    // "lesson.json: /steps/2/scenario: survey.json: /pools/1/config: ..."
    throw ConfigError(path, e.what());
  }
}

}  // namespace

const std::vector<std::string>& view_tabs() {
  static const std::vector<std::string> tabs = {"compare", "explain", "findings", "scenario"};
  return tabs;
}

std::size_t Lesson::predictions() const {
  return static_cast<std::size_t>(std::count_if(steps.begin(), steps.end(), [](const Step& s) { return s.predict.has_value(); }));
}
std::size_t Lesson::tries() const {
  return static_cast<std::size_t>(std::count_if(steps.begin(), steps.end(), [](const Step& s) { return s.try_.has_value(); }));
}

namespace {

Lesson parse_lesson_json(const json& j, const std::string& file) {
  try {
    ObjectReader r(j, "");
    Lesson l;
    l.file = file;
    l.name = std::filesystem::path(file).stem().string();
    if (const json* f = r.get("format"); !f || *f != kLessonFormat)
      fail_at("/format", "\"" + std::string(kLessonFormat) + "\"", f ? *f : json());
    l.title = text_field(r, "title");
    l.follows = text_field(r, "follows");
    l.minutes = static_cast<int>(r.integer("minutes", std::nullopt, 1, 240));
    l.summary = text_field(r, "summary");
    const json& steps = r.required("steps");
    if (!steps.is_array() || steps.empty()) fail_at("/steps", "a non-empty array of steps", steps);
    if (steps.size() > kMaxSteps)
      throw ConfigError("/steps", "expected at most " + std::to_string(kMaxSteps) + " steps, got " +
                                      std::to_string(steps.size()));
    const StepScenario* last_ref = nullptr;
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const std::string path = "/steps/" + std::to_string(i);
      ObjectReader sr(steps[i], path);
      Step st;
      st.path = path;
      st.title = text_field(sr, "title");
      st.text = text_field(sr, "text");
      if (const json* sc = sr.get("scenario")) st.scenario_ref = parse_scenario_ref(*sc, sr.path_of("scenario"));
      else if (last_ref) st.scenario_ref = *last_ref;  // the previous step's, run again
      else throw ConfigError(sr.path_of("scenario"), "expected the scenario the first step runs");
      st.scenario = resolve_step_scenario(st.scenario_ref, file, {}, sr.path_of("scenario"));
      if (const json* v = sr.get("view")) st.view = parse_view(*v, sr.path_of("view"), st.scenario);
      const bool predict = sr.has("predict"), try_ = sr.has("try");
      if (predict && try_) throw ConfigError(path, "expected at most one of \"predict\" and \"try\" in a step");
      if (predict) st.predict = parse_predict(sr.required("predict"), sr.path_of("predict"), st.scenario);
      if (try_) {
        st.try_ = parse_try(sr.required("try"), sr.path_of("try"), st.scenario);
        // The suggestion must be a value the design accepts: resolve it now.
        (void)resolve_step_scenario(st.scenario_ref, file, {{st.try_->pool + "." + st.try_->param, st.try_->suggest}},
                                    sr.path_of("try") + "/suggest");
      }
      sr.done();
      l.steps.push_back(std::move(st));
      last_ref = &l.steps.back().scenario_ref;
    }
    r.done();
    return l;
  } catch (const ScenarioError&) {
    throw;
  } catch (const ConfigError& e) {
    throw ScenarioError(file, with_step_number(e));
  }
}

}  // namespace

Lesson parse_lesson(std::string_view text, const std::string& file) {
  return parse_lesson_json(parse_scenario_text(text, file), file);
}

Lesson load_lesson(const std::filesystem::path& file) {
  // Bounded, a regular file, errors naming it: as a scenario file is read.
  return parse_lesson_json(read_scenario_json(file), file.string());
}

Scenario with_change(const Lesson& lesson, const Step& step, const json& value) {
  if (!step.try_) return step.scenario;
  try {
    return resolve_step_scenario(step.scenario_ref, lesson.file, {{step.try_->pool + "." + step.try_->param, value}},
                                 step.try_->path + "/value");
  } catch (const ScenarioError&) {
    throw;
  } catch (const ConfigError& e) {
    throw ScenarioError(lesson.file, e);
  }
}

std::filesystem::path lessons_dir() {
  if (const char* env = std::getenv("POOLSCOPE_LESSONS"); env && *env) return env;
  return data_path("scenarios/lessons");
}

std::vector<LessonEntry> list_lessons() {
  std::vector<LessonEntry> out;
  std::error_code ec;
  for (const auto& f : std::filesystem::directory_iterator(lessons_dir(), ec)) {
    if (f.path().extension() != ".json") continue;
    LessonEntry e{f.path().stem().string(), "", "", 0, f.path()};
    // The menu needs the title, not the whole check: read the header only.
    try {
      json j = read_scenario_json(f.path());
      e.title = j.value("title", e.name);
      e.summary = j.value("summary", "");
      e.minutes = j.value("minutes", 0);
    } catch (const std::exception& err) {
      e.title = e.name;
      e.summary = std::string("(unreadable: ") + err.what() + ")";
    }
    out.push_back(std::move(e));
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

std::filesystem::path resolve_lesson(const std::string& arg) {
  if (std::filesystem::is_regular_file(arg)) return arg;
  std::filesystem::path p = lessons_dir() / arg;
  if (p.extension() != ".json") p += ".json";
  if (arg.find('/') == std::string::npos && std::filesystem::is_regular_file(p)) return p;
  std::vector<std::string> known;
  for (const auto& e : list_lessons()) known.push_back(e.name);
  throw ConfigError("", "no lesson file '" + arg + "' and no shipped lesson of that name in '" +
                            lessons_dir().string() + "' (shipped: " + (known.empty() ? "none" : quoted_list(known)) +
                            ")");
}

}  // namespace poolscope::scenario::lesson
