#include "scenarios/engine/library.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>

#include "pools/core/params.h"
#include "scenarios/engine/data_dir.h"

namespace poolscope::scenario {

std::filesystem::path library_dir() {
  if (const char* env = std::getenv("POOLSCOPE_SCENARIOS"); env && *env) return env;
  return data_path("scenarios/library");
}

std::string library_dir_origin() {
  if (const char* env = std::getenv("POOLSCOPE_SCENARIOS"); env && *env) return "set by POOLSCOPE_SCENARIOS";
  return "looked for scenarios/library in " + data_root_candidates() + "; POOLSCOPE_SCENARIOS names another directory";
}

std::vector<LibraryEntry> list_library() {
  std::vector<LibraryEntry> out;
  std::error_code ec;
  for (const auto& f : std::filesystem::directory_iterator(library_dir(), ec)) {
    if (f.path().extension() != ".json") continue;
    LibraryEntry e{f.path().stem().string(), "", f.path()};
    try {
      std::ifstream in(f.path());
      json j = json::parse(in);
      e.lesson = j.value("lesson", "");
    } catch (const std::exception& err) {
      e.lesson = std::string("(unreadable: ") + err.what() + ")";
    }
    out.push_back(std::move(e));
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

std::filesystem::path resolve_scenario(const std::string& arg) {
  if (std::filesystem::is_regular_file(arg)) return arg;
  std::filesystem::path p = library_dir() / arg;
  if (p.extension() != ".json") p += ".json";
  if (arg.find('/') == std::string::npos && std::filesystem::is_regular_file(p)) return p;
  if (std::filesystem::path shipped = data_path(arg);
      !data_root().empty() && std::filesystem::path(arg).is_relative() && std::filesystem::is_regular_file(shipped))
    return shipped;
  std::string known;
  for (const auto& e : list_library()) known += (known.empty() ? "" : ", ") + e.name;
  if (known.empty())
    throw ConfigError("", "no scenario file '" + arg + "', and no shipped scenarios in '" + library_dir().string() +
                              "' (" + library_dir_origin() + ")");
  throw ConfigError("", "no scenario file '" + arg + "' and no shipped scenario of that name in '" +
                            library_dir().string() + "' (shipped: " + known + ")");
}

}  // namespace poolscope::scenario
