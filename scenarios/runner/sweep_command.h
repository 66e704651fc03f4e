// `poolscope sweep`: a scenario over a grid of pool parameter values
// (docs/sweeps.md).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "scenarios/engine/scenario.h"
#include "scenarios/engine/workload.h"

namespace poolscope::runner {

struct SweepArgs {
  std::string scenario;
  std::vector<std::string> params, metrics, settings, pools;
  std::string seed, shard, csv, json_out, out_dir;
  bool real = false, quiet = false;
  unsigned jobs = 0;  // 0: one per CPU this process may use
  scenario::Limits limits;
  // Set after parsing: which options were given.
  bool jobs_given = false;
};

// Adds the subcommand and its options to `app`.
CLI::App* add_sweep_command(CLI::App& app, SweepArgs& a);

// Runs it. `signal()` is the signal that asked the runner to stop, or 0.
// Exit codes: 0 every point ok, 1 a point stalled, broke the invariant or
// failed, 2 bad input (nothing written), 128 + the signal when stopped
// (nothing written but the out dir's finished points).
int run_sweep(SweepArgs& a, const std::function<int()>& signal);

}  // namespace poolscope::runner
