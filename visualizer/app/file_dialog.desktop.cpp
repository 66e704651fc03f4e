#include "visualizer/app/file_dialog.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>

#include "scenarios/engine/library.h"

namespace poolscope::gui {

void FileDialog::open(const std::filesystem::path& dir) {
  open_ = opening_ = true;
  list(dir);
}

void FileDialog::list(const std::filesystem::path& dir) {
  std::error_code ec;
  dir_ = std::filesystem::weakly_canonical(dir, ec);
  path_ = dir_.string() + "/";
  entries_.clear();
  error_.clear();
  for (const auto& e : std::filesystem::directory_iterator(dir_, ec))
    if (e.is_directory() || e.path().extension() == ".json") entries_.push_back(e);
  if (ec) error_ = ec.message();
  std::sort(entries_.begin(), entries_.end(), [](const auto& a, const auto& b) {
    if (a.is_directory() != b.is_directory()) return a.is_directory();
    return a.path().filename() < b.path().filename();
  });
}

std::optional<std::filesystem::path> FileDialog::draw(float scale) {
  if (!open_) return std::nullopt;
  if (opening_) {
    ImGui::OpenPopup("Open a scenario or a result");
    opening_ = false;
  }
  std::optional<std::filesystem::path> chosen;
  ImGui::SetNextWindowSize({640 * scale, 460 * scale}, ImGuiCond_Appearing);
  if (ImGui::BeginPopupModal("Open a scenario or a result", &open_)) {
    ImGui::TextDisabled("A scenario runs live; a result written with `poolscope run ... --events` replays.");
    ImGui::SetNextItemWidth(-1);
    if (ImGui::InputText("##path", &path_, ImGuiInputTextFlags_EnterReturnsTrue)) {
      if (std::filesystem::is_directory(path_))
        list(path_);
      else
        chosen = path_;
    }
    if (ImGui::SmallButton("shipped scenarios")) list(scenario::library_dir());
    ImGui::SameLine();
    if (ImGui::SmallButton("working directory")) list(std::filesystem::current_path());
    ImGui::SameLine();
    if (ImGui::SmallButton("up")) list(dir_.parent_path());
    if (!error_.empty()) ImGui::TextColored({1, 0.4f, 0.4f, 1}, "%s", error_.c_str());
    ImGui::BeginChild("entries", {0, -ImGui::GetFrameHeightWithSpacing()}, true);
    for (const auto& e : entries_) {
      std::string name = e.path().filename().string() + (e.is_directory() ? "/" : "");
      if (ImGui::Selectable(name.c_str(), false,
                            ImGuiSelectableFlags_AllowDoubleClick | ImGuiSelectableFlags_DontClosePopups)) {
        if (e.is_directory()) {
          list(e.path());
          break;
        }
        path_ = e.path().string();
        if (ImGui::IsMouseDoubleClicked(0)) chosen = e.path();
      }
    }
    ImGui::EndChild();
    if (ImGui::Button("Open") && !std::filesystem::is_directory(path_)) chosen = path_;
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) open_ = false;
    if (chosen) open_ = false;
    if (!open_) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
  }
  return chosen;
}

}  // namespace poolscope::gui
