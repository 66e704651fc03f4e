#include "pools/core/go/thread_group.h"

#include <algorithm>
#include <utility>

namespace poolscope::go {

void ThreadGroup::go(std::string name, std::move_only_function<void()> body) {
  if (joins_ == Joins::in_go) join_finished();
  std::lock_guard g(m_);
  auto it = threads_.emplace(threads_.end());
  try {
    // Under m_: the new thread's last step takes m_, so it cannot report
    // itself finished before its Thread is in place.
    it->thread = Thread(std::move(name), [this, it, body = std::move(body)]() mutable {
      body();
      body = nullptr;  // release the closure's captures before reporting done
      // Not yet on done_: no thread joins this one while it joins the others.
      if (joins_ == Joins::in_finishing) join_finished();
      std::lock_guard g(m_);
      done_.push_back(it);
    });
  } catch (...) {
    threads_.erase(it);
    throw;
  }
}

std::vector<ThreadGroup::Entry> ThreadGroup::claim(const std::vector<Entry>& from) {
  std::vector<Entry> mine;
  for (Entry it : from)
    if (!it->claimed) {
      it->claimed = true;
      mine.push_back(it);
    }
  claimed_ += mine.size();
  return mine;
}

void ThreadGroup::join_and_erase(const std::vector<Entry>& mine) {
  // Not under m_: a finishing thread takes it as its last step.
  for (Entry it : mine) it->thread.join();
  std::lock_guard g(m_);
  // A joined thread put itself on done_ before it ended: drop those entries.
  for (Entry it : mine) it->joined = true;
  std::erase_if(done_, [](Entry it) { return it->joined; });
  for (Entry it : mine) threads_.erase(it);
  claimed_ -= mine.size();
  if (claimed_ == 0) all_joined_.notify_all();
}

void ThreadGroup::join_finished() {
  std::vector<Entry> mine;
  {
    std::lock_guard g(m_);
    mine = claim(done_);
  }
  if (!mine.empty()) join_and_erase(mine);
}

void ThreadGroup::wait() {
  for (;;) {
    std::vector<Entry> mine;
    {
      std::unique_lock l(m_);
      // Threads another caller claimed are theirs to join: wait for them.
      all_joined_.wait(l, [&] { return threads_.size() > claimed_ || threads_.empty(); });
      if (threads_.empty()) return;
      std::vector<Entry> all;
      for (auto it = threads_.begin(); it != threads_.end(); ++it) all.push_back(it);
      mine = claim(all);
    }
    join_and_erase(mine);
  }
}

std::size_t ThreadGroup::size() const {
  std::lock_guard g(m_);
  return threads_.size();
}

}  // namespace poolscope::go
