// The runner as a user meets it: commands, exit codes (0 ok, 1 invariant
// breach or stall, 2 bad input or usage), error messages, atomic output.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "pools/core/params.h"
#include "scenarios/engine/library.h"
#include "scenarios/engine/workload.h"
#include "tests/cli/runner.h"

using Catch::Matchers::Contains;
using poolscope::json;
namespace fs = std::filesystem;

using namespace cli_test;

namespace {

json pool_named(const json& result, const std::string& name) {
  for (const json& p : result["pools"])
    if (p["name"] == name) return p;
  FAIL("no pool '" << name << "' in the result");
  return nullptr;
}

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

TEST_CASE("cli: describe and scenarios print their text") {
  // describe: the summary, then each parameter with its type, default, range and help.
  Result d = run("describe java");
  REQUIRE(d.code == 0);
  CHECK(d.err.empty());
  json dj = json::parse(run("describe java --json").out);
  CHECK(d.out.rfind("java: " + dj["summary"].get<std::string>() + "\n", 0) == 0);
  for (const json& p : dj["params"]) {
    CAPTURE(p.dump());
    std::string head = "\n  " + p["name"].get<std::string>() + " (" + p["type"].get<std::string>();
    CHECK_THAT(d.out, Contains(head));
    CHECK_THAT(d.out, Contains("    default " + p["default"].dump()));
    CHECK_THAT(d.out, Contains("\n    " + p["help"].get<std::string>() + "\n"));
  }
  CHECK_THAT(run("describe spawn").out, Contains("(no parameters)"));
  CHECK_THAT(d.out, Contains("\nruntime: jvm (its original's)\n"));
  CHECK(dj["runtime"] == "jvm");
  CHECK_THAT(run("pools").out, Contains("\nfasthttp       design    goroutines "));

  // scenarios: one line per shipped scenario, its name then its lesson.
  Result s = run("scenarios");
  REQUIRE(s.code == 0);
  auto library = poolscope::scenario::list_library();
  REQUIRE(library.size() >= 10);
  std::istringstream lines(s.out);
  std::string line;
  std::size_t i = 0;
  while (std::getline(lines, line)) {
    REQUIRE(i < library.size());
    CAPTURE(line);
    CHECK(line.rfind(library[i].name + " ", 0) == 0);
    CHECK(line.size() > library[i].lesson.size());
    CHECK(line.substr(line.size() - library[i].lesson.size()) == library[i].lesson);
    ++i;
  }
  CHECK(i == library.size());
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

TEST_CASE("cli: the simulation block and the simulation's flags refuse bad input, naming the flag or key") {
  // Issue 36, item 3: each of these used to be accepted, or named the wrong flag.
  fs::path out = scratch() / "refused.json";
  fs::remove(out);
  fs::path typo = write_file("sim-typo.json", R"({"name":"t","lesson":"l","task":{"duration":"1ms"},
    "phases":[{"duration":"10ms","arrival":{"kind":"constant","rate":100}}],"pools":[{"design":"spawn"}],
    "simulation":{"cpu":2}})");
  struct Case {
    std::string args, message;
  };
  for (const Case& c : {
           Case{"run " + typo.string(), typo.string() + ": /simulation/cpu: unknown key 'cpu' (did you mean 'cpus'?)"},
           Case{"validate " + typo.string(), "/simulation/cpu: unknown key 'cpu' (did you mean 'cpus'?)"},
           Case{"run " + data("smoke.json") + " --sim-seed -3",
                "--sim-seed \"-3\": expected an integer in [0, 18446744073709551615]"},
           Case{"run " + data("smoke.json") + " --sim-seed 18446744073709551616",
                "--sim-seed \"18446744073709551616\": expected an integer in [0, 18446744073709551615]"},
           Case{"run " + data("smoke.json") + " --time-scale nan", "--time-scale \"nan\": expected a number in [0.001, 1000]"},
           Case{"run " + data("smoke.json") + " --time-scale ''", "--time-scale \"\": expected a number in [0.001, 1000]"},
           Case{"run " + data("smoke.json") + " --time-scale inf", "--time-scale \"inf\": expected a number in [0.001, 1000]"},
           Case{"run " + data("smoke.json") + " --time-scale 2x", "--time-scale \"2x\": expected a number in [0.001, 1000]"},
           Case{"run " + data("smoke.json") + " --runtime fibers", "--runtime \"fibers\": expected threads or goroutines"},
           Case{"run " + data("smoke.json") + " --sim --real",
                "--sim --real: expected one of them: --sim runs the simulation, --real real threads"},
           Case{"explore " + data("smoke.json") + " --policy fifo",
                "--policy \"fifo\": expected random or pct (explore draws schedules; fifo is a single one"},
           Case{"explore " + data("smoke.json") + " --first-seed -1",
                "--first-seed \"-1\": expected an integer in [0, 18446744073709551615]"},
           Case{"explore " + data("smoke.json") + " --first-seed 18446744073709551616",
                "--first-seed \"18446744073709551616\": expected an integer in [0, 18446744073709551615]"},
       }) {
    Result r = run(c.args + (c.args.starts_with("validate") ? "" : " --out " + out.string()));
    INFO(c.args);
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Contains(c.message));
    CHECK(r.err.size() < 400);
    CHECK(r.out.empty());
    CHECK_FALSE(fs::exists(out));
  }
  // What is still accepted: a plain number, and explore's two policies.
  Result ok = run("run " + data("smoke.json") + " -q --time-scale 2.5 --json -");
  CHECK(ok.code == 0);
  CHECK(json::parse(ok.out)["scenario"]["time_scale"] == 2.5);
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
}

