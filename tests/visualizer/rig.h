// A small real run, written as a result file, for the tests of the reader,
// the replay and the trace index.
#pragma once

#include <sstream>
#include <string>

#include "scenarios/engine/result_json.h"
#include "scenarios/engine/result_reader.h"

namespace poolscope::test {

// Two pools under bursts: fasthttp refuses some (2 workers, no queue) and its
// cleaner reaps; spawn starts a thread a task. Some tasks throw.
inline scenario::Scenario two_pools() {
  json j = {
      {"name", "reader"},
      {"lesson", "a result read back is the run that was written"},
      {"seed", 5},
      {"time_scale", 20},
      {"task", {{"duration", "20ms"}, {"throw_probability", 0.1}}},
      {"phases",
       {{{"name", "bursts"}, {"duration", "1s"}, {"arrival", {{"kind", "burst"}, {"count", 6}, {"every", "250ms"}}}},
        {{"name", "quiet"}, {"duration", "600ms"}, {"arrival", {{"kind", "idle"}}}}}},
      {"pools",
       {{{"design", "fasthttp"}, {"config", {{"MaxWorkersCount", 2}, {"MaxIdleWorkerDuration", "200ms"}}}},
        {{"design", "spawn"}}}},
  };
  return scenario::parse_scenario(j, "reader.json", ".");
}

struct Written {
  scenario::Scenario scenario;
  scenario::RunResult run;
  std::string text;  // the result document

  scenario::ResultFile read() const {
    std::istringstream in(text);
    return scenario::read_result(in, "r.json");
  }
};

inline Written run_and_write(bool events) {
  Written w;
  w.scenario = two_pools();
  w.run = scenario::run_scenario(w.scenario, scenario::RunOptions{.keep_events = true});
  std::ostringstream out;
  scenario::write_result(out, w.scenario, w.run.outcome, w.run.metrics,
                         scenario::ResultOptions{.include_events = events});
  w.text = out.str();
  return w;
}

}  // namespace poolscope::test
