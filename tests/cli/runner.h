// The runner as a test of the cli area runs it: in a subprocess, its exit
// code, standard output and standard error kept apart.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace cli_test {

namespace fs = std::filesystem;

struct Result {
  int code;
  std::string out, err;
};

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline fs::path scratch() {
  fs::path dir = fs::temp_directory_path() / ("poolscope-cli-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

inline Result run(const std::string& args) {
  fs::path err = scratch() / "stderr.txt";
  std::string cmd = std::string(POOLSCOPE_RUNNER) + " " + args + " 2>" + err.string();
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  while (std::size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out, slurp(err)};
}

inline std::string data(const std::string& name) { return std::string(POOLSCOPE_SOURCE_DIR) + "/tests/data/" + name; }

}  // namespace cli_test
