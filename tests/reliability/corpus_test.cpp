// The bad-input corpus (tests/data/bad/, written by scripts/gen-bad-corpus):
// every file is refused with a message naming the file, the JSON path and
// what was expected; through the runner, with exit code 2 and nothing
// written. Big inputs are made here, at test time.
#include <fcntl.h>
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <vector>

#include "scenarios/engine/lesson.h"
#include "scenarios/engine/result_reader.h"
#include "scenarios/engine/scenario.h"
#include "scenarios/engine/workload.h"
#include "support.h"

using namespace reliability;
using namespace poolscope::scenario;
using Catch::Matchers::Contains;

namespace {

struct Case {
  std::string kind, file, path, expect;
};

std::vector<Case> corpus() {
  std::ifstream in(bad_dir() / "expected.tsv");
  std::vector<Case> cases;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cols;
    std::size_t start = 0;
    for (;;) {
      auto tab = line.find('\t', start);
      cols.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
      if (tab == std::string::npos) break;
      start = tab + 1;
    }
    REQUIRE(cols.size() == 4);
    cases.push_back({cols[0], cols[1], cols[2], cols[3]});
  }
  return cases;
}

// "FILE: PATH: ..." (or "FILE: ..." at the top).
std::string where(const std::string& file, const std::string& path) {
  return file + ": " + (path.empty() ? "" : path + ": ");
}

// As validate and run check it: parsed, then its workload counted against the bound.
std::string scenario_error(const fs::path& file) {
  try {
    count_workload(load_scenario(file), Limits{});
  } catch (const ScenarioError& e) {
    return e.what();
  } catch (const poolscope::ConfigError& e) {
    return ScenarioError(file.string(), e).what();
  }
  return "(accepted)";
}

}  // namespace

TEST_CASE("the bad-input corpus has at least 150 files, scenarios, replay CSVs and results") {
  std::size_t files = 0, csv = 0, results = 0;
  for (const auto& e : fs::recursive_directory_iterator(bad_dir())) {
    if (!e.is_regular_file()) continue;
    ++files;
    csv += e.path().extension() == ".csv";
    results += e.path().filename().string().starts_with("result-");
  }
  CHECK(files >= 150);
  CHECK(csv >= 10);
  CHECK(results >= 10);
  CHECK(corpus().size() >= 150);
}

TEST_CASE("every bad scenario is refused naming the file, the JSON path and what was expected") {
  for (const Case& c : corpus()) {
    if (c.kind != "scenario") continue;
    INFO(c.file);
    std::string msg = scenario_error(bad_dir() / c.file);
    CHECK_THAT(msg, Contains(where(c.file, c.path)) && Contains(c.expect));
    CHECK(msg.size() < 600);
  }
}

TEST_CASE("every bad result is refused by the result reader, naming the file and the JSON path") {
  for (const Case& c : corpus()) {
    if (c.kind != "result") continue;
    INFO(c.file);
    std::string msg = "(accepted)";
    try {
      load_result(bad_dir() / c.file);
    } catch (const ScenarioError& e) {
      msg = e.what();
    }
    CHECK_THAT(msg, Contains(where(c.file, c.path)) && Contains(c.expect));
    CHECK(msg.size() < 600);
  }
}

TEST_CASE("through the runner every bad scenario exits 2 with the message and writes nothing", "[runner]") {
  fs::path out = scratch() / "corpus-out.json";
  for (const Case& c : corpus()) {
    if (c.kind != "scenario") continue;
    INFO(c.file);
    fs::remove(out);
    Result r = runner("run " + quote((bad_dir() / c.file).string()) + " -q --out " + quote(out.string()));
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Contains(where(c.file, c.path)) && Contains(c.expect));
    CHECK(r.out.empty());
    CHECK_FALSE(fs::exists(out));
  }
}

TEST_CASE("every bad lesson is refused naming the file, the step, the field and what was expected") {
  std::size_t lessons = 0;
  for (const Case& c : corpus()) {
    if (c.kind != "lesson") continue;
    INFO(c.file);
    ++lessons;
    std::string msg = "(accepted)";
    try {
      poolscope::scenario::lesson::load_lesson(bad_dir() / c.file);
    } catch (const ScenarioError& e) {
      msg = e.what();
    }
    CHECK_THAT(msg, Contains(where(c.file, c.path)) && Contains(c.expect));
    CHECK(msg.size() < 1000);
  }
  CHECK(lessons >= 20);
}

