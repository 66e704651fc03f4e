// Theory beside the measurement (docs/theory.md): for each phase whose
// arrivals are Poisson, and each pool whose design maps onto c servers and
// room for K tasks, what M/M/c (Erlang C), M/M/c/c (Erlang B) or M/M/c/K
// predicts: the share of arrivals that find every worker busy, the share
// refused, the mean queue wait and queue length, the mean busy workers; and
// what the pool measured over the same phase. Where the service time is not
// exponential, or the design only roughly fits, the prediction says it is an
// approximation and why; where a design does not fit, it says why instead of
// guessing.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "scenarios/engine/engine.h"
#include "scenarios/engine/queueing.h"

namespace poolscope::theory {

// A design's effective servers and room, from its registered parameters.
struct Capacity {
  bool modelled = false;
  std::int64_t c = 0;           // servers; kUnbounded: a worker for every task
  std::int64_t K = kUnbounded;  // tasks in the system at most (running + waiting); K = c: a loss system
  std::string basis;            // which parameters give c and K, in words
  std::string departs;          // how the design departs from the model ("" when it fits)
  // A full pool blocks the submitter: its waiting room is the submitter
  // threads. Beyond them arrivals are late, not queued; predict() says so
  // when the model expects that many to wait.
  int blocking_submitters = 0;
  std::string why_not;          // when not modelled
};
// `submitters`: the scenario's submitter threads, the most tasks a blocking
// pool can hold waiting inside submit.
Capacity effective_capacity(const scenario::PoolEntry& pool, int submitters);

// The figures the model predicts and the run measures, per phase and pool.
struct Figures {
  double p_wait = 0;     // share of arrivals that found all c workers busy
  double p_refused = 0;  // share of arrivals refused
  double wq_s = 0;       // mean queue wait of an accepted task, seconds
  double lq = 0;         // mean tasks waiting (queued, or blocked inside submit)
  double busy = 0;       // mean busy workers
};

// A phase as the model sees it.
struct PhaseModel {
  std::size_t index = 0;
  std::string name;
  std::int64_t t0 = 0, t1 = 0;  // scenario ns
  bool eligible = false;
  std::string why_not;          // when not eligible
  double lambda = 0;            // arrivals per second
  double mean_service_s = 0;    // E[S]
  double scv = 0;               // squared coefficient of variation of S: 1 for exponential
  std::vector<std::string> notes;  // why its predictions are approximations
};
std::vector<PhaseModel> phase_models(const scenario::Scenario& s);

struct Comparison {
  std::size_t phase = 0;  // into phase_models()
  std::string pool;
  Capacity capacity;
  std::optional<Figures> predicted;  // unset: not modelled, or no steady state (why_not says)
  bool approximate = false;
  std::vector<std::string> notes;    // approximations and departures, in words
  std::string why_not;
  std::optional<Figures> measured;   // set by measure()
  std::uint64_t arrivals = 0;        // measured: tasks submitted in the phase
  double workers = 0;                // measured: mean workers alive (the model's c are always there)
};

// The predictions, for every eligible phase and every pool of the scenario.
std::vector<Comparison> predict(const scenario::Scenario& s, const std::vector<PhaseModel>& phases);
// Fills in what each pool measured over each phase.
void measure(std::vector<Comparison>& comparisons, const std::vector<PhaseModel>& phases,
             const scenario::RunOutcome& outcome, const metrics::RunMetrics& metrics);

// The result's "theory" block (docs/result-format.md).
json theory_json(const std::vector<PhaseModel>& phases, const std::vector<Comparison>& comparisons);

}  // namespace poolscope::theory
