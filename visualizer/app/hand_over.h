// Gives the user a file the GUI has just written (a screenshot, a trace, a
// result), one side per platform (the build picks the file):
//   hand_over.desktop.cpp  it stays where it was written
//   hand_over.web.cpp      the browser downloads it; the page's copy goes
#pragma once

#include <filesystem>
#include <string>

namespace poolscope::gui {

// Returns where it went, for the status line ("written to F", "downloaded F").
std::string hand_over(const std::filesystem::path& file);

}  // namespace poolscope::gui
