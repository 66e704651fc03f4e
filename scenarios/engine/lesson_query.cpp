// A lesson's queries: the figures they name (the comparison table's rows,
// the counters at a time, events by kind and rule), read from a run's
// metrics exactly as the table and the result read them; a predict's answer
// and a student's grade; a try's condition.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <sstream>

#include "pools/core/duration.h"
#include "pools/core/event.h"
#include "pools/core/labels.h"
#include "scenarios/engine/lesson.h"
#include "scenarios/engine/metrics.h"

namespace poolscope::scenario::lesson {

namespace {

using metrics::Summary;

// One figure with its aliases and how to read it from a summary.
struct FigureDef {
  Figure figure;
  std::vector<std::string> aliases;  // the runner's table label, the result's summary key
  std::function<double(const Summary&)> value;
  std::function<const std::map<std::string, std::uint64_t>*(const Summary&)> by_rule;
};

double secs(std::int64_t ns) { return static_cast<double>(ns) / 1e9; }

// The comparison table's rows (visualizer/app/view_compare.cpp) under their
// names there; aliases: the runner's table (scenarios/runner/table.cpp) and
// the result's summary keys (docs/result-format.md), as a JSON pointer and dotted.
std::vector<FigureDef> make_figures() {
  auto S = [](std::string name, std::vector<std::string> aliases, bool seconds, std::string help,
              std::function<double(const Summary&)> v,
              std::function<const std::map<std::string, std::uint64_t>*(const Summary&)> by_rule = nullptr) {
    std::vector<std::string> all = aliases;
    for (const std::string& a : aliases)
      if (!a.empty() && a[0] == '/') {
        std::string dotted = a.substr(1);
        std::replace(dotted.begin(), dotted.end(), '/', '.');
        all.push_back(dotted);
      }
    return FigureDef{Figure{std::move(name), FigureKind::summary, seconds, std::move(help)}, all, std::move(v),
                     std::move(by_rule)};
  };
  std::vector<FigureDef> f = {
      S("submitted", {"tasks submitted", "/tasks/submitted"}, false, "tasks handed to the pool",
        [](const Summary& s) { return static_cast<double>(s.submitted); }),
      S("completed", {"/tasks/completed"}, false, "tasks that ran to the end",
        [](const Summary& s) { return static_cast<double>(s.completed); }),
      S("threw", {"/tasks/threw"}, false, "tasks that ended with an exception",
        [](const Summary& s) { return static_cast<double>(s.threw); }),
      S("refused", {"/tasks/refused"}, false, "tasks the design said no to (with `rule`: for that reason)",
        [](const Summary& s) { return static_cast<double>(s.refused); },
        [](const Summary& s) { return &s.refused_by_reason; }),
      S("dropped", {"dropped at shutdown", "/tasks/dropped"}, false,
        "accepted tasks never run (with `rule`: by that rule)",
        [](const Summary& s) { return static_cast<double>(s.dropped); },
        [](const Summary& s) { return &s.dropped_by_rule; }),
      S("in flight", {"/tasks/in_flight"}, false, "submitted, not yet ended",
        [](const Summary& s) { return static_cast<double>(s.in_flight()); }),
      S("throughput", {"throughput /s", "/throughput_per_s"}, false, "tasks ended per second of scenario time",
        [](const Summary& s) { return s.throughput; }),
      S("queue wait p50", {"/queue_wait_s/p50"}, true, "submitted -> started, median (s)",
        [](const Summary& s) { return secs(s.queue_wait.p50); }),
      S("queue wait p99", {"/queue_wait_s/p99"}, true, "submitted -> started, 99th percentile (s)",
        [](const Summary& s) { return secs(s.queue_wait.p99); }),
      S("end to end p50", {"end-to-end p50", "/end_to_end_s/p50"}, true, "submitted -> ended, median (s)",
        [](const Summary& s) { return secs(s.end_to_end.p50); }),
      S("end to end p99", {"end-to-end p99", "/end_to_end_s/p99"}, true, "submitted -> ended, 99th percentile (s)",
        [](const Summary& s) { return secs(s.end_to_end.p99); }),
      S("end to end max", {"end-to-end max", "/end_to_end_s/max"}, true, "submitted -> ended, the longest (s)",
        [](const Summary& s) { return secs(s.end_to_end.max); }),
      S("workers final", {"/workers/final"}, false, "workers alive when the workload ended",
        [](const Summary& s) { return static_cast<double>(s.final_workers); }),
      S("workers peak", {"/workers/peak"}, false, "most workers alive at once",
        [](const Summary& s) { return static_cast<double>(s.peak_workers); }),
      S("workers mean", {"/workers/mean"}, false, "workers alive, averaged over time",
        [](const Summary& s) { return s.mean_workers; }),
      S("spawned", {"/workers/spawned"}, false, "workers started (with `rule`: by that rule)",
        [](const Summary& s) { return static_cast<double>(s.workers_spawned); },
        [](const Summary& s) { return &s.spawned_by_rule; }),
      S("reaped", {"/workers/reaped"}, false, "workers reaped (with `rule`: by that mechanism)",
        [](const Summary& s) { return static_cast<double>(s.workers_reaped); },
        [](const Summary& s) { return &s.reaped_by_rule; }),
      S("exited", {"/workers/exited"}, false, "worker threads that ended (with `rule`: for that reason)",
        [](const Summary& s) { return static_cast<double>(s.workers_exited); },
        [](const Summary& s) { return &s.exited_by_rule; }),
      S("utilisation", {"/utilisation"}, false, "the share (0 to 1) of its workers' time spent running tasks",
        [](const Summary& s) { return s.utilisation; }),
      S("peak busy", {"/busy/peak"}, false, "most workers running tasks at once",
        [](const Summary& s) { return static_cast<double>(s.peak_busy); }),
      S("peak queued", {"queue peak", "/peak_queued"}, false, "most tasks waiting at once",
        [](const Summary& s) { return static_cast<double>(s.peak_queued); }),
      S("peak blocked", {"blocked submitters peak", "/peak_blocked"}, false,
        "most submitters blocked inside submit at once", [](const Summary& s) { return static_cast<double>(s.peak_blocked); }),
      S("blocked time total", {"/blocked_total_s"}, true, "submitters' time blocked inside submit, summed (s)",
        [](const Summary& s) { return secs(s.blocked_total); }),
      S("blocked time p99", {"/blocked_s/p99"}, true, "one wait inside submit, 99th percentile (s)",
        [](const Summary& s) { return secs(s.blocked.p99); }),
      S("ran by caller", {"/ran_by_caller"}, false, "tasks run on the submitting thread (CallerRuns)",
        [](const Summary& s) { return static_cast<double>(s.ran_by_caller); }),
  };
  auto C = [](std::string name, std::vector<std::string> aliases, std::string help) {
    return FigureDef{Figure{std::move(name), FigureKind::series, false, std::move(help)}, std::move(aliases), nullptr,
                     nullptr};
  };
  f.push_back(C("workers", {"workers now"}, "workers alive at `at`"));
  f.push_back(C("busy", {}, "workers running a task at `at`"));
  f.push_back(C("queued", {}, "tasks waiting at `at`"));
  f.push_back(C("blocked", {}, "submitters blocked inside submit at `at`"));
  f.push_back(FigureDef{Figure{"first event", FigureKind::first_event, true,
                               "the time (s) of the pool's first event of `kind` (and `rule`)"},
                        {}, nullptr, nullptr});
  f.push_back(FigureDef{Figure{"events", FigureKind::events, false,
                               "how many events of `kind` (and `rule`) the pool traced, up to `at` if given"},
                        {}, nullptr, nullptr});
  return f;
}

const std::vector<FigureDef>& defs() {
  static const std::vector<FigureDef> d = make_figures();
  return d;
}

const FigureDef& def_of(const Figure* f) {
  for (const FigureDef& d : defs())
    if (&d.figure == f) return d;
  return defs().front();  // unreachable: every Figure* comes from defs()
}

const metrics::PoolMetrics* pool_of(const metrics::RunMetrics& m, const std::string& name) {
  for (const metrics::PoolMetrics& p : m.pools())
    if (p.info().name == name) return &p;
  return nullptr;
}

std::string number_text(double v, bool seconds) {
  if (seconds) return number_text(v, false) + " s";
  char buf[40];
  if (v == std::floor(v) && std::abs(v) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  // Three decimals at most, trailing zeros dropped: 0.25, 1.5, 20 (for 20.000056).
  std::snprintf(buf, sizeof buf, "%.3f", v);
  std::string out = buf;
  while (out.back() == '0') out.pop_back();
  if (out.back() == '.') out.pop_back();
  return out == "-0" ? "0" : out;
}

// The run's metrics up to scenario time t (events after it left out).
metrics::RunMetrics metrics_until(const metrics::RunMetrics& m, std::int64_t t) {
  metrics::RunMetrics cut;
  std::vector<PoolInfo> infos;
  for (const metrics::PoolMetrics& p : m.pools()) infos.push_back(p.info());
  cut.set_pools(infos);
  std::vector<Event> kept;
  for (const Event& e : m.events())
    if (e.time <= t) kept.push_back(e);
  cut.add(kept);
  return cut;
}

bool compare(double a, const std::string& op, double b) {
  if (op == "<") return a < b;
  if (op == "<=") return a <= b;
  if (op == ">") return a > b;
  if (op == ">=") return a >= b;
  if (op == "==") return a == b;
  return a != b;
}

}  // namespace

std::string format_value(double v, bool seconds) { return number_text(v, seconds); }

const std::vector<Figure>& figures() {
  static const std::vector<Figure> out = [] {
    std::vector<Figure> v;
    for (const FigureDef& d : defs()) v.push_back(d.figure);
    return v;
  }();
  return out;
}

const Figure* find_figure(std::string_view name) {
  for (const FigureDef& d : defs()) {
    if (d.figure.name == name) return &d.figure;
    for (const std::string& a : d.aliases)
      if (a == name) return &d.figure;
  }
  return nullptr;
}

std::vector<std::string> figure_names() {
  std::vector<std::string> out;
  for (const FigureDef& d : defs()) {
    out.push_back(d.figure.name);
    out.insert(out.end(), d.aliases.begin(), d.aliases.end());
  }
  return out;
}

std::string_view to_string(AnswerKind k) {
  return k == AnswerKind::number ? "number" : k == AnswerKind::pool ? "pool" : "order";
}

std::string Query::describe() const {
  std::string out = figure ? figure->name : "?";
  if (!kind.empty()) out = (figure && figure->kind == FigureKind::first_event ? "first " : "events ") + kind;
  if (!rule.empty()) out += " (rule " + rule + ")";
  if (!pool.empty()) out += " of " + pool;
  if (at) out += " at " + format_duration(*at);
  else if (figure && figure->kind == FigureKind::first_event) out += " (time, s)";
  else if (figure && figure->kind == FigureKind::events) out += " in the whole run";
  else out += " at the end";
  return out;
}

std::string Condition::describe() const {
  return left.describe() + " " + op + " " + (right_query ? right_query->describe() : number_text(right_value, false));
}

RunData run_data(const metrics::RunMetrics& m, const Scenario& s, std::int64_t reached) {
  return RunData{&m, reached, s.duration().count()};
}

Value evaluate(const Query& q, const RunData& run) {
  if (!run.metrics || !q.figure) return {std::nullopt, "no run"};
  const std::int64_t at = q.at ? q.at->count() : -1;
  if (!run.finished() && (at < 0 || run.reached < at))
    return {std::nullopt, "the run has not reached " + (at < 0 ? std::string("its end") : format_duration(*q.at))};
  const metrics::RunMetrics& m = *run.metrics;
  const metrics::PoolMetrics* p = pool_of(m, q.pool);
  if (!p) return {std::nullopt, "no pool '" + q.pool + "' in this run"};
  const FigureDef& d = def_of(q.figure);
  switch (q.figure->kind) {
    case FigureKind::summary: {
      std::optional<metrics::RunMetrics> cut;
      const metrics::PoolMetrics* from = p;
      std::int64_t end = run.workload_end;
      if (at >= 0) {
        if (m.events().empty() && m.event_count() > 0)
          return {std::nullopt, "a figure at a time needs the run's events (RunOptions::keep_events)"};
        cut = metrics_until(m, at);
        from = pool_of(*cut, q.pool);
        end = end < 0 ? at : std::min(end, at);
      }
      const Summary s = from->summary(end);
      if (!q.rule.empty()) {
        if (!d.by_rule) return {std::nullopt, "\"" + q.figure->name + "\" has no count by rule"};
        const auto* by = d.by_rule(s);
        auto it = by->find(q.rule);
        return {it == by->end() ? 0.0 : static_cast<double>(it->second), ""};
      }
      return {d.value(s), ""};
    }
    case FigureKind::series: {
      const Counters c = p->counters_at(at);
      const std::string& n = q.figure->name;
      return {static_cast<double>(n == "workers" ? c.workers : n == "busy" ? c.busy : n == "queued" ? c.queued : c.blocked),
              ""};
    }
    case FigureKind::first_event:
    case FigureKind::events: {
      const std::optional<EventKind> parsed = parse_kind(q.kind);
      if (!parsed) return {std::nullopt, "no event kind '" + q.kind + "'"};
      const EventKind kind = *parsed;
      const bool first = q.figure->kind == FigureKind::first_event;
      std::uint64_t count = 0;
      std::int64_t when = -1;
      auto see = [&](std::int64_t t, Label rule) {
        if (at >= 0 && t > at) return;
        if (!q.rule.empty() && label_code(rule) != q.rule) return;
        ++count;
        if (when < 0 || t < when) when = t;
      };
      if (metrics::is_marker(kind)) {
        for (const metrics::Marker& mk : p->markers())
          if (mk.kind == kind) see(mk.t, mk.rule);
      } else {
        if (m.events().empty() && m.event_count() > 0)
          return {std::nullopt, "events of kind " + q.kind + " need the run's events (RunOptions::keep_events)"};
        for (const Event& e : m.events())
          if (e.pool == p->info().id && e.kind == kind) see(e.time, e.rule);
      }
      if (!first) return {static_cast<double>(count), ""};
      if (when < 0)
        return {std::nullopt, "no " + q.kind + " event" + (q.rule.empty() ? "" : " of rule " + q.rule) + " in " + q.pool +
                                  (at >= 0 ? " up to " + format_duration(*q.at) : "")};
      return {secs(when), ""};
    }
  }
  return {std::nullopt, "unknown figure"};
}

std::string Answer::text() const {
  if (!known) return "(not known: " + why_not + ")";
  if (pools.empty()) return number_text(number, false) + (seconds ? " s" : "");
  std::string out;
  for (const auto& p : pools) out += (out.empty() ? "" : ", ") + p;
  return out;
}

Answer compute_answer(const Predict& p, const RunData& run) {
  Answer a;
  if (!p.query.figure) {
    a.why_not = "no figure";
    return a;
  }
  if (p.answer == AnswerKind::number) {
    Value v = evaluate(p.query, run);
    if (!v.number) {
      a.why_not = v.why_not;
      return a;
    }
    a.known = true;
    a.number = *v.number;
    a.seconds = p.query.figure->seconds;
    return a;
  }
  a.seconds = p.query.figure->seconds;
  for (const std::string& pool : p.choices) {
    Query q = p.query;
    q.pool = pool;
    Value v = evaluate(q, run);
    if (!v.number) {
      a.why_not = pool + ": " + v.why_not;
      return a;
    }
    a.figures.emplace_back(pool, *v.number);
  }
  auto sorted = a.figures;
  std::stable_sort(sorted.begin(), sorted.end(), [&](const auto& x, const auto& y) {
    return p.highest ? x.second > y.second : x.second < y.second;
  });
  // A tie leaves no single right answer: the check refuses such a question.
  const std::size_t need = p.answer == AnswerKind::pool ? 1 : sorted.size() - 1;
  for (std::size_t i = 0; i < need; ++i)
    if (sorted[i].second == sorted[i + 1].second) {
      a.why_not = "a tie: " + sorted[i].first + " and " + sorted[i + 1].first + " both have " +
                  number_text(sorted[i].second, p.query.figure->seconds);
      return a;
    }
  a.known = true;
  if (p.answer == AnswerKind::pool) a.pools = {sorted.front().first};
  else
    for (const auto& s : sorted) a.pools.push_back(s.first);
  return a;
}

StudentAnswer parse_student_answer(const Predict& p, std::string_view typed) {
  std::string s(typed);
  auto trim = [](std::string x) {
    const auto b = x.find_first_not_of(" \t\r\n"), e = x.find_last_not_of(" \t\r\n");
    return b == std::string::npos ? std::string() : x.substr(b, e - b + 1);
  };
  s = trim(s);
  if (p.answer == AnswerKind::number) {
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(v))
      throw ConfigError("answer", "expected a number, got \"" + s + "\"");
    return v;
  }
  std::vector<std::string> names;
  std::string cur;
  for (char c : s + ",") {
    if (c == ',' || c == ' ' || c == '>') {
      if (!cur.empty()) names.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  for (const std::string& n : names)
    if (std::find(p.choices.begin(), p.choices.end(), n) == p.choices.end()) {
      std::string list;
      for (const auto& c : p.choices) list += (list.empty() ? "" : ", ") + c;
      throw ConfigError("answer", "expected one of the choices (" + list + "), got \"" + n + "\"");
    }
  if (p.answer == AnswerKind::pool) {
    if (names.size() != 1) throw ConfigError("answer", "expected one pool, got \"" + s + "\"");
    return names.front();
  }
  if (names.size() != p.choices.size())
    throw ConfigError("answer", "expected every choice once, in order, got \"" + s + "\"");
  return names;
}

Grade grade(const Predict& p, const StudentAnswer& student, const Answer& run) {
  Grade g;
  g.run = run.text();
  if (const double* v = std::get_if<double>(&student)) {
    g.student = number_text(*v, false);
    if (!run.known || p.answer != AnswerKind::number) {
      g.why = "the run's answer is not known";
      return g;
    }
    const double off = std::abs(*v - run.number);
    const double allowed = std::max(p.tolerance, std::abs(run.number) * p.tolerance_percent / 100);
    g.within = off <= allowed + 1e-9 * std::max(1.0, std::abs(run.number));
    g.why = off == 0 ? "exactly" : "off by " + number_text(off, false) + ", tolerance " + number_text(allowed, false);
    return g;
  }
  std::vector<std::string> names;
  if (const auto* one = std::get_if<std::string>(&student)) names = {*one};
  else names = std::get<std::vector<std::string>>(student);
  for (const auto& n : names) g.student += (g.student.empty() ? "" : ", ") + n;
  if (!run.known) {
    g.why = "the run's answer is not known";
    return g;
  }
  g.within = names == run.pools;
  g.why = g.within ? "the same" : p.answer == AnswerKind::pool ? "another pool" : "another order";
  return g;
}

TryOutcome check_try(const Try& t, const RunData& run) {
  TryOutcome o;
  const Condition& c = t.holds;
  if (!c.left.figure || (c.right_query && !c.right_query->figure)) {
    o.why = "no figure";
    return o;
  }
  Value l = evaluate(c.left, run);
  if (!l.number) {
    o.why = c.left.describe() + ": " + l.why_not;
    return o;
  }
  double r = c.right_value;
  std::string right_text = number_text(r, c.left.figure->seconds);
  if (c.right_query) {
    Value rv = evaluate(*c.right_query, run);
    if (!rv.number) {
      o.why = c.right_query->describe() + ": " + rv.why_not;
      return o;
    }
    r = *rv.number;
    right_text = c.right_query->describe() + " (" + number_text(r, c.right_query->figure->seconds) + ")";
  }
  o.known = true;
  o.holds = compare(*l.number, c.op, r);
  o.why = c.left.describe() + " is " + number_text(*l.number, c.left.figure->seconds) + (o.holds ? ", " : ", not ") +
          c.op + " " + right_text;
  return o;
}

}  // namespace poolscope::scenario::lesson
