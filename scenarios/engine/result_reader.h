// Reading a result document back (the inverse of result_json.h): the
// scenario as run, each pool's config, summary and rules, and, when it was
// written with --events, every event, from which the same metrics the run had
// are rebuilt. The GUI replays runs through it.
//
// Events are read with a streaming parser, straight into Event records, so a
// file with a million events never becomes a million JSON values.
#pragma once

#include <filesystem>
#include <istream>
#include <map>
#include <string>
#include <vector>

#include "scenarios/engine/metrics.h"
#include "scenarios/engine/scenario.h"

namespace poolscope::scenario {

struct ResultPool {
  PoolInfo info;  // id: the pool's position in the file
  json config;
  json summary;
  json series;  // its counters over time, bucketed (docs/result-format.md), as written; null if absent
  std::map<std::string, std::string> rules;  // code -> the design's one-line reason
  std::size_t events = 0;                    // how many of the events are this pool's
  std::uint64_t events_dropped = 0;          // the trace's, by a real run that fell behind (trace-incomplete)
};

struct ResultFile {
  std::string file;
  std::string status;
  json scenario, environment, run;  // as written
  json explore;                     // a failing schedule's note from `poolscope explore`, else null
  json findings;                    // the findings the runner named (docs/findings.md); [] in older files
  std::vector<ResultPool> pools;
  bool has_events = false;  // written with --events
  // Every pool's events, merged by time; each pool's own events keep their
  // order. Event::pool is the pool's position in `pools`; rule codes are
  // interned as labels with the texts the file gives them.
  std::vector<Event> events;

  std::vector<PoolInfo> pool_infos() const;
  // The metrics the run had, rebuilt from the events (empty without them).
  metrics::RunMetrics metrics() const;
};

// Errors are ScenarioErrors naming the file and the JSON path ("/pools/1/events/17/kind").
ResultFile read_result(std::istream& in, const std::string& file = "result");
ResultFile load_result(const std::filesystem::path& file);

}  // namespace poolscope::scenario
