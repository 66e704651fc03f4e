#include <emscripten/emscripten.h>

#include <cstdlib>

#include "visualizer/app/progress_store.h"

namespace poolscope::gui {

namespace {

// The page (web/site/page.js) reads and writes the browser's local storage:
// a browser that refuses it (private mode, storage full) keeps nothing.
// clang-format off
EM_JS(char*, page_load_progress, (), {
  var text = Module['poolscopeLoadProgress']();
  return text ? allocateUTF8(text) : 0;
});
EM_JS(bool, page_save_progress, (const char* text), { return Module['poolscopeSaveProgress'](UTF8ToString(text)); });
// clang-format on

}  // namespace

std::string progress_place() { return "this browser's local storage (poolscope-challenges)"; }

std::string load_progress() {
  char* text = page_load_progress();
  if (!text) return "";
  std::string kept(text);
  std::free(text);
  return kept;
}

std::string save_progress(const std::string& text) {
  return page_save_progress(text.c_str()) ? "" : "the browser did not let the page keep the challenges' progress";
}

}  // namespace poolscope::gui