TEST_CASE("cli: an output that cannot be written is bad input, found before the run") {
  // Before the run: nothing on stdout (the table comes after it), exit 2, and
  // the message names the flag and the path.
  auto refused = [](const std::string& args, const std::string& message) {
    Result r = run("run " + data("smoke.json") + " " + args);
    CAPTURE(args);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == "poolscope: " + message + "\n");
  };
  refused("--out /nonexistent-dir/r.json",
          "--out /nonexistent-dir/r.json: the directory '/nonexistent-dir' does not exist");
  refused("-q --json /nonexistent-dir/r.json",
          "--json /nonexistent-dir/r.json: the directory '/nonexistent-dir' does not exist");
  refused("--chrome-trace /nonexistent-dir/c.json",
          "--chrome-trace /nonexistent-dir/c.json: the directory '/nonexistent-dir' does not exist");
  fs::path dir = scratch();
  refused("--out " + dir.string(), "--out " + dir.string() + ": is a directory; expected a file name");
  fs::path file = write_file("plain.txt", "not a directory");
  refused("--chrome-trace " + (file / "c.json").string(),
          "--chrome-trace " + (file / "c.json").string() + ": '" + file.string() + "' is not a directory");
  refused("--csv " + (file / "series").string(),
          "--csv " + (file / "series").string() + ": '" + file.string() + "' is not a directory");
  if (::geteuid() != 0) {  // root writes anywhere
    fs::path locked = scratch() / "locked";
    fs::create_directories(locked);
    fs::permissions(locked, fs::perms::owner_read | fs::perms::owner_exec);
    refused("--out " + (locked / "r.json").string(), "--out " + (locked / "r.json").string() +
                                                         ": cannot write in the directory '" + locked.string() +
                                                         "': Permission denied");
    fs::permissions(locked, fs::perms::owner_all);
  }
  // A --csv directory that does not exist yet is created, however deep.
  fs::path deep = dir / "new" / "deeper";
  fs::remove_all(dir / "new");
  Result r = run("run " + data("smoke.json") + " -q --csv " + deep.string());
  CHECK(r.code == 0);
  CHECK(fs::exists(deep / "spawn.csv"));
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
  namespace sc = poolscope::scenario;
  sc::Scenario smoke = sc::load_scenario(data("smoke.json"));
  // The smoke scenario: scheduled arrivals, 2 nested parents with 2 children
  // each, and 2 closed-loop clients for 1 s, each cycle at least its 50 ms think.
  const std::size_t scheduled = sc::list_arrivals(smoke).size();
  REQUIRE(scheduled > 50);
  smoke.seed = 12345;
  const std::size_t scheduled_12345 = sc::list_arrivals(smoke).size();
  REQUIRE(scheduled_12345 != scheduled);

  auto tasks = [](const std::string& extra) {
    Result r = run("run " + data("smoke.json") + " --json - " + extra);
    REQUIRE(r.code == 0);
    return json::parse(r.out)["pools"][0]["summary"];
  };
  for (auto [extra, want] : {std::pair<std::string, std::size_t>{"", scheduled}, {"--seed 12345", scheduled_12345}}) {
    CAPTURE(extra);
    json sum = tasks(extra);
    // Every scheduled arrival was submitted once (each is timed for lateness) ...
    CHECK(sum["submission_lateness_s"]["count"] == want);
    // ... and with the children and the clients' tasks, every one ended (spawn refuses nothing).
    const auto submitted = sum["tasks"]["submitted"].get<std::size_t>();
    CHECK(submitted >= want + 4 + 2);
    CHECK(submitted <= want + 4 + 2 * 20);
    CHECK(sum["tasks"]["completed"].get<std::size_t>() + sum["tasks"]["threw"].get<std::size_t>() == submitted);
    CHECK(sum["tasks"]["refused"] == 0);
    CHECK(sum["tasks"]["dropped"] == 0);
  }
}

