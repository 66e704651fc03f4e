// A sweep written by `poolscope sweep --json` (poolscope-sweep/1,
// docs/schemas/sweep.schema.json, docs/sweeps.md) read back into plain
// structs for the sweep view: the grid's params, the metrics, and per point
// and pool the metrics' values and its counters over time. Checked as every
// input is: an error names the file, the JSON path and what was expected.
#pragma once

#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pools/core/params.h"
#include "visualizer/model/trace_index.h"

namespace poolscope::gui {

struct SweepParam {
  std::string spec;                            // "ants.ExpiryDuration", as given to --param
  std::vector<std::string> shown;              // each value as written
  std::vector<std::optional<double>> numeric;  // each value as a number (durations in s); none for a choice
  // Every value has a number: the param can be an x axis of numbers, else of its values in order.
  bool is_numeric() const;
};

struct SweepMetric {
  std::string name;      // "spawned", "queue_wait_s.p50", ...
  bool seconds = false;  // a duration in seconds
};

// What a sweep's multiples can show: the pool's gauges (each bucket's peak),
// then the workers started and reaped (each bucket's count), which show the
// churn a flat peak hides.
enum class SweepCounter { workers, busy, idle, queued, blocked, spawned, reaped };
inline constexpr std::size_t kSweepCounterCount = 7;
std::string_view sweep_counter_name(SweepCounter c);  // "workers", ..., "spawned", "reaped"
std::string_view sweep_counter_help(SweepCounter c);  // one line for the chooser's tooltip
bool sweep_counter_is_count(SweepCounter c);          // counted per bucket, not peaked

// A pool's counters in equal buckets from 0.
struct SweepSeries {
  double bucket_s = 0;
  std::vector<double> t;  // each bucket's start, s
  std::array<std::vector<double>, kSweepCounterCount> counters;  // by SweepCounter
  double end_s() const { return t.empty() ? 0 : t.back() + bucket_s; }
};

// A pool's `series` block, as a sweep point and a result file both write it
// (docs/result-format.md). Errors: ScenarioError naming `path`.
SweepSeries read_series(const json& j, const std::string& path);

struct SweepPool {
  std::string name, design;
  std::vector<std::optional<double>> metrics;  // by the sweep's metrics; none where the pool measured nothing
  std::optional<SweepSeries> series;           // none for a point that could not run
};

struct SweepPoint {
  std::size_t index = 0;            // in the whole grid
  std::vector<std::size_t> choice;  // per param, which of its values
  std::string status, problem;      // "ok", "stalled", ...; what went wrong
  std::vector<SweepPool> pools;
  const SweepPool* pool(std::string_view name) const;
};

struct SweepFile {
  std::string file;
  std::string scenario;       // its name
  std::string scenario_file;  // as the sweep was given it (relative to where it ran)
  std::string mode;      // "simulated" or "real"
  std::vector<SweepParam> params;
  std::vector<SweepMetric> metrics;
  std::size_t points_total = 0;  // the whole grid's (a shard holds some of them)
  std::vector<SweepPoint> points;
  // Every pool any point ran, in the order first met, with its design.
  std::vector<std::string> pools, designs;

  // The point's values, "ants.ExpiryDuration=100ms, ants.size=8".
  std::string label(const SweepPoint& p) const;
};

// Errors: ScenarioError naming `file` and the JSON path ("/points/3/pools/0/series/workers").
SweepFile read_sweep(const json& doc, const std::string& file);
SweepFile load_sweep(const std::filesystem::path& file);

}  // namespace poolscope::gui
