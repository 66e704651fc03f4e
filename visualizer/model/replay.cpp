#include "visualizer/model/replay.h"

#include <algorithm>
#include <iterator>

#include "pools/core/duration.h"

namespace poolscope::gui {

Replay::Replay(scenario::ResultFile file, std::size_t snapshot_every) : file_(std::move(file)) {
  const std::size_t n = file_.events.size();
  snapshot_every_ =
      snapshot_every > 0 ? snapshot_every : std::max(kSnapshotEvery, (n + kMaxSnapshots - 1) / kMaxSnapshots);
  if (!file_.has_events)
    throw scenario::ScenarioError(
        file_.file, ConfigError("",
                                "this result has no events to replay: write it with `poolscope run SCENARIO "
                                "--events --out FILE`"));
  metrics_ = file_.metrics();
  index_.sync(metrics_, file_.events);
  keys_.reserve(file_.events.size());
  std::int64_t last = 0;
  for (const Event& e : file_.events) {
    last = std::max(last, e.time);
    keys_.push_back(last);
  }
  percentiles_ = RunPercentiles(metrics_);
  start_.set_pools(file_.pool_infos());
  at_cursor_ = start_;
  // The next rebuild's storage, sized for any moment of the run at once, so
  // even the first jump back copies into memory already there.
  building_ = metrics_;
  // The end of the workload: the phases, one after another (each pool's own
  // clock in a sequential schedule starts at 0 too).
  if (const json* phases = file_.scenario.is_object() && file_.scenario.contains("phases") ? &file_.scenario["phases"]
                                                                                           : nullptr;
      phases && phases->is_array()) {
    std::int64_t end = 0;
    bool ok = true;
    for (const json& p : *phases) {
      auto d = p.is_object() && p.contains("duration") && p["duration"].is_string()
                   ? parse_duration(p["duration"].get<std::string>())
                   : std::nullopt;
      if (!d) {
        ok = false;
        break;
      }
      end += d->count();
    }
    if (ok) workload_end_ = end;
  }
  for (const scenario::ResultPool& p : file_.pools) {
    SubmitLateness l;
    const json& s = p.summary;
    if (s.is_object() && s.contains("submission_lateness_s") && s["submission_lateness_s"].is_object()) {
      const json& j = s["submission_lateness_s"];
      if (j.value("count", 0) > 0 && j.contains("p99") && j["p99"].is_number() && j.contains("max") &&
          j["max"].is_number()) {
        l.known = true;
        l.p99 = static_cast<std::int64_t>(j["p99"].get<double>() * 1e9 + 0.5);
        l.max = static_cast<std::int64_t>(j["max"].get<double>() * 1e9 + 0.5);
      }
    }
    lateness_.push_back(l);
  }
}

void Replay::set_position(std::size_t p) { position_ = std::min(p, keys_.size()); }

void Replay::seek(std::int64_t t) {
  t = std::clamp<std::int64_t>(t, 0, end_time());
  set_position(static_cast<std::size_t>(std::upper_bound(keys_.begin(), keys_.end(), t) - keys_.begin()));
  time_ = t;
  time_exact_ = static_cast<double>(t);
}

void Replay::step(long n) {
  auto p = static_cast<long>(position_) + n;
  set_position(static_cast<std::size_t>(std::max(0L, p)));
  time_ = position_ > 0 ? keys_[position_ - 1] : 0;
  time_exact_ = static_cast<double>(time_);
  playing_ = false;
}

void Replay::set_playing(bool on) {
  playing_ = on;
  if (on && position_ >= keys_.size()) seek(0);  // play again from the start
}

void Replay::advance(double wall_seconds, double speed) {
  if (!playing_) return;
  time_exact_ += wall_seconds * speed * 1e9;
  auto t = static_cast<std::int64_t>(time_exact_);
  if (t >= end_time()) {
    t = end_time();
    playing_ = false;
  }
  double exact = time_exact_;
  seek(t);
  if (playing_) time_exact_ = exact;  // keep the fraction of a ns a slow replay accumulates
}

void Replay::add_at_cursor(std::size_t p) {
  std::span<const Event> all = file_.events;
  while (at_cursor_position_ < p) {
    const std::size_t next_snapshot = (at_cursor_position_ / snapshot_every_ + 1) * snapshot_every_;
    const std::size_t to = std::min(p, next_snapshot);
    at_cursor_.add(all.subspan(at_cursor_position_, to - at_cursor_position_));
    at_cursor_position_ = to;
    const bool kept = !snapshots_.empty() && snapshots_.back().first >= to;
    if (to == next_snapshot && !kept) snapshots_.emplace_back(to, at_cursor_);
  }
}

bool Replay::sync_at_cursor(bool allow_rebuild, std::size_t budget) {
  const bool current = bring_at_cursor(allow_rebuild, budget);
  percentiles_.follow(at_cursor_);
  return current;
}

bool Replay::bring_at_cursor(bool allow_rebuild, std::size_t budget) {
  // Far ahead, past a snapshot, adding from the nearest snapshot before the
  // cursor beats adding every event up to it (back to the end after the start).
  auto after = std::upper_bound(snapshots_.begin(), snapshots_.end(), position_,
                                [](std::size_t p, const auto& s) { return p < s.first; });
  const std::size_t from = after == snapshots_.begin() ? 0 : std::prev(after)->first;
  const bool far_ahead = from > at_cursor_position_ && position_ - at_cursor_position_ > budget;
  if (position_ >= at_cursor_position_ && !far_ahead) {
    rebuilding_ = false;  // the cursor came forward again: an unfinished rebuild is not needed
    // Forward too, a budget at a time: a click far ahead on the ruler is a
    // million events' worth of adding.
    add_at_cursor(position_ - at_cursor_position_ > budget ? at_cursor_position_ + budget : position_);
    return at_cursor_position_ == position_;
  }
  if (!allow_rebuild) return false;
  // Rebuild from the nearest snapshot at or before the cursor (else the
  // start), into building_; the metrics as of the old cursor stay in
  // at_cursor_ until it is done. A rebuild under way starts again when the
  // cursor went before it, or past a snapshot it has not reached.
  if (!rebuilding_ || building_position_ > position_ || from > building_position_) {
    rebuild_source_ = after == snapshots_.begin() ? nullptr : &std::prev(after)->second;
    building_position_ = from;
    rebuild_from_ = from;
    copied_pools_ = 0;
    rebuilding_ = true;
  }
  // Copy-assigned, not constructed: building_ holds the storage of the
  // metrics a previous rebuild replaced, so the copy reuses its vectors'
  // capacity and nodes instead of allocating (and page-faulting) tens of MB.
  // With a budget, a pool a call: a snapshot of a million events is 25 MB.
  const metrics::RunMetrics& source = rebuild_source_ ? *rebuild_source_ : start_;
  if (source.pools().empty() && copied_pools_ == 0) {
    building_ = source;
    copied_pools_ = 1;
  }
  while (copied_pools_ < source.pools().size()) {
    building_.copy_pool(source, copied_pools_++);
    if (budget != kAll) return false;
  }
  const std::size_t to = position_ - building_position_ > budget ? building_position_ + budget : position_;
  building_.add(std::span<const Event>(file_.events).subspan(building_position_, to - building_position_));
  building_position_ = to;
  if (building_position_ < position_) return false;
  std::swap(at_cursor_, building_);
  at_cursor_position_ = building_position_;
  last_rebuild_events_ = position_ - rebuild_from_;
  rebuilding_ = false;  // building_ now holds the old metrics: the next rebuild's storage
  return true;
}

void Replay::with_frame(const std::function<void(const Frame&)>& f) {
  f(Frame{.metrics = metrics_,
          .index = index_,
          .events = file_.events,
          .now = time_,
          .replay = true,
          .at_now = at_cursor_,
          .workload_end = workload_end_,
          .lateness = lateness_,
          .at_now_behind = behind(),
          .percentiles = &percentiles_});
}

}  // namespace poolscope::gui
