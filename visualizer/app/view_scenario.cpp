// The scenario page: what the run teaches (its lesson and description), its
// phases of arrivals, its settings, and, before a run, whether the edited
// document is valid (the runner's own validation, with the JSON path).
#include "visualizer/app/draw.h"
#include "visualizer/app/views.h"

namespace poolscope::gui {

namespace {

// A JSON value as a person would write it: strings without quotes, objects as
// "key value" pairs ({"dist": "exponential", "mean": "30ms"} -> "exponential, mean 30ms").
std::string plain(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (!v.is_object()) return v.dump();
  std::string out;
  for (const auto& [key, value] : v.items()) {
    if (!out.empty()) out += ", ";
    out += key == "dist" || key == "kind" ? plain(value) : key + " " + plain(value);
  }
  return out;
}

// "poisson, rate 150" ...: the kind first, then what it takes.
std::string arrival_text(const json& a) {
  std::string text = a.value("kind", "?");
  for (const auto& [key, value] : a.items())
    if (key != "kind") text += ", " + key + " " + plain(value);
  return text;
}

std::string task_text(const json& t) {
  if (!t.is_object()) return "";
  std::string text;
  for (const auto& [key, value] : t.items()) {
    if ((value.is_number() && value == 0) || (key == "kind" && value == "sleep")) continue;  // the defaults
    text += (text.empty() ? "" : "; ") + key + " " + plain(value);
  }
  return text;
}

}  // namespace

void ScenarioView::draw(Context& cx) {
  Ui& ui = cx.ui;
  const json& doc = cx.live ? cx.live->document() : cx.replay->file().scenario;
  const float wrap = ImGui::GetContentRegionAvail().x - ui.px(8);
  if (cx.live && !cx.live->error().empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 110, 110, 255));
    wrapped(cx.live->error(), wrap);
    ImGui::PopStyleColor();
    ImGui::Separator();
  }
  ImGui::Text("%s", doc.value("name", "").c_str());
  wrapped(doc.value("lesson", ""), wrap);
  if (std::string d = doc.value("description", ""); !d.empty()) dim(d, wrap);
  ImGui::Separator();

  if (cx.live && (cx.live->state() == LiveSession::State::ready || cx.live->state() == LiveSession::State::finished)) {
    auto seed = doc.value("seed", std::uint64_t{1});
    ImGui::SetNextItemWidth(ui.px(140));
    if (ImGui::InputScalar("seed", ImGuiDataType_U64, &seed, nullptr, nullptr, "%llu",
                           ImGuiInputTextFlags_EnterReturnsTrue))
      cx.later.push_back([live = cx.live, seed] { live->set_seed(seed); });
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("the same seed gives every pool the same tasks at the same times");
  } else {
    ImGui::Text("seed %llu", static_cast<unsigned long long>(doc.value("seed", std::uint64_t{1})));
  }
  ImGui::Text("schedule %s, %d submitter(s), drain %s", doc.value("schedule", "side_by_side").c_str(),
              doc.value("submitters", 1), doc.value("drain", "graceful").c_str());
  if (doc.value("schedule", "") == "sequential")
    dim("sequential: each pool runs alone, one after the other; their timelines all start at 0", wrap);

  ImGui::Spacing();
  if (ImGui::BeginTable("phases", 3,
                        ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("phase", 0, 0.8f);
    ImGui::TableSetupColumn("for", 0, 0.5f);
    ImGui::TableSetupColumn("arrivals, tasks", 0, 2.5f);
    ImGui::TableHeadersRow();
    for (const json& p : doc.value("phases", json::array())) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextUnformatted(p.value("name", "").c_str());
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(p.value("duration", "").c_str());
      ImGui::TableSetColumnIndex(2);
      wrapped(arrival_text(p.value("arrival", json::object())), ImGui::GetContentRegionAvail().x);
      if (std::string t = task_text(p.value("task", json::object())); !t.empty())
        dim(t, ImGui::GetContentRegionAvail().x);
    }
    ImGui::EndTable();
  }
  if (cx.replay) {
    const auto& f = cx.replay->file();
    ImGui::Spacing();
    ImGui::Text("result: %s, status %s, %zu events", f.file.c_str(), f.status.c_str(), f.events.size());
    if (f.environment.is_object())
      dim(f.environment.value("os", "") + ", " + std::to_string(f.environment.value("cpus", 0)) + " CPUs, " +
              f.environment.value("date", ""),
          wrap);
  }
}

}  // namespace poolscope::gui
