// poolscope-gui: the classroom GUI. Live plots, worker lanes and controls
// for pool designs running side by side under one scenario, or the replay of
// a run the runner wrote with --events. See docs/visualizer.md.
//
// Exit codes: 0 success; 1 a headless run failed (timeout, unwritable file);
// 2 bad input or usage; 3 no window could be opened.
#include <cmath>
#include <cstdio>
#include <string>

#include <CLI/CLI.hpp>

#include "pools/core/duration.h"
#include "scenarios/engine/cli_values.h"
#include "scenarios/engine/version.h"
#include "visualizer/app/app.h"
#include "visualizer/app/main_loop.h"

namespace {

using namespace poolscope;

std::int64_t duration_ns(const std::string& text, const std::string& option) {
  auto d = parse_duration(text);
  if (!d || d->count() < 0) throw CLI::ValidationError(option, "expected a duration such as 2s or 1500ms");
  return d->count();
}

// A number, the whole text (no "12abc", no "stod" from std::stod).
double number(const std::string& text, const std::string& option, const std::string& expected) {
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (text.empty() || used != text.size() || !std::isfinite(v)) throw CLI::ValidationError(option, expected);
  return v;
}

template <class T>
std::pair<T, T> pair_of(const std::string& text, char sep, const std::string& option, const std::string& expected) {
  auto at = text.find(sep);
  if (at == std::string::npos) throw CLI::ValidationError(option, expected);
  if constexpr (std::is_same_v<T, std::string>)
    return {text.substr(0, at), text.substr(at + 1)};
  else if constexpr (std::is_same_v<T, double>)
    return {static_cast<double>(duration_ns(text.substr(0, at), option)),
            static_cast<double>(duration_ns(text.substr(at + 1), option))};
  else
    return {static_cast<T>(number(text.substr(0, at), option, expected)),
            static_cast<T>(number(text.substr(at + 1), option, expected))};
}

// Bounds of the window: what GLFW and an X server accept (a bigger one is
// an X error, a negative one GLFW's assertion).
constexpr int kMinWidth = 320, kMinHeight = 200, kMaxSide = 8192;

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"poolscope-gui: watch worker-pool designs differ, live or replayed"};
  cli.set_version_flag("--version", version_line("poolscope-gui"), "print the version and the commit built, then exit");
  gui::Options o;
  std::string file, run_for, at, size, view, hover, drag, palette = "standard";
  std::optional<float> ui_scale;
  cli.add_option("FILE", file,
                 "a scenario (runs live), a result written with --events (replays) or a sweep written with --json");
  cli.add_option("--scenario", o.scenario, "a scenario file, or a shipped scenario's name");
  cli.add_option("--replay", o.replay, "a result file written by `poolscope run ... --events`");
  // How the scenario runs, as the runner's options say it (docs/simulation.md).
  bool sim_flag = false, real_flag = false;
  cli.add_flag("--sim", sim_flag, "run in the deterministic simulation, paced to the screen");
  // Checked after parsing, as the runner does: CLI11's "excludes" does not say what to do.
  cli.add_flag("--real", real_flag, "run on real threads even if the scenario asks for the simulation");
  cli.add_option("--cpus", o.overrides.cpus, "simulation: the modelled machine's CPUs, in [1, 4096] (implies --sim)");
  cli.add_option("--costs", o.overrides.costs, "simulation: runtime (each pool its own, the default), os-threads, goroutines, jvm, processes or free (implies --sim)");
  cli.add_option("--policy", o.overrides.policy, "simulation: random, pct or fifo scheduling (implies --sim)");
  // Strings, read as the runner reads them (scenarios/engine/cli_values.h).
  std::string sim_seed, time_scale;
  cli.add_option("--sim-seed", sim_seed, "simulation: the schedule's seed (implies --sim)");
  cli.add_option("--time-scale", time_scale,
                 "scenario seconds per wall second (a simulation's speed), in [0.001, 1000]");
  cli.add_option("--run-for", run_for, "headless: run this long in scenario time (e.g. 5s), then screenshot and exit");
  cli.add_option("--at", at, "replay: put the cursor at this time (e.g. 3s)");
  cli.add_option("--screenshot", o.screenshot, "write a PNG of the window, then exit");
  cli.add_option("--save-result", o.save_result, "when the run ends, write its result (with events), then exit");
  cli.add_option("--bench-frames", o.bench_frames,
                 "render N frames, print the CPU frame time (median, p99; a replay also playing and going back), exit");
  cli.add_option("--size", size, "window size, WIDTHxHEIGHT (default 1600x1000)");
  cli.add_option("--ui-scale", ui_scale, "scale of fonts and sizes, 0.5 to 4 (default: the display's)");
  cli.add_flag("--presentation", o.presentation, "large fonts, for a projector");
  cli.add_option("--palette", palette, "standard or colour-blind")->check(CLI::IsMember({"standard", "colour-blind"}));
  cli.add_option("--tab", o.tab, "side panel: compare, pools, scenario or findings")
      ->check(CLI::IsMember({"compare", "pools", "scenario", "findings"}));
  std::vector<std::string> sweep_counters;
  for (std::size_t i = 0; i < gui::kSweepCounterCount; ++i)
    sweep_counters.emplace_back(gui::sweep_counter_name(static_cast<gui::SweepCounter>(i)));
  cli.add_option("--counter", o.sweep_counter, "a sweep: the counter its small multiples show (default workers)")
      ->check(CLI::IsMember(sweep_counters));
  cli.add_option("--view", view, "the time range shown, FROM:TO (e.g. 1s:2.5s)");
  cli.add_option("--hover", hover, "pretend the mouse is at X,Y (for screenshots of tooltips)");
  cli.add_option("--drag", drag, "headless: drag the mouse from X0,Y0 to X1,Y1 first (e.g. along the replay's ruler)");
  cli.add_option("--drop", o.drop,
                 "headless: drop this file onto the window once it is up (repeatable); a refused one's dialog is "
                 "printed as `poolscope-gui: dialog: MESSAGE`, and the last one is in the picture")
      ->allow_extra_args(false);  // one file each: `--drop a.json tour` still opens tour
  cli.add_option("--lane-height", o.lane_height, "worker lane height in px");
  cli.add_option("--hide-pool", o.hide_pools, "leave this pool (by name) out of the plots, as a click on its name does")
      ->allow_extra_args(false);
  std::string range;
  cli.add_option("--finding", o.finding, "show the Nth finding (from 1) as a click in the Findings tab does")
      ->check(CLI::PositiveNumber);
  cli.add_option("--range", range, "select this time range, FROM:TO, and show its statistics (as Shift+drag does)");
  cli.add_option("--lane-order", o.lane_order, "worker lanes by spawn (default) or by exit")
      ->check(CLI::IsMember({"spawn", "exit"}));
  cli.add_option("--challenge", o.challenge,
                 "a scheduler challenge, by shipped name or file: its pool stepped by decision until its goal "
                 "(docs/challenges.md)");
  std::string sched;
  cli.add_option("--sched", sched,
                 "be the scheduler: the run stepped by decision, these picks (thread ids joined by dots, as a link's "
                 "sched=) replayed first");
  cli.add_option("--compare", o.compare, "a second result, its summaries compared with the replayed one's (B - A)");
  cli.add_flag("--flows", o.flows, "an arrow from every task's submission to its worker, zoomed in (as W does)");
  cli.add_flag("--log-plots", o.log_plots, "every counter plot on a log scale (click a plot's name for one)");
  std::vector<std::string> counters;
  for (gui::Counter c : gui::kCounters) counters.emplace_back(gui::counter_name(c));
  cli.add_option("--split-plot", o.split_plots, "split this counter plot into a small plot per pool (right-click a plot)")
      ->check(CLI::IsMember(counters))
      ->allow_extra_args(false);
  cli.add_flag("--play", o.play, "start the run at once (a replay: play it from its start)");
  cli.add_flag("--show-help", o.show_help, "open with the keyboard shortcuts overlay");
  cli.add_flag("--show-frame-times", o.show_frame_times, "open with the frame-time overlay");
  cli.add_flag("--no-side-panel", o.no_side_panel, "open with the side panel hidden (H shows it)");
  // A lesson (docs/lessons.md), as a link's lesson=NAME&step=N opens it.
  std::size_t lesson_step = 0;
  cli.add_option("--lesson", o.lesson, "a lesson to follow: a shipped lesson's name, or a lesson file");
  cli.add_option("--step", lesson_step, "the lesson's step to open at, from 1")->check(CLI::PositiveNumber);
  cli.add_option("--lesson-do", o.lesson_do,
                 "headless: what a student does in the lesson, in order, each once the lesson is still: answer=V, "
                 "next, back, try=V (the step's parameter), save=FILE (the answers)")
      ->allow_extra_args(false);
  cli.add_option("--timeout", o.timeout_s, "headless: give up after this many seconds of wall time (default 120)");
  try {
    cli.parse(argc, argv);
    if (sim_flag && real_flag)
      throw ConfigError("--sim --real", "expected one of them: --sim runs the simulation, --real real threads "
                                        "(without either, the scenario's \"simulation\" decides)");
    if (cli.count("--sim-seed")) o.overrides.sim_seed = scenario::parse_seed(sim_seed, "--sim-seed");
    if (cli.count("--time-scale"))
      o.overrides.time_scale = scenario::parse_number(time_scale, "--time-scale", "expected a number in [0.001, 1000]");
    if (sim_flag) o.overrides.simulate = true;
    if (real_flag) o.overrides.simulate = false;
    if (cli.count("--step")) o.lesson_step = lesson_step - 1;
    if (!o.lesson_do.empty() && !o.headless())
      throw CLI::ValidationError("--lesson-do", "acts in a lesson before a headless picture: give --screenshot with it");
    if (!file.empty()) o.scenario = file;  // a result is recognised by its content and replays
    if (cli.count("--sched")) o.sched = sched;  // (none: "" steps from the first decision)
    if (!run_for.empty()) o.run_for = duration_ns(run_for, "--run-for");
    if (!at.empty()) o.at = duration_ns(at, "--at");
    if (!size.empty()) {
      const std::string expected = "expected WIDTHxHEIGHT in px, such as 1600x1000: a width from " +
                                   std::to_string(kMinWidth) + " and a height from " + std::to_string(kMinHeight) +
                                   ", each up to " + std::to_string(kMaxSide) + " (got \"" + size + "\")";
      auto wh = pair_of<long double>(size, 'x', "--size", expected);
      if (wh.first != std::floor(wh.first) || wh.second != std::floor(wh.second) || wh.first < kMinWidth ||
          wh.second < kMinHeight || wh.first > kMaxSide || wh.second > kMaxSide)
        throw CLI::ValidationError("--size", expected);
      o.width = static_cast<int>(wh.first);
      o.height = static_cast<int>(wh.second);
    }
    if (ui_scale) {
      if (!(*ui_scale >= 0.5f && *ui_scale <= 4.0f))
      {
        char got[32];
        std::snprintf(got, sizeof got, "%g", static_cast<double>(*ui_scale));
        throw CLI::ValidationError("--ui-scale", std::string("expected a scale from 0.5 to 4, such as 1.5 (got ") +
                                                     got + ")");
      }
      o.ui_scale = *ui_scale;
    }
    if (!view.empty()) {
      o.view = pair_of<double>(view, ':', "--view", "expected FROM:TO, two durations such as 1s:2.5s");
      if (o.view->second <= o.view->first)
        throw CLI::ValidationError("--view", "expected FROM:TO with FROM before TO, such as 1s:2.5s (got \"" + view +
                                                 "\")");
    }
    if (!range.empty()) {
      auto r = pair_of<double>(range, ':', "--range", "expected FROM:TO, two durations such as 3s:4s");
      if (r.second <= r.first)
        throw CLI::ValidationError("--range", "expected FROM:TO with FROM before TO, such as 3s:4s (got \"" + range +
                                                  "\")");
      o.range = {static_cast<std::int64_t>(r.first), static_cast<std::int64_t>(r.second)};
    }
    const std::string point = "expected X,Y in px, such as 400,300";
    if (!hover.empty()) o.hover = pair_of<float>(hover, ',', "--hover", point);
    if (!drag.empty()) {
      const std::string points = "expected X0,Y0:X1,Y1 in px, such as 400,60:200,60";
      auto [from, to] = pair_of<std::string>(drag, ':', "--drag", points);
      o.drag = {pair_of<float>(from, ',', "--drag", points), pair_of<float>(to, ',', "--drag", points)};
    }
    if (o.lane_height < 0 || o.lane_height > 200)
      throw CLI::ValidationError("--lane-height", "expected a height from 1 to 200 px");
    if (o.timeout_s <= 0) throw CLI::ValidationError("--timeout", "expected a number of seconds above 0");
    if (o.bench_frames < 0) throw CLI::ValidationError("--bench-frames", "expected a number of frames, 1 or more");
    o.colour_blind = palette == "colour-blind";
    // Options that only mean something headless are refused, not ignored.
    if (o.run_for && !o.headless())
      throw CLI::ValidationError("--run-for",
                                 "runs the scenario headless for a while, then writes something and exits: give "
                                 "--screenshot, --save-result or --bench-frames with it");
    if (o.drag && o.screenshot.empty())
      throw CLI::ValidationError("--drag", "moves the mouse before a headless picture: give --screenshot with it");
    if (!o.drop.empty() && o.screenshot.empty())
      throw CLI::ValidationError("--drop", "drops files onto the window before a headless picture: give --screenshot "
                                           "with it (or drop them with the mouse)");
    if (o.hover && o.screenshot.empty())
      throw CLI::ValidationError("--hover", "places the mouse for a screenshot: give --screenshot with it");
  } catch (const CLI::ParseError& e) {
    return cli.exit(e) == 0 ? 0 : 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "poolscope-gui: %s\n", e.what());
    return 2;
  }
  try {
    return gui::run_main_loop(std::make_unique<gui::App>(o));
  } catch (const ConfigError& e) {
    std::fprintf(stderr, "poolscope-gui: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "poolscope-gui: %s\n", e.what());
    return 3;
  }
}
