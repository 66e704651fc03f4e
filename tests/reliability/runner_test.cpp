// The runner's output paths and signals (docs/result-format.md, "Output
// paths" and "Signals"): what is not a regular file is written through,
// regular files are replaced atomically, the rest refused before the run;
// the first SIGINT/SIGTERM stops the run and writes its result (status
// "stopped", exit 128 + signal), the second ends it at once; never a
// temporary file left behind.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <thread>
#include <vector>

#include "pools/core/params.h"
#include "support.h"

using namespace reliability;
using Catch::Matchers::Contains;
using poolscope::json;

extern char** environ;

namespace {

fs::path fresh_dir(const std::string& name) {
  fs::path d = scratch() / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

fs::path write_scenario(const fs::path& dir, const std::string& phase) {
  fs::path f = dir / "s.json";
  spit(f, scenario_with(phase));
  return f;
}

bool temporary_left(const fs::path& dir) {
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().find(".tmp") != std::string::npos) return true;
  return false;
}

// The runner as a child process, started with SIGINT and SIGTERM blocked, so
// a signal sent at once is pending until the runner has its handlers.
struct Child {
  pid_t pid = -1;
  fs::path err;
  explicit Child(const std::vector<std::string>& args, const fs::path& out = "/dev/null") {
    std::vector<char*> argv;
    std::string runner = POOLSCOPE_RUNNER;
    argv.push_back(runner.data());
    std::vector<std::string> copy = args;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    posix_spawnattr_setsigmask(&attr, &set);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    // Its stderr beside its stdout (a sanitizer's report lands there), or nowhere.
    err = out == "/dev/null" ? fs::path("/dev/null") : fs::path(out.string() + ".stderr");
    posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    REQUIRE(posix_spawn(&pid, runner.c_str(), &fa, &attr, argv.data(), environ) == 0);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
  }
  // The main thread is asleep in the kernel (here: opening or writing a FIFO
  // that has no reader yet). A sanitizer's runtime may keep threads of its
  // own, so a thread count cannot say the run's threads are all gone.
  bool main_thread_asleep() const {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/task/" + std::to_string(pid) + "/stat");
    std::string line;
    std::getline(stat, line);
    const auto close = line.rfind(')');
    return close != std::string::npos && close + 2 < line.size() && line[close + 2] == 'S';
  }
  int threads() const {
    std::error_code ec;
    int n = 0;
    for (auto it = fs::directory_iterator("/proc/" + std::to_string(pid) + "/task", ec);
         !ec && it != fs::directory_iterator(); ++it)
      ++n;
    return n;
  }
  // Polls a condition on the child (not a guess at how long it takes).
  template <class F>
  bool until(F&& f, std::chrono::seconds limit = std::chrono::seconds(20)) const {
    auto end = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < end) {
      if (f()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return false;
  }
  int wait() {
    for (int i = 0; i < 4000; ++i) {  // at most 20 s, then it is killed and the test fails
      if (exited()) return code_;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    int status = 0;
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    return -1000;
  }
  // Reaps the child if it has ended; its code is then what wait() returns.
  bool exited() {
    int status = 0;
    if (!ended_ && ::waitpid(pid, &status, WNOHANG) == pid) {
      ended_ = true;
      code_ = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
    }
    return ended_;
  }

 private:
  bool ended_ = false;
  int code_ = 0;
};

const char* kLongIdle = R"({"duration": "1000h", "arrival": {"kind": "idle"}})";
const char* kShort = R"({"duration": "100ms", "arrival": {"kind": "constant", "rate": 50}})";

}  // namespace

TEST_CASE("a symlink to a regular file stays a symlink: its target is replaced") {
  fs::path d = fresh_dir("symlink");
  fs::path s = write_scenario(d, kShort);
  spit(d / "target.json", "old");
  fs::create_symlink("target.json", d / "link.json");
  Result r = runner("run " + quote(s.string()) + " -q --out " + quote((d / "link.json").string()));
  CHECK(r.code == 0);
  CHECK(fs::is_symlink(d / "link.json"));
  CHECK(json::parse(slurp(d / "target.json"))["status"] == "ok");
  CHECK_FALSE(temporary_left(d));
}

TEST_CASE("a FIFO is written through, not replaced by a regular file") {
  fs::path d = fresh_dir("fifo");
  fs::path s = write_scenario(d, kShort);
  fs::path fifo = d / "out.fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string got;
  std::thread reader([&] { got = slurp(fifo); });
  Result r = runner("run " + quote(s.string()) + " -q --json " + quote(fifo.string()));
  reader.join();
  CHECK(r.code == 0);
  CHECK(fs::is_fifo(fifo));
  CHECK(json::parse(got)["status"] == "ok");
  CHECK_FALSE(temporary_left(d));
}

TEST_CASE("/dev/stdout and /proc/self/fd/1 are the runner's own stdout, written through") {
  fs::path d = fresh_dir("stdout");
  fs::path s = write_scenario(d, kShort);
  for (const char* path : {"/dev/stdout", "/proc/self/fd/1", "/dev/fd/1"}) {
    INFO(path);
    Result r = runner("run " + quote(s.string()) + " --json " + path);
    CHECK(r.code == 0);
    CHECK(json::parse(r.out)["status"] == "ok");  // no table: the JSON is stdout
  }
  CHECK(fs::is_character_file("/dev/null"));
  Result r = runner("run " + quote(s.string()) + " -q --json /dev/null");
  CHECK(r.code == 0);
  CHECK(fs::is_character_file("/dev/null"));
}

TEST_CASE("destinations that cannot be written are refused before the run, exit 2") {
  fs::path d = fresh_dir("refused");
  fs::path s = write_scenario(d, kLongIdle);  // would run for 1000 h if not refused first
  fs::create_symlink("nowhere", d / "dangling");
  struct Case {
    std::string args, says;
  };
  for (const Case& c : std::vector<Case>{
           {"--out " + quote(d.string()), "is a directory"},
           {"--out " + quote((d / "dangling").string()), "is a symlink to nothing"},
           {"--out ''", "--out \"\": expected a file name"},
           {"--json ''", "--json \"\": expected a file name"},
           {"--chrome-trace " + quote((d / "no" / "such" / "dir.json").string()), "does not exist"},
           {"--out /proc/self/fd/99", "descriptor 99 is not open"},
       }) {
    INFO(c.args);
    Result r = runner("run " + quote(s.string()) + " -q " + c.args);
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Contains(c.says));
  }
  CHECK_FALSE(temporary_left(d));
}

TEST_CASE("numbers from the command line never wrap") {
  fs::path d = fresh_dir("numbers");
  fs::path s = write_scenario(d, kLongIdle);
  struct Case {
    std::string args, says;
  };
  for (const Case& c : std::vector<Case>{
           {"--seed -1", "--seed \"-1\": expected an integer in [0, 18446744073709551615]"},
           {"--seed 18446744073709551616", "expected an integer in [0, 18446744073709551615]"},
           {"--seed 1e3", "expected an integer"},
           {"--set a.size=18446744073709551615", "expected an integer <= 9223372036854775807"},
           {"--set ants.size=18446744073709551615", "/pools/0/config/size: expected an integer <= 9223372036854775807"},
           {"--time-scale 0", "--time-scale 0: expected a number in [0.001, 1000]"},
           {"--max-tasks 0", "--max-tasks"},
           {"--set \"$(printf 'ants.size=\\377')\"", "not valid UTF-8"},
       }) {
    INFO(c.args);
    Result r = runner("run " + quote(s.string()) + " -q " + c.args);
    CHECK(r.code == 2);
    CHECK(r.err.size() < 400);
    if (c.args.rfind("--set a.", 0) != 0) CHECK_THAT(r.err, Contains(c.says));
  }
}

TEST_CASE("a workload past the task bound is refused at once by validate and run, naming the phase") {
  fs::path d = fresh_dir("bound");
  fs::path s = write_scenario(d, R"({"name": "flood", "duration": "1000000h", "arrival": {"kind": "poisson", "rate": 1000000}})");
  for (const char* cmd : {"validate", "run"}) {
    Result r = runner(std::string(cmd) + " " + quote(s.string()) + (std::string(cmd) == "run" ? " -q" : ""));
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Contains("/phases/0: phase 'flood' schedules more than 10000000 tasks"));
  }
  fs::path small = write_scenario(d, R"({"duration": "10s", "arrival": {"kind": "constant", "rate": 100}})");
  Result r = runner("validate " + quote(small.string()) + " --max-tasks 999");
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Contains("schedules more than 999 tasks"));
  r = runner("validate " + quote(small.string()) + " --max-tasks 1000");
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Contains("1000 scheduled tasks"));
}

