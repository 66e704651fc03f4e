#include "scenarios/runner/sweep_command.h"

#include <sched.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <thread>

#include "scenarios/engine/atomic_file.h"
#include "scenarios/engine/sweep_json.h"
#include "scenarios/runner/args.h"
#include "scenarios/runner/sweep_table.h"

namespace poolscope::runner {

namespace {

namespace fs = std::filesystem;
using namespace scenario;
using namespace scenario::sweep;

constexpr int kOk = 0, kFailed = 1;

// The CPUs this process may run on (its affinity mask), as `nproc` counts.
unsigned usable_cpus() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return static_cast<unsigned>(std::max(1, CPU_COUNT(&set)));
  return std::max(1u, std::thread::hardware_concurrency());
}

// --out-dir: an existing directory, or one that can be made where the path
// first exists. Checked before anything runs; made only once all input is good.
void check_out_dir(const std::string& value) {
  auto fail = [&](const std::string& why) { throw ConfigError("--out-dir " + value, why); };
  if (value.empty()) fail("expected a directory name, got an empty one");
  std::error_code ec;
  const fs::path p = value;
  if (fs::exists(p, ec) && !fs::is_directory(p, ec)) fail("exists and is not a directory");
  fs::path dir = p;
  while (!dir.empty() && !fs::exists(dir, ec)) dir = dir.parent_path();
  if (dir.empty()) dir = ".";
  if (!fs::is_directory(dir, ec)) fail("'" + dir.string() + "' is not a directory");
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    fail("cannot write in the directory '" + dir.string() + "': " + std::strerror(errno));
}

}  // namespace

