// The explain panel, per pool: what its design does (the registry's summary
// and the "What to watch for in the GUI" section of its docs page), its
// parameters with editors generated from the registry's descriptions (all of
// them before the run, the live ones during it), the last rule that fired,
// every rule its events named, and a link to its docs page.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdlib>

#include "pools/core/duration.h"
#include "pools/core/registry.h"
#include "visualizer/app/draw.h"
#include "visualizer/app/views.h"
#include "visualizer/model/describe.h"
#include "visualizer/model/design_docs.h"

namespace poolscope::gui {

namespace {

struct Entry {
  std::size_t index;
  std::string name, design;
  json config;
};

std::vector<Entry> entries(const Context& cx) {
  std::vector<Entry> out;
  if (cx.live) {
    const json& pools = cx.live->document()["pools"];
    for (std::size_t i = 0; i < pools.size(); ++i) {
      std::string design = pools[i].value("design", "");
      out.push_back({i, pools[i].value("name", design), design, pools[i].value("config", json::object())});
    }
  } else {
    for (const scenario::ResultPool& p : cx.replay->file().pools)
      out.push_back({p.info.id, p.info.name, p.info.design, p.config});
  }
  return out;
}

std::string describe_spec(const ParamSpec& s) {
  std::string t = s.help + "\n\n" + std::string(type_name(s.type)) + ", default " + s.default_value.dump();
  if (!s.min.is_null() || !s.max.is_null())
    t += ", range [" + (s.min.is_null() ? "" : s.min.dump()) + ", " + (s.max.is_null() ? "" : s.max.dump()) + "]";
  if (!s.unit.empty()) t += ", in " + s.unit;
  t += s.live ? "\nlive: can change while the pool runs" : "\nset before the run";
  return t;
}

// One parameter's editor. Returns true, with `out`, when the user commits a value.
bool editor(const ParamSpec& spec, const json& value, ExplainView::TextField& text, float width, json& out) {
  ImGui::SetNextItemWidth(width);
  switch (spec.type) {
    case ParamType::integer: {
      long long v = value.is_number() ? value.get<long long>() : 0, step = 1;
      if (!ImGui::InputScalar("##v", ImGuiDataType_S64, &v, &step, nullptr, "%lld",
                              ImGuiInputTextFlags_EnterReturnsTrue))
        return false;
      if (!spec.min.is_null()) v = std::max(v, spec.min.get<long long>());
      if (!spec.max.is_null()) v = std::min(v, spec.max.get<long long>());
      out = v;
      return true;
    }
    case ParamType::number: {
      double v = value.is_number() ? value.get<double>() : 0;
      if (!ImGui::InputDouble("##v", &v, 0, 0, "%g", ImGuiInputTextFlags_EnterReturnsTrue)) return false;
      if (!spec.min.is_null()) v = std::max(v, spec.min.get<double>());
      if (!spec.max.is_null()) v = std::min(v, spec.max.get<double>());
      out = v;
      return true;
    }
    case ParamType::boolean: {
      bool v = value.is_boolean() && value.get<bool>();
      if (!ImGui::Checkbox("##v", &v)) return false;
      out = v;
      return true;
    }
    case ParamType::duration: {
      // Edited as text ("250ms"); the field follows the value while not being edited.
      if (!text.editing) text.text = value.is_string() ? value.get<std::string>() : value.dump();
      bool entered = ImGui::InputText("##v", &text.text, ImGuiInputTextFlags_EnterReturnsTrue);
      text.editing = ImGui::IsItemActive();
      bool valid = parse_duration(text.text).has_value();
      if (!valid && text.editing) ImGui::SetTooltip("a duration such as 250ms, 2s or 1m30s");
      if (!entered || !valid) return false;
      out = text.text;
      return true;
    }
    case ParamType::choice: {
      std::string current = value.is_string() ? value.get<std::string>() : value.dump();
      bool chosen = false;
      if (ImGui::BeginCombo("##v", current.c_str())) {
        for (const std::string& c : spec.choices)
          if (ImGui::Selectable(c.c_str(), c == current)) {
            out = c;
            chosen = c != current;
          }
        ImGui::EndCombo();
      }
      return chosen;
    }
  }
  return false;
}

const metrics::PoolMetrics* pool_named(const metrics::RunMetrics& m, const std::string& name) {
  for (const metrics::PoolMetrics& p : m.pools())
    if (p.info().name == name) return &p;
  return nullptr;
}

}  // namespace

void open_docs(Ui& ui, const std::string& relative) {
  std::filesystem::path path = docs_path(relative);
  ImGui::SetClipboardText(path.string().c_str());
  std::string command = "xdg-open '" + path.string() + "' >/dev/null 2>&1 &";
  bool opened = std::system(command.c_str()) == 0;
  ui.say((opened ? "opened " : "path copied: ") + path.string());
}

void ExplainView::draw(Context& cx) {
  Ui& ui = cx.ui;
  const Registry& registry = Registry::global();
  const LiveSession::State state = cx.live ? cx.live->state() : LiveSession::State::finished;
  // The document is edited for the next run: before the first, or once a run has ended.
  const bool before_run = cx.live && (state == LiveSession::State::ready || state == LiveSession::State::finished);
  const bool running = cx.live && (state == LiveSession::State::running || state == LiveSession::State::paused);
  const float wrap = ImGui::GetContentRegionAvail().x - ui.px(8);

  for (const Entry& e : entries(cx)) {
    ImGui::PushID(static_cast<int>(e.index));
    const plot::Rgba c = ui.pool_colour(e.index);
    ImGui::PushStyleColor(ImGuiCol_Header, col4(c.with_alpha(110)));
    ImGui::PushStyleColor(ImGuiCol_HeaderHovered, col4(c.with_alpha(150)));
    const std::string title = e.name == e.design ? e.name : e.name + "  (" + e.design + ")";
    const bool open = ImGui::CollapsingHeader(title.c_str(), ImGuiTreeNodeFlags_DefaultOpen);
    ImGui::PopStyleColor(2);
    if (!open) {
      ImGui::PopID();
      continue;
    }
    const Design* design = registry.find(e.design);
    if (!design) {
      ImGui::TextDisabled("design '%s' is not registered in this build", e.design.c_str());
      ImGui::PopID();
      continue;
    }
    wrapped(design->summary, wrap);
    // Parameters: editors from the registry's descriptions.
    if (!design->params.empty() &&
        ImGui::BeginTable("params", 3, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg)) {
      float unit_width = 0;
      for (const ParamSpec& spec : design->params)
        unit_width = std::max(unit_width, ImGui::CalcTextSize(spec.unit.c_str()).x);
      ImGui::TableSetupColumn("name", ImGuiTableColumnFlags_WidthStretch, 1.2f);
      ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch, 1.0f);
      ImGui::TableSetupColumn("unit", ImGuiTableColumnFlags_WidthFixed, unit_width + ui.px(22));
      for (const ParamSpec& spec : design->params) {
        ImGui::PushID(spec.name.c_str());
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextUnformatted(spec.name.c_str());
        if (ImGui::IsItemHovered()) {
          ImGui::BeginTooltip();
          wrapped(describe_spec(spec), ui.px(420));
          ImGui::EndTooltip();
        }
        if (spec.live) {
          ImGui::SameLine();
          ImGui::TextColored(ImVec4(0.5f, 0.85f, 0.6f, 1), "live");
          if (ImGui::IsItemHovered()) ImGui::SetTooltip("can be changed while the run goes on");
        }
        ImGui::TableSetColumnIndex(1);
        json value = e.config.contains(spec.name) ? e.config[spec.name] : spec.default_value;
        if (running)
          if (auto pool = cx.live->tuned().find(e.name); pool != cx.live->tuned().end())
            if (auto v = pool->second.find(spec.name); v != pool->second.end()) value = v->second;
        const bool editable = before_run || (running && spec.live);
        ImGui::BeginDisabled(!editable);
        json committed;
        auto& text = text_[e.name + "." + spec.name];
        if (editor(spec, value, text, ImGui::GetContentRegionAvail().x, committed)) {
          LiveSession* live = cx.live;
          if (before_run) {
            cx.later.push_back(
                [live, i = e.index, name = spec.name, committed] { live->set_param(i, name, committed); });
          } else {
            cx.later.push_back([live, &ui, pool = e.name, name = spec.name, committed] {
              std::string error = live->tune(pool, name, committed);
              ui.say(error.empty() ? "tuned " + pool + "." + name + " to " + committed.dump() : error, !error.empty());
            });
          }
        }
        ImGui::EndDisabled();
        ImGui::TableSetColumnIndex(2);
        ImGui::TextDisabled("%s", spec.unit.c_str());
        if (before_run && e.config.contains(spec.name)) {
          ImGui::SameLine();
          if (ImGui::SmallButton("x"))
            cx.later.push_back([live = cx.live, i = e.index, name = spec.name] { live->set_param(i, name, nullptr); });
          if (ImGui::IsItemHovered()) ImGui::SetTooltip("back to the default, %s", spec.default_value.dump().c_str());
        }
        ImGui::PopID();
      }
      ImGui::EndTable();
    }

    // The last rule that fired, and every rule named so far.
    const metrics::PoolMetrics* pm = pool_named(cx.frame.at_now, e.name);
    if (const metrics::Marker* last = pm ? pm->last_rule() : nullptr) {
      ImGui::Text("Last rule, at %s:", at_time(last->t).c_str());
      wrapped(describe(*last), wrap);
      dim(describe_rule(last->rule), wrap);
    } else {
      ImGui::TextDisabled(pm ? "No rule has fired yet." : "Rules appear here as the run makes them fire.");
    }
    if (const std::string& watch = what_to_watch(design->docs); !watch.empty())
      if (ImGui::TreeNodeEx("What to watch", ImGuiTreeNodeFlags_DefaultOpen)) {
        wrapped(watch, wrap - ImGui::GetTreeNodeToLabelSpacing());
        ImGui::TreePop();
      }

    if (pm && !pm->rules().empty()) {
      std::string label = "Rules named so far (" + std::to_string(pm->rules().size()) + ")";
      if (ImGui::TreeNode(label.c_str())) {
        for (Label rule : pm->rules()) {
          ImGui::Bullet();
          wrapped(describe_rule(rule), wrap - ImGui::GetTreeNodeToLabelSpacing());
        }
        ImGui::TreePop();
      }
    }
    if (!design->docs.empty()) {
      if (ImGui::SmallButton(design->docs.c_str()))
        cx.later.push_back([&ui, docs = design->docs] { open_docs(ui, docs); });
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("open the design's page (and copy its path)");
    }
    if (before_run && cx.live->document()["pools"].size() > 1) {
      ImGui::SameLine();
      if (ImGui::SmallButton("remove this pool"))
        cx.later.push_back([live = cx.live, i = e.index] { live->remove_pool(i); });
    }
    ImGui::Spacing();
    ImGui::PopID();
  }

  if (before_run) {
    // Any registered design can join the comparison.
    ImGui::Separator();
    const auto names = registry.names();
    if (add_design_.empty() && !names.empty()) add_design_ = names.front();
    ImGui::SetNextItemWidth(ui.px(160));
    if (ImGui::BeginCombo("##add", add_design_.c_str())) {
      for (const std::string& n : names) {
        if (ImGui::Selectable(n.c_str(), n == add_design_)) add_design_ = n;
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", registry.get(n).summary.c_str());
      }
      ImGui::EndCombo();
    }
    ImGui::SameLine();
    if (ImGui::Button("Add pool")) cx.later.push_back([live = cx.live, d = add_design_] { live->add_pool(d); });
  }
}

}  // namespace poolscope::gui
