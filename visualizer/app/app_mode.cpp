// Real threads or the simulation: the badge that says which one is on
// screen, the live run's mode and machine (CPUs, costs, policy, schedule
// seed), its speed and its step; and the banner of a failing schedule that
// `poolscope explore` wrote, opened at the failure.
#include <imgui.h>

#include <cmath>
#include <thread>

#include "pools/core/platform.h"
#include "pools/core/registry.h"
#include "pools/core/sim/machine.h"
#include "visualizer/app/app.h"
#include "visualizer/app/draw.h"

namespace poolscope::gui {

namespace {

constexpr const char* kCostPresets[] = {"runtime", "os-threads", "goroutines", "jvm", "processes", "free"};
constexpr const char* kCostHelp[] = {
    "each pool on its own runtime's costs, as its original runs: Go's goroutines, Java's JVM threads, C's OS "
    "threads, php-fpm's forked processes (the default)",
    "this machine's measured figures: a thread starts in 36 us, wakes in 20 us",
    "Go's: a goroutine starts in 1 us, wakes in 0.2 us",
    "OpenJDK 17's threads: a start costs 44 us, a parked thread 80 us of CPU to get back to work",
    "php-fpm's children: the design charges a fork itself (fork_time 0.6 ms, child_start 1.5 ms); a child "
    "wakes as an OS thread does",
    "nothing costs time: only tasks and timers move the clock",
};
constexpr const char* kPolicies[] = {"random", "pct", "fifo"};
constexpr const char* kPolicyHelp[] = {
    "uniformly among the runnable threads, from the seed (the default)",
    "probabilistic concurrency testing: random priorities and a few points where the running thread drops",
    "no preemption: the running thread goes on until it blocks, like a single-core trace",
};

// A combo over fixed choices; true (and `value` set) when one was picked.
bool choice(const char* label, std::string& value, const char* const* names, const char* const* help, int n,
            float width) {
  bool picked = false;
  ImGui::SetNextItemWidth(width);
  if (ImGui::BeginCombo(label, value.c_str())) {
    for (int i = 0; i < n; ++i) {
      if (ImGui::Selectable(names[i], value == names[i])) {
        value = names[i];
        picked = true;
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", help[i]);
    }
    ImGui::EndCombo();
  }
  return picked;
}

}  // namespace

// Under the costs: what each pool of the scenario pays with them, so that a
// student sees that a Go pool starts a worker in 1 us and Java's in 44.
void App::pool_costs(const LiveSession& live, const std::string& costs) {
  if (!live.scenario()) return;
  const bool own = costs == sim::kRuntimeCosts;
  sim::Costs all;
  if (!own) {
    try {
      all = sim::parse_costs(costs);
    } catch (const std::invalid_argument&) {
      return;  // the runner refused it already; nothing to show
    }
  }
  auto us = [](Nanos d) { return static_cast<double>(d.count()) / 1e3; };
  for (const scenario::PoolEntry& p : live.scenario()->pools) {
    const Design* d = Registry::global().find(p.design);
    if (!d) continue;
    const sim::Costs c = own ? sim::runtime_costs(d->runtime) : all;
    // A wake-up: the notify's latency and the woken thread's way back onto a CPU.
    ImGui::TextDisabled("%s (%s): %s, start %.4g us, wake-up %.4g us", p.name.c_str(), d->runtime.c_str(),
                        c.name.c_str(), us(c.start), us(c.wake + c.resume));
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", own ? "its design's original runs on this runtime: the pool's threads pay its costs"
                                  : "the costs named above, for every pool; pick runtime for each pool its own");
  }
}

void App::mode_badge(const RunMode& mode) {
  const std::string text = mode.badge();
  const ImVec2 pad{ui_.px(6), ui_.px(2)};
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const ImVec2 box{size.x + 2 * pad.x, ImGui::GetFrameHeight()};
  const float y = p.y + (box.y - size.y) / 2;
  // Amber for the model, a quiet green for the machine: neither is a pool's colour here, in the toolbar.
  const ImU32 bg = mode.simulated ? IM_COL32(226, 160, 40, 255) : IM_COL32(52, 104, 78, 255);
  const ImU32 fg = mode.simulated ? IM_COL32(20, 16, 8, 255) : IM_COL32(235, 245, 238, 255);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p, {p.x + box.x, p.y + box.y}, bg, ui_.px(3));
  dl->AddText({p.x + pad.x, y}, fg, text.c_str());
  ImGui::Dummy(box);
  if (!ImGui::IsItemHovered()) return;
  ImGui::BeginTooltip();
  if (mode.simulated)
    wrapped("A deterministic simulation (docs/simulation.md): the same pool code, every thread a fiber on one OS "
            "thread, on virtual time, on a modelled machine of " +
                std::to_string(mode.cpus) + " CPUs with " + mode.costs + " costs, the order of the threads chosen by "
                "the " + mode.policy + " policy from seed " + std::to_string(mode.seed) +
                ". The same seed gives the same run, event for event, on every machine. Its figures are the "
                "model's, not this machine's." +
                (platform::has_threads() ? "" : " A page runs only the simulation (it has no threads to start): "
                                                 "poolscope-gui on a desktop runs real threads too."),
            ui_.px(460));
  else
    wrapped("Real threads on this machine's " + std::to_string(std::max(1u, std::thread::hardware_concurrency())) +
                " cores, on real (scaled) time: the figures are this machine's, and move a little from run to run.",
            ui_.px(460));
  ImGui::EndTooltip();
}

