#include "pools/ants/worker_cache.h"

namespace poolscope::ants {

WorkerThread* WorkerCache::Get() {
  std::lock_guard g(m_);
  if (!free_.empty()) {
    WorkerThread* w = free_.back();
    free_.pop_back();
    return w;
  }
  all_.push_back(New());
  free_.reserve(all_.size());  // so Put never allocates
  return all_.back().get();
}

void WorkerCache::Put(WorkerThread* w) {
  std::lock_guard g(m_);
  free_.push_back(w);
}

std::size_t WorkerCache::allocated() const {
  std::lock_guard g(m_);
  return all_.size();
}

}  // namespace poolscope::ants
