#include "scenarios/engine/process_stats.h"

#include <sys/resource.h>
#include <unistd.h>

#include <fstream>

namespace poolscope::scenario {

ProcessSample sample_process() {
  ProcessSample s;
  rusage ru{};
  if (getrusage(RUSAGE_SELF, &ru) == 0) {
    s.cpu_seconds = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                    static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
    s.peak_rss_bytes = static_cast<std::uint64_t>(ru.ru_maxrss) * 1024;
  }
  std::ifstream statm("/proc/self/statm");
  std::uint64_t size = 0, resident = 0;
  if (statm >> size >> resident) s.rss_bytes = resident * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
  return s;
}

}  // namespace poolscope::scenario