TEST_CASE("through the runner every bad lesson exits 2 with the message and writes nothing", "[runner]") {
  fs::path out = scratch() / "corpus-key.json";
  for (const Case& c : corpus()) {
    if (c.kind != "lesson") continue;
    INFO(c.file);
    fs::remove(out);
    Result r = runner("lesson check " + quote((bad_dir() / c.file).string()) + " --json " + quote(out.string()));
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Contains(where(c.file, c.path)) && Contains(c.expect));
    CHECK(r.out.empty());
    CHECK_FALSE(fs::exists(out));
  }
}

TEST_CASE("values nested 100,000 deep anywhere are refused, not a stack overflow") {
  std::string deep = std::string(100000, '[') + std::string(100000, ']');
  fs::path dir = scratch();
  struct Where {
    std::string name, text;
  };
  std::vector<Where> places = {
      {"whole", deep},
      {"name", scenario_with(R"({"duration": "1s", "arrival": {"kind": "idle"}})").replace(9, 3, deep)},
      {"config", scenario_with(R"({"duration": "1s", "arrival": {"kind": "idle"}})")},
      {"task", scenario_with(R"({"duration": "1s", "arrival": {"kind": "idle"}, "task": )" + deep + "}")},
  };
  {
    std::string& s = places[2].text;
    s.replace(s.find(R"({"size": 2})"), 11, R"({"size": )" + deep + "}");
  }
  for (const Where& w : places) {
    INFO(w.name);
    fs::path f = dir / ("deep-" + w.name + ".json");
    spit(f, w.text);
    CHECK_THAT(scenario_error(f), Contains("nested too deep"));
    Result r = runner("validate " + quote(f.string()));
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Contains("nested too deep"));
    CHECK(r.err.size() < 1000);
  }
  fs::path res = dir / "deep-result.json";
  spit(res, R"({"format": "poolscope-result/1", "environment": )" + deep + "}");
  CHECK_THROWS_AS(load_result(res), ScenarioError);
}

TEST_CASE("enormous arrays and files get a short message") {
  fs::path dir = scratch();
  std::string big = "[";
  for (int i = 0; i < 200000; ++i) big += (i ? "," : "") + std::to_string(i);
  big += "]";
  std::string s = scenario_with(R"({"duration": "1s", "arrival": {"kind": "idle"}})");
  s.replace(s.find(R"({"size": 2})"), 11, R"({"size": )" + big + "}");
  spit(dir / "big-config.json", s);
  std::string msg = scenario_error(dir / "big-config.json");
  CHECK_THAT(msg, Contains("/pools/0/config/size"));
  CHECK(msg.size() < 600);

  std::string phases;
  for (int i = 0; i < 10001; ++i) phases += (i ? "," : "") + std::string(R"({"duration": "1ms", "arrival": {"kind": "idle"}})");
  spit(dir / "many-phases.json", scenario_with(phases));
  CHECK_THAT(scenario_error(dir / "many-phases.json"), Contains("/phases: expected at most 10000 phases, got 10001"));

  // A sparse file past the 64 MiB bound: refused by its size, never read.
  fs::path huge = dir / "huge.json";
  { std::ofstream(huge).put('{'); }
  fs::resize_file(huge, (64u << 20) + 1);
  CHECK_THAT(scenario_error(huge), Contains("huge.json: is too large"));
}

TEST_CASE("a directory, a FIFO or an unreadable file given as the scenario is named as such, exit 2") {
  fs::path dir = scratch() / "as-scenario";
  fs::create_directories(dir);
  Result r = runner("validate " + quote(dir.string()));
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Contains(dir.string() + ": is a directory"));

  fs::path fifo = scratch() / "scenario.fifo";
  fs::remove(fifo);
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  r = runner("validate " + quote(fifo.string()));
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Contains(fifo.string() + ": is not a regular file"));

  r = runner("validate /proc/self/mem");
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Contains("/proc/self/mem: cannot read the file"));

  if (::geteuid() != 0) {  // root reads anything
    fs::path locked = scratch() / "locked.json";
    spit(locked, "{}");
    fs::permissions(locked, fs::perms::none);
    r = runner("validate " + quote(locked.string()));
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Contains(locked.string() + ": cannot read the file"));
  }
}