TEST_CASE("cli: --pool runs the scenario's pools as configured there") {
  auto pools_of = [](const std::string& extra) {
    Result r = run("run " + data("choose.json") + " --json - " + extra);
    CAPTURE(extra, r.err);
    REQUIRE(r.code == 0);
    json names = json::array();
    json result = json::parse(r.out);
    for (const json& p : result["pools"]) names.push_back(p["name"]);
    return std::pair{names, result};
  };
  // By entry name: the configured entry, not a default java.
  auto [names, result] = pools_of("--pool small");
  CHECK(names == json{"small"});
  CHECK(result["pools"][0]["config"]["corePoolSize"] == 1);
  CHECK(result["pools"][0]["config"]["maximumPoolSize"] == 2);
  // By design, when no entry has that name: its configured entries.
  std::tie(names, result) = pools_of("--pool java");
  CHECK(names == json{"small"});
  CHECK(result["pools"][0]["config"]["maximumPoolSize"] == 2);
  // In the order given; a design the scenario lacks runs with its defaults.
  std::tie(names, result) = pools_of("--pool gammazero --pool spawn");
  CHECK(names == json{"gammazero", "spawn"});
  CHECK(result["scenario"]["pools"].size() == 2);
  CHECK(result["skipped"].empty());  // the unpicked optional pool is simply not part of the run

  Result r = run("run " + data("choose.json") + " -q --pool nope");
  CHECK(r.code == 2);
  CHECK(r.err == "poolscope: " + data("choose.json") +
                     ": --pool nope: no pool 'nope' in the scenario (small, spawn, student) and no registered design "
                     "of that name\n");
  // Asked for by name, an optional pool must exist.
  r = run("run " + data("choose.json") + " -q --pool student");
  CHECK(r.code == 2);
  CHECK(r.err == "poolscope: " + data("choose.json") +
                     ": --pool student: the scenario's pool 'student' is optional and its design 'lab99-student' is "
                     "not registered in this build\n");
}

TEST_CASE("cli: an optional pool whose design is not built is skipped with a note") {
  const std::string note =
      "poolscope: note: skipping optional pool 'student': design 'lab99-student' is not registered in this build\n";
  Result r = run("run " + data("choose.json") + " --json -");
  REQUIRE(r.code == 0);
  CHECK(r.err == note);
  json result = json::parse(r.out);
  CHECK(result["status"] == "ok");
  CHECK(result["pools"].size() == 2);
  CHECK(result["skipped"] == json::parse(R"([{"name":"student","design":"lab99-student",
                         "reason":"design 'lab99-student' is not registered in this build"}])"));
  // --quiet keeps stdout empty, not the note.
  r = run("run " + data("choose.json") + " -q");
  CHECK(r.code == 0);
  CHECK(r.out.empty());
  CHECK(r.err == note);
  r = run("validate " + data("choose.json"));
  CHECK(r.code == 0);
  CHECK(r.err == note);
  CHECK_THAT(r.out, Contains("ok: \"choose\", 1 phases, 6 scheduled tasks, 2 pools (1 optional skipped), "));
}