CLI::App* add_sweep_command(CLI::App& app, SweepArgs& a) {
  auto* cmd = app.add_subcommand(
      "sweep",
      "run a scenario once per point of a grid of pool parameter values, and tabulate chosen metrics per point "
      "(simulated unless --real; docs/sweeps.md)");
  cmd->add_option("SCENARIO", a.scenario, "a scenario file, or a shipped scenario's name")->required();
  cmd->add_option("--param", a.params,
                  "POOL.PARAM=V1,V2,...: a pool parameter and its values (repeatable: the grid is every "
                  "combination); POOL is a pool's name, else every pool of that design")
      ->required();
  cmd->add_option("--metric", a.metrics,
                  "what to tabulate, comma-separated or repeated: spawned, reaped, p99_queue_wait, refusals, "
                  "mean_workers, cpu (the default: all six), or any numeric key of a result's pool summary "
                  "(workers.peak, queue_wait_s.p50, ...)");
  cmd->add_option("--pool", a.pools, "run only this pool (repeatable), as `run --pool`");
  cmd->add_option("--set", a.settings, "POOL.PARAM=VALUE: a fixed override for every point (repeatable)");
  cmd->add_option("--seed", a.seed, "override the scenario's seed (an integer in [0, 2^64-1])");
  cmd->add_flag("--real", a.real,
                "run each point on real threads in real time, one at a time (default: the deterministic simulation, "
                "the same figures on every run)");
  cmd->add_option("--jobs", a.jobs, "simulated points run at once, each in its own process (default: one per CPU)")
      ->check(CLI::Range(1u, 1024u));
  cmd->add_option("--shard", a.shard,
                  "K/N: run only the points i with i % N == K-1 (point numbers count from 0), so N machines "
                  "share the grid");
  cmd->add_option("--csv", a.csv, "write the table as CSV here ('-' for stdout)");
  cmd->add_option("--json", a.json_out, "write the sweep as JSON here ('-' for stdout, no table): poolscope-sweep/1");
  cmd->add_option("--out-dir", a.out_dir,
                  "write each point's full result (with every event) here as point-NNN.json, for the GUI");
  cmd->add_flag("-q,--quiet", a.quiet, "no progress, no table");
  cmd->add_option("--max-tasks", a.limits.max_tasks,
                  "refuse a scenario that schedules more tasks than this (default 10000000)")
      ->check(CLI::Range(1ull, 1'000'000'000ull));
  return cmd;
}

int run_sweep(SweepArgs& a, const std::function<int()>& signal) {
  // The overrides every point shares; --real drops the scenario's "simulation", else it is added.
  Overrides base;
  base.pools = a.pools;
  if (!a.seed.empty()) base.seed = parse_seed(a.seed);
  for (const std::string& s : a.settings) base.settings.push_back(parse_setting(s));
  base.simulate = !a.real;
  if (a.real && a.jobs_given && a.jobs > 1)
    throw ConfigError("--jobs " + std::to_string(a.jobs),
                      "real points run one at a time, so that they do not disturb each other's timing; drop --jobs "
                      "or --real");

  const fs::path file = scenario_path(a.scenario);
  const json raw = read_scenario_json(file);
  json shared;
  try {
    shared = apply_overrides(raw, base);
  } catch (const ConfigError& e) {
    throw ScenarioError(file.string(), e);
  }

  Sweep sweep;
  sweep.params = parse_params(a.params, shared);
  sweep.metrics = parse_metrics(a.metrics);
  if (!a.shard.empty()) sweep.shard = parse_shard(a.shard);
  sweep.real = a.real;
  sweep.total = grid_size(sweep.params);
  sweep.scenario_file = file.string();

  // Every destination is decided before anything runs.
  std::optional<Destination> csv, json_dest;
  if (!a.csv.empty() || !a.json_out.empty()) {
    if (!a.csv.empty()) csv = plan_destination("--csv", a.csv);
    if (!a.json_out.empty()) json_dest = plan_destination("--json", a.json_out);
  }
  if (!a.out_dir.empty()) check_out_dir(a.out_dir);

  // Every point of this shard is parsed (and its pools built once) before any
  // runs: a value that only fails beside another (ants' PreAlloc with an
  // unlimited size) is bad input too, with the point named.
  std::vector<std::pair<std::size_t, Scenario>> points;
  for (std::size_t i : shard_points(sweep.total, sweep.shard)) {
    try {
      Scenario s = parse_scenario(apply_overrides(raw, point_overrides(base, sweep.params, i)), file.string(),
                                  file.parent_path());
      if (points.empty()) count_workload(s, a.limits);  // the workload is every point's
      points.emplace_back(i, std::move(s));
    } catch (const ConfigError& e) {
      throw ConfigError("--param", "point " + std::to_string(i) + " (" + describe_point(sweep.params, i) +
                                       "): " + e.what());
    }
  }
  if (!points.empty()) {
    const Scenario& first = points.front().second;
    sweep.scenario_name = first.name;
    sweep.simulation = first.simulation ? first.simulation->to_json() : json(nullptr);
  }
  if (!a.out_dir.empty()) fs::create_directories(a.out_dir);

  const bool json_to_stdout = json_dest && json_dest->kind == Destination::Kind::descriptor && json_dest->fd == 1;
  const bool csv_to_stdout = csv && csv->kind == Destination::Kind::descriptor && csv->fd == 1;
  const bool table = !a.quiet && !json_to_stdout && !csv_to_stdout;
  const bool tty = !a.quiet && isatty(STDERR_FILENO);
  if (points.empty() && !a.quiet)
    std::cerr << "poolscope: shard " << sweep.shard.k << "/" << sweep.shard.n << " has none of the " << sweep.total
              << " points\n";

  RunSettings settings;
  settings.jobs = a.real ? 1 : (a.jobs ? a.jobs : usable_cpus());
  if (!a.out_dir.empty()) settings.out_dir = a.out_dir;
  SweepOutcome outcome = run_points(points, sweep, settings, [&](std::size_t done) {
    if (tty) std::fprintf(stderr, "\rpoint %zu of %zu", done, points.size());
    return signal() == 0;
  });
  if (tty) std::fprintf(stderr, "\r%40s\r", "");
  if (outcome.stopped) {
    std::cerr << "poolscope: sweep stopped after " << outcome.points.size() << " of " << points.size()
              << " points; nothing written\n";
    return 128 + signal();
  }

  // Rendered whole, each written atomically (or through, for '-', a FIFO...).
  auto write = [&](const Destination& d, const std::function<void(std::ostream&)>& f) {
    if (d.kind == Destination::Kind::descriptor && d.fd == 1 && d.shown == "-")
      f(std::cout);
    else
      write_destination(d, f);
  };
  if (json_dest) write(*json_dest, [&](std::ostream& o) { o << sweep_json(sweep, outcome.points).dump(2) << "\n"; });
  if (csv) write(*csv, [&](std::ostream& o) { write_csv(o, sweep, outcome.points); });
  if (table) {
    std::cout << sweep.scenario_file << ": " << points.size() << " of " << sweep.total << " points, "
              << (a.real ? "real threads" : "simulated") << "\n";
    print_sweep_table(std::cout, sweep, outcome.points);
  }
  for (const PointResult& r : outcome.points)
    if (r.status != "ok" && r.status != "stopped")
      std::cerr << "poolscope: point " << r.index << " (" << describe_point(sweep.params, r.index) << "): "
                << r.status << (r.problem.empty() ? "" : ": " + r.problem) << "\n";
  return overall_status(outcome.points) == "ok" ? kOk : kFailed;
}

}  // namespace poolscope::runner
