// Two runs compared: the same scenario before and after a tuning, or under
// two seeds. Each run's numbers are the runner's own, read from its result
// file's summaries (so no events are needed for the second), matched pool
// by pool by name, with the difference B - A.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "scenarios/engine/result_reader.h"

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
};

struct RunComparison {
  std::string a, b;  // which run is which: "tour.result.json: scenario tour, seed 42"
  std::vector<PoolComparison> pools;  // A's pools in order, then those only B has
};

RunComparison compare_runs(const scenario::ResultFile& a, const scenario::ResultFile& b);
// "tour.result.json: scenario tour, seed 42"
std::string describe_run(const scenario::ResultFile& f);

}  // namespace poolscope::gui
