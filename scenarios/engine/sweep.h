// A parameter sweep (docs/sweeps.md): one scenario run once per point of a
// grid of pool parameter values, and a few metrics read from each point's
// result. This file is the sweep's description: the --param specs, the
// grid, the shards and the metrics. sweep_run.h runs the points;
// sweep_json.h writes what they measured.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "scenarios/engine/scenario.h"

namespace poolscope::scenario::sweep {

// One `--param POOL.PARAM=V1,V2,...`: a pool parameter and the values it takes.
struct Param {
  std::string spec;                       // "ants.ExpiryDuration", as written
  std::string param;                      // "ExpiryDuration"
  std::vector<std::string> pools;         // the scenario entries it sets, by name
  std::vector<json> values;               // config form, each validated against the design
  std::vector<std::string> shown;         // each value as written, for tables and CSV
  std::vector<std::optional<double>> numeric;  // for plots: seconds, numbers, booleans 0/1; none for a choice
};

// Parses one --param against the scenario's JSON (after --pool and the other
// overrides). POOL is an entry's name, else every entry of that design. Each
// value is JSON if it parses as JSON, else a string (as --set reads it), and
// is checked against the design's parameter description as --set's value
// would be. Errors: ConfigError("--param ARG", what was expected).
Param parse_param(const std::string& arg, const json& scenario);
// A grid larger than this is refused: a sweep is a handful of points, not a search.
inline constexpr std::size_t kMaxPoints = 100'000;

// Every --param, at least one, at most kMaxPoints points in all, no pool parameter set by two of them.
std::vector<Param> parse_params(const std::vector<std::string>& args, const json& scenario);

// The grid is the cartesian product of the params' values. Point i takes
// value choice(i)[p] of param p; the last param varies fastest.
std::size_t grid_size(const std::vector<Param>& params);
std::vector<std::size_t> grid_choice(const std::vector<Param>& params, std::size_t i);

// `--shard K/N`: this machine runs the points i with i % N == K - 1, so the N
// shards together run every point exactly once.
struct Shard {
  std::size_t k = 1, n = 1;
};
Shard parse_shard(const std::string& text);  // ConfigError("--shard TEXT", ...)
std::vector<std::size_t> shard_points(std::size_t total, Shard shard);

// What is measured per pool per point: a key of the result's pool summary
// (docs/result-format.md), or one of the short names below.
struct Metric {
  std::string name;     // as asked for: "spawned", or a summary key "workers.spawned"
  std::string pointer;  // JSON pointer into the summary ("/workers/spawned"); "" for cpu
  bool seconds = false; // a duration in seconds (shown as one)
};
// The short names the issue asks for, each a summary key, and cpu:
//   spawned, reaped, p99_queue_wait, refusals, mean_workers, cpu.
std::vector<std::string> short_metric_names();
// Every valid name: the short ones, then every numeric summary key.
std::vector<std::string> metric_names();
// Names, each possibly a comma-separated list; none: the short ones.
// ConfigError("--metric NAME", the valid names) for an unknown one.
std::vector<Metric> parse_metrics(const std::vector<std::string>& names);

// A whole sweep, as the outputs describe it.
struct Sweep {
  std::string scenario_file, scenario_name;
  std::vector<Param> params;
  std::vector<Metric> metrics;
  Shard shard;
  bool real = false;           // real threads and time; else the deterministic simulation
  json simulation = nullptr;   // the simulation's settings (the scenario's "simulation"), null when real
  std::size_t total = 0;       // points in the whole grid (every shard)
};

// The overrides of point i: `base` plus each param's value at the point, as
// --set settings on each pool the param names.
Overrides point_overrides(const Overrides& base, const std::vector<Param>& params, std::size_t i);

// The point's values, as "spec=value" for messages: "ants.ExpiryDuration=1s".
std::string describe_point(const std::vector<Param>& params, std::size_t i);

}  // namespace poolscope::scenario::sweep
