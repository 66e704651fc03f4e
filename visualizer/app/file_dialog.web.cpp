#include <emscripten/emscripten.h>

#include <cstdlib>

#include "visualizer/app/file_dialog.h"

namespace poolscope::gui {

namespace {

// The browser's file picker. The file chosen is read into the page's file
// system (/picked/NAME) when the user has chosen it, some frames later; the
// page (web/site/poolscope.js) keeps its path until draw() takes it.
// clang-format off
EM_JS(void, show_picker, (), { Module['poolscopePickFile'](); });
EM_JS(char*, take_picked, (), {
  var path = Module['poolscopeTakePicked']();
  return path ? allocateUTF8(path) : 0;
});
// clang-format on

}  // namespace

void FileDialog::open(const std::filesystem::path&) {
  open_ = true;
  show_picker();
}

std::optional<std::filesystem::path> FileDialog::draw(float) {
  if (!open_) return std::nullopt;
  char* path = take_picked();
  if (!path) return std::nullopt;  // (a cancelled picker leaves it open: the next choice still counts)
  std::filesystem::path chosen(path);
  std::free(path);
  open_ = false;
  return chosen;
}

}  // namespace poolscope::gui
