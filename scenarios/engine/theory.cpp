#include "scenarios/engine/theory.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "pools/core/registry.h"

namespace poolscope::theory {

namespace {

std::string n(std::int64_t v) { return std::to_string(v); }

Capacity fits(std::int64_t c, std::int64_t K, std::string basis, std::string departs = "") {
  return {.modelled = true, .c = c, .K = K, .basis = std::move(basis), .departs = std::move(departs)};
}

Capacity not_modelled(std::string why) { return {.modelled = false, .why_not = std::move(why)}; }

// A pool whose full state blocks the submitter: the blocked submitters are
// its queue, and the run has only so many submitter threads.
std::string blocking_note(int submitters) {
  return "a full pool blocks the submitter: at most " + std::to_string(submitters) +
         " tasks (the scenario's submitters) wait inside submit; arrivals behind them are late, which the "
         "measured wait does not count";
}

Capacity java(const Params& p) {
  const std::int64_t core = p.integer("corePoolSize"), max = p.integer("maximumPoolSize");
  const std::string& queue = p.choice("workQueue");
  const std::int64_t cap = p.integer("queueCapacity");
  const bool unbounded = queue == "PriorityBlockingQueue" || (queue == "LinkedBlockingQueue" && cap == 0);
  if (unbounded) {
    // offer() never fails, so addWorker(task, false) never runs: the pool
    // never grows past core (and with core 0 starts exactly one thread).
    if (core == 0)
      return fits(1, kUnbounded, "corePoolSize 0 with an unbounded " + queue + ": one thread, started for the first task");
    return fits(core, kUnbounded, "corePoolSize " + n(core) + ", an unbounded " + queue + " (the pool never grows past core)");
  }
  const std::string& handler = p.choice("handler");
  if (handler == "CallerRunsPolicy")
    return not_modelled("CallerRunsPolicy: a task the full pool cannot take runs on the submitter, which "
                        "stops arrivals meanwhile; neither refused nor queued");
  if (handler == "DiscardOldestPolicy")
    return not_modelled("DiscardOldestPolicy: a full pool drops its oldest waiting task to take the arrival, so "
                        "the loss falls on tasks already queued, not on arrivals");
  const std::int64_t room = queue == "SynchronousQueue" ? 0 : cap;
  std::string basis = "maximumPoolSize " + n(max) + (room ? ", " + queue + " of " + n(room) : ", " + queue);
  std::string departs;
  if (core < max)
    departs = "corePoolSize " + n(core) + " < maximumPoolSize " + n(max) +
              (room ? ": it queues before it grows past core, so tasks wait with workers to spare"
                    : ": threads above core exit after keepAliveTime and start again");
  // A SynchronousQueue hands over only to a thread already waiting: c = K = max.
  return fits(max, max + room, std::move(basis), std::move(departs));
}

Capacity ants(const Params& p, int submitters) {
  const std::int64_t size = p.integer("size");
  if (size <= 0) return fits(kUnbounded, kUnbounded, "size " + n(size) + ": unlimited, a worker for every task");
  if (p.boolean("Nonblocking")) return fits(size, size, "size " + n(size) + ", Nonblocking: no waiting room");
  const std::int64_t m = p.integer("MaxBlockingTasks");
  Capacity cap = fits(size, m > 0 ? size + m : kUnbounded,
                      "size " + n(size) + (m > 0 ? ", MaxBlockingTasks " + n(m) : ", blocking without a limit") +
                          ": blocked submitters are the queue");
  cap.blocking_submitters = submitters;
  return cap;
}

Capacity coremax(const Params& p, int submitters) {
  const std::int64_t core = p.integer("coreSize"), max = p.integer("maxSize"), cap = p.integer("taskQueueCap");
  std::string departs = core < max ? "coreSize " + n(core) + " < maxSize " + n(max) +
                                         ": it queues before it grows past core, so tasks wait with workers to spare"
                                   : "";
  std::string basis = "maxSize " + n(max) + ", taskQueueCap " + n(cap);
  if (!p.boolean("isBlocking")) return fits(max, max + cap, std::move(basis), std::move(departs));
  const std::int64_t b = p.integer("blockMaxNum");
  Capacity out = fits(max, b > 0 ? max + cap + b : kUnbounded, basis + ", isBlocking", std::move(departs));
  out.blocking_submitters = submitters;
  return out;
}

Capacity gopool(const Params& p) {
  const std::int64_t cap = std::max<std::int64_t>(p.integer("cap"), 1);  // one always starts when none runs
  const std::int64_t threshold = p.integer("ScaleThreshold");
  return fits(cap, kUnbounded, "cap " + n(cap) + ", an unbounded task list",
              threshold > 1 ? "ScaleThreshold " + n(threshold) +
                                  ": a worker starts only once that many tasks wait, so tasks wait with workers to spare"
                            : "");
}

}  // namespace

Capacity effective_capacity(const scenario::PoolEntry& pool, int submitters) {
  const Design* d = Registry::global().find(pool.design);
  if (!d) return not_modelled("design '" + pool.design + "' is not registered in this build");
  const Params p = parse_params(d->params, pool.config, d->name);
  const std::string& name = d->name;
  if (name == "spawn") return fits(kUnbounded, kUnbounded, "a thread per task");
  if (name == "fasthttp") {
    const std::int64_t c = p.integer("MaxWorkersCount");
    if (p.choice("flavor") == "rulego" && p.choice("rulego-version") != "v0.31.2")
      return fits(kUnbounded, kUnbounded,
                  "MaxWorkersCount " + n(c) + ", and rulego's engine runs each task its pool refuses on a thread of "
                  "its own: a worker for every task");
    return fits(c, c, "MaxWorkersCount " + n(c) + ", no queue");
  }
  if (name == "ants") return ants(p, submitters);
  if (name == "gammazero") {
    const std::int64_t c = std::max<std::int64_t>(p.integer("maxWorkers"), 1);  // New(0) means 1
    return fits(c, kUnbounded, "maxWorkers " + n(c) + ", an unbounded waiting queue");
  }
  if (name == "java") return java(p);
  if (name == "coremax") return coremax(p, submitters);
  if (name == "nginx") {
    const std::int64_t c = p.integer("threads"), m = p.integer("max_queue");
    return fits(c, c + m, "threads " + n(c) + ", max_queue " + n(m));
  }
  if (name == "gopool") return gopool(p);
  if (name == "ants-multi")
    return not_modelled("several ants pools, each with its own capacity, tasks dealt among them: c split into "
                        "groups that do not share their waiting");
  if (name == "redis-io")
    return not_modelled("fan-out and fan-in per event-loop iteration: the main thread waits for the whole batch, "
                        "not a queue of independent tasks");
  if (name == "weedge")
    return not_modelled("grows and shrinks by its own rules and times tasks out: no fixed c");
  if (name == "phpfpm")
    return not_modelled("the number of children follows spare-server rules checked once a second: c moves with load");
  return not_modelled("no rule maps " + name + "'s parameters onto c and K (docs/theory.md lists the designs that have one)");
}

std::vector<PhaseModel> phase_models(const scenario::Scenario& s) {
  using scenario::ArrivalSpec;
  std::vector<PhaseModel> out;
  std::int64_t t = 0;
  for (std::size_t i = 0; i < s.phases.size(); ++i) {
    const scenario::Phase& ph = s.phases[i];
    PhaseModel m{.index = i, .name = ph.name, .t0 = t, .t1 = t + ph.duration.count()};
    t = m.t1;
    if (ph.arrival.kind != ArrivalSpec::Kind::poisson || ph.arrival.rate <= 0) {
      m.why_not = "arrivals are not Poisson at a constant rate";
    } else if (ph.task.children) {
      m.why_not = "tasks submit children: the arrivals are not Poisson";
    } else {
      const double mean = static_cast<double>(ph.task.duration.mean().count()) / 1e9;
      const double m2 = ph.task.duration.second_moment() / 1e18;
      if (!(mean > 0)) {
        m.why_not = "tasks take no time";
      } else if (!std::isfinite(m2) || ph.task.duration.mean() == Nanos::max()) {
        m.why_not = "the service time's variance is infinite (a heavy tail): no finite mean wait";
      } else {
        m.eligible = true;
        m.lambda = ph.arrival.rate;
        m.mean_service_s = mean;
        m.scv = std::max(0.0, m2 / (mean * mean) - 1);
        if (ph.task.duration.kind() != scenario::Distribution::Kind::exponential) {
          char buf[160];
          std::snprintf(buf, sizeof buf,
                        "service not exponential (CV² %.2f): mean wait scaled by (1 + CV²)/2 (Allen-Cunneen)", m.scv);
          m.notes.push_back(buf);
        }
        if (ph.task.kind == scenario::TaskSpec::Kind::spin)
          m.notes.push_back("CPU-bound tasks: with more running than CPUs, each takes longer than its E[S]");
      }
    }
    out.push_back(std::move(m));
  }
  return out;
}

std::vector<Comparison> predict(const scenario::Scenario& s, const std::vector<PhaseModel>& phases) {
  std::vector<Comparison> out;
  for (const PhaseModel& ph : phases) {
    if (!ph.eligible) continue;
    for (const scenario::PoolEntry& pool : s.pools) {
      Comparison cmp{.phase = ph.index, .pool = pool.name, .capacity = effective_capacity(pool, s.submitters)};
      const Capacity& cap = cmp.capacity;
      if (!cap.modelled) {
        cmp.why_not = cap.why_not;
        out.push_back(std::move(cmp));
        continue;
      }
      cmp.notes = ph.notes;
      if (!cap.departs.empty()) cmp.notes.push_back(cap.departs);
      if (cap.c == kUnbounded) {  // M/M/∞: nobody waits, busy = λ·E[S]
        cmp.predicted = Figures{.busy = ph.lambda * ph.mean_service_s};
      } else if (cap.K == kUnbounded && !stable(ph.lambda, ph.mean_service_s, cap.c)) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "offered load %.2f >= c = %lld: no steady state, the queue grows for ever",
                      ph.lambda * ph.mean_service_s, static_cast<long long>(cap.c));
        cmp.why_not = buf;
      } else {
        const QueueFigures q = mmck(ph.lambda, ph.mean_service_s, cap.c, cap.K);
        // Allen-Cunneen: waits grow with the service time's variability. A
        // loss system (K = c) has no wait, and Erlang B holds for any service.
        const double scale = (1 + ph.scv) / 2;
        cmp.predicted = Figures{.p_wait = q.p_all_busy,
                                .p_refused = q.p_refused,
                                .wq_s = q.wq * scale,
                                .lq = q.lq * scale,
                                .busy = q.busy};
        // M/M/c: P(at least n waiting) = C·ρ^n. Past the submitters, waits go unseen.
        const int sub = cap.blocking_submitters;
        if (sub > 0 && cap.K - cap.c > sub &&
            q.p_all_busy * std::pow(ph.lambda * ph.mean_service_s / static_cast<double>(cap.c), sub) > 0.01)
          cmp.notes.push_back(blocking_note(sub));
        if (cap.K == cap.c) std::erase_if(cmp.notes, [](const std::string& note) { return note.starts_with("service not exponential"); });
      }
      cmp.approximate = !cmp.notes.empty();
      out.push_back(std::move(cmp));
    }
  }
  return out;
}

