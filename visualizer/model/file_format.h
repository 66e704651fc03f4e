// Which kind of file the GUI was given, from its content, not its name: a
// result or a sweep names its format in its top-level "format" key; anything
// else is taken for a scenario.
#pragma once

#include <filesystem>
#include <string>

namespace poolscope::gui {

// The top-level "format" of a JSON file, wherever that key is, read up to it
// (the runner writes a result's first) without building the document. ""
// when there is none, or the file is not a regular file (a FIFO would block
// the open), cannot be read, or is no JSON object.
std::string top_format(const std::filesystem::path& file);

// A result, of any version of the format: the result reader names the one it reads.
bool is_result(const std::filesystem::path& file);

}  // namespace poolscope::gui
