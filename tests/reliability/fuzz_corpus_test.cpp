// Every input the fuzzers keep (tests/data/fuzz/TARGET/: the seeds, what
// libFuzzer found that adds coverage, and every crash once fixed) runs
// through the same entry point in the normal build, so CI replays them
// under g++, ASan+UBSan and TSan without clang or libFuzzer.
#include <catch2/catch.hpp>

#include "scenarios/engine/fuzz_entries.h"
#include "support.h"

using namespace reliability;

TEST_CASE("every saved fuzz input runs through its target without an unexpected exception") {
  const fs::path root = fs::path(POOLSCOPE_SOURCE_DIR) / "tests" / "data" / "fuzz";
  std::size_t inputs = 0;
  for (const char* target : {"scenario", "duration", "result", "arrival_csv"}) {
    std::size_t mine = 0;
    for (const auto& e : fs::directory_iterator(root / target)) {
      if (!e.is_regular_file()) continue;
      INFO(e.path().string());
      const std::string bytes = slurp(e.path());
      CHECK_NOTHROW(poolscope::scenario::fuzz::run(target, bytes));
      ++mine;
    }
    CHECK(mine > 0);
    inputs += mine;
  }
  CHECK(inputs >= 40);
}