TEST_CASE("cli: --time-scale, --events and --quiet") {
  Result r = run("run " + data("smoke.json") + " --json - --time-scale 40");
  REQUIRE(r.code == 0);
  CHECK(json::parse(r.out)["scenario"]["time_scale"] == 40);
  r = run("run " + data("smoke.json") + " -q --time-scale 0");
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Contains("--time-scale"));
  r = run("run " + data("smoke.json") + " -q --time-scale 5000");
  CHECK(r.code == 2);
  CHECK(r.err == "poolscope: " + data("smoke.json") + ": --time-scale 5000: expected a number in [0.001, 1000]\n");

  // Without --events, no events; with it, every one, matching the summary.
  json plain = json::parse(run("run " + data("smoke.json") + " --json -").out);
  CHECK_FALSE(plain["pools"][0].contains("events"));
  r = run("run " + data("smoke.json") + " --json - --events");
  REQUIRE(r.code == 0);
  json result = json::parse(r.out);
  const json& pool = result["pools"][0];
  REQUIRE(pool.contains("events"));
  std::size_t submitted = 0, started = 0;
  for (const json& e : pool["events"]) {
    submitted += e["kind"] == "task_submitted";
    started += e["kind"] == "task_started";
  }
  CHECK(submitted == pool["summary"]["tasks"]["submitted"].get<std::size_t>());
  CHECK(started == submitted);  // spawn starts every task it is given
  CHECK(result["run"]["events_recorded"].get<std::size_t>() == pool["events"].size());

  // --quiet: nothing on stdout, nothing on stderr, the result still written.
  fs::path out = scratch() / "quiet.json";
  fs::remove(out);
  r = run("run " + data("smoke.json") + " --quiet --out " + out.string());
  CHECK(r.code == 0);
  CHECK(r.out.empty());
  CHECK(r.err.empty());
  CHECK(json::parse(slurp(out))["status"] == "ok");
}

TEST_CASE("cli: a stall writes its result, says so on stderr, and exits 1") {
  fs::path out = scratch() / "stall.json";
  fs::remove(out);
  Result r = run("run " + data("stall.json") + " --quiet --out " + out.string());
  CHECK(r.code == 1);
  CHECK(r.out.empty());
  CHECK_THAT(r.err, Contains("poolscope: java-1 stalled at ") &&
                        Contains(": no task started or ended for 1.00s with 2 tasks outstanding; it was shut down at "
                                 "once\n"));
  json result = json::parse(slurp(out));
  CHECK(result["status"] == "stalled");
  const json pool = pool_named(result, "java-1");
  CHECK(pool["runtime"] == "jvm");  // the design's declaration, recorded per pool
  const json& stall = pool["summary"]["stall"];
  REQUIRE(stall.is_object());
  CHECK(stall["state"]["busy"] == 1);    // the parent, waiting
  CHECK(stall["state"]["queued"] == 1);  // its child, behind it
  CHECK(stall["shutdown_hung"] == false);
  const json& tasks = pool["summary"]["tasks"];
  CHECK(tasks["submitted"] == 2);
  CHECK(tasks["completed"] == 1);  // the parent, released
  CHECK(tasks["dropped"] == 1);    // the child, dropped by the shutdown

  // --json -: the document on stdout, the note on stderr.
  r = run("run " + data("stall.json") + " --json -");
  CHECK(r.code == 1);
  CHECK(json::parse(r.out)["status"] == "stalled");
  CHECK_THAT(r.err, Contains("poolscope: java-1 stalled at "));
  // With the table, the stall is reported under it.
  r = run("run " + data("stall.json"));
  CHECK(r.code == 1);
  CHECK_THAT(r.out, Contains("java-1 STALLED at "));
}

TEST_CASE("cli: validate says what a good scenario holds") {
  Result r = run("validate " + data("smoke.json"));
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Contains("ok: \"smoke\", 5 phases"));
}

TEST_CASE("cli: --runtime goroutines runs a real run's pools on Go's runtime, and the result says so") {
  fs::path out = scratch() / "goroutines.json";
  fs::remove(out);
  Result r = run("run " + data("smoke.json") + " --runtime goroutines --time-scale 50 --quiet --out " + out.string());
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  json result = json::parse(slurp(out));
  CHECK(result["status"] == "ok");
  const json pool = pool_named(result, "spawn");
  CHECK(pool["runtime"] == "goroutines");  // its original's
  CHECK(pool["ran_on"] == "goroutines");   // this run's
  CHECK(pool["summary"]["invariant"]["holds"] == true);
  // The default: OS threads; the table's first row says which.
  r = run("run " + data("smoke.json") + " --time-scale 50");
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Contains("ran on") && Contains("os-threads"));
  // Simulated, the runtime is the simulation's.
  json sim = json::parse(run("run " + data("smoke.json") + " --sim --json -").out);
  CHECK(pool_named(sim, "spawn")["ran_on"] == "simulation");
}
