#include "scenarios/engine/workload.h"

#include <algorithm>
#include <cmath>

namespace poolscope::scenario {

TaskInstance make_task(const TaskSpec& spec, Rng& rng) {
  TaskInstance t;
  t.kind = spec.kind;
  t.duration = spec.duration.sample(rng);
  t.throws = spec.throw_probability > 0 && rng.chance(spec.throw_probability);
  if (spec.priority_max > spec.priority_min) {
    auto span = static_cast<std::uint64_t>(spec.priority_max - spec.priority_min) + 1;
    t.priority = spec.priority_min + static_cast<int>(rng.next() % span);
  } else {
    t.priority = spec.priority_min;
  }
  if (spec.children) {
    t.wait_children = spec.children->wait;
    for (int i = 0; i < spec.children->count; ++i) t.children.push_back(make_task(*spec.children->task, rng));
  }
  return t;
}

namespace {

// Arrival times within one phase, relative to its start, each handed to
// `emit`, which returns false to stop early (the counter, past its bound).
template <class Emit>
void for_each_arrival(const ArrivalSpec& a, Nanos duration, Rng& rng, Emit&& emit) {
  const double d = static_cast<double>(duration.count());
  bool going = true;
  auto add = [&](double t) {
    if (going && t < d) going = emit(Nanos(static_cast<std::int64_t>(t)));
  };
  switch (a.kind) {
    case ArrivalSpec::Kind::constant:
      for (double t = 0, gap = 1e9 / a.rate; going && t < d; t += gap) add(t);
      break;
    case ArrivalSpec::Kind::poisson:
      for (double t = rng.exponential(1e9 / a.rate); going && t < d; t += rng.exponential(1e9 / a.rate)) add(t);
      break;
    case ArrivalSpec::Kind::burst:
      for (Nanos t{0}; going && t < duration; t += a.every) {
        for (int i = 0; going && i < a.count; ++i) going = emit(t);
        if (a.every == Nanos(0)) break;
      }
      break;
    case ArrivalSpec::Kind::ramp: {
      // Rate r(t) = from + (to - from) t / d (per second, t in ns). The k-th
      // arrival is where the expected count reaches k (or a Poisson sum).
      double r0 = a.from / 1e9, slope = (a.to - a.from) / 1e9 / d;
      auto invert = [&](double count) {  // solve r0 t + slope t^2 / 2 = count
        if (std::abs(slope) < 1e-30) return count / r0;
        double disc = r0 * r0 + 2 * slope * count;
        return disc < 0 ? d : (-r0 + std::sqrt(disc)) / slope;
      };
      double total = r0 * d + slope * d * d / 2;
      double k = a.poisson ? rng.exponential(1.0) : 0.5;
      while (going && k < total) {
        add(invert(k));
        k += a.poisson ? rng.exponential(1.0) : 1.0;
      }
      break;
    }
    case ArrivalSpec::Kind::replay:
      for (Nanos t : a.times)
        if (going) going = emit(t);
      break;
    case ArrivalSpec::Kind::idle:
    case ArrivalSpec::Kind::closed_loop:
      break;
  }
}

// Tasks one arrival of `spec` brings: itself and its children's trees,
// saturating at `cap`.
std::uint64_t tasks_per_arrival(const TaskSpec& spec, std::uint64_t cap) {
  if (!spec.children) return 1;
  const std::uint64_t sub = tasks_per_arrival(*spec.children->task, cap);
  const auto count = static_cast<std::uint64_t>(spec.children->count);
  if (sub > cap / count) return cap;  // count * sub alone passes the cap
  return std::min(cap, 1 + count * sub);
}

}  // namespace

Workload generate(const Scenario& s) {
  Workload w;
  Time start{0};
  for (std::uint32_t i = 0; i < s.phases.size(); ++i) {
    const Phase& p = s.phases[i];
    Rng arrivals(derive_seed(s.seed, "arrivals", i));
    Rng tasks(derive_seed(s.seed, "tasks", i));
    for_each_arrival(p.arrival, p.duration, arrivals, [&](Nanos at) {
      w.arrivals.push_back(ScheduledTask{start + at, i, make_task(p.task, tasks)});
      return true;
    });
    if (p.arrival.kind == ArrivalSpec::Kind::closed_loop)
      for (int c = 0; c < p.arrival.clients; ++c)
        w.clients.push_back(ClientPlan{i, start, start + p.duration, derive_seed(s.seed, "client", i * 100000ull + c)});
    start += p.duration;
  }
  w.end = start;
  std::stable_sort(w.arrivals.begin(), w.arrivals.end(),
                   [](const ScheduledTask& a, const ScheduledTask& b) { return a.at < b.at; });
  return w;
}

WorkloadCount count_workload(const Scenario& s, const Limits& limits) {
  WorkloadCount c;
  const std::uint64_t bound = limits.max_tasks;
  for (std::uint32_t i = 0; i < s.phases.size(); ++i) {
    const Phase& p = s.phases[i];
    const bool has_tasks = p.arrival.kind != ArrivalSpec::Kind::idle && p.arrival.kind != ArrivalSpec::Kind::closed_loop;
    const std::uint64_t per = has_tasks ? tasks_per_arrival(p.task, bound + 1) : 0;
    std::uint64_t phase_arrivals = 0, phase_tasks = 0;
    bool over = false;
    Rng arrivals(derive_seed(s.seed, "arrivals", i));
    for_each_arrival(p.arrival, p.duration, arrivals, [&](Nanos) {
      ++phase_arrivals;
      phase_tasks += per;
      if (c.tasks + phase_tasks > bound) over = true;
      return !over;
    });
    if (over) {
      const std::string what = per > 1 ? " (each arrival with its children is " +
                                             (per > bound ? "more than " + std::to_string(bound) : std::to_string(per)) +
                                             " tasks)"
                                       : "";
      throw ConfigError("/phases/" + std::to_string(i),
                        "phase '" + p.name + "' schedules more than " + std::to_string(bound - c.tasks) +
                            " tasks" + what + "; the scenario may schedule at most " + std::to_string(bound) +
                            " tasks in all (poolscope --max-tasks N raises the bound)");
    }
    c.arrivals += phase_arrivals;
    c.tasks += phase_tasks;
    if (p.arrival.kind == ArrivalSpec::Kind::closed_loop) c.clients += static_cast<std::uint64_t>(p.arrival.clients);
  }
  return c;
}

}  // namespace poolscope::scenario
