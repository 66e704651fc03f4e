#include "visualizer/model/replay.h"

#include <algorithm>

namespace poolscope::gui {

Replay::Replay(scenario::ResultFile file) : file_(std::move(file)) {
  if (!file_.has_events)
    throw scenario::ScenarioError(
        file_.file, ConfigError("",
                                "this result has no events to replay: write it with `poolscope run SCENARIO "
                                "--events --out FILE`"));
  metrics_ = file_.metrics();
  index_.sync(metrics_, file_.events);
  keys_.reserve(file_.events.size());
  std::vector<std::int64_t> last(file_.pools.size(), 0);
  for (const Event& e : file_.events) {
    std::int64_t& l = last[e.pool];
    l = std::max(l, e.time);
    keys_.push_back(l);
  }
  at_cursor_.set_pools(file_.pool_infos());
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

bool Replay::sync_at_cursor(bool allow_rebuild) {
  if (position_ < at_cursor_position_) {
    if (!allow_rebuild) return false;
    at_cursor_ = metrics::RunMetrics();
    at_cursor_.set_pools(file_.pool_infos());
    at_cursor_position_ = 0;
  }
  std::span<const Event> all = file_.events;
  at_cursor_.add(all.subspan(at_cursor_position_, position_ - at_cursor_position_));
  at_cursor_position_ = position_;
  return true;
}

void Replay::with_frame(const std::function<void(const Frame&)>& f) {
  f(Frame{.metrics = metrics_,
          .index = index_,
          .events = file_.events,
          .now = time_,
          .replay = true,
          .at_now = at_cursor_});
}

}  // namespace poolscope::gui
