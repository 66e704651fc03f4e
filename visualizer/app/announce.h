// What the GUI says in words (its status line, its could-not-open dialog),
// also handed to the platform, one side per platform (the build picks the file):
//   announce.desktop.cpp  nothing more: the window shows it (and the headless
//                         modes print the dialogs)
//   announce.web.cpp      the page's live region, which screen readers read
//                         out (and the browser tests read)
#pragma once

#include <string>

namespace poolscope::gui {

void announce(const std::string& text, bool error);
// A piece of what is on screen as JSON, under `name`, for what reads the page
// (the browser tests: the scheduler's decision and where its choices are
// drawn); nothing on the desktop, whose headless modes print it instead.
void announce_state(const std::string& name, const std::string& json);

}  // namespace poolscope::gui
