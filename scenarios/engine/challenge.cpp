// Challenges (challenge.h). Index:
//   goals            what each goal kind means, and goal_reached
//   parse, load      the file format, poolscope-challenge/1
//   play             a challenge's run, replaying a schedule
#include "scenarios/engine/challenge.h"

#include <algorithm>
#include <filesystem>

#include "pools/core/registry.h"
#include "pools/core/sim/decision.h"
#include "scenarios/engine/data_dir.h"
#include "scenarios/engine/json_reader.h"

namespace poolscope::scenario {

// --- goals ---------------------------------------------------------------------

namespace {

struct GoalName {
  Goal::Kind kind;
  const char* name;
  bool needs_limit;
};
constexpr GoalName kGoals[] = {
    {Goal::Kind::task_lost, "task-lost", false},
    {Goal::Kind::task_run_twice, "task-run-twice", false},
    {Goal::Kind::workers_over_limit, "workers-over-limit", true},
    {Goal::Kind::queue_over_bound, "queue-over-bound", true},
    {Goal::Kind::worker_counted_twice, "worker-counted-twice", true},
    {Goal::Kind::submitter_never_woken, "submitter-never-woken", false},
    {Goal::Kind::below_core, "below-core", true},
    {Goal::Kind::deadlock, "deadlock", false},
    {Goal::Kind::reaps_at_once, "reaps-at-once", true},
};

std::string n(std::uint64_t v) { return std::to_string(v); }

}  // namespace

std::string_view to_string(Goal::Kind k) {
  for (const GoalName& g : kGoals)
    if (g.kind == k) return g.name;
  return "?";
}

std::string Goal::describe() const {
  switch (kind) {
    case Kind::task_lost: return "a task accepted and never run";
    case Kind::task_run_twice: return "a task run twice";
    case Kind::workers_over_limit: return "more than " + n(limit) + " workers alive at once";
    case Kind::queue_over_bound: return "more than " + n(limit) + " tasks queued at once";
    case Kind::worker_counted_twice: return "a worker counted out twice: more than " + n(limit) + " workers started";
    case Kind::submitter_never_woken: return "a submitter blocked for ever";
    case Kind::below_core: return "fewer than " + n(limit) + " workers (the core) while the run goes on";
    case Kind::deadlock: return "a deadlock: every thread waits and nothing is due";
    case Kind::reaps_at_once: return "more than " + n(limit) + " workers gone at one instant";
  }
  return "?";
}

std::optional<std::string> goal_reached(const Challenge& c, const metrics::RunMetrics& m, const RunOutcome* ended) {
  const Goal& g = c.goal;
  const std::int64_t workload_end = c.scenario.duration().count();
  for (const metrics::PoolMetrics& p : m.pools()) {
    const metrics::Summary& t = p.totals();
    const std::uint64_t settled = t.completed + t.threw + t.refused + t.dropped;
    switch (g.kind) {
      case Goal::Kind::task_run_twice:
        if (settled > t.submitted)
          return n(settled) + " tasks ended or were refused, of " + n(t.submitted) + " submitted: one ran twice";
        break;
      case Goal::Kind::workers_over_limit:
        if (t.peak_workers > g.limit) return n(t.peak_workers) + " workers alive at once; the limit is " + n(g.limit);
        break;
      case Goal::Kind::queue_over_bound:
        if (t.peak_queued > g.limit) return n(t.peak_queued) + " tasks queued at once; the bound is " + n(g.limit);
        break;
      case Goal::Kind::worker_counted_twice:
        if (t.workers_spawned > g.limit)
          return n(t.workers_spawned) + " workers started where " + n(g.limit) +
                 " were enough: the pool counted one out twice and made up for it";
        break;
      case Goal::Kind::below_core: {
        bool reached = false;
        for (const metrics::CounterPoint& pt : p.series()) {
          if (pt.t >= workload_end) break;  // the shutdown lowers it, rightly
          if (pt.c.workers >= g.limit) reached = true;
          else if (reached)
            return n(pt.c.workers) + " workers at " + std::to_string(static_cast<double>(pt.t) / 1e9) +
                   " s; the core is " + n(g.limit);
        }
        break;
      }
      case Goal::Kind::reaps_at_once: {
        // The workers before each instant, against the fewest at it.
        std::uint32_t before = 0, low = 0, last = 0;
        std::int64_t at = -1;
        for (const metrics::CounterPoint& pt : p.series()) {
          if (pt.t >= workload_end) break;
          if (pt.t != at) {
            before = at < 0 ? pt.c.workers : last;
            low = pt.c.workers;
            at = pt.t;
          }
          low = std::min(low, pt.c.workers);
          last = pt.c.workers;
          if (before > low && before - low > g.limit)
            return n(before - low) + " workers gone at " + std::to_string(static_cast<double>(pt.t) / 1e9) + " s";
        }
        break;
      }
      default: break;
    }
  }
  if (!ended) return std::nullopt;
  const std::optional<std::string>& failure = ended->simulation ? ended->simulation->failure : std::nullopt;
  for (const PoolOutcome& p : ended->pools) {
    const auto* pm = m.pool(p.trace_id);
    const std::uint64_t in_flight = pm ? pm->totals().in_flight() : 0;
    switch (g.kind) {
      case Goal::Kind::task_lost:
        if (p.stall && outstanding(p.stall->accounting) > 0 && p.stall->state.blocked == 0)
          return "the pool stalled with " + n(outstanding(p.stall->accounting)) + " tasks outstanding, " +
                 n(p.stall->state.queued) + " queued, " + n(p.stall->state.workers - p.stall->state.busy) +
                 " workers idle: a task was lost";
        if (!p.stall && in_flight > 0) return n(in_flight) + " tasks accepted never ran";
        break;
      case Goal::Kind::submitter_never_woken:
        if (p.stall && p.stall->state.blocked > 0)
          return "the pool stalled with " + n(p.stall->state.blocked) + " submitters blocked: never woken";
        break;
      case Goal::Kind::deadlock:
        if (p.stall) return "the pool stalled: no task started or ended, and nothing could change that";
        break;
      default: break;
    }
  }
  if (g.kind == Goal::Kind::deadlock && failure && failure->find("deadlock") != std::string::npos) return *failure;
  if (g.kind == Goal::Kind::submitter_never_woken && failure && failure->find("deadlock") != std::string::npos)
    return *failure;
  return std::nullopt;
}

// --- parse, load ------------------------------------------------------------------

namespace {

Goal parse_goal(const json& j, const std::string& path) {
  ObjectReader r(j, path);
  std::vector<std::string> names;
  for (const GoalName& g : kGoals) names.push_back(g.name);
  const std::string kind = r.choice("kind", names);
  Goal goal;
  for (const GoalName& g : kGoals)
    if (kind == g.name) {
      goal.kind = g.kind;
      if (g.needs_limit)
        goal.limit = static_cast<std::uint32_t>(r.integer("limit", std::nullopt, 0, 1 << 20));
    }
  r.done();
  return goal;
}

std::filesystem::path challenges_dir() { return data_path("scenarios/challenges"); }

}  // namespace

std::vector<std::string> shipped_challenges() {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(challenges_dir(), ec))
    if (e.path().extension() == ".json") out.push_back(e.path().stem().string());
  std::sort(out.begin(), out.end());
  return out;
}

