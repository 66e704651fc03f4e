// A schedule as a file (docs/challenges.md, docs/schemas/schedule.schema.json):
// the picks made at each decision of a simulated run (pools/core/sim/
// decision.h) and the settings they were made under, so that `poolscope run
// --schedule FILE` replays the very run.
//
//   {"format": "poolscope-schedule/1", "scenario": "lab01-explore",
//    "pool": "lab01-fixed", "seed": 7, "policy": "random", "picks": "3.5x4.3"}
//
// A result file of a stepped run (its run.simulation holds "schedule") is
// read as a schedule too, so the result a student sends replays as it is.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pools/core/params.h"

namespace poolscope::scenario {

struct ScheduleSpec {
  std::optional<std::string> scenario;  // a shipped scenario's name or a file, if the schedule says
  std::optional<std::string> pool;      // the one pool the picks are for, if the run had only one
  std::optional<std::uint64_t> seed;    // the schedule seed (the policy after the picks)
  std::optional<std::string> policy;    // random, pct, fifo
  std::vector<std::uint64_t> picks;
};

// Reads a schedule file or a stepped run's result. Errors are ScenarioErrors
// naming the file and the JSON path ("/picks: pick 3 ('a'): expected ...").
ScheduleSpec read_schedule_file(const std::string& file);
// The same from a JSON value already parsed; `embedded` (a challenge's
// "solution"): "format" may be left out. Errors are ConfigErrors at `path`.
ScheduleSpec parse_schedule(const json& j, const std::string& path, bool embedded);
json schedule_json(const ScheduleSpec& s);

}  // namespace poolscope::scenario
