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

// Arrival times within one phase, relative to its start.
std::vector<Nanos> arrival_times(const ArrivalSpec& a, Nanos duration, Rng& rng) {
  std::vector<Nanos> out;
  const double d = static_cast<double>(duration.count());
  auto add = [&](double t) {
    if (t < d) out.push_back(Nanos(static_cast<std::int64_t>(t)));
  };
  switch (a.kind) {
    case ArrivalSpec::Kind::constant:
      for (double t = 0, gap = 1e9 / a.rate; t < d; t += gap) add(t);
      break;
    case ArrivalSpec::Kind::poisson:
      for (double t = rng.exponential(1e9 / a.rate); t < d; t += rng.exponential(1e9 / a.rate)) add(t);
      break;
    case ArrivalSpec::Kind::burst:
      for (Nanos t{0}; t < duration; t += a.every) {
        for (int i = 0; i < a.count; ++i) out.push_back(t);
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
      while (k < total) {
        add(invert(k));
        k += a.poisson ? rng.exponential(1.0) : 1.0;
      }
      break;
    }
    case ArrivalSpec::Kind::replay:
      out = a.times;
      break;
    case ArrivalSpec::Kind::idle:
    case ArrivalSpec::Kind::closed_loop:
      break;
  }
  return out;
}

}  // namespace

Workload generate(const Scenario& s) {
  Workload w;
  Time start{0};
  for (std::uint32_t i = 0; i < s.phases.size(); ++i) {
    const Phase& p = s.phases[i];
    Rng arrivals(derive_seed(s.seed, "arrivals", i));
    Rng tasks(derive_seed(s.seed, "tasks", i));
    for (Nanos at : arrival_times(p.arrival, p.duration, arrivals))
      w.arrivals.push_back(ScheduledTask{start + at, i, make_task(p.task, tasks)});
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

}  // namespace poolscope::scenario
