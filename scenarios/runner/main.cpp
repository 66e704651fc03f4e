// poolscope: the headless runner. Compares pool designs under a scenario and
// writes what happened as a table, JSON, a Chrome trace or CSV.
//
// Exit codes: 0 success; 1 invariant breach or stall; 2 bad input or usage.
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <thread>

#include <CLI/CLI.hpp>

#include "pools/core/registry.h"
#include "scenarios/engine/atomic_file.h"
#include "scenarios/engine/explore.h"
#include "scenarios/engine/exports.h"
#include "scenarios/engine/json_reader.h"
#include "scenarios/engine/library.h"
#include "scenarios/engine/result_json.h"
#include "scenarios/engine/version.h"
#include "scenarios/runner/args.h"
#include "scenarios/runner/challenge_command.h"
#include "scenarios/runner/schedule_option.h"
#include "scenarios/runner/sweep_command.h"
#include "scenarios/runner/table.h"
#include "scenarios/runner/findings_table.h"
#include "scenarios/runner/theory_table.h"

namespace {

using namespace poolscope;
using namespace poolscope::scenario;
using runner::human_duration;
using runner::parse_number;
using runner::parse_seed;
using runner::parse_setting;
using runner::scenario_path;

constexpr int kOk = 0, kFailed = 1, kBadInput = 2;

// SIGINT / SIGTERM: the first asks the run to stop (it then writes what it
// has, status "stopped"); the second ends the process at once, removing the
// temporary file of a result being written. Exit code 128 + the signal.
// Atomics, not a volatile sig_atomic_t: the handler may run on any of the
// run's threads, and the main thread reads the flag (a lock-free atomic is
// safe in a handler, and a race-free read from another thread).
std::atomic<int> g_signal{0};
std::atomic<int> g_signals{0};
static_assert(std::atomic<int>::is_always_lock_free);

extern "C" void on_signal(int sig) {
  if (g_signals.fetch_add(1) >= 1) {
    remove_temporary_file_now();
    ::_exit(128 + sig);
  }
  g_signal = sig;
}

void install_signal_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  // Inherited blocked (a parent that blocks them around fork): a signal sent
  // before this point is pending, and now arrives at the handler.
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
}

