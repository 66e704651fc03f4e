// Shared by the reliability tests: running the real runner, scratch space.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace reliability {

namespace fs = std::filesystem;

struct Result {
  int code;  // exit code, or -signal
  std::string out, err;
};

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void spit(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
}

inline fs::path scratch() {
  fs::path dir = fs::temp_directory_path() / ("poolscope-rel-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

inline std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs the runner with `args` (already shell-quoted where needed).
inline Result runner(const std::string& args) {
  fs::path err = scratch() / "stderr.txt";
  std::string cmd = std::string(POOLSCOPE_RUNNER) + " " + args + " 2>" + err.string();
  FILE* p = ::popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  int status = ::pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status), out, slurp(err)};
}

inline fs::path bad_dir() { return fs::path(POOLSCOPE_SOURCE_DIR) / "tests" / "data" / "bad"; }

// The smallest valid scenario, with `phase` as its one phase.
inline std::string scenario_with(const std::string& phase, const std::string& extra = "") {
  return R"({"name": "t", "lesson": "l", "task": {"duration": "1ms"}, )" + extra + R"("phases": [)" + phase +
         R"(], "pools": [{"design": "ants", "config": {"size": 2}}]})";
}

}  // namespace reliability
