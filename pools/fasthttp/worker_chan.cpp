#include "pools/fasthttp/worker_chan.h"

namespace poolscope::fasthttp {

int workerChanCap(int gomaxprocs) { return gomaxprocs == 1 ? 0 : 1; }

workerChan* WorkerChanPool::get() {
  std::lock_guard g(m_);
  if (free_.empty()) return &all_.emplace_back(cap_);
  workerChan* ch = free_.back();
  free_.pop_back();
  return ch;
}

void WorkerChanPool::put(workerChan* ch) {
  std::lock_guard g(m_);
  free_.push_back(ch);
}

std::size_t WorkerChanPool::allocated() const {
  std::lock_guard g(m_);
  return all_.size();
}

}  // namespace poolscope::fasthttp
