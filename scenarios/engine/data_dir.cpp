#include "scenarios/engine/data_dir.h"

#include <vector>

// POOLSCOPE_DATA_FROM_BIN, set on this file alone by scenarios/CMakeLists.txt:
// the install's data directory relative to its bin directory. Kept off the
// library's public definitions so that changing it recompiles one file.
#ifndef POOLSCOPE_DATA_FROM_BIN
#define POOLSCOPE_DATA_FROM_BIN "../share/poolscope"
#endif

namespace poolscope::scenario {

namespace {

namespace fs = std::filesystem;

std::vector<fs::path> candidates() {
  std::vector<fs::path> out;
  // /proc/self/exe has the symlinks resolved: a /usr/local/bin/poolscope link
  // into /opt/poolscope/bin finds /opt/poolscope/share/poolscope.
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec && exe.is_absolute()) out.push_back((exe.parent_path() / POOLSCOPE_DATA_FROM_BIN).lexically_normal());
  out.emplace_back(POOLSCOPE_SOURCE_DIR);
  return out;
}

bool holds_data(const fs::path& dir) {
  std::error_code ec;
  return fs::is_directory(dir / "scenarios" / "library", ec);
}

}  // namespace

const fs::path& data_root() {
  static const fs::path root = [] {
    for (const fs::path& dir : candidates())
      if (holds_data(dir)) return dir;
    return fs::path();
  }();
  return root;
}

fs::path data_path(std::string_view relative) { return data_root() / relative; }

std::string data_root_candidates() {
  std::string out;
  for (const fs::path& dir : candidates()) out += (out.empty() ? "" : ", then ") + dir.string();
  return out;
}

}  // namespace poolscope::scenario