void measure(std::vector<Comparison>& comparisons, const std::vector<PhaseModel>& phases,
             const scenario::RunOutcome& outcome, const metrics::RunMetrics& metrics) {
  for (Comparison& cmp : comparisons) {
    auto p = std::find_if(outcome.pools.begin(), outcome.pools.end(),
                          [&](const scenario::PoolOutcome& o) { return o.name == cmp.pool; });
    if (p == outcome.pools.end()) continue;
    const metrics::PoolMetrics* pm = metrics.pool(p->trace_id);
    if (!pm) continue;
    const PhaseModel& ph = phases[cmp.phase];
    const metrics::WindowFigures w = pm->window(ph.t0, ph.t1);
    const std::int64_t c = cmp.capacity.modelled ? cmp.capacity.c : 0;
    cmp.arrivals = w.arrivals;
    cmp.workers = w.mean_workers;
    cmp.measured = Figures{
        .p_wait = c > 0 ? w.share_found_busy(static_cast<std::uint64_t>(c)) : 0,
        .p_refused = w.arrivals ? static_cast<double>(w.refused) / static_cast<double>(w.arrivals) : 0,
        .wq_s = w.mean_wait / 1e9,
        .lq = w.mean_queued + w.mean_blocked,
        .busy = w.mean_busy,
    };
  }
}

