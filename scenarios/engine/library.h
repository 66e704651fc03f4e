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

// $POOLSCOPE_SCENARIOS if set (an explicit choice wins), else
// data_root()/scenarios/library: the installation's, else the source tree's.
std::filesystem::path library_dir();
// How library_dir() was chosen, for messages: "set by POOLSCOPE_SCENARIOS" or
// "looked for scenarios/library in A, then B".
std::string library_dir_origin();
// Every shipped scenario, sorted by name; unreadable files are listed with
// their error as the lesson.
std::vector<LibraryEntry> list_library();
// A path to an existing file as given, else a shipped scenario's name
// ("burst-then-idle" or "burst-then-idle.json"), else a path inside the
// shipped data ("labs/scenarios/01-fixed.json", wherever poolscope is
// installed). Throws ConfigError, naming where it looked, if none.
std::filesystem::path resolve_scenario(const std::string& name_or_path);

}  // namespace poolscope::scenario
