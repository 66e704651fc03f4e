#include "scenarios/engine/result_json.h"

#include <sys/utsname.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <thread>

#include "scenarios/engine/findings.h"
#include "scenarios/engine/theory.h"

namespace poolscope::scenario {

namespace {

double seconds(std::int64_t ns) { return static_cast<double>(ns) / 1e9; }

json percentiles_json(const metrics::Percentiles& p) {
  return {{"count", p.count},      {"mean", p.mean / 1e9},  {"p50", seconds(p.p50)},
          {"p95", seconds(p.p95)}, {"p99", seconds(p.p99)}, {"max", seconds(p.max)}};
}

json counters_json(const Counters& c) {
  return {{"workers", c.workers}, {"busy", c.busy}, {"idle", c.idle()}, {"queued", c.queued}, {"blocked", c.blocked}};
}

json accounting_json(const Accounting& a) {
  return {{"submitted", a.submitted}, {"completed", a.completed}, {"threw", a.threw},
          {"refused", a.refused},     {"dropped", a.dropped},     {"in_flight", outstanding(a)}};
}

}  // namespace

std::string_view status_name(RunStatus s) {
  switch (s) {
    case RunStatus::ok:
      return "ok";
    case RunStatus::stalled:
      return "stalled";
    case RunStatus::invariant_breach:
      return "invariant-breach";
    case RunStatus::stopped:
      return "stopped";
    case RunStatus::trace_incomplete:
      return "trace-incomplete";
    case RunStatus::thread_refused:
      return "thread-refused";
  }
  return "?";
}

std::string invariant_problem(const PoolOutcome& pool, const metrics::Summary& s, bool trace_complete) {
  const Accounting& a = pool.accounting;
  if (!a.balanced())
    return "pool accounting: submitted " + std::to_string(a.submitted) +
           " != completed + threw + refused + dropped = " + std::to_string(a.settled());
  if (!trace_complete) return "";  // the trace lost events: only the pool's own count can be checked
  if (!s.invariant_holds())
    return "trace: submitted " + std::to_string(s.submitted) + " != completed + threw + refused + dropped = " +
           std::to_string(s.completed + s.threw + s.refused + s.dropped);
  if (s.submitted != a.submitted || s.completed != a.completed || s.threw != a.threw || s.refused != a.refused ||
      s.dropped != a.dropped)
    return "the trace's counts differ from the pool's own accounting";
  return "";
}

RunStatus run_status(const RunOutcome& outcome, const metrics::RunMetrics& metrics) {
  if (outcome.stalled()) return RunStatus::stalled;
  bool complete = outcome.events_dropped == 0;
  for (const PoolOutcome& p : outcome.pools) {
    const metrics::PoolMetrics* pm = metrics.pool(p.trace_id);
    if (pm && !invariant_problem(p, pm->totals(), complete).empty()) return RunStatus::invariant_breach;
  }
  if (outcome.thread_refused) return RunStatus::thread_refused;
  if (!complete) return RunStatus::trace_incomplete;
  return outcome.stopped ? RunStatus::stopped : RunStatus::ok;
}

namespace {

std::string compiler_name() {
#if defined(__clang__)
  std::string v = "clang " __clang_version__;  // "clang 14.0.6 " (some builds append a space or vendor text)
#elif defined(__GNUC__)
  std::string v = "g++ " __VERSION__;
#else
  std::string v = "unknown compiler";
#endif
  while (!v.empty() && v.back() == ' ') v.pop_back();
  return v;
}

}  // namespace

json environment_json() {
  utsname u{};
  uname(&u);
  std::time_t now = std::time(nullptr);
  char when[32];
  std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
#ifdef NDEBUG
  const char* build = "optimized";
#else
  const char* build = "debug";
#endif
  return {{"poolscope_version", POOLSCOPE_VERSION},
          {"cpus", std::thread::hardware_concurrency()},
          {"os", std::string(u.sysname) + " " + u.release},
          {"machine", u.machine},
          {"compiler", compiler_name()},
          {"build_type", POOLSCOPE_BUILD_TYPE},
          {"assertions", build},
          {"date", when}};
}

json summary_json(const metrics::Summary& s, const PoolOutcome& pool, bool trace_complete) {
  json j;
  j["tasks"] = {{"submitted", s.submitted}, {"completed", s.completed}, {"threw", s.threw},
                {"refused", s.refused},     {"dropped", s.dropped},     {"in_flight", s.in_flight()}};
  j["refused_by_reason"] = s.refused_by_reason;
  j["dropped_by_rule"] = s.dropped_by_rule;
  j["throughput_per_s"] = s.throughput;
  j["queue_wait_s"] = percentiles_json(s.queue_wait);
  j["service_s"] = percentiles_json(s.service);
  j["end_to_end_s"] = percentiles_json(s.end_to_end);
  j["blocked_s"] = percentiles_json(s.blocked);
  j["blocked_total_s"] = static_cast<double>(s.blocked_total) / 1e9;
  j["workers"] = {{"peak", s.peak_workers},
                  {"final", s.final_workers},
                  {"mean", s.mean_workers},
                  {"spawned", s.workers_spawned},
                  {"reaped", s.workers_reaped},
                  {"exited", s.workers_exited},
                  {"spawned_by_rule", s.spawned_by_rule},
                  {"reaped_by_rule", s.reaped_by_rule},
                  {"exited_by_rule", s.exited_by_rule}};
  j["busy"] = {{"peak", s.peak_busy}, {"mean", s.mean_busy}};
  j["utilisation"] = s.utilisation;
  j["peak_queued"] = s.peak_queued;
  j["peak_blocked"] = s.peak_blocked;
  j["submission_lateness_s"] = percentiles_json(metrics::percentiles_of(pool.lateness));
  j["children_refused"] = pool.children_refused;
  j["ran_by_caller"] = s.ran_by_caller;
  j["process"] = pool.cpu_seconds ? json{{"cpu_s", *pool.cpu_seconds},
                                         {"peak_rss_bytes", *pool.peak_rss_bytes},
                                         {"threads_created", *pool.threads_created}}
                                  : json(nullptr);
  std::string problem = invariant_problem(pool, s, trace_complete);
  j["invariant"] = {{"holds", problem.empty()}, {"pool_accounting", accounting_json(pool.accounting)}};
  if (!problem.empty()) j["invariant"]["problem"] = problem;
  if (pool.stall) {
    j["stall"] = {{"at_s", seconds(pool.stall->at.count())},
                  {"reason", pool.stall->reason},
                  {"last_progress_s", seconds(pool.stall->last_progress.count())},
                  {"state", counters_json(pool.stall->state)},
                  {"accounting", accounting_json(pool.stall->accounting)},
                  {"shutdown_hung", pool.shutdown_hung}};
  } else {
    j["stall"] = nullptr;
  }
  return j;
}

json series_json(const metrics::PoolMetrics& pool, std::size_t points) {
  const auto& series = pool.series();
  std::int64_t end = pool.last_time();
  std::int64_t width =
      std::max<std::int64_t>(1'000'000, (end + static_cast<std::int64_t>(points) - 1) /
                                            static_cast<std::int64_t>(std::max<std::size_t>(points, 1)));
  json t = json::array(), workers = json::array(), busy = json::array(), idle = json::array(), queued = json::array(),
       blocked = json::array();
  std::size_t i = 0;
  Counters current;  // the value carried into each bucket
  for (std::int64_t start = 0; start <= end; start += width) {
    Counters peak = current;
    std::uint32_t peak_idle = current.idle();
    while (i < series.size() && series[i].t < start + width) {
      current = series[i++].c;
      peak.workers = std::max(peak.workers, current.workers);
      peak.busy = std::max(peak.busy, current.busy);
      peak.queued = std::max(peak.queued, current.queued);
      peak.blocked = std::max(peak.blocked, current.blocked);
      peak_idle = std::max(peak_idle, current.idle());
    }
    t.push_back(seconds(start));
    workers.push_back(peak.workers);
    busy.push_back(peak.busy);
    idle.push_back(peak_idle);
    queued.push_back(peak.queued);
    blocked.push_back(peak.blocked);
  }
  // Starts and reaps are counted, not peaked: a worker reaped and another
  // started within one bucket leave its peak flat, and the churn shows here.
  std::vector<std::uint64_t> spawned(t.size()), reaped(t.size());
  const auto bucket = [&](std::int64_t at) { return std::min(t.size() - 1, static_cast<std::size_t>(at / width)); };
  for (const metrics::WorkerLane& lane : pool.lanes()) {
    if (lane.spawned >= 0) ++spawned[bucket(lane.spawned)];
    if (lane.reaped >= 0) ++reaped[bucket(lane.reaped)];
  }
  return {{"bucket_s", seconds(width)}, {"t", t},           {"workers", workers}, {"busy", busy},
          {"idle", idle},               {"queued", queued}, {"blocked", blocked}, {"spawned", spawned},
          {"reaped", reaped}};
}

json event_json(const Event& e) {
  json j = {{"t", seconds(e.time)}, {"kind", kind_name(e.kind)}};
  if (e.worker) j["worker"] = e.worker;
  if (e.task) j["task"] = e.task;
  if (e.rule) j["rule"] = label_code(e.rule);
  if (e.arg) j["arg"] = e.arg;
  if (e.arg2) j["arg2"] = e.arg2;
  j["counters"] = {e.counters.workers, e.counters.busy, e.counters.queued, e.counters.blocked};
  return j;
}

void write_result(std::ostream& out, const Scenario& scenario, const RunOutcome& outcome,
                  const metrics::RunMetrics& metrics, const ResultOptions& options) {
  RunStatus status = run_status(outcome, metrics);
  bool complete = outcome.events_dropped == 0;
  json skipped = json::array();  // optional pools whose design this build lacks
  for (const PoolEntry& e : scenario.skipped)
    skipped.push_back({{"name", e.name}, {"design", e.design}, {"reason", skip_reason(e)}});
  json head = {
      {"format", kResultFormat},
      {"status", status_name(status)},
      {"scenario", scenario.to_json()},
      {"environment", environment_json()},
      {"run",
       {{"wall_s", outcome.wall_seconds},
        {"cpu_s", outcome.cpu_seconds},
        {"peak_rss_bytes", outcome.peak_rss_bytes},
        {"threads_created", outcome.threads_created},
        {"watchdog_s", seconds(outcome.watchdog.count())},
        {"events_recorded", outcome.events_recorded},
        {"events_dropped", outcome.events_dropped},
        {"stopped_early", outcome.stopped},
        {"thread_refused", outcome.thread_refused ? json(*outcome.thread_refused) : json(nullptr)}}},
      {"skipped", skipped},
  };
  {
    // Queueing theory's prediction beside each pool's measurement, per phase (docs/theory.md).
    const auto phases = theory::phase_models(scenario);
    auto comparisons = theory::predict(scenario, phases);
    theory::measure(comparisons, phases, outcome, metrics);
    head["theory"] = theory::theory_json(phases, comparisons);
  }
  // What the findings' rules name in the run, with evidence (docs/findings.md).
  head["findings"] = findings::findings_json(findings::find(outcome, metrics));
  if (const auto& sim = outcome.simulation) {
    const sim::Costs& c = sim->settings.costs;
    auto s_of = [](Nanos d) { return seconds(d.count()); };
    head["run"]["simulation"] = {
        {"seed", sim->settings.seed},
        {"policy", std::string(sim::to_string(sim->settings.policy))},
        {"cpus", sim->settings.cpus},
        {"costs", {{"name", c.name}, {"start_s", s_of(c.start)}, {"wake_s", s_of(c.wake)},
                   {"handoff_s", s_of(c.handoff)}, {"resume_s", s_of(c.resume)}, {"submit_s", s_of(c.submit)}, {"yield_s", s_of(c.yield)}, {"quantum_s", s_of(c.quantum)}}},
        {"virtual_s", s_of(sim->virtual_end)},
        {"virtual_cpu_s", s_of(sim->cpu)},
        {"steps", sim->steps},
        {"switches", sim->switches},
        {"threads", sim->threads},
        {"leaked_threads", sim->leaked}};
    if (sim->schedule) head["run"]["simulation"]["schedule"] = *sim->schedule;
  }
  if (const auto& x = options.explore)
    head["explore"] = {{"schedule", x->schedule}, {"schedules_run", x->ran}, {"problem", x->problem},
                       {"at_s", seconds(x->at.count())}, {"since_s", seconds(x->since.count())}, {"replay", x->replay}};
  // The head, then the pools one by one, so a million events never sit in one json value.
  std::string text = head.dump(2);
  text.erase(text.find_last_of('}'));
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  out << text << ",\n  \"pools\": [";
  for (std::size_t i = 0; i < outcome.pools.size(); ++i) {
    const PoolOutcome& p = outcome.pools[i];
    const metrics::PoolMetrics* pm = metrics.pool(p.trace_id);
    json pj = {{"name", p.name}, {"design", p.design}, {"config", p.config}};
    if (p.events_dropped) pj["events_dropped"] = p.events_dropped;  // only when some were
    if (pm) {
      pj["summary"] = summary_json(pm->summary(outcome.workload_end.count()), p, complete);
      pj["series"] = series_json(*pm, options.series_points);
      json rules = json::object();  // code -> the design's one-line reason, for every rule its events named
      for (Label l : pm->rules()) rules[std::string(label_code(l))] = label_text(l);
      pj["rules"] = rules;
    }
    std::string ps = pj.dump(2);
    if (!options.include_events) {
      out << (i ? "," : "") << "\n" << ps;
      continue;
    }
    ps.erase(ps.find_last_of('}'));
    while (!ps.empty() && (ps.back() == '\n' || ps.back() == ' ')) ps.pop_back();
    out << (i ? "," : "") << "\n" << ps << ",\n  \"events\": [";
    bool first = true;
    for (const Event& e : metrics.events()) {
      if (e.pool != p.trace_id) continue;
      out << (first ? "\n" : ",\n") << event_json(e).dump();
      first = false;
    }
    out << "\n  ]\n}";
  }
  out << "\n  ]\n}\n";
}

}  // namespace poolscope::scenario
