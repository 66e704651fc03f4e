// Every shipped scenario, simulated twice with the same seed, gives the same
// result byte for byte: every event of the trace, every figure, every pool.
// Each run is a fresh process, as a class's would be. Only the host's own
// measurements may differ (the environment block, and the run's wall time,
// CPU time and memory), and they are left out of the comparison. A third run
// with another schedule seed must differ, or the seed would not be reaching
// the scheduler.
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "scenarios/engine/library.h"
#include "scenarios/engine/scenario.h"

using namespace poolscope;
using namespace poolscope::scenario;

namespace {

std::string simulated_result(const std::string& scenario, const std::string& extra) {
  const std::string out = "determinism-" + scenario + ".json";
  const std::string cmd = std::string(POOLSCOPE_RUNNER) + " run " + scenario + " --sim --events -q --json " + out + " " + extra;
  REQUIRE(std::system(cmd.c_str()) != -1);
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  json j = json::parse(text.str());
  j.erase("environment");
  for (const char* host : {"wall_s", "cpu_s", "peak_rss_bytes"}) j["run"].erase(host);
  return j.dump();
}

// Under a sanitizer each run is 5 to 20 times slower: a sample of the
// scenarios there (the plain build runs them all), which still puts the
// simulator's memory and thread handling under the sanitizer's eyes.
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
constexpr bool kSample = true;
#else
constexpr bool kSample = false;
#endif

}  // namespace

TEST_CASE("every shipped scenario simulates to the same result twice, and to another with another seed") {
  for (const LibraryEntry& e : list_library()) {
    if (kSample && e.name != "tour" && e.name != "nested-submit" && e.name != "overload") continue;
    SECTION(e.name) {
      const std::string first = simulated_result(e.name, "");
      CHECK(json::parse(first)["pools"].size() > 0);
      // Compared as booleans: Catch would print both megabytes on a mismatch.
      const bool same = simulated_result(e.name, "") == first;
      CHECK(same);
      const bool other_seed_differs = simulated_result(e.name, "--sim-seed 12345") != first;
      CHECK(other_seed_differs);
    }
  }
}