Challenge parse_challenge(const json& j, const std::string& file) {
  Challenge c;
  c.file = file;
  try {
    ObjectReader r(j, "");
    r.choice("format", {"poolscope-challenge/1"});
    c.name = r.string("name");
    c.title = r.string("title");
    c.lab = r.has("lab") ? r.choice("lab", {"01", "02", "03", "04"}) : "";
    c.pool = r.string("pool");
    const json& sj = r.required("scenario");
    try {
      c.scenario = parse_scenario(sj, file, std::filesystem::path(file).parent_path());
    } catch (const ConfigError& e) {
      throw e.prefixed("/scenario");
    }
    if (c.scenario.pools.size() != 1 || c.scenario.pools[0].design != c.pool)
      throw ConfigError("/scenario/pools", "expected one pool, of design '" + c.pool +
                                               "' (the challenge's \"pool\"): a challenge plays one pool");
    if (!Registry::global().find(c.pool))
      throw ConfigError("/pool", "'" + c.pool + "' is not a registered design or challenge pool in this build");
    c.goal = parse_goal(r.required("goal"), r.path_of("goal"));
    c.hint = r.string("hint");
    c.explanation = r.string("explanation");
    c.correct = r.boolean("correct", false);
    if (const json* s = r.get("solution")) c.solution = parse_schedule(*s, r.path_of("solution"), true);
    if (c.correct && c.solution)
      throw ConfigError("/solution", "a challenge on a correct pool (\"correct\": true) has no winning schedule");
    r.done();
  } catch (const ScenarioError&) {
    throw;
  } catch (const ConfigError& e) {
    throw ScenarioError(file, e);
  }
  return c;
}

Challenge load_challenge(const std::string& name_or_file) {
  std::filesystem::path file = name_or_file;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) {
    std::filesystem::path shipped = challenges_dir() / (name_or_file + ".json");
    if (name_or_file.find('/') == std::string::npos && std::filesystem::is_regular_file(shipped, ec)) {
      file = shipped;
    } else {
      std::string known;
      for (const std::string& s : shipped_challenges()) known += (known.empty() ? "" : ", ") + s;
      throw ConfigError(name_or_file, "no such file, and no shipped challenge of that name (shipped: " + known + ")");
    }
  }
  return parse_challenge(read_scenario_json(file), file.string());
}

// --- play -------------------------------------------------------------------------

sim::Settings challenge_settings(const Challenge& c, std::optional<std::uint64_t> seed,
                                 std::optional<std::string> policy) {
  sim::Settings s = simulation_settings(c.scenario);
  if (seed) s.seed = *seed;
  if (policy) s.policy = sim::parse_policy(*policy);
  return s;
}

RunResult play_challenge(const Challenge& c, const ScheduleSpec& schedule, std::string* replay_error) {
  sim::Stepper replay(schedule.picks, sim::Stepper::After::policy);
  RunOptions o;
  o.simulation = challenge_settings(c, schedule.seed, schedule.policy);
  o.chooser = &replay;
  RunResult r = run_scenario(c.scenario, o);
  if (replay_error) *replay_error = replay.error();
  return r;
}

}  // namespace poolscope::scenario
