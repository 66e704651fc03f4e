#include <emscripten/emscripten.h>

#include "visualizer/app/hand_over.h"

namespace poolscope::gui {

namespace {

// clang-format off
EM_JS(void, download, (const char* path), { Module['poolscopeDownload'](UTF8ToString(path)); });
// clang-format on

}  // namespace

std::string hand_over(const std::filesystem::path& file) {
  download(file.c_str());
  std::error_code ignored;
  std::filesystem::remove(file, ignored);  // the page's memory, not a disk
  return "downloaded " + file.filename().string();
}

}  // namespace poolscope::gui
