// The shipped scenarios (scenarios/library/*.json), each teaching one lesson.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace poolscope::scenario {

inline constexpr std::string_view kDefaultScenario = "tour";

struct LibraryEntry {
  std::string name;  // the file's stem: what `poolscope run NAME` accepts
  std::string lesson;
  std::filesystem::path file;
};

// $POOLSCOPE_SCENARIOS if set, else the source tree's scenarios/library.
std::filesystem::path library_dir();
// Every shipped scenario, sorted by name; unreadable files are listed with
// their error as the lesson.
std::vector<LibraryEntry> list_library();
// A path to an existing file as given, else a shipped scenario's name
// ("burst-then-idle" or "burst-then-idle.json"). Throws ConfigError if neither.
std::filesystem::path resolve_scenario(const std::string& name_or_path);

}  // namespace poolscope::scenario