namespace {

json figures_json(const Figures& f) {
  auto finite = [](double v) { return std::isfinite(v) ? json(v) : json(nullptr); };
  return {{"p_wait", f.p_wait}, {"p_refused", f.p_refused}, {"wait_s", finite(f.wq_s)},
          {"queued", finite(f.lq)}, {"busy", f.busy}};
}

json count_json(std::int64_t v) { return v == kUnbounded ? json(nullptr) : json(v); }

}  // namespace

json theory_json(const std::vector<PhaseModel>& phases, const std::vector<Comparison>& comparisons) {
  json out = json::array();
  for (const PhaseModel& ph : phases) {
    json j = {{"phase", ph.name}, {"start_s", static_cast<double>(ph.t0) / 1e9},
              {"end_s", static_cast<double>(ph.t1) / 1e9}, {"eligible", ph.eligible}};
    if (!ph.eligible) {
      j["why_not"] = ph.why_not;
      out.push_back(std::move(j));
      continue;
    }
    j["arrival_rate_per_s"] = ph.lambda;
    j["service_mean_s"] = ph.mean_service_s;
    j["service_scv"] = ph.scv;
    json pools = json::array();
    for (const Comparison& cmp : comparisons) {
      if (cmp.phase != ph.index) continue;
      json pj = {{"name", cmp.pool}, {"modelled", cmp.capacity.modelled}};
      if (cmp.capacity.modelled) {
        pj["c"] = count_json(cmp.capacity.c);
        pj["K"] = count_json(cmp.capacity.K);
        pj["basis"] = cmp.capacity.basis;
      }
      pj["approximate"] = cmp.approximate;
      pj["notes"] = cmp.notes;
      pj["why_not"] = cmp.why_not.empty() ? json(nullptr) : json(cmp.why_not);
      pj["predicted"] = cmp.predicted ? figures_json(*cmp.predicted) : json(nullptr);
      if (cmp.measured) {
        json m = figures_json(*cmp.measured);
        m["arrivals"] = cmp.arrivals;
        m["workers"] = cmp.workers;
        pj["measured"] = std::move(m);
      } else {
        pj["measured"] = nullptr;
      }
      pools.push_back(std::move(pj));
    }
    j["pools"] = std::move(pools);
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace poolscope::theory
