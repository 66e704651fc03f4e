// The runner as a user meets it: commands, exit codes (0 ok, 1 invariant
// breach or stall, 2 bad input or usage), error messages, atomic output.
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "pools/core/params.h"

using Catch::Matchers::Contains;
using poolscope::json;
namespace fs = std::filesystem;

namespace {

struct Result {
  int code;
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

fs::path scratch() {
  fs::path dir = fs::temp_directory_path() / ("poolscope-cli-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

Result run(const std::string& args) {
  fs::path err = scratch() / "stderr.txt";
  std::string cmd = std::string(POOLSCOPE_RUNNER) + " " + args + " 2>" + err.string();
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  while (std::size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out, slurp(err)};
}

std::string data(const std::string& name) { return std::string(POOLSCOPE_SOURCE_DIR) + "/tests/data/" + name; }

fs::path write_file(const std::string& name, const std::string& text) {
  fs::path p = scratch() / name;
  std::ofstream(p) << text;
  return p;
}

}  // namespace

TEST_CASE("cli: listing commands print text, or JSON with --json") {
  Result pools = run("pools");
  CHECK(pools.code == 0);
  CHECK_THAT(pools.out, Contains("spawn"));
  Result pj = run("pools --json");
  REQUIRE(pj.code == 0);
  json list = json::parse(pj.out);
  CHECK(std::any_of(list.begin(), list.end(), [](const json& d) { return d["name"] == "spawn"; }));
  Result d = run("describe spawn --json");
  CHECK(d.code == 0);
  CHECK(json::parse(d.out)["name"] == "spawn");
  Result s = run("scenarios --json");
  CHECK(s.code == 0);
  CHECK(json::parse(s.out).is_array());
}

TEST_CASE("cli: usage errors and bad input exit 2 with a message naming the problem") {
  Result r = run("frobnicate");
  CHECK(r.code == 2);
  r = run("run --no-such-flag");
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Contains("--no-such-flag"));
  r = run("describe fasthtp");
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Contains("unknown pool design 'fasthtp'"));
  r = run("run no-such-scenario");
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Contains("no scenario file 'no-such-scenario'"));

  fs::path bad = write_file("bad.json", R"({"name":"b","lesson":"l","task":{"duration":"1ms"},
    "phases":[{"duration":"1s","arrival":{"kind":"poisson","rate":"fast"}}],"pools":[{"design":"spawn"}]})");
  r = run("validate " + bad.string());
  CHECK(r.code == 2);
  CHECK(r.err ==
        "poolscope: " + bad.string() + ": /phases/0/arrival/rate: expected a number in (0, 1000000], got \"fast\"\n");
  r = run("run " + data("smoke.json") + " --set spawn.Workers=3 -q");
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Contains("/pools/0/config/Workers: unknown parameter 'Workers' for pool design 'spawn'"));
  r = run("run " + data("smoke.json") + " --set nowhere -q");
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Contains("--set nowhere: expected POOL.PARAM=VALUE"));
}

TEST_CASE("cli: a failed run leaves no output file behind, and an old one untouched") {
  fs::path out = scratch() / "result.json";
  fs::remove(out);
  fs::path bad = write_file("bad2.json", R"({"name":"b"})");
  CHECK(run("run " + bad.string() + " --out " + out.string()).code == 2);
  CHECK_FALSE(fs::exists(out));
  std::ofstream(out) << "previous";
  CHECK(run("run " + bad.string() + " --out " + out.string()).code == 2);
  CHECK(slurp(out) == "previous");
  // A directory that does not exist is an error, not a half-written file elsewhere.
  Result r = run("run " + data("smoke.json") + " -q --out /nonexistent-dir/r.json");
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Contains("/nonexistent-dir/r.json: the directory '/nonexistent-dir' does not exist"));
}

TEST_CASE("cli: a run writes its result, Chrome trace and CSV, and prints the comparison") {
  fs::path dir = scratch();
  Result r = run("run " + data("smoke.json") + " --out " + (dir / "r.json").string() + " --chrome-trace " +
                 (dir / "c.json").string() + " --csv " + (dir / "csv").string());
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Contains("smoke: a short run") && Contains("invariant") && Contains("holds"));
  json result = json::parse(slurp(dir / "r.json"));
  CHECK(result["format"] == "poolscope-result/1");
  CHECK(result["status"] == "ok");
  CHECK(result["pools"][0]["summary"]["invariant"]["holds"] == true);
  CHECK(json::parse(slurp(dir / "c.json"))["traceEvents"].size() > 10);
  std::string csv = slurp(dir / "csv" / "spawn.csv");
  CHECK(csv.rfind("t_s,workers,busy,idle,queued,blocked\n", 0) == 0);

  // --json - puts the document on stdout and nothing else.
  Result j = run("run " + data("smoke.json") + " --json -");
  REQUIRE(j.code == 0);
  CHECK(json::parse(j.out)["scenario"]["name"] == "smoke");
}

TEST_CASE("cli: the same seed gives the same workload and --seed changes it") {
  auto submitted = [](const std::string& extra) {
    Result r = run("run " + data("smoke.json") + " --json - " + extra);
    REQUIRE(r.code == 0);
    return json::parse(r.out)["pools"][0]["summary"]["tasks"]["submitted"].get<int>();
  };
  // Closed-loop clients make the total depend on timing; count only the scheduled phases.
  auto scheduled = [](const std::string& extra) {
    Result r = run("run " + data("smoke.json") + " --json - " + extra);
    REQUIRE(r.code == 0);
    return json::parse(r.out)["pools"][0]["summary"]["submission_lateness_s"]["count"].get<int>();
  };
  CHECK(scheduled("") == scheduled(""));
  CHECK(scheduled("") != scheduled("--seed 12345"));
  CHECK(submitted("") > 0);
}

TEST_CASE("cli: validate says what a good scenario holds") {
  Result r = run("validate " + data("smoke.json"));
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Contains("ok: \"smoke\", 5 phases"));
}
