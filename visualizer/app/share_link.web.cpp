#include <emscripten/emscripten.h>

#include "visualizer/app/share_link.h"

namespace poolscope::gui {

namespace {

// The page (web/site/poolscope.js) compresses the scenario into the
// address, and puts the address on the clipboard.
// clang-format off
EM_JS(void, copy_page_link, (const char* link), { Module['poolscopeCopyLink'](JSON.parse(UTF8ToString(link))); });
// clang-format on

}  // namespace

std::string copy_link(const Link& link) {
  json j = {{"options", json::object()}};
  if (link.document)
    j["document"] = *link.document;
  else if (!link.scenario.empty())  // (a lesson's link names no scenario)
    j["scenario"] = link.scenario;
  for (const auto& [option, value] : link.options) j["options"][option] = value;
  copy_page_link(j.dump().c_str());
  return "link copied: open it anywhere to see this run";
}

}  // namespace poolscope::gui
