// Being the scheduler (issue 49; docs/challenges.md): the scenario on screen
// stepped by decision (the Scheduler panel, view_scheduler.cpp), and the
// challenges: the Challenges menu, a challenge opened by name (the menu, a
// link's challenge=, --challenge) with the picks so far (sched=, --sched),
// its goal checked after each frame's decisions, the win shown with its
// schedule, its explanation and a link, and kept (progress_store.h).
#include <imgui.h>

#include <cstdio>

#include "visualizer/app/app.h"
#include "visualizer/app/draw.h"
#include "pools/core/registry.h"
#include "scenarios/engine/challenge.h"
#include "pools/core/sim/schedule.h"
#include "visualizer/app/progress_store.h"

namespace poolscope::gui {

namespace {

// The picks of a link's sched= or --sched ("3.5x4.3": pools/core/sim/schedule.h).
std::vector<std::uint64_t> parse_picks(const std::string& text, const std::string& where) {
  try {
    return sim::parse_picks(text);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(where, e.what());
  }
}

}  // namespace

void App::start_stepping(const std::string& picks) {
  if (!live_) return;
  if (!live_->start_stepped(parse_picks(picks, "--sched"))) return ui_.say(live_->error(), true);
  show_scenario();
  ui_.axis.set_follow(true);
  ui_.say(picks.empty() ? "you are the scheduler: at each decision, pick the thread that runs next"
                        : "the schedule's picks are replayed, then you pick");
}

void App::scheduler_button() {
  const LiveSession::State state = live_->state();
  const bool idle = state != LiveSession::State::running || live_->stepping();
  ImGui::BeginDisabled(!idle || !live_->scenario());
  if (ImGui::Button(live_->stepping() ? "Restart stepping" : "Be the scheduler"))
    later_.push_back([this] { start_stepping(""); });
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("run it simulated, stopping at each decision (two or more threads could run): you pick which "
                      "runs next, or let the policy pick");
}

ChallengeProgress& App::progress() {
  if (!progress_) {
    std::string problem;
    progress_ = ChallengeProgress::parse(load_progress(), progress_place(), problem);
    if (!problem.empty()) ui_.say(problem, true);
  }
  return *progress_;
}

void App::challenges_menu() {
  if (!ImGui::BeginMenu("Challenges")) return;
  // The shipped challenges, read once: a title and whether the pool is correct.
  if (!challenge_list_) {
    challenge_list_.emplace();
    for (const std::string& name : scenario::shipped_challenges()) {
      try {
        const scenario::Challenge c = scenario::load_challenge(name);
        challenge_list_->push_back({name, c.title, c.goal.describe(), c.correct});
      } catch (const std::exception& e) {
        challenge_list_->push_back({name, e.what(), "", false});  // (challenge check refuses it in CI)
      }
    }
  }
  ImGui::TextDisabled("be the scheduler: pick the threads' order until the pool breaks");
  ImGui::Separator();
  ChallengeProgress& kept = progress();
  for (const ChallengeEntry& e : *challenge_list_) {
    const bool won = kept.is_won(e.name);
    if (ImGui::MenuItem(e.name.c_str(), won ? "won" : e.correct ? "correct pool" : nullptr,
                        challenge_ && challenge_->name == e.name))
      later_.push_back([this, name = e.name] { open_challenge(name, ""); });
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      wrapped(e.title, ui_.px(420));
      if (!e.goal.empty()) dim("goal: " + e.goal, ui_.px(420));
      if (const ChallengeProgress::Entry* w = kept.find(e.name))
        dim("won in " + std::to_string(w->decisions) + " picks: " + w->schedule, ui_.px(420));
      ImGui::EndTooltip();
    }
  }
  ImGui::Separator();
  ImGui::TextDisabled("%zu of %zu won; kept in %s", kept.won_count(), challenge_list_->size(), progress_place().c_str());
  ImGui::EndMenu();
}

