// Go's sync.Pool, the part pool ports use: Get() returns a free object, or a
// new one from New(); Put() gives one back for reuse. ants keeps its worker
// objects in one (workerCache), fasthttp its workerChans (workerChanPool).
//
// C++: a sync.Pool owns nothing (the GC does, and may drop free objects at
// any time); this one owns every object it ever made until it dies, so an
// object never moves and a thread still finishing with one it Put back is
// safe. It therefore holds as many objects as were ever out at once.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>

#include <vector>

#include "pools/core/sync.h"

namespace poolscope::go {

template <class T>
class SyncPool {
 public:
  // Makes an object when none is free.
  std::function<std::unique_ptr<T>()> New;

  T* Get() {
    std::lock_guard g(m_);
    if (!free_.empty()) {
      T* x = free_.back();
      free_.pop_back();
      return x;
    }
    all_.push_back(New());
    free_.reserve(all_.size());  // so that Put never allocates
    return all_.back().get();
  }

  void Put(T* x) {
    std::lock_guard g(m_);
    free_.push_back(x);
  }

  // C++: how many objects New has made.
  std::size_t allocated() const {
    std::lock_guard g(m_);
    return all_.size();
  }
  // C++: how many objects are free for Get().
  std::size_t free_count() const {
    std::lock_guard g(m_);
    return free_.size();
  }

 private:
  mutable Mutex m_;
  std::vector<std::unique_ptr<T>> all_;
  std::vector<T*> free_;
};

}  // namespace poolscope::go
