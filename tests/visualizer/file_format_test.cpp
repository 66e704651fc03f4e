// What the GUI reads of a file before opening it (model/file_format.h): its
// top-level "format", wherever the key is, and a scenario document's phases
// as the timeline's bands (model/phase_bands.h).
#include <catch2/catch.hpp>

#include "tests/support/runner_process.h"
#include "visualizer/model/file_format.h"
#include "visualizer/model/phase_bands.h"

using namespace poolscope;
using namespace poolscope::gui;
using runner_process::scratch;
using runner_process::spit;
namespace fs = std::filesystem;

TEST_CASE("file format: the top-level \"format\" names a result or a sweep, wherever it is in the file") {
  const fs::path f = scratch() / "format.json";
  spit(f, R"({"format": "poolscope-result/3", "pools": []})");
  CHECK(top_format(f) == "poolscope-result/3");
  CHECK(is_result(f));
  // After other keys, and with a nested "format" before it that is not the file's.
  spit(f, R"({"scenario": {"format": "inner"}, "n": [1, {"format": "x"}], "format": "poolscope-sweep/1"})");
  CHECK(top_format(f) == "poolscope-sweep/1");
  CHECK_FALSE(is_result(f));
  // A scenario has none; neither has an array, a broken file or a missing one.
  spit(f, R"({"name": "s", "phases": []})");
  CHECK(top_format(f).empty());
  spit(f, R"([{"format": "poolscope-result/3"}])");
  CHECK(top_format(f).empty());
  spit(f, R"({"format": )");
  CHECK(top_format(f).empty());
  CHECK(top_format(scratch() / "no-such-file.json").empty());
  CHECK_FALSE(is_result(scratch() / "no-such-file.json"));
  // A directory is not opened.
  CHECK(top_format(scratch()).empty());
}

TEST_CASE("phase bands: one per phase, end to end from 0, up to the first that does not read") {
  const json doc = json::parse(R"({"phases": [
      {"name": "warm", "duration": "2s", "arrival": {"kind": "poisson"}},
      {"name": "bursts", "duration": "500ms", "arrival": {"kind": "burst"}},
      {"duration": "1s"},
      {"name": "broken", "duration": "soon"},
      {"name": "never", "duration": "1s"}]})");
  const std::vector<PhaseBand> bands = phase_bands(doc);
  REQUIRE(bands.size() == 3);
  CHECK(bands[0].name == "warm");
  CHECK(bands[0].kind == "poisson");
  CHECK(bands[0].start == 0);
  CHECK(bands[0].end == 2'000'000'000);
  CHECK(bands[1].kind == "burst");
  CHECK(bands[1].start == 2'000'000'000);
  CHECK(bands[1].end == 2'500'000'000);
  CHECK(bands[2].name.empty());
  CHECK(bands[2].kind.empty());
  CHECK(bands[2].end == 3'500'000'000);
  CHECK(phase_bands(json::parse(R"({"phases": 3})")).empty());
  CHECK(phase_bands(json::array()).empty());
}