void App::open_challenge(const std::string& name, const std::string& picks) {
  try {
    auto c = std::make_shared<const scenario::Challenge>(scenario::load_challenge(name));
    auto session = std::make_unique<LiveSession>(c->scenario.to_json(), c->file,
                                                 std::filesystem::path(c->file).parent_path());
    if (!session->scenario()) throw ConfigError("", session->error());
    // Its picks are replayed under the seed and policy its solution was
    // found with (the policy also chooses whom a notify wakes), so a
    // schedule that wins once wins everywhere.
    scenario::SimulationSpec spec = session->simulation();
    if (c->solution && c->solution->seed) spec.seed = c->solution->seed;
    if (c->solution && c->solution->policy) spec.policy = *c->solution->policy;
    session->set_simulation(spec);
    session->set_simulated(true);
    const std::vector<std::uint64_t> replay = parse_picks(picks, "--sched");  // before anything changes
    open_scenario(std::move(session));
    ChallengePlay play;
    play.source = c;
    play.name = c->name;
    play.title = c->title;
    play.pool = c->pool;
    if (const Design* d = Registry::global().find(c->pool)) play.docs = d->docs;
    play.goal = c->goal.describe();
    play.hint = c->hint;
    play.explanation = c->explanation;
    play.correct = c->correct;
    challenge_ = std::move(play);
    if (!live_->start_stepped(replay)) return ui_.say(live_->error(), true);
    ui_.axis.set_follow(true);
    ui_.say("challenge " + c->name + ": " + c->title + " (goal: " + challenge_->goal + ")");
  } catch (const std::exception& e) {
    ui_.open_error = e.what();  // the file and the JSON path, as `poolscope challenge check` says it
    ui_.open_error_title = "Could not open the challenge";
  }
}

void App::check_challenge() {
  if (!live_ || !live_->stepping()) return;
  // A pick that does not fit, or a run that cannot go on: said once, in red.
  if (std::string e = live_->stepping_error(); e != stepping_error_) {
    stepping_error_ = e;
    if (!e.empty() && !challenge_) ui_.say(e, true);
    else if (!e.empty() && !live_->pick_error().empty()) ui_.say(e, true);
  }
  if (!challenge_ || challenge_->won || !live_->run()) return;
  scenario::Run& run = *live_->run();
  const bool ended = live_->state() == LiveSession::State::finished;
  std::optional<std::string> reached;
  run.with_metrics([&](const metrics::RunMetrics& m) {
    reached = scenario::goal_reached(*challenge_->source, m, ended ? &run.outcome() : nullptr);
  });
  if (!reached) {
    challenge_->ended_unbroken = ended;
    return;
  }
  ChallengePlay& c = *challenge_;
  c.won = true;
  c.win_shown = true;
  c.reached = *reached;
  c.winning = live_->schedule();
  live_->pause();  // the picture stays at the win
  progress().won(c.name, schedule_text(c.winning), c.winning.size());
  if (const std::string why = save_progress(progress().to_json()); !why.empty()) ui_.say(why, true);
  else ui_.say("challenge " + c.name + " won: " + c.reached);
}

void App::win_window() {
  if (!challenge_ || !challenge_->won || !challenge_->win_shown) return;
  ChallengePlay& c = *challenge_;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float width = std::min(ui_.px(560), vp->WorkSize.x * 0.9f);
  ImGui::SetNextWindowPos({vp->WorkPos.x + vp->WorkSize.x / 2, vp->WorkPos.y + vp->WorkSize.y / 2}, ImGuiCond_Appearing,
                          {0.5f, 0.5f});
  ImGui::SetNextWindowSizeConstraints({width, 0}, {width, vp->WorkSize.y * 0.85f});
  ImGui::SetNextWindowBgAlpha(0.97f);
  bool open = true;
  if (!ImGui::Begin(("Challenge won: " + c.title + "###won").c_str(), &open,
                    ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse)) {
    ImGui::End();
    return;
  }
  const float wrap = width - ui_.px(24);
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4{0.6f, 0.9f, 0.6f, 1});
  wrapped("The pool broke: " + c.reached + ".", wrap);
  ImGui::PopStyleColor();
  ImGui::Spacing();
  ImGui::TextDisabled("your schedule, %zu picks (the thread picked at each decision):", c.winning.size());
  wrapped(schedule_text(c.winning), wrap);
  ImGui::Spacing();
  ImGui::TextDisabled("what went wrong, and the fix:");
  wrapped(c.explanation, wrap);
  ImGui::Spacing();
  if (ImGui::Button("Copy a link to this schedule")) later_.push_back([this] { share(); });
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("whoever opens it gets the same run, broken the same way (Ctrl+L); `poolscope run --schedule` "
                      "replays it too");
  ImGui::SameLine();
  if (ImGui::Button("Close")) open = false;
  ImGui::End();
  if (!open) c.win_shown = false;
}

}  // namespace poolscope::gui
