#include <imgui.h>

#include <ctime>
#include <fstream>

#include "visualizer/app/share_link.h"

namespace poolscope::gui {

namespace {

// Quoted for a POSIX shell where it needs to be.
std::string shell_word(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:,=") ==
                        std::string::npos)
    return s;
  std::string quoted = "'";
  for (char c : s) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace

std::string copy_link(const Link& link) {
  std::string command = "poolscope-gui";
  if (link.document) {
    // The edited scenario, as a file in the working directory.
    char stamp[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
    const std::string file = "poolscope-" + link.document->value("name", "scenario") + "-" + stamp + ".scenario.json";
    std::ofstream out(file);
    out << link.document->dump(2) << "\n";
    if (!out) return "cannot write " + file;
    command += " " + shell_word(file);
  } else if (!link.scenario.empty()) {  // (a lesson's or a challenge's link names no scenario: its options say it)
    command += " " + shell_word(link.scenario);
  }
  for (const auto& [option, value] : link.options)
    command += " --" + option + (value.empty() ? "" : " " + shell_word(value));
  ImGui::SetClipboardText(command.c_str());
  return "command copied: " + command;
}

}  // namespace poolscope::gui
