// Two runs compared: the same scenario before and after a tuning, or under
// two seeds. Each run's numbers are the runner's own, read from its result
// file's summaries (so no events are needed for the second), matched pool
// by pool by name, with the difference B - A; and B's counters over time,
// from its file's bucketed series, to draw over A's plots.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "scenarios/engine/result_reader.h"
#include "visualizer/model/sweep_file.h"

namespace poolscope::gui {

enum class Better { none, lower, higher };

// One figure of a pool's summary in the result file.
struct ComparedFigure {
  const char* name;  // as the comparison table names it
  const char* path;  // a JSON pointer into the pool's "summary"
  Better better;
  bool seconds;  // a time (the file says seconds)
};
const std::vector<ComparedFigure>& compared_figures();

struct PoolComparison {
  std::string pool;
  // Per figure (compared_figures()' order): each run's value, if the run has the pool and the figure.
  std::vector<std::optional<double>> a, b;
  // Run B's counters over time (each bucket's peak), if B has the pool and wrote its series.
  std::optional<SweepSeries> b_series;
};

struct RunComparison {
  std::string a, b;  // which run is which: "tour.result.json: scenario tour, seed 42"
  // A's pools in order (pools[p] is A's p-th, as the replay numbers them),
  // then those only B has.
  std::vector<PoolComparison> pools;
};

RunComparison compare_runs(const scenario::ResultFile& a, const scenario::ResultFile& b);
// The highest value of counter `c` in the buckets that overlap [t0_s, t1_s]:
// a plot's y-scale takes B's peaks in view too. None when no bucket does.
std::optional<double> peak_between(const SweepSeries& series, SweepCounter c, double t0_s, double t1_s);
// "tour.result.json: scenario tour, seed 42"
std::string describe_run(const scenario::ResultFile& f);

}  // namespace poolscope::gui
