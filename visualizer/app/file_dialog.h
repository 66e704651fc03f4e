// Choosing a file to open, one side per platform (the build picks the file):
//   file_dialog.desktop.cpp  a small picker (ImGui has none): a path field,
//                            the folder's sub-folders and .json files,
//                            shortcuts to the shipped scenarios and the
//                            working directory
//   file_dialog.web.cpp      the browser's own file picker; the file chosen
//                            is copied into the page's file system
// Files can also be dropped onto the window (or the page) either way.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace poolscope::gui {

class FileDialog {
 public:
  // Opens it at `dir` (the browser's picker opens where it likes).
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
