#include "scenarios/engine/pacer.h"

namespace poolscope::scenario {

Pacer::Pacer(double speed, bool paused)
    : speed_(speed), paused_(paused), base_wall_(std::chrono::steady_clock::now()) {}

void Pacer::rebase_locked(Time at) {
  base_ = at;
  base_wall_ = std::chrono::steady_clock::now();
}

Pacer::Verdict Pacer::verdict_locked(Time to, std::chrono::steady_clock::time_point& due) {
  if (released_) return Verdict::pass;
  if (pause_at_ && to > *pause_at_) {
    paused_at_ = pause_at_;
    pause_at_.reset();
    paused_ = true;
    steps_ = 0;
  }
  if (paused_) {
    if (steps_ == 0) return Verdict::paused;
    --steps_;
    return Verdict::pass;
  }
  due = base_wall_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                         std::chrono::duration<double, std::nano>(static_cast<double>((to - base_).count()) / speed_));
  return std::chrono::steady_clock::now() >= due ? Verdict::pass : Verdict::early;
}

bool Pacer::try_pass(Time to) {
  std::lock_guard g(m_);
  std::chrono::steady_clock::time_point due;
  held_ = verdict_locked(to, due) != Verdict::pass;
  if (!held_) last_ = to;
  return !held_;
}

bool Pacer::held() const {
  std::lock_guard g(m_);
  return held_;
}

void Pacer::pace(Time from, Time to, const std::function<void()>& before_wait) {
  std::unique_lock lock(m_);
  bool waited = false;
  auto wait = [&](auto&& block) {
    if (!waited && before_wait) {
      waited = true;
      lock.unlock();
      before_wait();
      lock.lock();
      return;  // the state may have changed meanwhile: the loop looks again
    }
    waited = true;
    block();
  };
  for (;;) {
    std::chrono::steady_clock::time_point due;
    const Verdict v = verdict_locked(to, due);
    if (v == Verdict::pass) break;
    if (v == Verdict::paused)
      wait([&] { changed_.wait(lock); });
    else  // woken early by a change of speed or a pause: the loop computes again
      wait([&] { changed_.wait_until(lock, due); });
  }
  (void)from;
  last_ = to;
}

void Pacer::set_speed(double speed) {
  if (!(speed > 0)) return;
  std::lock_guard g(m_);
  rebase_locked(last_);
  speed_ = speed;
  changed_.notify_all();
}

double Pacer::speed() const {
  std::lock_guard g(m_);
  return speed_;
}

void Pacer::pause() {
  std::lock_guard g(m_);
  paused_ = true;
  changed_.notify_all();
}

void Pacer::resume() {
  std::lock_guard g(m_);
  paused_ = false;
  paused_at_.reset();
  rebase_locked(last_);
  changed_.notify_all();
}

bool Pacer::paused() const {
  std::lock_guard g(m_);
  return paused_;
}

void Pacer::step() {
  std::lock_guard g(m_);
  if (!paused_) return;
  ++steps_;
  paused_at_.reset();
  changed_.notify_all();
}

void Pacer::pause_at(std::optional<Time> at) {
  std::lock_guard g(m_);
  pause_at_ = at;
  changed_.notify_all();  // a pace() waiting for the wall clock looks again
}

std::optional<Time> Pacer::paused_at() const {
  std::lock_guard g(m_);
  return paused_ && steps_ == 0 ? paused_at_ : std::nullopt;
}

void Pacer::release() {
  std::lock_guard g(m_);
  released_ = true;
  changed_.notify_all();
}

}  // namespace poolscope::scenario
