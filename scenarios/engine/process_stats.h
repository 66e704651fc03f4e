// What the process costs: CPU time, resident memory, threads. Read from the
// OS (getrusage, /proc), for the run's summary and the benchmarks.
#pragma once

#include <cstdint>

namespace poolscope::scenario {

struct ProcessSample {
  double cpu_seconds = 0;            // user + system, all threads
  std::uint64_t rss_bytes = 0;       // resident now
  std::uint64_t peak_rss_bytes = 0;  // high-water mark of the process so far
};

ProcessSample sample_process();

}  // namespace poolscope::scenario
