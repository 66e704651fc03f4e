#include <emscripten/emscripten.h>

#include "visualizer/app/announce.h"

namespace poolscope::gui {

namespace {

// clang-format off
EM_JS(void, page_announce, (const char* text, bool error), { Module['poolscopeAnnounce'](UTF8ToString(text), error); });
// clang-format on

}  // namespace

void announce(const std::string& text, bool error) { page_announce(text.c_str(), error); }

}  // namespace poolscope::gui
