// A scenario: the workload (phases of arrivals, the tasks they bring) and the
// pools to compare under it. Parsed from a JSON file (docs/scenario-format.md);
// every error names the file, the JSON path and what was expected, and a
// scenario that fails to parse never runs.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pools/core/pool.h"
#include "pools/core/sim/machine.h"
#include "scenarios/engine/distribution.h"

namespace poolscope::scenario {

inline constexpr std::string_view kScenarioFormat = "poolscope-scenario/1";
// Structural bounds, checked before anything is built (docs/scenario-format.md, "Limits").
inline constexpr std::size_t kMaxPhases = 10'000;
inline constexpr std::size_t kMaxPools = 64;
inline constexpr std::uintmax_t kMaxInputBytes = 64ull << 20;  // a scenario or replay file: 64 MiB

// A ConfigError that also names the file: "x.json: /phases/2/arrival/rate: expected ...".
class ScenarioError : public ConfigError {
 public:
  ScenarioError(std::string file, const ConfigError& e);
  const std::string& file() const { return file_; }
  const char* what() const noexcept override { return full_.c_str(); }

 private:
  std::string file_;
  std::string full_;
};

struct TaskSpec {
  enum class Kind { sleep, spin };  // I/O-bound (waits on the clock) or CPU-bound (burns CPU time)
  Kind kind = Kind::sleep;
  Distribution duration = Distribution::fixed(Nanos(0));
  double throw_probability = 0;            // the task throws at its end with this probability
  int priority_min = 0, priority_max = 0;  // uniform integer priority, for priority queues
  struct Children {
    int count = 0;                   // submitted to the same pool at the end of the task's own work
    bool wait = false;               // and then waited for (the nested-submit deadlock)
    std::shared_ptr<TaskSpec> task;  // what each child is
  };
  std::optional<Children> children;
};

struct ArrivalSpec {
  enum class Kind { constant, poisson, burst, ramp, idle, closed_loop, replay };
  Kind kind = Kind::idle;
  double rate = 0;          // constant, poisson: tasks per second
  int count = 0;            // burst: tasks at once
  Nanos every{0};           // burst: period (0: once, at the phase start)
  double from = 0, to = 0;  // ramp: rate at the start and end of the phase
  bool poisson = false;     // ramp: Poisson arrivals instead of evenly spaced
  int clients = 0;          // closed_loop: each submits, waits for its task, thinks, repeats
  Distribution think = Distribution::fixed(Nanos(0));
  std::string file;          // replay: CSV of arrival times (seconds from the phase start)
  std::vector<Nanos> times;  // replay: loaded from the file
};

struct Phase {
  std::string name;
  Nanos duration{0};
  ArrivalSpec arrival;
  TaskSpec task;
};

struct PoolEntry {
  std::string name;       // how results call it (unique in the scenario)
  std::string design;     // registry name
  json config;            // as written; validated against the registry
  bool optional = false;  // skipped, with a note, when `design` is not registered in this build
};

enum class Schedule {
  side_by_side,  // all pools on one timeline at once (sleep-bound work)
  sequential,    // one pool after another, each alone on the machine (CPU-bound work)
};

// Run in a deterministic simulation (pools/core/sim/) instead of on real
// threads and real time: the machine it models and how it schedules.
struct SimulationSpec {
  int cpus = 2;
  // "runtime": each pool on its design's runtime's costs (Design::runtime);
  // or a preset for every pool, with overrides: "goroutines,wake=1us".
  std::string costs = std::string(sim::kRuntimeCosts);
  std::string policy = "random";     // random, pct or fifo
  std::optional<std::uint64_t> seed; // the schedule's; unset: derived from the scenario's seed
  json to_json() const;
};

struct Scenario {
  std::string file;  // where it was read from ("" if built in code)
  std::string name;
  std::string lesson;       // one line: what it teaches
  std::string description;  // what to look at, a paragraph
  std::uint64_t seed = 1;
  double time_scale = 1;  // scenario seconds per wall second
  Schedule schedule = Schedule::side_by_side;
  int submitters = 1;  // threads submitting the open-loop arrivals, per pool
  // No task starts or ends this long while some are outstanding: stalled.
  // Unset: 10 s, or twice the longest task of the workload if that is longer.
  std::optional<Nanos> watchdog;
  ShutdownMode drain = ShutdownMode::graceful;  // how pools are shut down after the last phase
  std::optional<SimulationSpec> simulation;     // unset: real threads on real (scaled) time
  std::vector<Phase> phases;
  std::vector<PoolEntry> pools;  // the pools to run
  // Optional entries whose design is not registered in this build (a lab's
  // student pool before -DPOOLSCOPE_STUDENT_LABS): not run, not in pools.
  std::vector<PoolEntry> skipped;

  Nanos duration() const;  // sum of the phases
  json to_json() const;    // normalized: what the run actually used (skipped pools left out)
};

// Why an optional pool was skipped, in one line: "design 'x' is not registered in this build".
std::string skip_reason(const PoolEntry& e);

// Parses and validates `j` (pool configs against the registry too). `file`
// names the source in errors; `base_dir` resolves replay CSV files.
Scenario parse_scenario(const json& j, const std::string& file, const std::filesystem::path& base_dir);
// Reads a scenario file's JSON: a regular file of at most kMaxInputBytes,
// valid JSON, nested at most kMaxJsonDepth deep; errors are ScenarioErrors.
json read_scenario_json(const std::filesystem::path& file);
// The same for text already in memory (`file` names it in errors).
json parse_scenario_text(std::string_view text, const std::string& file);
// A replay CSV's arrival times (docs/scenario-format.md), from its text;
// errors are ConfigErrors at `json_path` naming `name` and the line.
std::vector<Nanos> parse_replay_csv(std::string_view text, const std::string& name, const std::string& json_path,
                                    Nanos phase_duration);
// "not valid JSON: <the parser's message>", at most 300 characters.
std::string json_error_text(const json::exception& e);
// Reads, parses and validates a scenario file; errors are ScenarioErrors.
Scenario load_scenario(const std::filesystem::path& file);

// Command-line adjustments, applied before validation.
struct Overrides {
  // Keep only these: the entry of that name, else every entry of that design,
  // else that registered design with its defaults. A pool picked by name is
  // required, even if the scenario marks it optional.
  std::vector<std::string> pools;
  std::vector<std::pair<std::string, json>> settings;  // "POOL.PARAM" -> value
  std::optional<std::uint64_t> seed;
  std::optional<double> time_scale;
  // --sim / --real, --cpus, --costs, --policy
  std::optional<bool> simulate;
  std::optional<int> cpus;
  std::optional<std::string> costs, policy;
  std::optional<std::uint64_t> sim_seed;  // --sim-seed: replays one schedule of `explore`
};
// Applies `o` to the scenario's JSON; errors name the option.
json apply_overrides(json j, const Overrides& o);

}  // namespace poolscope::scenario
