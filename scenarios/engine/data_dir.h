// Where the files poolscope ships are found at run time: the scenario library,
// the lab scenarios, the design pages the GUI quotes, the JSON schemas, the
// assets. An installed poolscope keeps them under PREFIX/share/poolscope in
// the source tree's layout, so one relative path ("scenarios/library",
// "docs/pools/ants.md") names the same file in an installation and in a
// source checkout. docs/install.md gives the order for users.
#pragma once

#include <filesystem>
#include <string_view>

namespace poolscope::scenario {

// The first that holds scenarios/library:
//   1. the installation the running executable belongs to: BIN/../share/poolscope
//      for an executable in BIN (the relative path comes from the build's
//      GNU install directories), wherever that installation was moved;
//   2. the source tree the executable was built from (a binary run from its
//      build directory);
// else empty. Computed once.
const std::filesystem::path& data_root();

// data_root() / relative.
std::filesystem::path data_path(std::string_view relative);

// Where data_root() looked, in order, for messages that must say it.
std::string data_root_candidates();

}  // namespace poolscope::scenario
