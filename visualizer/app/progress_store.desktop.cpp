#include <cstdlib>
#include <fstream>
#include <sstream>

#include "scenarios/engine/atomic_file.h"
#include "visualizer/app/progress_store.h"

namespace poolscope::gui {

namespace {

std::filesystem::path progress_file() {
  const char* data = std::getenv("XDG_DATA_HOME");
  std::filesystem::path dir;
  if (data && *data == '/') {
    dir = data;
  } else {
    const char* home = std::getenv("HOME");
    dir = std::filesystem::path(home && *home ? home : ".") / ".local" / "share";
  }
  return dir / "poolscope" / "challenges.json";
}

}  // namespace

std::string progress_place() { return progress_file().string(); }

std::string load_progress() {
  std::ifstream in(progress_file());
  if (!in) return "";
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string save_progress(const std::string& text) {
  const std::filesystem::path file = progress_file();
  try {
    std::filesystem::create_directories(file.parent_path());
    scenario::write_atomically(file, [&](std::ostream& out) { out << text; });  // never half a file
    return "";
  } catch (const std::exception& e) {
    return std::string("the challenges' progress was not kept: ") + e.what();
  }
}

}  // namespace poolscope::gui
