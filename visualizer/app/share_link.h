// A way to show the run on screen again, elsewhere: what decides it (the
// scenario, the simulation's machine and seed) and how it is viewed. One
// side per platform (the build picks the file):
//   share_link.desktop.cpp  the poolscope-gui command line; an edited
//                           scenario is written beside, as a file it names
//   share_link.web.cpp      the page's address, the run in its fragment
//                           (docs/web.md: what a link carries)
// The options are the GUI's own command-line options (main.cpp), so a link
// and a command line say the same things in the same words.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pools/core/params.h"

namespace poolscope::gui {

struct Link {
  std::string scenario;          // a shipped scenario's name, when the document is the shipped one ("": a challenge's)
  std::optional<json> document;  // else the whole scenario
  std::vector<std::pair<std::string, std::string>> options;  // {"view", "1s:2.5s"}, {"tab", "pools"}
};

// Puts it on the clipboard; returns what the status line says.
std::string copy_link(const Link& link);

}  // namespace poolscope::gui