void App::mode_controls(LiveSession& live) {
  const LiveSession::State state = live.state();
  const bool idle = state == LiveSession::State::ready || state == LiveSession::State::finished;
  ImGui::BeginDisabled(!idle);
  int mode = live.simulated() ? 1 : 0;
  if (platform::has_threads()) {
    ImGui::SetNextItemWidth(ui_.px(108));
    if (ImGui::Combo("##mode", &mode, "Real\0Simulated\0"))
      later_.push_back([&live, on = mode == 1] { live.set_simulated(on); });
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip("the next run: on real threads, or in the deterministic simulation paced to the screen%s",
                        idle ? "" : " (stop the run to change it)");
  }
  if (live.simulated()) {
    same_line_or_wrap(button_width("Machine..."));
    if (ImGui::Button("Machine...")) ImGui::OpenPopup("machine");
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip("the simulated machine and schedule: CPUs, costs, policy, seed");
  }
  ImGui::EndDisabled();

  if (!ImGui::BeginPopup("machine")) return;
  ImGui::TextDisabled("the next run's machine and schedule");
  scenario::SimulationSpec spec = live.simulation();
  bool changed = false;
  const float w = ui_.px(150);
  int cpus = spec.cpus;
  ImGui::SetNextItemWidth(w);
  if (ImGui::InputInt("CPUs", &cpus) && cpus != spec.cpus) {
    spec.cpus = std::clamp(cpus, 1, sim::kMaxCpus);
    changed = true;
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("the modelled machine's CPUs: computing threads beyond them wait");
  changed |= choice("costs", spec.costs, kCostPresets, kCostHelp, 6, w);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("what a thread start, a wake-up and a switch cost: each pool its own runtime's, or one "
                      "preset for every pool");
  pool_costs(live, spec.costs);
  changed |= choice("policy", spec.policy, kPolicies, kPolicyHelp, 3, w);
  std::uint64_t seed = live.schedule_seed();
  ImGui::SetNextItemWidth(w);
  if (ImGui::InputScalar("schedule seed", ImGuiDataType_U64, &seed, nullptr, nullptr, "%llu",
                         ImGuiInputTextFlags_EnterReturnsTrue)) {
    spec.seed = seed;
    changed = true;
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("which interleaving: the same seed gives the same run, event for event (Enter sets it)");
  if (spec.seed) {
    ImGui::SameLine();
    if (ImGui::SmallButton("derive")) {
      spec.seed.reset();
      changed = true;
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("derive it from the scenario's seed, as the runner does");
  }
  if (changed) later_.push_back([&live, spec] { live.set_simulation(spec); });
  ImGui::EndPopup();
}

void App::step_button(LiveSession& live) {
  ImGui::BeginDisabled(!live.can_step());
  if (ImGui::Button("Step")) live.step();
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("paused: on to the next thing due (a timer, a task's end, a wake-up) and its events (N)");
}

bool App::speed_slider(const char* label, double& speed, float width, double lo, double hi) {
  float exponent = static_cast<float>(std::log10(speed));
  ImGui::SetNextItemWidth(width);
  char shown[32];
  std::snprintf(shown, sizeof shown, speed < 1 ? "%.2fx" : speed < 100 ? "%.1fx" : "%.0fx", speed);
  if (!ImGui::SliderFloat(label, &exponent, static_cast<float>(std::log10(lo)), static_cast<float>(std::log10(hi)),
                          shown))
    return false;
  speed = std::clamp(std::pow(10.0, std::round(exponent * 20) / 20), lo, hi);
  return true;
}

void App::failure_banner() {
  if (!failing_) return;
  const FailingSchedule& f = *failing_;
  const ImVec4 red{1, 0.45f, 0.45f, 1};  // the status line's colour for what went wrong
  ImGui::AlignTextToFramePadding();
  ImGui::TextColored(red, "schedule %d failed at %s:", f.schedule, plot::format_time(static_cast<double>(f.at)).c_str());
  ImGui::SameLine();
  const float buttons = ImGui::CalcTextSize("Go to the failure").x + ImGui::CalcTextSize("Copy").x +
                        ImGui::CalcTextSize("replay it: ").x + ImGui::CalcTextSize(f.replay.c_str()).x + ui_.px(60);
  const float room = ImGui::GetContentRegionAvail().x - buttons;
  if (room < ui_.px(200)) {
    wrapped(f.problem, ImGui::GetContentRegionAvail().x);
  } else if (elided_text(f.problem, room) && ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    wrapped(f.problem, ui_.px(460));
    ImGui::EndTooltip();
  }
  if (room >= ui_.px(200)) ImGui::SameLine();
  ImGui::AlignTextToFramePadding();
  ImGui::TextDisabled("replay it:");
  ImGui::SameLine();
  ImGui::TextUnformatted(f.replay.c_str());
  ImGui::SameLine();
  if (ImGui::SmallButton("Copy")) {
    ImGui::SetClipboardText(f.replay.c_str());
    ui_.say("copied: " + f.replay);
  }
  ImGui::SameLine();
  if (ImGui::SmallButton("Go to the failure")) show_failure();
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("the cursor at the failure, the view from when it began (the last progress, for a stall)");
}

void App::show_failure() {
  if (!failing_ || !replay_) return;
  const auto [from, to] = failing_->view();
  ui_.axis.set_follow(false);
  ui_.axis.set_view(from, to);
  replay_->seek(failing_->at);
}

}  // namespace poolscope::gui
