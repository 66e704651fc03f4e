// A shared_ptr that one thread replaces while others read it: Java's
// volatile reference field (ThreadPoolExecutor's handler and threadFactory),
// set rarely, read on every rejection or new worker.
//
// Not std::atomic<std::shared_ptr>: libstdc++ 12's load() releases its
// internal lock bit with a relaxed store, so a later store's write is not
// ordered after the load's read, a data race by the memory model, which
// ThreadSanitizer reports (the chaos test found it, tuning Java's handler
// while its submitters were refused). A std::mutex held only to copy the
// pointer is correct and, with no wait inside it, never a simulation's
// scheduling point: a simulated thread cannot be switched out holding it.
#pragma once

#include <memory>
#include <mutex>

namespace poolscope {

template <class T>
class SharedSetting {
 public:
  explicit SharedSetting(std::shared_ptr<T> value) : value_(std::move(value)) {}
  SharedSetting(const SharedSetting&) = delete;
  SharedSetting& operator=(const SharedSetting&) = delete;

  std::shared_ptr<T> load() const {
    std::lock_guard g(m_);
    return value_;
  }
  void store(std::shared_ptr<T> value) {
    {
      std::lock_guard g(m_);
      value_.swap(value);
    }
    // The old value is released here, outside the lock.
  }

 private:
  mutable std::mutex m_;
  std::shared_ptr<T> value_;
};

}  // namespace poolscope
