// A live run: a scenario as an editable document (pools added or removed,
// parameters changed through the registry's descriptions, validated as the
// runner validates it), then the engine running it, paused, rescaled, tuned
// and stopped from the GUI.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "scenarios/engine/engine.h"
#include "visualizer/model/frame.h"

namespace poolscope::gui {

class LiveSession {
 public:
  // `document` is a scenario's JSON; `file` names it in errors, `base_dir`
  // resolves the files it refers to.
  LiveSession(json document, std::string file, std::filesystem::path base_dir);
  ~LiveSession();
  // Throws ScenarioError if the file cannot be read or is not valid.
  static std::unique_ptr<LiveSession> load(const std::filesystem::path& file);

  // --- the scenario, editable before a run
  const json& document() const { return doc_; }
  const std::string& file() const { return file_; }
  // The document, validated (pools built once, as the runner does), if it is valid; else error() says why.
  const std::optional<scenario::Scenario>& scenario() const { return scenario_; }
  const std::string& error() const { return error_; }
  // Sets (or with null, resets to its default) a pool's parameter.
  void set_param(std::size_t pool, const std::string& param, const json& value);
  void set_seed(std::uint64_t seed);
  void add_pool(const std::string& design);
  void remove_pool(std::size_t pool);

  // --- the run
  enum class State { ready, running, paused, finished };
  State state() const;
  // Starts a run of the document (a new one, if one ran before). False if the document is not valid.
  bool start();
  void pause();
  void resume();
  void stop();  // ends the run early: pools shut down at once
  void set_time_scale(double scale);
  double time_scale() const { return time_scale_; }
  double progress() const;
  // Changes a live parameter of a running pool (Registry::tune). Returns "" or why not.
  std::string tune(const std::string& pool, const std::string& param, const json& value);
  // Values tuned during the run, by pool and parameter.
  const std::map<std::string, std::map<std::string, json>>& tuned() const { return tuned_; }
  scenario::Run* run() { return run_.get(); }

  // Runs f with the frame's data, under the engine's metrics lock.
  void with_frame(const std::function<void(const Frame&)>& f);

 private:
  void validate();

  json doc_;
  std::string file_;
  std::filesystem::path base_dir_;
  std::optional<scenario::Scenario> scenario_;
  std::string error_;
  double time_scale_ = 1;
  std::unique_ptr<scenario::Run> run_;
  TraceIndex index_;
  std::vector<SubmitLateness> lateness_;  // per trace pool id, once the run has ended
  std::map<std::string, std::map<std::string, json>> tuned_;
};

}  // namespace poolscope::gui
