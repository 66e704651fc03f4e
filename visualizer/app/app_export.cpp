// What leaves the GUI: the trace for Perfetto, the run's result, a link
// that shows the run on screen again elsewhere (share_link.h), each under a
// name of its own (output_file), handed to the platform (hand_over.h).
#include "visualizer/app/app.h"
#include "visualizer/app/hand_over.h"
#include "visualizer/app/share_link.h"

#include <cctype>
#include <ctime>

#include "pools/core/duration.h"
#include "pools/core/platform.h"
#include "scenarios/engine/atomic_file.h"
#include "scenarios/engine/exports.h"
#include "scenarios/engine/library.h"
#include "scenarios/engine/result_json.h"

namespace poolscope::gui {

namespace {

// The run's metrics so far, for an export, holding the engine's metrics lock
// only to copy: the pools and then the events, a slice at a time (the engine
// adds the next batch in between), rebuilt into metrics outside the lock.
// Writing a million events' trace under the lock would stall the engine long
// enough for the trace stream to drop live events.
metrics::RunMetrics copy_metrics(const scenario::Run& run) {
  constexpr std::size_t kSlice = 65'536;
  std::vector<PoolInfo> pools;
  std::vector<Event> events;
  std::size_t total = 0;
  run.with_metrics([&](const metrics::RunMetrics& m) {
    for (const metrics::PoolMetrics& p : m.pools()) pools.push_back(p.info());
    total = m.events().size();
  });
  events.reserve(total);
  for (std::size_t at = 0; at < total; at += kSlice)
    run.with_metrics([&](const metrics::RunMetrics& m) {
      const auto from = m.events().begin() + static_cast<std::ptrdiff_t>(at);
      events.insert(events.end(), from, from + static_cast<std::ptrdiff_t>(std::min(kSlice, total - at)));
    });
  metrics::RunMetrics copy;
  copy.set_pools(pools);
  copy.add(events);
  return copy;
}

std::string stamp() {
  std::time_t now = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", std::localtime(&now));
  return buf;
}

}  // namespace

std::filesystem::path App::output_file(const char* suffix) const {
  std::string n = sweep_  ? sweep_->scenario + "-sweep"
                  : live_ ? live_->document().value("name", "run")
                          : replay_->file().scenario.value("name", "run");
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
  return "poolscope-" + n + "-" + stamp() + suffix;
}

void App::export_trace() {
  const std::filesystem::path file = output_file(".trace.json");
  try {
    scenario::Scenario s;
    if (live_) {
      if (!live_->run()) return ui_.say("start the run first: there is no trace yet", true);
      s = live_->run()->scenario();
      const metrics::RunMetrics m = copy_metrics(*live_->run());
      scenario::write_atomically(file, [&](std::ostream& out) { scenario::write_chrome_trace(out, s, m); });
    } else {
      s.name = replay_->file().scenario.value("name", "");
      scenario::write_atomically(file,
                                 [&](std::ostream& out) { scenario::write_chrome_trace(out, s, replay_->metrics()); });
    }
    ui_.say("trace " + hand_over(file) + " (open it in ui.perfetto.dev or chrome://tracing)");
  } catch (const std::exception& e) {
    ui_.say(e.what(), true);
  }
}

void App::save_result(const std::filesystem::path& file) {
  scenario::Run* run = live_ ? live_->run() : nullptr;
  if (!run || !run->finished()) return ui_.say("the result can be saved once the run has ended", true);
  try {
    scenario::write_atomically(file, [&](std::ostream& out) {
      scenario::write_result(out, run->scenario(), run->outcome(), run->metrics(),
                             scenario::ResultOptions{.include_events = true});
    });
    ui_.say("result " + hand_over(file) + " (open it to replay the run)");
  } catch (const std::exception& e) {
    ui_.say(e.what(), true);
  }
}

void App::share() {
  Link link;
  if (sweep_) return ui_.say("a sweep's points are not carried by a link: share its file", true);
  if (lesson_) {  // a lesson at its step: lesson=NAME&step=N (the desktop's command names a file too)
    const std::string name = !lesson_->shipped().empty() ? lesson_->shipped()
                             : platform::has_threads()   ? lesson_->lesson().file
                                                         : std::string();
    if (name.empty()) return ui_.say("a lesson opened from a file is not carried by a link: share its file", true);
    link.options = {{"lesson", name}, {"step", std::to_string(std::min(lesson_->at() + 1, lesson_->steps()))}};
    if (ui_.palette_kind == plot::PaletteKind::colour_blind_safe) link.options.emplace_back("palette", "colour-blind");
    return ui_.say(copy_link(link));
  }
  if (challenge_) {
    link.options.emplace_back("challenge", challenge_->name);  // it names its own scenario
  } else if (live_) {
    const std::filesystem::path file = live_->file();
    std::error_code ec;
    const bool shipped = std::filesystem::equivalent(file.parent_path(), scenario::library_dir(), ec);
    if (shipped && !live_->edited())
      link.scenario = file.stem().string();
    else
      link.document = live_->document();
  } else {
    // A replay: the scenario it ran, with the machine and schedule it ran on.
    const RunMode mode = RunMode::of_result(replay_->file().run);
    if (!mode.simulated)
      return ui_.say("a run on real threads cannot be run again the same way: share its result file", true);
    json doc = replay_->file().scenario;
    doc["simulation"] = {{"cpus", mode.cpus}, {"costs", mode.costs}, {"policy", mode.policy}, {"seed", mode.seed}};
    link.document = std::move(doc);
  }
  const auto at = [](double ns) { return format_duration(Nanos(static_cast<std::int64_t>(ns))); };
  if (!ui_.axis.following()) link.options.emplace_back("view", at(ui_.axis.begin()) + ":" + at(ui_.axis.end()));
  static constexpr const char* kTabs[] = {"compare", "pools", "scenario", "findings"};
  if (ui_.tab != Tab::compare) link.options.emplace_back("tab", kTabs[static_cast<int>(ui_.tab)]);
  if (ui_.palette_kind == plot::PaletteKind::colour_blind_safe) link.options.emplace_back("palette", "colour-blind");
  // Being the scheduler: the picks so far, which the link's run replays, then waits for the next.
  if (live_ && live_->stepping() && !live_->schedule().empty())
    link.options.emplace_back("sched", schedule_text(live_->schedule()));
  ui_.say(copy_link(link));
}

}  // namespace poolscope::gui
