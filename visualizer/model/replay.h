// Replaying a result file written with --events: a cursor over its events
// that can be scrubbed to any time, stepped one event forward or back, or
// played at a speed. The views draw the whole run clipped at the cursor
// (instant, whatever the jump); the metrics as of the cursor, which the
// comparison table needs, are brought forward incrementally and rebuilt only
// when the cursor goes back.
#pragma once

#include <functional>

#include "scenarios/engine/result_reader.h"
#include "visualizer/model/frame.h"

namespace poolscope::gui {

class Replay {
 public:
  // Throws ScenarioError if the file has no events (written without --events).
  explicit Replay(scenario::ResultFile file);

  const scenario::ResultFile& file() const { return file_; }
  const metrics::RunMetrics& metrics() const { return metrics_; }
  std::size_t size() const { return file_.events.size(); }

  // Events [0, position()) have happened.
  std::size_t position() const { return position_; }
  std::int64_t time() const { return time_; }
  std::int64_t end_time() const { return keys_.empty() ? 0 : keys_.back(); }
  // The last event that happened, if any.
  const Event* current() const { return position_ > 0 ? &file_.events[position_ - 1] : nullptr; }

  // Moves the cursor to `t`: every event at or before it has happened.
  void seek(std::int64_t t);
  // Moves the cursor `n` events forward (or back, n < 0), to that event's time.
  void step(long n);
  void set_playing(bool on);
  bool playing() const { return playing_; }
  // While playing, moves the cursor by `wall_seconds` times `speed`; stops at the end.
  void advance(double wall_seconds, double speed);

  // Brings the metrics as of the cursor up to date. Going back means
  // rebuilding them from the start; `allow_rebuild` false defers that (while
  // the user drags the cursor). Returns whether they are current.
  bool sync_at_cursor(bool allow_rebuild = true);
  const metrics::RunMetrics& at_cursor() const { return at_cursor_; }

  void with_frame(const std::function<void(const Frame&)>& f);

 private:
  void set_position(std::size_t p);

  scenario::ResultFile file_;
  metrics::RunMetrics metrics_;
  TraceIndex index_;
  std::vector<std::int64_t> keys_;  // each event's time, kept non-decreasing per pool as the metrics do
  std::size_t position_ = 0;
  std::int64_t time_ = 0;
  double time_exact_ = 0;  // the cursor while playing, in fractions of a ns
  bool playing_ = false;
  metrics::RunMetrics at_cursor_;
  std::size_t at_cursor_position_ = 0;
};

}  // namespace poolscope::gui