TEST_CASE("Ctrl-C before the run starts: it stops at once and writes a stopped result", "[signals]") {
  fs::path d = fresh_dir("sig-early");
  fs::path s = write_scenario(d, kLongIdle);
  Child c({"run", s.string(), "-q", "--out", (d / "r.json").string()});
  ::kill(c.pid, SIGINT);  // pending: blocked until the runner has its handler
  CHECK(c.wait() == 130);
  json r = json::parse(slurp(d / "r.json"));
  CHECK(r["status"] == "stopped");
  CHECK(r["run"]["stopped_early"] == true);
  CHECK_FALSE(temporary_left(d));
}

TEST_CASE("SIGTERM during the run: stopped result, accounting balanced, exit 143", "[signals]") {
  fs::path d = fresh_dir("sig-late");
  // Tasks, then an idle hour after hour: the signal lands mid-run.
  fs::path s = write_scenario(d, R"({"duration": "1s", "arrival": {"kind": "constant", "rate": 20}}, )" +
                                     std::string(kLongIdle));
  Child c({"run", s.string(), "--json", "-"}, d / "stdout.json");
  REQUIRE(c.until([&] { return c.threads() >= 3; }));  // the run's threads are up
  ::kill(c.pid, SIGTERM);
  const int code = c.wait();
  INFO("the runner's stderr: " << slurp(c.err));
  REQUIRE(code == 143);
  json r = json::parse(slurp(d / "stdout.json"));  // whole JSON on stdout, not truncated
  CHECK(r["status"] == "stopped");
  for (const json& p : r["pools"]) CHECK(p["summary"]["invariant"]["holds"] == true);
  CHECK_FALSE(temporary_left(d));
}

