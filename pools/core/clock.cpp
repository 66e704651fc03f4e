#include "pools/core/clock.h"

#include <algorithm>
#include <vector>

namespace poolscope {

void Clock::sleep_until(Time deadline) {
  Mutex m;
  CondVar cv;
  std::unique_lock lock(m);
  while (now() < deadline) cv.wait_until(lock, *this, deadline);
}

// --- SteadyClock ------------------------------------------------------------

SteadyClock::SteadyClock(double scale) : origin_(std::chrono::steady_clock::now()), scale_(scale) {}

Time SteadyClock::now() const {
  auto real = std::chrono::steady_clock::now() - origin_;
  if (scale_ == 1.0) return std::chrono::duration_cast<Nanos>(real);
  return Nanos(static_cast<int64_t>(static_cast<double>(Nanos(real).count()) * scale_));
}

std::cv_status SteadyClock::wait_until(CondVar& cv, LockRef lock, Time deadline) {
  // A deadline of "never" (Time::max()) must not overflow the time_point sum.
  deadline = std::min(deadline, now() + std::chrono::hours(24 * 365));
  auto real = scale_ == 1.0 ? deadline : Nanos(static_cast<int64_t>(static_cast<double>(deadline.count()) / scale_));
  cv.cv_.wait_until(lock, origin_ + real);
  return now() >= deadline ? std::cv_status::timeout : std::cv_status::no_timeout;
}

Clock& default_clock() {
  // Under a Scheduler (a simulation), real time would make the run depend on the machine.
  if (Scheduler* s = this_thread::scheduler()) [[unlikely]]
    return s->clock();
  static SteadyClock clock;
  return clock;
}

// --- ManualClock ------------------------------------------------------------

namespace {
// Locks the waiter's own lock and the clock's mutex as one: the waiter holds
// both between reading the time and sleeping, and advance() notifies while
// holding the clock's mutex, so no advance can slip in between and be missed.
// Lock order everywhere: the waiter's lock, then the clock's mutex, then the
// condition variable's internal mutex.
struct BothLocks {
  LockRef& user;
  std::unique_lock<std::mutex>& clock;
  void lock() {
    user.lock();
    clock.lock();
  }
  void unlock() {
    clock.unlock();
    user.unlock();
  }
};
}  // namespace

Time ManualClock::now() const {
  std::lock_guard g(m_);
  return now_;
}

std::cv_status ManualClock::wait_until(CondVar& cv, LockRef lock, Time deadline) {
  std::unique_lock clock_lock(m_);
  if (now_ >= deadline) return std::cv_status::timeout;
  auto it = waiting_.emplace(deadline, &cv);
  waiters_changed_.notify_all();
  BothLocks both{lock, clock_lock};
  // `lock` and `clock_lock` are both held here; cv_any releases both while it
  // sleeps and takes them back (user lock first) before returning.
  cv.cv_.wait(both);
  waiting_.erase(it);
  waiters_changed_.notify_all();
  bool expired = now_ >= deadline;
  clock_lock.unlock();
  return expired ? std::cv_status::timeout : std::cv_status::no_timeout;
}

void ManualClock::advance(Nanos d) {
  std::lock_guard g(m_);
  now_ += d;
  // Notify while holding m_: a waiter that read the old time still holds m_
  // until it sleeps, so this notification cannot be lost. multimap iteration
  // is in deadline order; stop at the first waiter that is still in the future.
  for (auto& [deadline, cv] : waiting_) {
    if (deadline > now_) break;
    cv->cv_.notify_all();
  }
}

void ManualClock::advance_to(Time t) {
  Time current = now();
  if (t > current) advance(t - current);
}

std::size_t ManualClock::waiters() const {
  std::lock_guard g(m_);
  return waiting_.size();
}

bool ManualClock::await_waiters(std::size_t n, std::chrono::milliseconds limit) const {
  std::unique_lock lock(m_);
  return waiters_changed_.wait_for(lock, limit, [&] { return waiting_.size() >= n; });
}

// --- AdjustableClock ------------------------------------------------------------

AdjustableClock::AdjustableClock(double scale, bool paused)
    : pieces_(std::make_shared<TimePieces>(TimePiece{TimePieces::steady_ns(), 0, paused ? 0.0 : scale})),
      scale_(scale),
      paused_(paused) {}

// A new piece from now on, and every waiter re-timed.
void AdjustableClock::change_locked(double piece_scale) {
  pieces_->start(piece_scale);
  for (auto& [deadline, cv] : waiting_) cv->cv_.notify_all();
}

std::cv_status AdjustableClock::wait_until(CondVar& cv, LockRef lock, Time deadline) {
  // Same locking as ManualClock: the clock's mutex is held from reading the
  // time until the waiter sleeps, and changes notify under it.
  std::unique_lock clock_lock(m_);
  if (now() >= deadline) return std::cv_status::timeout;
  auto it = waiting_.emplace(deadline, &cv);
  waiters_changed_.notify_all();
  BothLocks both{lock, clock_lock};
  if (paused_) {
    cv.cv_.wait(both);
  } else {
    // The piece cannot change while m_ is held: its wall time for `deadline`.
    const TimePiece piece = pieces_->current();
    Time until = std::min(deadline, Time(piece.at(TimePieces::steady_ns())) + std::chrono::hours(24 * 365));
    auto wall = std::chrono::steady_clock::time_point(
        Nanos(piece.steady0 + static_cast<std::int64_t>(static_cast<double>(until.count() - piece.time0) / piece.scale)));
    cv.cv_.wait_until(both, wall);
  }
  waiting_.erase(it);
  waiters_changed_.notify_all();
  bool expired = now() >= deadline;
  clock_lock.unlock();
  return expired ? std::cv_status::timeout : std::cv_status::no_timeout;
}

double AdjustableClock::scale() const {
  std::lock_guard g(m_);
  return scale_;
}

void AdjustableClock::set_scale(double scale) {
  std::lock_guard g(m_);
  if (scale <= 0 || scale == scale_) return;
  scale_ = scale;
  if (!paused_) change_locked(scale);
}

void AdjustableClock::pause() {
  std::lock_guard g(m_);
  if (paused_) return;
  paused_ = true;
  change_locked(0);
}

void AdjustableClock::resume() {
  std::lock_guard g(m_);
  if (!paused_) return;
  paused_ = false;
  change_locked(scale_);
}

bool AdjustableClock::paused() const {
  std::lock_guard g(m_);
  return paused_;
}

std::size_t AdjustableClock::waiters() const {
  std::lock_guard g(m_);
  return waiting_.size();
}

bool AdjustableClock::await_waiters(std::size_t n, std::chrono::milliseconds limit) const {
  std::unique_lock lock(m_);
  return waiters_changed_.wait_for(lock, limit, [&] { return waiting_.size() >= n; });
}

}  // namespace poolscope
