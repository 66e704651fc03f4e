#include "scenarios/engine/findings.h"

#include <cmath>

#include "scenarios/engine/findings/rules.h"

namespace poolscope::findings {

const std::vector<Rule>& rules() {
  static const std::vector<Rule> all = {
      {"stall", "a stall or deadlock the watchdog caught, with the tasks that held the workers", stall},
      {"idle-while-queued", "tasks waiting in a queue while workers sat idle", idle_while_queued},
      {"stuck-at-core", "a core/max pool that never grew past its core because its queue never filled", stuck_at_core},
      {"spawn-reap-churn", "workers started soon after others were let go", spawn_reap_churn},
      {"never-expire", "idle workers above the pool's floor that were never let go", never_expire},
      {"refused-below-max", "refusals while the pool was below its maximum or had a worker idle", refused_below_max},
      {"blocked-submitters", "submitters blocked inside submit for longer than a task takes", blocked_submitters},
      {"head-of-line", "short tasks waiting behind a few long ones that held the workers", head_of_line},
  };
  return all;
}

std::vector<Finding> find(const scenario::RunOutcome& outcome, const metrics::RunMetrics& metrics) {
  std::vector<Finding> out;
  for (const scenario::PoolOutcome& p : outcome.pools) {
    const metrics::PoolMetrics* m = metrics.pool(p.trace_id);
    if (!m) continue;  // never ran
    const metrics::Summary summary = m->summary(outcome.workload_end.count());
    const PoolView view{p, *m, summary, outcome.workload_end.count()};
    for (const Rule& r : rules()) r.run(view, out);
  }
  return out;
}

json findings_json(const std::vector<Finding>& findings) {
  json a = json::array();
  for (const Finding& f : findings) {
    json evidence = json::object();
    for (const auto& [k, v] : f.evidence) evidence[k] = v;
    a.push_back({{"rule", f.rule},
                 {"pool", f.pool},
                 {"from_s", to_s(f.from)},
                 {"to_s", to_s(f.to)},
                 {"summary", f.summary},
                 {"why", f.why},
                 {"parameter", f.parameter},
                 {"evidence", evidence}});
  }
  return a;
}

std::vector<Finding> findings_from_json(const json& array) {
  std::vector<Finding> out;
  if (!array.is_array()) return out;
  auto ns = [](const json& s) { return static_cast<std::int64_t>(std::llround(s.get<double>() * 1e9)); };
  for (const json& j : array) {
    if (!j.is_object() || !j.contains("from_s") || !j["from_s"].is_number() || !j.contains("to_s") ||
        !j["to_s"].is_number())
      continue;
    Finding f;
    f.rule = j.value("rule", "");
    f.pool = j.value("pool", "");
    f.from = ns(j["from_s"]);
    f.to = std::max(f.from, ns(j["to_s"]));
    f.summary = j.value("summary", "");
    f.why = j.value("why", "");
    f.parameter = j.value("parameter", "");
    if (j.contains("evidence") && j["evidence"].is_object())
      for (const auto& [k, v] : j["evidence"].items())
        if (v.is_number()) f.evidence.emplace_back(k, v.get<double>());
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace poolscope::findings