TEST_CASE("Ctrl-C while the result is being written: the write completes: a second one ends it at once",
          "[signals]") {
  fs::path d = fresh_dir("sig-write");
  fs::path s = write_scenario(d, kShort);
  fs::path fifo = d / "out.fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  {
    // The runner finishes the run, then blocks writing to the FIFO (no reader yet).
    Child c({"run", s.string(), "-q", "--out", (d / "r.json").string(), "--json", fifo.string()});
    REQUIRE(c.until([&] { return fs::exists(d / "r.json") && c.main_thread_asleep(); }));
    ::kill(c.pid, SIGINT);
    std::string got = slurp(fifo);  // now a reader: the write goes on
    CHECK(c.wait() == 130);
    CHECK(json::parse(got)["status"] == "ok");  // the run had ended: its result is whole
  }
#if !defined(__SANITIZE_THREAD__)
  // Not under ThreadSanitizer: its runtime defers a signal's handler while the
  // thread is blocked in open() of a FIFO, so neither Ctrl-C is seen until a
  // reader comes (the runner built without it ends at once, as checked here).
  {
    fs::remove(d / "r.json");
    Child c({"run", s.string(), "-q", "--out", (d / "r.json").string(), "--json", fifo.string()});
    REQUIRE(c.until([&] { return fs::exists(d / "r.json") && c.main_thread_asleep(); }));
    // Two signals sent back to back may merge into one (signals do not
    // queue): keep sending until the runner ends. The first only asks it to
    // stop; any later one ends it at once, though nobody reads the FIFO.
    CHECK(c.until([&] {
      ::kill(c.pid, SIGINT);
      return c.exited();
    }));
    CHECK(c.wait() == 130);
  }
#endif
  CHECK_FALSE(temporary_left(d));
}
