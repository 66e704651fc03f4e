// The runner as the tests of the cli and reliability areas run it: in a
// subprocess, its exit code, standard output and standard error kept apart,
// with a scratch directory of the test process's own.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace runner_process {

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
  fs::path dir = fs::temp_directory_path() / ("poolscope-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

inline std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs the runner with `args` (already shell-quoted where needed).
inline Result run(const std::string& args) {
  fs::path err = scratch() / "stderr.txt";
  std::string cmd = std::string(POOLSCOPE_RUNNER) + " " + args + " 2>" + err.string();
  FILE* p = ::popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  int status = ::pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status), out, slurp(err)};
}

// A file of tests/data/.
inline std::string data(const std::string& name) { return std::string(POOLSCOPE_SOURCE_DIR) + "/tests/data/" + name; }

}  // namespace runner_process
