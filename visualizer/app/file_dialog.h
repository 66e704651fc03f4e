// A small file picker (ImGui has none): a path field, the folder's
// sub-folders and .json files, shortcuts to the shipped scenarios and the
// working directory. Files can also be dropped onto the window.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace poolscope::gui {

class FileDialog {
 public:
  void open(const std::filesystem::path& dir);
  // Draws the dialog while it is open; returns the file chosen, once.
  std::optional<std::filesystem::path> draw(float scale);

 private:
  void list(const std::filesystem::path& dir);

  bool open_ = false, opening_ = false;
  std::filesystem::path dir_;
  std::string path_;
  std::vector<std::filesystem::directory_entry> entries_;
  std::string error_;
};

}  // namespace poolscope::gui