// Waits for the run, stopping it when a signal arrives.
void wait_or_stop(Run& run) {
  while (!run.finished()) {
    if (g_signal) run.stop();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  run.wait();
}

int list_pools(bool as_json) {
  const Registry& r = Registry::global();
  if (as_json) {
    json out = json::array();
    for (const auto& name : r.names()) out.push_back(r.get(name).to_json());
    std::cout << out.dump(2) << "\n";
    return kOk;
  }
  for (const auto& name : r.names()) {
    const Design& d = r.get(name);
    std::cout << std::left << std::setw(14) << d.name << " " << std::setw(9) << d.origin << " " << d.summary << "\n";
  }
  return kOk;
}

int describe_pool(const std::string& name, bool as_json) {
  const Design& d = Registry::global().get(name);
  if (as_json) {
    std::cout << d.to_json().dump(2) << "\n";
    return kOk;
  }
  std::cout << d.name << ": " << d.summary << "\n";
  if (!d.docs.empty()) std::cout << "docs: " << d.docs << "\n";
  if (d.params.empty()) std::cout << "\n(no parameters)\n";
  for (const ParamSpec& p : d.params) {
    std::cout << "\n  " << p.name << " (" << type_name(p.type) << (p.live ? ", live" : "") << ")\n";
    std::cout << "    default " << p.default_value.dump();
    if (!p.min.is_null() || !p.max.is_null())
      std::cout << ", range [" << (p.min.is_null() ? "" : p.min.dump()) << ", " << (p.max.is_null() ? "" : p.max.dump())
                << "]";
    if (!p.choices.empty()) {
      std::cout << ", one of";
      for (const auto& c : p.choices) std::cout << " " << c;
    }
    if (!p.unit.empty()) std::cout << ", unit " << p.unit;
    std::cout << "\n    " << p.help << "\n";
  }
  return kOk;
}

int list_scenarios(bool as_json) {
  // No library at all is a broken installation, not an empty list.
  if (std::error_code ec; !std::filesystem::is_directory(library_dir(), ec))
    throw ConfigError("", "no shipped scenarios: '" + library_dir().string() + "' is not a directory (" +
                              library_dir_origin() + ")");
  auto entries = list_library();
  if (as_json) {
    json out = json::array();
    for (const auto& e : entries) out.push_back({{"name", e.name}, {"lesson", e.lesson}, {"file", e.file.string()}});
    std::cout << out.dump(2) << "\n";
    return kOk;
  }
  for (const auto& e : entries) std::cout << std::left << std::setw(22) << e.name << " " << e.lesson << "\n";
  return kOk;
}

Scenario load_with_overrides(const std::string& arg, const Overrides& o) {
  std::filesystem::path file = scenario_path(arg);
  json j = read_scenario_json(file);
  try {
    j = apply_overrides(std::move(j), o);
  } catch (const ConfigError& e) {
    throw ScenarioError(file.string(), e);
  }
  return parse_scenario(j, file.string(), file.parent_path());
}

// One line per optional pool the scenario names but this build lacks.
void note_skipped(const Scenario& s) {
  for (const PoolEntry& e : s.skipped)
    std::cerr << "poolscope: note: skipping optional pool '" << e.name << "': " << skip_reason(e) << "\n";
}

// Counts, never generates: validating 10 million tasks costs no memory, and
// a workload past the bound is refused with its phase named.
int validate(const std::string& arg, const Limits& limits) {
  Scenario s = load_scenario(scenario_path(arg));
  note_skipped(s);
  WorkloadCount w;
  try {
    w = count_workload(s, limits);
  } catch (const ConfigError& e) {
    throw ScenarioError(s.file, e);
  }
  std::cout << s.file << ": ok: \"" << s.name << "\", " << s.phases.size() << " phases, " << w.arrivals
            << " scheduled tasks" << (w.tasks > w.arrivals ? " (" + std::to_string(w.tasks) + " with children)" : "")
            << (w.clients == 0 ? "" : ", " + std::to_string(w.clients) + " clients")
            << ", " << s.pools.size() << " pools"
            << (s.skipped.empty() ? "" : " (" + std::to_string(s.skipped.size()) + " optional skipped)") << ", "
            << human_duration(static_cast<double>(s.duration().count()) / 1e9) << " of scenario time ("
            << human_duration(static_cast<double>(s.duration().count()) / 1e9 / s.time_scale) << " at time scale "
            << s.time_scale << ")\n";
  return kOk;
}

struct RunArgs {
  std::string scenario{kDefaultScenario};
  Overrides overrides;
  std::vector<std::string> settings;
  std::string out, json_out, chrome, csv;
  bool out_given = false, json_given = false, chrome_given = false, csv_given = false;
  bool events = false, quiet = false;
  Limits limits;
  std::string seed;
  std::string schedule;  // --schedule FILE (schedule_option.h)
  bool scenario_given = false;
};

// A destination that cannot be written is bad input, found before the run
// (exit 2), not after it. `directory`: --csv, created if missing.
void check_destination(const std::string& flag, const std::string& value, bool directory) {
  namespace fs = std::filesystem;
  if (value.empty() || (value == "-" && !directory)) return;
  const fs::path p = value;
  auto fail = [&](const std::string& why) { throw ConfigError(flag + " " + value, why); };
  std::error_code ec;
  fs::path dir;
  if (directory) {
    // The nearest part of the path that exists must be a directory we can write in.
    dir = p;
    while (!dir.empty() && !fs::exists(dir, ec)) dir = dir.parent_path();
    if (dir.empty()) dir = ".";
  } else {
    if (fs::is_directory(p, ec)) fail("is a directory; expected a file name");
    dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
    if (!fs::exists(dir, ec)) fail("the directory '" + dir.string() + "' does not exist");
  }
  if (!fs::is_directory(dir, ec)) fail("'" + dir.string() + "' is not a directory");
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    fail("cannot write in the directory '" + dir.string() + "': " + std::strerror(errno));
}

// Why the watchdog fired, for the messages below.
std::string stall_why(const PoolOutcome& p, const RunOutcome& outcome) {
  if (p.stall->reason == "overrun")
    return "still busy " +
           runner::human_duration(
               static_cast<double>(overrun_limit(outcome.watchdog, outcome.workload_end).count()) / 1e9) +
           " after the workload ended (tasks kept starting and ending, but the run would not end)";
  const std::string watchdog = runner::human_duration(static_cast<double>(outcome.watchdog.count()) / 1e9);
  if (p.stall->reason == "parents-blocked")
    return "every worker waited " + watchdog +
           " for children queued behind it (tasks kept starting and ending elsewhere, e.g. run by the caller)";
  return "no task started or ended for " + watchdog;
}

// With no table (--quiet, --json -), a stall still gets a line on stderr.
void note_stalls(const RunOutcome& outcome) {
  for (const PoolOutcome& p : outcome.pools) {
    if (!p.stall) continue;
    std::cerr << "poolscope: " << p.name << " stalled at "
              << runner::human_duration(static_cast<double>(p.stall->at.count()) / 1e9) << ": " << stall_why(p, outcome)
              << " with "
              << outstanding(p.stall->accounting) << " tasks outstanding; it was shut down at once"
              << (p.shutdown_hung ? " and did not finish shutting down" : "") << "\n";
  }
}

void show_progress(Run& run, double expected_wall) {
  bool tty = isatty(STDERR_FILENO);
  if (!tty || expected_wall < 1.0) {
    wait_or_stop(run);
    return;
  }
  while (!run.finished()) {
    if (g_signal) run.stop();
    double p = run.progress();
    int filled = static_cast<int>(p * 30);
    std::fprintf(stderr, "\r[%-30s] %3.0f%%  %s scenario time",
                 std::string(static_cast<std::size_t>(filled), '#').c_str(), p * 100,
                 runner::human_duration(static_cast<double>(run.now().count()) / 1e9).c_str());
    std::fflush(stderr);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  std::fprintf(stderr, "\r%60s\r", "");
  wait_or_stop(run);
}

int run(RunArgs& a) {
  if (!a.seed.empty()) a.overrides.seed = parse_seed(a.seed);
  for (const auto& s : a.settings) a.overrides.settings.push_back(parse_setting(s));
  std::unique_ptr<sim::Stepper> replay;
  if (!a.schedule.empty()) replay = runner::apply_schedule_file(a.schedule, a.scenario_given, a.scenario, a.overrides);
  Scenario s = load_with_overrides(a.scenario, a.overrides);
  // Every destination is decided before the run: a FIFO or a terminal is
  // written through, a regular file replaced atomically, the rest refused.
  std::vector<std::pair<Destination, bool>> results;  // (where, is --json)
  std::optional<Destination> chrome;
  if (a.out_given) results.emplace_back(plan_destination("--out", a.out), false);
  if (a.json_given) results.emplace_back(plan_destination("--json", a.json_out), true);
  if (a.chrome_given) chrome = plan_destination("--chrome-trace", a.chrome);
  if (a.csv_given && a.csv.empty()) throw ConfigError("--csv \"\"", "expected a directory name, got an empty one");
  check_destination("--csv", a.csv, true);
  note_skipped(s);
  bool json_to_stdout = std::any_of(results.begin(), results.end(), [](const auto& r) {
    return r.first.kind == Destination::Kind::descriptor && r.first.fd == 1;
  });
  bool table = !a.quiet && !json_to_stdout;

  RunOptions options;
  options.keep_events = a.events;
  options.limits = a.limits;
  options.chooser = replay.get();
  try {
    count_workload(s, a.limits);  // before anything is generated or started
  } catch (const ConfigError& e) {
    throw ScenarioError(s.file, e);
  }
  Run r(s, options);
  r.start();
  double segments = s.schedule == Schedule::sequential ? static_cast<double>(s.pools.size()) : 1.0;
  if (table && !r.simulated())
    show_progress(r, static_cast<double>(s.duration().count()) / 1e9 / s.time_scale * segments);
  else
    wait_or_stop(r);
  const RunOutcome& outcome = r.outcome();
  const metrics::RunMetrics& m = r.metrics();
  if (replay && !replay->error().empty()) {
    std::cerr << "poolscope: " << a.schedule << ": /picks: " << replay->error() << "\n";
    std::cerr.flush();
    std::_Exit(kBadInput);  // the World's threads were abandoned where they stood, as below
  }
  if (outcome.simulation && outcome.simulation->failure) {
    // The World's threads were abandoned where they stood: nothing is
    // written, and nothing of theirs can be cleaned up.
    std::cerr << "poolscope: " << s.file << ": " << *outcome.simulation->failure;
    std::cerr.flush();
    std::_Exit(kFailed);
  }
  // A stalled pool that did not even shut down leaves threads stuck inside
  // it: write everything first, then leave without running destructors.
  const bool hung =
      std::any_of(outcome.pools.begin(), outcome.pools.end(), [](const PoolOutcome& p) { return p.shutdown_hung; });
  auto leave_if_hung = [&] {
    if (!hung) return;
    std::cerr << "poolscope: a stalled pool did not shut down; exiting without cleaning up\n";
    std::cout.flush();
    std::cerr.flush();
    std::_Exit(kFailed);
  };

  ResultOptions ro{.include_events = a.events};
  auto write = [&](std::ostream& o) { write_result(o, s, outcome, m, ro); };
  try {
    for (const auto& [dest, is_json] : results) {
      if (dest.kind == Destination::Kind::descriptor && dest.fd == 1 && dest.shown == "-")
        write(std::cout);
      else
        write_destination(dest, write);
    }
    if (chrome) write_destination(*chrome, [&](std::ostream& o) { write_chrome_trace(o, s, m); });
    if (!a.csv.empty()) write_csv_series(a.csv, m);
  } catch (const std::exception& e) {
    if (!hung) throw;
    std::cerr << "poolscope: " << e.what() << "\n";
    leave_if_hung();
  }

  RunStatus status = run_status(outcome, m);
  if (table) {
    runner::print_summary_table(std::cout, s, outcome, m);
    runner::print_theory(std::cout, s, outcome, m);
    runner::print_findings(std::cout, outcome, m);
    if (outcome.thread_refused)
      std::cout << "\nthe system refused a thread (" << *outcome.thread_refused << "): the run ended early\n";
    if (outcome.events_dropped)
      std::cout << "\nnote: the trace dropped " << outcome.events_dropped
                << " events (its consumer fell behind; the row \"trace events dropped\" says whose, and "
                   "docs/reliability.md why and how to avoid it)\n";
    for (const PoolOutcome& p : outcome.pools) {
      if (!p.stall) continue;
      std::cout << "\n"
                << p.name << " STALLED at " << runner::human_duration(static_cast<double>(p.stall->at.count()) / 1e9)
                << ": " << stall_why(p, outcome) << " with "
                << outstanding(p.stall->accounting) << " tasks outstanding (workers " << p.stall->state.workers
                << ", busy " << p.stall->state.busy << ", queued " << p.stall->state.queued << ", blocked submitters "
                << p.stall->state.blocked << "); it was shut down at once.\n";
    }
  } else {
    note_stalls(outcome);
    if (outcome.thread_refused)
      std::cerr << "poolscope: the system refused a thread (" << *outcome.thread_refused
                << "): the run ended early, status thread-refused\n";
    if (outcome.events_dropped) {
      std::string whose;
      for (const PoolOutcome& p : outcome.pools)
        if (p.events_dropped) whose += (whose.empty() ? "" : ", ") + p.name + " " + std::to_string(p.events_dropped);
      std::cerr << "poolscope: the trace dropped " << outcome.events_dropped << " events (" << whose
                << "; the consumer fell behind): status trace-incomplete\n";
    }
  }
  if (status == RunStatus::invariant_breach) {
    for (const PoolOutcome& p : outcome.pools)
      if (const auto* pm = m.pool(p.trace_id))
        if (auto why = invariant_problem(p, pm->totals(), outcome.events_dropped == 0); !why.empty())
          std::cerr << "poolscope: invariant breach in " << p.name << ": " << why << "\n";
  }
  leave_if_hung();
  if (g_signal) return 128 + g_signal;  // stopped by SIGINT/SIGTERM: 130/143, result written
  return status == RunStatus::ok || status == RunStatus::stopped ? kOk : kFailed;
}

struct ExploreArgs {
  std::string scenario{kDefaultScenario};
  std::string pool;
  int schedules = 1000;
  std::string first_seed = "1";
  std::string policy;  // "": random and pct in turn
  std::string out = "explore-failure.json";
  long long max_workers = -1, max_queued = -1;  // -1: no bound
};

// Runs the scenario's pool (or --pool) under many simulated schedules and
// stops at the first that goes wrong: its seed, the command that replays
// it, and its whole trace for the GUI.
int explore_schedules(const ExploreArgs& a) {
  Overrides o;
  if (!a.pool.empty()) o.pools = {a.pool};
  o.simulate = true;
  Scenario s = load_with_overrides(a.scenario, o);
  ExploreOptions eo;
  eo.schedules = a.schedules;
  eo.first_seed = parse_seed(a.first_seed, "--first-seed");
  if (!a.policy.empty()) {
    // fifo is one schedule, not a family to explore: `run --sim --policy fifo` runs it.
    if (a.policy != "random" && a.policy != "pct")
      throw ConfigError("--policy " + scenario::describe_json(json(a.policy)),
                        "expected random or pct (explore draws schedules; fifo is a single one: `poolscope run "
                        "--sim --policy fifo` runs it)");
    eo.policy = sim::parse_policy(a.policy);
  }
  if (a.max_workers >= 0) eo.max_workers = static_cast<std::uint32_t>(a.max_workers);
  if (a.max_queued >= 0) eo.max_queued = static_cast<std::uint32_t>(a.max_queued);
  Destination dest = plan_destination("--out", a.out);
  const bool tty = isatty(STDERR_FILENO);
  auto started = std::chrono::steady_clock::now();
  ExploreResult r = explore(s, eo, [&](int i) {
    if (tty && i % 25 == 0) std::fprintf(stderr, "\rschedule %d of %d", i + 1, a.schedules);
    return g_signal == 0;
  });
  if (tty) std::fprintf(stderr, "\r%40s\r", "");
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::string who = a.pool.empty() ? "its pools" : "pool '" + a.pool + "'";
  if (!r.failure) {
    std::cout << s.file << ": " << r.ran << " schedules of " << who << " in " << runner::human_duration(wall)
              << ": no failure (random and PCT schedules are a sample: a pass is not a proof)\n";
    return g_signal ? 128 + g_signal : kOk;
  }
  const ExploreFailure& f = *r.failure;
  std::cout << s.file << ": schedule " << f.schedule + 1 << " of " << who << " failed (seed " << f.settings.seed
            << ", " << sim::to_string(f.settings.policy) << ", after " << r.ran << " schedules, "
            << runner::human_duration(wall) << "):\n  " << f.problem << "\n";
  // Replayed with every event: the same schedule, so the same failure.
  RunOptions ro;
  ro.simulation = f.settings;
  ro.keep_events = true;
  // Stepped by a chooser that takes the policy's every pick: the same run,
  // with its schedule in the result, which `run --schedule` and the GUI open.
  sim::Stepper seed_picks({}, sim::Stepper::After::policy);
  ro.chooser = &seed_picks;
  RunResult again = run_scenario(s, ro);
  std::string replayed = run_problem(again.outcome, again.metrics);
  if (replayed.empty()) replayed = bound_problem(again.outcome, again.metrics, eo);
  if (replayed != f.problem) std::cout << "  warning: the replay did not fail the same way: " << replayed << "\n";
  const std::string replay = "poolscope run " + a.scenario + (a.pool.empty() ? "" : " --pool " + a.pool) +
                             " --sim-seed " + std::to_string(f.settings.seed) + " --policy " +
                             std::string(sim::to_string(f.settings.policy));
  // The failure, its moment and the replay command go into the file too: the GUI opens it there.
  const ProblemMoment moment = problem_moment(again.outcome, again.metrics);
  ResultOptions ro_out{.include_events = true};
  ro_out.explore = ExploreNote{f.schedule + 1, r.ran, f.problem, moment.at, moment.since, replay};
  write_destination(dest, [&](std::ostream& out) { write_result(out, s, again.outcome, again.metrics, ro_out); });
  std::cout << "  its trace: " << dest.shown << " (open it in poolscope-gui: it opens at the failure)\n"
            << "  replay it: " << replay << "\n"
            << "  or decision by decision: poolscope run --schedule " << dest.shown << " (its "
            << again.outcome.simulation->schedule->size() << " picks)\n";
  std::cout.flush();
  // A failed simulation abandoned its threads where they stood: leave without cleaning up after them.
  if (again.outcome.simulation && again.outcome.simulation->failure) std::_Exit(kFailed);
  return kFailed;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"poolscope: compare worker-pool designs under the same scripted workload"};
  app.require_subcommand(1);
  app.footer("Exit codes: 0 success, 1 invariant breach or stall, 2 bad input or usage.");
  app.set_version_flag("--version", version_line("poolscope"), "print the version and the commit built, then exit");

  RunArgs ra;
  auto* run_cmd = app.add_subcommand("run", "run a scenario and compare its pools");
  run_cmd->add_option("SCENARIO", ra.scenario, "a scenario file, or a shipped scenario's name (default: tour)");
  run_cmd->add_option(
      "--pool", ra.overrides.pools,
      "run only this pool (repeatable): the scenario's pool of that name, else its pools of that design, else a "
      "registered design with its defaults");
  run_cmd->add_option("--set", ra.settings, "POOL.PARAM=VALUE: override a pool parameter (repeatable)");
  run_cmd->add_option("--seed", ra.seed, "override the scenario's seed (an integer in [0, 2^64-1])");
  // Range-checked by apply_overrides, whose message names the bounds plainly.
  std::string time_scale_text, sim_seed_text;
  run_cmd->add_option("--time-scale", time_scale_text, "scenario seconds per wall second, in [0.001, 1000]");
  // Two plain flags: CLI11 gives an optional<bool> flag a value even when it is absent.
  bool sim_flag = false, real_flag = false;
  run_cmd->add_flag("--sim", sim_flag, "run in the deterministic simulation (virtual time, a modelled machine)");
  // Not CLI11's excludes(): its message does not say what to do.
  run_cmd->add_flag("--real", real_flag, "run on real threads even if the scenario asks for the simulation");
  run_cmd->add_option("--cpus", ra.overrides.cpus, "simulation: the modelled machine's CPUs, in [1, 4096] (implies --sim)");
  run_cmd->add_option("--costs", ra.overrides.costs,
                      "simulation: os-threads, goroutines, jvm or free, with overrides like goroutines,wake=1us (implies --sim)");
  run_cmd->add_option("--policy", ra.overrides.policy, "simulation: random, pct or fifo scheduling (implies --sim)");
  // Strings, read by parse_seed and parse_number: CLI11 wraps "-3" into an
  // unsigned and takes "nan" for a number.
  run_cmd->add_option("--schedule", ra.schedule,
                      "simulation: replay a schedule (a poolscope-schedule/1 file, or a stepped run's result) pick by "
                      "pick, then on under its seed (implies --sim; docs/challenges.md)");
  run_cmd->add_option("--sim-seed", sim_seed_text, "simulation: the schedule's seed, as explore prints it (implies --sim)");

  ExploreArgs ea;
  auto* explore_cmd = app.add_subcommand("explore", "run a scenario under many simulated schedules until one fails");
  explore_cmd->add_option("SCENARIO", ea.scenario, "a scenario file, or a shipped scenario's name (default: tour)");
  explore_cmd->add_option("--pool", ea.pool, "the pool to explore (an entry's name or a design); default: every pool");
  explore_cmd->add_option("--schedules", ea.schedules, "how many schedules, in [1, 1000000]")
      ->check(CLI::Range(1, 1'000'000));
  explore_cmd->add_option("--first-seed", ea.first_seed, "the first schedule's seed (then +1 each)");
  explore_cmd->add_option("--policy", ea.policy, "random or pct only (default: the two in turn)");
  explore_cmd->add_option("--out", ea.out, "where a failing schedule's result (with every event) is written");
  explore_cmd->add_option("--max-workers", ea.max_workers,
                          "a schedule fails if a pool has more workers alive at once (a limit its parameters set)")
      ->check(CLI::Range(0ll, 1'000'000ll));
  explore_cmd->add_option("--max-queued", ea.max_queued,
                          "a schedule fails if a pool has more tasks queued at once (a bound its parameters set)")
      ->check(CLI::Range(0ll, 1'000'000ll));
  run_cmd->add_option("--out", ra.out, "write the result JSON here ('-' for stdout)");
  run_cmd->add_option("--json", ra.json_out, "write the result JSON here ('-' for stdout, no table)");
  run_cmd->add_flag("--events", ra.events, "include every trace event in the result JSON");
  run_cmd->add_option("--chrome-trace", ra.chrome, "write a Chrome/Perfetto trace here");
  run_cmd->add_option("--csv", ra.csv, "write each pool's counter series as CSV into this directory");
  run_cmd->add_flag("-q,--quiet", ra.quiet, "no progress bar, no table");
  const std::string max_tasks_help = "refuse a scenario that schedules more tasks than this (default 10000000)";
  run_cmd->add_option("--max-tasks", ra.limits.max_tasks, max_tasks_help)->check(CLI::Range(1ull, 1'000'000'000ull));

  runner::SweepArgs sa;
  auto* sweep_cmd = runner::add_sweep_command(app, sa);
  runner::ChallengeArgs ca;
  auto* challenge_cmd = runner::add_challenge_command(app, ca);

  std::string target;
  Limits validate_limits;
  auto* validate_cmd = app.add_subcommand("validate", "check a scenario file without running it");
  validate_cmd->add_option("SCENARIO", target, "a scenario file or a shipped scenario's name")->required();
  validate_cmd->add_option("--max-tasks", validate_limits.max_tasks, max_tasks_help)
      ->check(CLI::Range(1ull, 1'000'000'000ull));

  bool as_json = false;
  auto* pools = app.add_subcommand("pools", "list the registered pool designs");
  pools->add_flag("--json", as_json, "print JSON for scripts");
  auto* describe = app.add_subcommand("describe", "show a design's parameters: defaults, ranges, help");
  describe->add_option("POOL", target, "design name (see `poolscope pools`)")->required();
  describe->add_flag("--json", as_json, "print JSON for scripts");
  auto* scenarios = app.add_subcommand("scenarios", "list the shipped scenarios and what each teaches");
  scenarios->add_flag("--json", as_json, "print JSON for scripts");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? kOk : kBadInput;
  }
  install_signal_handlers();
  if (sim_flag || real_flag) ra.overrides.simulate = sim_flag;
  ra.out_given = run_cmd->count("--out") > 0;
  ra.scenario_given = run_cmd->count("SCENARIO") > 0;
  ra.json_given = run_cmd->count("--json") > 0;
  ra.chrome_given = run_cmd->count("--chrome-trace") > 0;
  ra.csv_given = run_cmd->count("--csv") > 0;
  try {
    if (*run_cmd) {
      if (sim_flag && real_flag)
        throw ConfigError("--sim --real", "expected one of them: --sim runs the simulation, --real real threads "
                                          "(without either, the scenario's \"simulation\" decides)");
      if (run_cmd->count("--time-scale"))
        ra.overrides.time_scale = parse_number(time_scale_text, "--time-scale", "expected a number in [0.001, 1000]");
      if (run_cmd->count("--sim-seed")) ra.overrides.sim_seed = parse_seed(sim_seed_text, "--sim-seed");
      return run(ra);
    }
    if (*explore_cmd) return explore_schedules(ea);
    if (*sweep_cmd) {
      sa.jobs_given = sweep_cmd->count("--jobs") > 0;
      return runner::run_sweep(sa, [] { return g_signal.load(); });
    }
    if (*challenge_cmd) return runner::run_challenge_command(ca, [] { return g_signal.load(); });
    if (*validate_cmd) return validate(target, validate_limits);
    if (*pools) return list_pools(as_json);
    if (*describe) return describe_pool(target, as_json);
    if (*scenarios) return list_scenarios(as_json);
  } catch (const ConfigError& e) {
    std::cerr << "poolscope: " << e.what() << "\n";
    return kBadInput;
  } catch (const std::exception& e) {
    std::cerr << "poolscope: " << e.what() << "\n";
    return kFailed;
  }
  return kOk;
}
