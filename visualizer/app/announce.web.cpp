#include <emscripten/emscripten.h>

#include "visualizer/app/announce.h"

namespace poolscope::gui {

namespace {

// clang-format off
EM_JS(void, page_announce, (const char* text, bool error), { Module['poolscopeAnnounce'](UTF8ToString(text), error); });
EM_JS(void, page_state, (const char* name, const char* json), {
  Module['poolscopeState'](UTF8ToString(name), UTF8ToString(json));
});
// clang-format on

}  // namespace

void announce(const std::string& text, bool error) { page_announce(text.c_str(), error); }
void announce_state(const std::string& name, const std::string& json) { page_state(name.c_str(), json.c_str()); }

}  // namespace poolscope::gui
