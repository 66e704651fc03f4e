#include "pools/core/go/thread_group.h"

#include <algorithm>
#include <utility>

namespace poolscope::go {

void ThreadGroup::go(std::string name, std::move_only_function<void()> body) {
  join_finished();
  std::lock_guard g(m_);
  auto it = threads_.emplace(threads_.end());
  try {
    // Under m_: the new thread's last step takes m_, so it cannot report
    // itself finished before its Thread is in place.
    *it = Thread(std::move(name), [this, it, body = std::move(body)]() mutable {
      body();
      body = nullptr;  // release the closure's captures before reporting done
      std::lock_guard g(m_);
      done_.push_back(it);
    });
  } catch (...) {
    threads_.erase(it);
    throw;
  }
}

void ThreadGroup::join_finished() {
  std::vector<std::list<Thread>::iterator> done;
  {
    std::lock_guard g(m_);
    if (done_.empty()) return;
    done.swap(done_);
  }
  // Not under m_: a finishing thread takes it as its last step.
  for (auto it : done) it->join();
  std::lock_guard g(m_);
  for (auto it : done) threads_.erase(it);
}

void ThreadGroup::wait() {
  for (;;) {
    std::list<Thread> all;
    {
      std::lock_guard g(m_);
      if (threads_.empty()) return;
      all.splice(all.end(), threads_);
    }
    for (Thread& t : all) t.join();
    // Each joined thread put itself on done_ before it ended; those entries
    // point into `all`, which dies here.
    std::vector<const Thread*> joined;
    for (const Thread& t : all) joined.push_back(&t);
    std::sort(joined.begin(), joined.end());
    std::lock_guard g(m_);
    std::erase_if(done_, [&](auto it) { return std::binary_search(joined.begin(), joined.end(), &*it); });
  }
}

std::size_t ThreadGroup::size() const {
  std::lock_guard g(m_);
  return threads_.size();
}

}  // namespace poolscope::go
