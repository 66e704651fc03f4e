// Replaying a result file written with --events: a cursor over its events
// that can be scrubbed to any time, stepped one event forward or back, or
// played at a speed. The views draw the whole run clipped at the cursor
// (instant, whatever the jump); the metrics as of the cursor, which the
// comparison table needs, are brought forward incrementally, and when the
// cursor goes back, rebuilt from the nearest snapshot before it (or the
// start, when that is nearer than the first), never by replaying the whole
// run. A snapshot is a copy of the metrics, so there are at most
// kMaxSnapshots: one every 50,000 events, or every eighth of a longer run.
// Their latency percentiles follow them without sorting (prefix_percentiles.h).
#pragma once

#include <functional>
#include <utility>
#include <vector>

#include "scenarios/engine/result_reader.h"
#include "visualizer/model/frame.h"
#include "visualizer/model/prefix_percentiles.h"

namespace poolscope::gui {

class Replay {
 public:
  static constexpr std::size_t kSnapshotEvery = 50'000;
  static constexpr std::size_t kMaxSnapshots = 8;
  static constexpr std::size_t kAll = static_cast<std::size_t>(-1);

  // Throws ScenarioError if the file has no events (written without --events).
  // `snapshot_every` 0: max(kSnapshotEvery, events / kMaxSnapshots).
  explicit Replay(scenario::ResultFile file, std::size_t snapshot_every = 0);

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

  // Brings the metrics as of the cursor up to date. Going back, or forward
  // past a snapshot by more than `budget`, means rebuilding them from the
  // nearest snapshot before the cursor; `allow_rebuild` false defers that
  // (while the user drags the cursor). Returns whether they are current.
  // `budget` bounds the events one call adds (the GUI gives a frame's
  // worth), and then a rebuild copies its snapshot a pool a call: until it
  // has caught up, it returns false; rebuilding, at_cursor() stays as it
  // was meanwhile, adding forward it is partway.
  bool sync_at_cursor(bool allow_rebuild = true, std::size_t budget = kAll);
  // The metrics as of the cursor are behind it (a rebuild going on, or deferred).
  bool behind() const { return at_cursor_position_ != position_; }
  // The cursor is before the metrics as of it: the next sync rebuilds.
  bool going_back() const { return position_ < at_cursor_position_; }
  const metrics::RunMetrics& at_cursor() const { return at_cursor_; }
  // The latency percentiles of at_cursor(), kept up to date with it.
  const RunPercentiles& percentiles() const { return percentiles_; }
  // How many events the last rebuild (going back) replayed, and how many
  // snapshots are kept: for the tests.
  std::size_t last_rebuild_events() const { return last_rebuild_events_; }
  std::size_t snapshots() const { return snapshots_.size(); }
  std::size_t snapshot_every() const { return snapshot_every_; }

  void with_frame(const std::function<void(const Frame&)>& f);
  // When the workload ended (the sum of the scenario's phases), -1 if the file does not say.
  std::int64_t workload_end() const { return workload_end_; }
  const std::vector<SubmitLateness>& lateness() const { return lateness_; }

 private:
  void set_position(std::size_t p);
  // Adds events [at_cursor_position_, p) to at_cursor_, keeping a snapshot at
  // every multiple of snapshot_every_ it passes.
  void add_at_cursor(std::size_t p);
  // sync_at_cursor() but the percentiles.
  bool bring_at_cursor(bool allow_rebuild, std::size_t budget);

  scenario::ResultFile file_;
  metrics::RunMetrics metrics_;
  TraceIndex index_;
  // The running maximum of the event times: non-decreasing over the whole
  // list (the events are merged by time, but two pools' clocks can be a few
  // ns out of order), so a binary search finds the prefix that happened by t.
  std::vector<std::int64_t> keys_;
  std::size_t position_ = 0;
  std::int64_t time_ = 0;
  double time_exact_ = 0;  // the cursor while playing, in fractions of a ns
  bool playing_ = false;
  metrics::RunMetrics at_cursor_;
  std::size_t at_cursor_position_ = 0;
  RunPercentiles percentiles_;  // at_cursor_'s, over the whole run's latencies
  std::size_t snapshot_every_;
  std::vector<std::pair<std::size_t, metrics::RunMetrics>> snapshots_;  // (position, the metrics as of it), sorted
  std::size_t last_rebuild_events_ = 0;
  // A rebuild, a budget at a time: the metrics from a snapshot at
  // rebuild_from_, brought up to building_position_. Between rebuilds it
  // keeps the replaced metrics' storage for the next one to copy into.
  metrics::RunMetrics building_;
  metrics::RunMetrics start_;  // no event yet, the pools named
  const metrics::RunMetrics* rebuild_source_ = nullptr;  // the snapshot copied (null: start_)
  std::size_t copied_pools_ = 0;                          // of it so far
  std::size_t building_position_ = 0, rebuild_from_ = 0;
  bool rebuilding_ = false;
  std::int64_t workload_end_ = -1;            // the scenario's phases, summed
  std::vector<SubmitLateness> lateness_;      // from the file's summaries
};

}  // namespace poolscope::gui
