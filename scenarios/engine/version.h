// Which poolscope this is, for --version and bug reports. Defined in a .cpp
// the build generates (cmake/version.cpp.in, written by cmake/version_file.cmake
// only when the version or the commit changed), so a new commit recompiles
// that one file and relinks the two programs, nothing else.
#pragma once

#include <string>
#include <string_view>

namespace poolscope {

std::string_view version();  // the project's version, e.g. "0.1.0"
std::string_view commit();   // the git commit built, abbreviated, "+dirty" if edited; "unknown" outside git

// "PROGRAM 0.1.0 (commit 1a2b3c4d5e6f)": the first line of --version.
std::string version_line(std::string_view program);

}  // namespace poolscope
