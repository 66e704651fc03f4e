#include "scenarios/engine/workload.h"

#include <algorithm>
#include <cmath>
#include <utility>

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

PhaseArrivals::PhaseArrivals(const ArrivalSpec& a, Nanos duration, std::uint64_t seed)
    : a_(a), duration_(duration), d_(static_cast<double>(duration.count())), rng_(seed) {
  switch (a.kind) {
    case ArrivalSpec::Kind::constant:
      gap_ = 1e9 / a.rate;
      break;
    case ArrivalSpec::Kind::poisson:
      gap_ = 1e9 / a.rate;
      t_ = rng_.exponential(gap_);
      break;
    case ArrivalSpec::Kind::ramp:
      // Rate r(t) = from + (to - from) t / d (per second, t in ns). The k-th
      // arrival is where the expected count reaches k (or a Poisson sum).
      r0_ = a.from / 1e9;
      slope_ = (a.to - a.from) / 1e9 / d_;
      total_ = r0_ * d_ + slope_ * d_ * d_ / 2;
      t_ = a.poisson ? rng_.exponential(1.0) : 0.5;
      break;
    default:
      break;
  }
}

std::optional<Nanos> PhaseArrivals::next() {
  switch (a_.kind) {
    case ArrivalSpec::Kind::constant:
    case ArrivalSpec::Kind::poisson: {
      if (!(t_ < d_)) return std::nullopt;
      const Nanos at(static_cast<std::int64_t>(t_));
      t_ += a_.kind == ArrivalSpec::Kind::constant ? gap_ : rng_.exponential(gap_);
      return at;
    }
    case ArrivalSpec::Kind::burst:
      while (burst_at_ < duration_) {
        if (burst_sent_ < a_.count) {
          ++burst_sent_;
          return burst_at_;
        }
        if (a_.every == Nanos(0)) break;
        burst_at_ += a_.every;
        burst_sent_ = 0;
      }
      return std::nullopt;
    case ArrivalSpec::Kind::ramp:
      while (t_ < total_) {
        // Solve r0 t + slope t^2 / 2 = count.
        double at = d_;
        if (std::abs(slope_) < 1e-30) {
          at = t_ / r0_;
        } else {
          const double disc = r0_ * r0_ + 2 * slope_ * t_;
          if (disc >= 0) at = (-r0_ + std::sqrt(disc)) / slope_;
        }
        t_ += a_.poisson ? rng_.exponential(1.0) : 1.0;
        if (at < d_) return Nanos(static_cast<std::int64_t>(at));
      }
      return std::nullopt;
    case ArrivalSpec::Kind::replay:
      if (replayed_ < a_.times.size()) return a_.times[replayed_++];
      return std::nullopt;
    case ArrivalSpec::Kind::idle:
    case ArrivalSpec::Kind::closed_loop:
      break;
  }
  return std::nullopt;
}

ArrivalStream::ArrivalStream(const Scenario& s) : s_(s) { open_phase(); }

void ArrivalStream::open_phase() {
  if (phase_ >= s_.phases.size()) return;
  const Phase& p = s_.phases[phase_];
  times_.emplace(p.arrival, p.duration, derive_seed(s_.seed, "arrivals", phase_));
  tasks_ = Rng(derive_seed(s_.seed, "tasks", phase_));
}

std::optional<ScheduledTask> ArrivalStream::next() {
  while (phase_ < s_.phases.size()) {
    const Phase& p = s_.phases[phase_];
    if (std::optional<Nanos> at = times_->next()) return ScheduledTask{start_ + *at, phase_, make_task(p.task, tasks_)};
    start_ += p.duration;
    ++phase_;
    open_phase();
  }
  return std::nullopt;
}

std::vector<ScheduledTask> list_arrivals(const Scenario& s) {
  std::vector<ScheduledTask> out;
  for (ArrivalStream arrivals(s); std::optional<ScheduledTask> a = arrivals.next();) out.push_back(std::move(*a));
  return out;
}

std::optional<ScheduledTask> SharedArrivals::take(std::uint64_t index) {
  std::lock_guard g(m_);
  while (!ended_ && first_ + window_.size() <= index) {
    std::optional<ScheduledTask> a = stream_.next();
    ended_ = !a;
    if (a) window_.push_back(std::move(a));
  }
  if (index < first_ || index - first_ >= window_.size()) return std::nullopt;
  std::optional<ScheduledTask> out = std::exchange(window_[index - first_], std::nullopt);
  while (!window_.empty() && !window_.front()) {
    window_.pop_front();
    ++first_;
  }
  return out;
}

Workload plan_workload(const Scenario& s) {
  Workload w;
  Time start{0};
  for (std::uint32_t i = 0; i < s.phases.size(); ++i) {
    const Phase& p = s.phases[i];
    if (p.arrival.kind == ArrivalSpec::Kind::closed_loop)
      for (int c = 0; c < p.arrival.clients; ++c)
        w.clients.push_back(ClientPlan{i, start, start + p.duration, derive_seed(s.seed, "client", i * 100000ull + c)});
    start += p.duration;
  }
  w.end = start;
  return w;
}

namespace {

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

WorkloadCount count_workload(const Scenario& s, const Limits& limits) {
  WorkloadCount c;
  const std::uint64_t bound = limits.max_tasks;
  for (std::uint32_t i = 0; i < s.phases.size(); ++i) {
    const Phase& p = s.phases[i];
    const bool has_tasks = p.arrival.kind != ArrivalSpec::Kind::idle && p.arrival.kind != ArrivalSpec::Kind::closed_loop;
    const std::uint64_t per = has_tasks ? tasks_per_arrival(p.task, bound + 1) : 0;
    std::uint64_t phase_arrivals = 0, phase_tasks = 0;
    bool over = false;
    for (PhaseArrivals times(p.arrival, p.duration, derive_seed(s.seed, "arrivals", i)); !over && times.next();) {
      ++phase_arrivals;
      phase_tasks += per;
      over = c.tasks + phase_tasks > bound;
    }
    if (over) {
      const std::string what = per > 1 ? " (each arrival with its children is " +
                                             (per > bound ? "more than " + std::to_string(bound) : std::to_string(per)) +
                                             " tasks)"
                                       : "";
      throw ConfigError("/phases/" + std::to_string(i),
                        "phase '" + p.name + "' schedules more than " + std::to_string(bound - c.tasks) +
                            " tasks" + what + "; the scenario may schedule at most " + std::to_string(bound) +
                            " tasks in all (" + limits.raise + ")");
    }
    c.arrivals += phase_arrivals;
    c.tasks += phase_tasks;
    if (p.arrival.kind == ArrivalSpec::Kind::closed_loop) c.clients += static_cast<std::uint64_t>(p.arrival.clients);
  }
  return c;
}

}  // namespace poolscope::scenario
