// A lesson in the GUI (issue 48, docs/lessons.md): opened from the menu, a
// file, the command line or a link (--lesson NAME --step N); each step's
// scenario run live in the simulation, paused at its question's moment; the
// step's view applied; the run's answer revealed once the run has it; the
// answers saved. The panel itself is view_lesson.cpp; the student's progress
// is model/lesson_progress.h.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <ctime>

#include "scenarios/engine/atomic_file.h"
#include "visualizer/app/app.h"
#include "visualizer/app/hand_over.h"

namespace poolscope::gui {

namespace {

// The GUI's tab for a lesson view's side tab name (lesson::view_tabs()).
std::optional<Tab> tab_named(const std::string& name) {
  if (name == "compare") return Tab::compare;
  if (name == "explain" || name == "pools") return Tab::pools;
  if (name == "scenario") return Tab::scenario;
  if (name == "findings") return Tab::findings;
  return std::nullopt;
}

std::string lesson_file_name(const std::string& name) {
  std::string n = name.empty() ? "lesson" : name;
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
  char stamp[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
  return "poolscope-lesson-" + n + "-" + stamp + ".answers.json";
}

}  // namespace

void App::open_lesson(const std::filesystem::path& file, std::size_t step) {
  lesson::Lesson l = lesson::load_lesson(file);
  if (step >= l.steps.size())
    throw ConfigError("--step", "expected a step from 1 to " + std::to_string(l.steps.size()) + " of " + file.string() +
                                    " (got " + std::to_string(step + 1) + ")");
  std::error_code ec;
  const bool shipped = std::filesystem::equivalent(file.parent_path(), lesson::lessons_dir(), ec);
  const std::string name = l.name;
  lesson_ = std::make_unique<LessonProgress>(std::move(l), shipped ? name : std::string());
  sweep_.reset();
  ui_.side_panel = true;
  lesson_go(step);
  ui_.say("lesson " + lesson_->lesson().title + ": step " + std::to_string(step + 1) + " of " +
          std::to_string(lesson_->steps()));
}

void App::lesson_go(std::size_t i) {
  if (!lesson_) return;
  lesson_->go(i);
  if (lesson_->at_summary()) {
    const LessonProgress::Tally t = lesson_->tally();
    ui_.say("summary: " + std::to_string(t.answered) + " of " + std::to_string(t.questions) +
            " questions answered, " + std::to_string(t.within) + " within the tolerance");
    return;
  }
  lesson_run(std::nullopt);
  if (!options_.headless()) lesson_view_.focus_answer();  // (headless, --lesson-do types instead)
  const lesson::Step& s = *lesson_->step();
  ui_.say("step " + std::to_string(i + 1) + " of " + std::to_string(lesson_->steps()) +
          (s.title.empty() ? std::string() : ": " + s.title));
}

void App::lesson_run(const std::optional<json>& try_value) {
  const lesson::Step& s = *lesson_->step();
  const lesson::Lesson& l = lesson_->lesson();
  scenario::Scenario sc;
  try {
    sc = try_value ? lesson::with_change(l, s, *try_value) : s.scenario;
  } catch (const std::exception& e) {
    ui_.say(e.what(), true);  // a value out of the step's range: the panel keeps the last run
    return;
  }
  // The speed carries from step to step (the command line's, the slider's).
  const double speed = live_ ? live_->time_scale() : options_.overrides.time_scale.value_or(1.0);
  const std::filesystem::path base = std::filesystem::path(l.file).parent_path();
  auto session = std::make_unique<LiveSession>(sc.to_json(), l.file + s.path, base);
  if (!session->simulated()) session->set_simulated(true);  // a lesson is always simulated
  session->set_time_scale(speed);
  if (try_value) lesson_->ran_try(*try_value);
  lesson_pause_ = lesson_->pause_at();
  session->pause_at(lesson_pause_);
  open_scenario(std::move(session));
  start_run();
  // The step's view: its time range, pools, side tab.
  const lesson::View& v = s.view;
  if (v.from || v.to) {
    const double from = v.from ? static_cast<double>(v.from->count()) : 0;
    const double to = v.to ? static_cast<double>(v.to->count()) : static_cast<double>(sc.duration().count());
    ui_.axis.set_view(from, std::max(to, from + 1e6));
    ui_.axis.set_follow(false);
  }
  ui_.pools_hidden.clear();
  if (!v.pools.empty())
    for (std::size_t p = 0; p < sc.pools.size(); ++p)
      if (std::find(v.pools.begin(), v.pools.end(), sc.pools[p].name) == v.pools.end()) ui_.pools_hidden.insert(p);
  if (auto t = tab_named(v.tab)) ui_.tab_request = *t;
  ui_.lesson_highlights.clear();
  for (const lesson::Highlight& h : v.highlights) {
    Ui::LessonHighlight out;
    out.what = h.what == lesson::Highlight::What::lane   ? Ui::LessonHighlight::lane
               : h.what == lesson::Highlight::What::rule ? Ui::LessonHighlight::rule
                                                         : Ui::LessonHighlight::row;
    out.pool = h.pool;
    out.name = h.name;
    ui_.lesson_highlights.push_back(std::move(out));
  }
}

void App::lesson_answered() {
  if (!lesson_ || !live_) return;
  lesson_pause_ = lesson_->pause_at();  // now the moment the answer is read at
  live_->pause_at(lesson_pause_);
  if (live_->state() == LiveSession::State::paused) live_->resume();
  ui_.say("step " + std::to_string(lesson_->at() + 1) + ": answered " + answer_text(*lesson_->record().answer) +
          "; the run goes on");
}

void App::lesson_update(const Frame& f) {
  if (!lesson_ || !live_ || !live_->run() || lesson_->at_summary()) return;
  // Where the metrics are whole: the moment the run paused itself at, or its end; else not yet anywhere.
  const bool finished = live_->state() == LiveSession::State::finished;
  const std::optional<Time> paused_at = live_->paused_at();
  const lesson::RunData run =
      lesson::run_data(f.metrics, live_->run()->scenario(), finished ? -1 : paused_at ? paused_at->count() : 0);
  const bool paused_to_ask = lesson_->phase() == LessonProgress::Phase::asking &&
                             live_->state() == LiveSession::State::paused;
  if (paused_to_ask && !asked_shown_) {
    if (!options_.headless()) lesson_view_.focus_answer();
    const Nanos at = lesson_->step()->predict->ask_at;
    ui_.say("step " + std::to_string(lesson_->at() + 1) + ": the run is paused at " +
            (at.count() == 0 ? std::string("the start") : plot::format_time(static_cast<double>(at.count()))) +
            " to ask: " + lesson_->step()->predict->question);
  }
  asked_shown_ = paused_to_ask;
  if (!lesson_->update(run)) return;
  // Revealed or checked: the run stays where it is (paused at the moment
  // the figure was read, for a look) and goes on from there without pausing again.
  lesson_pause_ = lesson_->pause_at();
  live_->pause_at(lesson_pause_);
  const std::string step = "step " + std::to_string(lesson_->at() + 1) + ": ";
  const LessonProgress::Record& r = lesson_->record();
  if (r.grade)
    ui_.say(step + "you said " + r.grade->student + ", the run " + r.grade->run + ": " +
            (r.grade->within ? "within the tolerance" : "not within the tolerance") +
            (r.grade->why.empty() ? "" : " (" + r.grade->why + ")"));
  else if (r.outcome)
    ui_.say(step + (r.outcome->holds ? "it holds: " : "it does not hold: ") + r.outcome->why);
}

void App::save_answers(const std::filesystem::path& file) {
  if (!lesson_) return ui_.say("no lesson is open: open one from the Lesson menu", true);
  try {
    const json doc = lesson_->answers();
    scenario::write_atomically(file, [&](std::ostream& out) { out << doc.dump(2) << "\n"; });
    ui_.say("answers " + hand_over(file));
  } catch (const std::exception& e) {
    ui_.say(e.what(), true);
  }
}

std::filesystem::path App::answers_file() const {
  return lesson_file_name(lesson_ ? lesson_->lesson().name : "");
}

void App::lesson_panel(Context& cx, float height) {
  LessonActions act;
  act.go = [this](std::size_t i) { later_.push_back([this, i] { lesson_go(i); }); };
  act.answered = [this] { later_.push_back([this] { lesson_answered(); }); };
  act.run_try = [this](const json& v) { later_.push_back([this, v] { lesson_run(v); }); };
  act.save = [this] { later_.push_back([this] { save_answers(answers_file()); }); };
  act.close = [this] { later_.push_back([this] { lesson_.reset(); }); };
  lesson_view_.draw(cx, *lesson_, act, height);
}

void App::lesson_menu() {
  if (!ImGui::BeginMenu("Lesson")) return;
  if (ImGui::BeginMenu("Shipped lessons")) {
    const auto lessons = lesson::list_lessons();
    if (lessons.empty()) ImGui::TextDisabled("none in %s", lesson::lessons_dir().string().c_str());
    for (const auto& e : lessons) {
      const std::string label = e.title.empty() ? e.name : e.title + " (" + std::to_string(e.minutes) + " min)";
      if (ImGui::MenuItem(label.c_str())) later_.push_back([this, f = e.file] { open(f); });
      if (ImGui::IsItemHovered() && !e.summary.empty()) ImGui::SetTooltip("%s", e.summary.c_str());
    }
    ImGui::EndMenu();
  }
  if (ImGui::MenuItem("Open a lesson file...")) {
    dialog_compares_ = false;
    dialog_.open(lesson::lessons_dir());
  }
  ImGui::Separator();
  if (ImGui::MenuItem("Save answers (JSON, to be graded)", "Ctrl+A", false, lesson_ != nullptr))
    later_.push_back([this] { save_answers(answers_file()); });
  if (ImGui::MenuItem("Close the lesson", nullptr, false, lesson_ != nullptr)) later_.push_back([this] { lesson_.reset(); });
  ImGui::EndMenu();
}

// --lesson-do, headless: each action once the lesson is still (the run
// paused to ask, a reveal or a check made, the run ended); true once every
// action is done and the lesson is still again.
bool App::lesson_headless() {
  if (!lesson_ || !live_) return true;
  using Phase = LessonProgress::Phase;
  const Phase phase = lesson_->phase();
  const LiveSession::State state = live_->state();
  const bool ended = state == LiveSession::State::finished || !live_->run();
  // A reveal or a check to come keeps it busy; else a run paused (to ask, or
  // where a figure was read), ended, or gone on for --run-for is still.
  const bool busy = phase == Phase::waiting || (phase == Phase::trying && lesson_->record().tried);
  const bool still =
      lesson_->at_summary() ||
      (!busy && (ended || state == LiveSession::State::paused ||
                 (phase != Phase::asking && options_.run_for && live_->run()->now().count() >= *options_.run_for)));
  if (!still) return false;
  if (lesson_do_next_ >= options_.lesson_do.size()) return true;
  const std::string& action = options_.lesson_do[lesson_do_next_++];
  const auto eq = action.find('=');
  const std::string verb = action.substr(0, eq), arg = eq == std::string::npos ? "" : action.substr(eq + 1);
  std::printf("poolscope-gui: lesson step %zu: %s\n", lesson_->at() + 1, action.c_str());
  if (verb == "answer") {
    lesson_->typed = arg;
    if (lesson_->answer_typed())
      lesson_answered();
    else
      std::printf("poolscope-gui: lesson: not an answer: %s\n", lesson_->why().c_str());
  } else if (verb == "next") {
    lesson_go(lesson_->at() + 1);
  } else if (verb == "back") {
    lesson_go(lesson_->at() == 0 ? 0 : lesson_->at() - 1);
  } else if (verb == "try") {
    json v;
    try {
      v = json::parse(arg);
    } catch (const std::exception&) {
      v = arg;  // a duration, as the scenario writes it
    }
    lesson_->try_value = v;
    lesson_run(v);
  } else if (verb == "save") {
    save_answers(arg);
  }
  return false;
}

// What the lesson shows at the end of a headless run, for the smoke test.
void App::print_lesson() const {
  if (!lesson_) return;
  static constexpr const char* kPhases[] = {"reading", "asking", "waiting for the run's answer", "revealed",
                                            "trying", "checked"};
  const std::string paused =
      live_ && live_->paused_at() ? ", the run paused at " + plot::format_time(static_cast<double>(
                                                                 live_->paused_at()->count()))
                                  : "";
  if (lesson_->at_summary())
    std::printf("poolscope-gui: lesson %s: summary\n", lesson_->lesson().name.c_str());
  else
    std::printf("poolscope-gui: lesson %s: step %zu of %zu, %s%s\n", lesson_->lesson().name.c_str(), lesson_->at() + 1,
                lesson_->steps(), kPhases[static_cast<int>(lesson_->phase())], paused.c_str());
  for (std::size_t i = 0; i < lesson_->steps(); ++i) {
    const LessonProgress::Record& r = lesson_->record(i);
    if (r.grade)
      std::printf("poolscope-gui: lesson step %zu: you said %s, the run %s: %s\n", i + 1, r.grade->student.c_str(),
                  r.grade->run.c_str(), r.grade->within ? "within" : "not within");
    if (r.outcome)
      std::printf("poolscope-gui: lesson step %zu: tried %s: %s: %s\n", i + 1, r.tried ? r.tried->dump().c_str() : "",
                  r.outcome->holds ? "holds" : "does not hold", r.outcome->why.c_str());
  }
}

}  // namespace poolscope::gui
