// Distributions of durations (task service times, think times): fixed,
// uniform, exponential, normal (truncated at 0), lognormal, Pareto (heavy
// tail, optionally capped) and weighted mixes of these.
//
//   "10ms"                                             fixed
//   {"dist": "uniform", "min": "5ms", "max": "15ms"}
//   {"dist": "exponential", "mean": "10ms"}
//   {"dist": "normal", "mean": "10ms", "stddev": "3ms"}
//   {"dist": "lognormal", "median": "10ms", "sigma": 0.8}
//   {"dist": "pareto", "scale": "5ms", "shape": 1.5, "max": "2s"}
//   {"dist": "mix", "of": [{"weight": 9, "value": "5ms"}, {"weight": 1, "value": {...}}]}
#pragma once

#include <vector>

#include "pools/core/clock.h"
#include "pools/core/params.h"
#include "scenarios/engine/random.h"

namespace poolscope::scenario {

class Distribution {
 public:
  enum class Kind { fixed, uniform, exponential, normal, lognormal, pareto, mix };

  static Distribution fixed(Nanos d);
  // Parses the forms above; errors name `path`.
  static Distribution parse(const json& j, const std::string& path);

  Nanos sample(Rng& rng) const;
  Nanos mean() const;  // the distribution's mean (for Pareto with shape <= 1 and no cap: infinite → max Nanos)
  // E[X²] in ns², exactly as sample() draws (truncation and caps included);
  // infinite for an uncapped Pareto of shape <= 2. With mean(), the service
  // time's variability, which decides how far queueing theory's exponential
  // model is from the task (docs/theory.md).
  double second_moment() const;
  json to_json() const;
  Kind kind() const { return kind_; }

 private:
  Kind kind_ = Kind::fixed;
  double a_ = 0, b_ = 0;  // fixed: value | uniform: min, max | exponential: mean | normal: mean, stddev |
                          // lognormal: mu, sigma | pareto: scale, shape   (time values in ns)
  double cap_ = 0;        // pareto: 0 = none
  std::vector<std::pair<double, Distribution>> mix_;  // weight, distribution
  double total_weight_ = 0;
};

}  // namespace poolscope::scenario
