// Where the challenges' progress (model/challenge_progress.h) is kept between
// sessions, one side per platform (the build picks the file):
//   progress_store.desktop.cpp  a file: $XDG_DATA_HOME/poolscope/challenges.json,
//                               else ~/.local/share/poolscope/challenges.json
//   progress_store.web.cpp      the browser's local storage, key "poolscope-challenges"
#pragma once

#include <string>

namespace poolscope::gui {

// Where it is kept, for messages and the menu's tooltip.
std::string progress_place();
// The kept text, "" if nothing was kept yet (or it cannot be read).
std::string load_progress();
// Keeps `text`; returns "" or why it could not.
std::string save_progress(const std::string& text);

}  // namespace poolscope::gui
