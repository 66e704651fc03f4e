#include "pools/core/trace_log.h"

#include <algorithm>
#include <thread>

namespace poolscope {

TraceLog::TraceLog(TraceStream& stream, std::chrono::microseconds poll)
    : stream_(stream), poll_(poll), drainer_("trace-log", [this] { drain_loop(); }) {}

TraceLog::~TraceLog() {
  {
    std::lock_guard g(m_);
    stop_ = true;
  }
  cv_.notify_all();
  drainer_.join();
}

bool TraceLog::drain_once() {
  std::lock_guard d(drain_m_);
  batch_.clear();
  if (stream_.drain(batch_) == 0) return false;
  {
    std::lock_guard g(m_);
    events_.insert(events_.end(), batch_.begin(), batch_.end());
  }
  cv_.notify_all();
  return true;
}

void TraceLog::drain_loop() {
  std::unique_lock lock(m_);
  while (!stop_) {
    lock.unlock();
    bool got = drain_once();
    lock.lock();
    if (!got) cv_.wait_for(lock, poll_, [&] { return stop_; });
  }
}

void TraceLog::sync() {
  const std::uint64_t target = stream_.recorded();
  while (stream_.consumed() < target)
    if (!drain_once()) std::this_thread::yield();  // the drainer took them: it appends them below
  // The background drainer may have taken the last events off the stream and
  // not yet appended them: it holds drain_m_ until it has.
  std::lock_guard wait_for_drainer(drain_m_);
}

std::optional<Event> TraceLog::wait_for(const Pred& pred, std::chrono::milliseconds limit) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  std::unique_lock lock(m_);
  bool last_look = false;
  for (;;) {
    for (; cursor_ < events_.size(); ++cursor_) {
      if (pred(events_[cursor_])) return events_[cursor_++];
    }
    if (last_look) return std::nullopt;
    last_look = cv_.wait_until(lock, deadline) == std::cv_status::timeout;
  }
}

void TraceLog::mark() {
  sync();
  std::lock_guard g(m_);
  cursor_ = events_.size();
}

std::vector<Event> TraceLog::events() const {
  std::lock_guard g(m_);
  return events_;
}

std::size_t TraceLog::count(const Pred& pred) const {
  std::lock_guard g(m_);
  return static_cast<std::size_t>(std::count_if(events_.begin(), events_.end(), pred));
}

Counters TraceLog::last_counters(PoolId pool) const {
  std::lock_guard g(m_);
  for (auto it = events_.rbegin(); it != events_.rend(); ++it)
    if (it->pool == pool) return it->counters;
  return {};
}

}  // namespace poolscope
