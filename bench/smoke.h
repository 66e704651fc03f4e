// `--smoke`: how the test suite runs a benchmark binary (bench/CMakeLists.txt).
// Every benchmark once, on a small part of its work, to show that it runs to
// the end; the figures of such a run mean nothing. Each binary takes the
// flag, and the ones whose benchmarks are long shrink them by it.
#pragma once

#include <string_view>

namespace poolscope::bench {

// Removes `--smoke` from the command line, before Google Benchmark reads it
// (it refuses flags it does not know), and says whether it was there.
inline bool take_smoke_flag(int& argc, char** argv) {
  bool smoke = false;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--smoke")
      smoke = true;
    else
      argv[kept++] = argv[i];
  }
  argc = kept;
  argv[argc] = nullptr;
  return smoke;
}

}  // namespace poolscope::bench
