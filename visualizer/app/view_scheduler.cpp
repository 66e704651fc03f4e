// The Scheduler panel (view_scheduler.h): a decision's choices, picked by a
// click or a number key; the policy's picks; undo; the schedule so far.
#include "visualizer/app/view_scheduler.h"

#include <GLFW/glfw3.h>

#include <cstdio>

#include "pools/core/params.h"
#include "pools/core/registry.h"
#include "pools/core/sim/schedule.h"
#include "visualizer/app/announce.h"
#include "visualizer/app/challenge_play.h"
#include "visualizer/app/draw.h"
#include "visualizer/app/views.h"

namespace poolscope::gui {

namespace {

const ImVec4 kAmber{1.0f, 0.84f, 0.35f, 1};  // the choices' ink: no pool's colour, as their lanes' outline
constexpr std::size_t kKeys = 9;                 // choices 1 to 9 have a number key

// The pool's name in a thread's group: the engine groups each pool's
// threads as "pool 'NAME'" (its submitters and workers alike).
std::string pool_name(const std::string& group) {
  constexpr std::string_view kPrefix = "pool '";
  if (group.size() > kPrefix.size() + 1 && group.starts_with(kPrefix) && group.back() == '\'')
    return group.substr(kPrefix.size(), group.size() - kPrefix.size() - 1);
  return group;
}

// The pool a thread works for, by its group.
std::optional<std::size_t> pool_of(const Frame& f, const std::string& group) {
  const std::string name = pool_name(group);
  for (std::size_t p = 0; p < f.metrics.pools().size(); ++p)
    if (f.metrics.pools()[p].info().name == name) return p;
  return std::nullopt;
}

// A worker's id from its thread's name: the designs name their workers
// "DESIGN-ID" ("gammazero-3", "lab01-2"), the id the trace's lanes carry.
std::optional<WorkerId> worker_of(const std::string& name) {
  const auto dash = name.find_last_of('-');
  if (dash == std::string::npos || dash + 1 == name.size()) return std::nullopt;
  WorkerId id = 0;
  for (std::size_t i = dash + 1; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9' || id > 100'000'000) return std::nullopt;
    id = id * 10 + static_cast<WorkerId>(name[i] - '0');
  }
  return id;
}

// What the page's tests read of a decision: each choice and where its row is.
std::string decision_json(const sim::Decision& d, const std::vector<std::pair<ImVec2, ImVec2>>& rows,
                          const std::vector<std::uint64_t>& schedule) {
  json choices = json::array();
  for (std::size_t i = 0; i < d.candidates.size(); ++i) {
    const sim::Candidate& c = d.candidates[i];
    json row = {{"thread", c.thread}, {"name", c.name}, {"group", c.group}, {"where", c.where}, {"next", c.next}};
    if (i < rows.size())
      row["at"] = {(rows[i].first.x + rows[i].second.x) / 2, (rows[i].first.y + rows[i].second.y) / 2};
    choices.push_back(row);
  }
  return json{{"decision", d.index + 1}, {"matters", d.matters()}, {"choices", choices},
              {"schedule", schedule_text(schedule)}}
      .dump();
}

}  // namespace

std::string schedule_text(const std::vector<std::uint64_t>& picks) { return sim::format_picks(picks); }

bool SchedulerView::takes_number_keys(const Context& cx) const {
  return cx.live && cx.live->stepping() && cx.live->decision().has_value();
}

void SchedulerView::undo(Context& cx) {
  LiveSession* live = cx.live;
  if (!live || !live->stepping()) return;
  if (live->schedule().empty()) return cx.ui.say("nothing to undo: no pick was made yet");
  cx.later.push_back([live, &ui = cx.ui] {
    const std::size_t n = live->schedule().size();
    live->undo();
    ui.say("undone: back to decision " + std::to_string(n) + " (the run replayed without its last pick)");
  });
}

void SchedulerView::policy(Context& cx) const {
  if (cx.live && cx.live->stepping())
    cx.later.push_back([live = cx.live, n = policy_n_] { live->policy_for(static_cast<std::uint64_t>(n)); });
}

void SchedulerView::run_on(Context& cx) {
  if (cx.live && cx.live->stepping()) cx.later.push_back([live = cx.live] { live->run_on(); });
}

void SchedulerView::to_next_that_matters(Context& cx) {
  if (cx.live && cx.live->stepping()) cx.later.push_back([live = cx.live] { live->to_next_that_matters(); });
}

void SchedulerView::draw(Context& cx, const ChallengePlay* play, const std::function<void()>& share) {
  Ui& ui = cx.ui;
  ui.choice_lanes.clear();
  LiveSession* live = cx.live;
  if (!live || !live->stepping()) return;
  const std::optional<sim::Decision> d = live->decision();
  const std::vector<std::uint64_t>& schedule = live->schedule();
  const bool ended = live->state() == LiveSession::State::finished;

  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos({vp->WorkPos.x + vp->WorkSize.x - ui.px(12), vp->WorkPos.y + ui.px(70)}, ImGuiCond_Appearing,
                          {1, 0});
  ImGui::SetNextWindowSizeConstraints({ui.px(420), 0}, {std::min(ui.px(620), vp->WorkSize.x * 0.6f), vp->WorkSize.y * 0.8f});
  ImGui::SetNextWindowBgAlpha(0.96f);
  char title[96];
  if (d)
    std::snprintf(title, sizeof title, "Scheduler: decision %llu###scheduler",
                  static_cast<unsigned long long>(d->index + 1));
  else
    std::snprintf(title, sizeof title, "Scheduler: %s###scheduler", ended ? "the run has ended" : "running");
  if (!ImGui::Begin(title, nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                                        ImGuiWindowFlags_NoFocusOnAppearing)) {
    ImGui::End();
    return;
  }
  const float wrap = std::min(ui.px(600), vp->WorkSize.x * 0.6f) - ui.px(16);
  if (play) {
    ImGui::TextColored(kAmber, "Challenge: %s", play->title.c_str());
    wrapped("Goal: " + play->goal, wrap);
    if (!play->won && !play->hint.empty() && ImGui::TreeNode("Hint")) {
      wrapped(play->hint, wrap - ImGui::GetTreeNodeToLabelSpacing());
      ImGui::TreePop();
    }
    if (play->won) ImGui::TextColored({0.6f, 0.9f, 0.6f, 1}, "Won: %s", play->reached.c_str());
    // A correct pool, played to its end unbroken: what in the design prevents the failure.
    if (play->correct && play->ended_unbroken && !play->won) {
      ImGui::TextColored({0.6f, 0.9f, 0.6f, 1}, "No schedule breaks this pool:");
      wrapped(play->explanation, wrap);
    }
    ImGui::Separator();
  }

  std::vector<std::pair<ImVec2, ImVec2>> rows;
  if (d) {
    ImGui::TextUnformatted(d->matters() ? "Which thread runs next? (this decision matters: two of them touch the same "
                                          "thing)"
                                        : "Which thread runs next?");
    ImGui::TextDisabled("at %s; click one, or press its number", plot::format_time(static_cast<double>(d->at.count())).c_str());
    const Registry& registry = Registry::global();
    for (std::size_t i = 0; i < d->candidates.size(); ++i) {
      const sim::Candidate& c = d->candidates[i];
      ImGui::PushID(static_cast<int>(i));
      const std::optional<std::size_t> pool = pool_of(cx.frame, c.group);
      const std::optional<WorkerId> worker = worker_of(c.name);
      // Shared with another choice: the object their order decides.
      bool shared = false;
      for (const sim::Candidate& o : d->candidates) shared |= &o != &c && c.object && o.object == c.object;
      const ImVec2 top = ImGui::GetCursorScreenPos();
      char key[8];
      std::snprintf(key, sizeof key, i < kKeys ? "%zu" : " ", i + 1);
      ImGui::PushStyleColor(ImGuiCol_Button, ImVec4{0.35f, 0.28f, 0.08f, 1});
      ImGui::PushStyleColor(ImGuiCol_ButtonHovered, ImVec4{0.55f, 0.44f, 0.12f, 1});
      const bool clicked = ImGui::Button(key, {ui.px(28), ImGui::GetTextLineHeight() * 2 + ui.px(6)});
      ImGui::PopStyleColor(2);
      bool hovered = ImGui::IsItemHovered();
      ImGui::SameLine();
      ImGui::BeginGroup();
      if (pool) swatch(ui.pool_colour(*pool));
      ImGui::Text("%s", c.name.c_str());
      if (!c.group.empty()) {
        ImGui::SameLine();
        ImGui::TextDisabled("of %s", pool_name(c.group).c_str());
      }
      ImGui::SameLine();
      ImGui::TextDisabled("waits at");
      ImGui::SameLine();
      ImGui::TextUnformatted(c.where.c_str());
      // The design's page, where its names (getCh, waitTask ...) are explained.
      if (const Design* design = pool ? registry.find(cx.frame.metrics.pools()[*pool].info().design) : nullptr;
          design && !design->docs.empty()) {
        ImGui::SameLine();
        if (ImGui::SmallButton("page")) cx.later.push_back([&ui, docs = design->docs] { open_docs(ui, docs); });
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("open %s: what these names are in the design", design->docs.c_str());
      }
      std::string next = "next: " + c.next;
      if (!c.object_label.empty()) next += "  (touches " + c.object_label + ")";
      if (shared) {
        ImGui::PushStyleColor(ImGuiCol_Text, kAmber);
        elided_text(next, wrap - ui.px(40));
        ImGui::PopStyleColor();
      } else {
        elided_text(next, wrap - ui.px(40));
      }
      ImGui::EndGroup();
      hovered = hovered || ImGui::IsItemHovered();
      rows.emplace_back(top, ImGui::GetItemRectMax());
      if (hovered) {
        ImGui::BeginTooltip();
        wrapped(c.name + (c.group.empty() ? "" : " (" + c.group + ")") + " stands at " + c.where +
                    "; chosen, it goes on: " + c.next +
                    (c.object_label.empty() ? "" : ", touching " + c.object_label) +
                    (shared ? ". Another choice touches it too: which goes first decides what each sees." : "."),
                ui.px(420));
        if (!worker) dim("(not a worker: it has no lane)", ui.px(420));
        ImGui::EndTooltip();
      }
      if (pool && worker) ui.choice_lanes.push_back({*pool, *worker, i + 1, hovered});
      if (clicked) cx.later.push_back([live, t = c.thread] { live->pick(t); });
      ImGui::PopID();
    }
    // The number keys, while no text field has them.
    if (!ImGui::GetIO().WantTextInput)
      for (std::size_t i = 0; i < std::min(kKeys, d->candidates.size()); ++i)
        if (ImGui::IsKeyPressed(GLFW_KEY_1 + static_cast<int>(i), false))
          cx.later.push_back([live, t = d->candidates[i].thread] { live->pick(t); });
    // Said once per decision, to the page's live region and its tests.
    if (shown_ != d->index) {
      shown_ = d->index;
      std::string said = "decision " + std::to_string(d->index + 1) + ": ";
      for (std::size_t i = 0; i < d->candidates.size(); ++i)
        said += (i ? "; " : "") + std::to_string(i + 1) + " " + d->candidates[i].name + " (thread " +
                std::to_string(d->candidates[i].thread) + ") at " + d->candidates[i].where;
      announce(said, false);
    }
    announce_state("decision", decision_json(*d, rows, schedule));
  } else if (ended) {
    wrapped(live->stepping_error().empty() ? "The run has ended: no thread is left to choose."
                                           : live->stepping_error(),
            wrap);
    announce_state("decision", "null");
  } else {
    ImGui::TextDisabled("running on to the next decision...");
  }

  ImGui::Separator();
  ImGui::BeginDisabled(schedule.empty());
  if (ImGui::Button("Undo")) undo(cx);
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("back one decision: the run replayed from its start without the last pick (Backspace, Ctrl+Z)");
  ImGui::EndDisabled();
  ImGui::BeginDisabled(!d);
  ImGui::SameLine();
  if (ImGui::Button("Policy picks")) policy(cx);
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("the seeded policy picks the next N decisions, as a run without you would (G)");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ui.px(70));
  ImGui::InputInt("##n", &policy_n_, 1, 10);
  policy_n_ = std::clamp(policy_n_, 1, 10'000);
  ImGui::SameLine();
  if (ImGui::Button("Next that matters")) to_next_that_matters(cx);
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("the policy picks until a decision whose choices touch the same thing (a lock, a channel, "
                      "the queue): where the order can change what happens (M)");
  ImGui::SameLine();
  if (ImGui::Button("To the end")) run_on(cx);
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("the policy picks every decision from here to the run's end: a task lost shows only then (E)");
  ImGui::EndDisabled();

  const std::string text = schedule_text(schedule);
  ImGui::TextDisabled("schedule: %zu picks", schedule.size());
  if (!text.empty()) {
    ImGui::SameLine();
    elided_text_left(text, wrap - ui.px(220));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("every pick so far, by thread: a link's sched= carries it");
    ImGui::SameLine();
    if (ImGui::SmallButton("Copy link")) cx.later.push_back(share);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("a link (a command on the desktop) that replays these picks (Ctrl+L)");
  }
  ImGui::End();
}

}  // namespace poolscope::gui
