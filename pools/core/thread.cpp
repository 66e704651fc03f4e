#include "pools/core/thread.h"

#include <pthread.h>

#include <atomic>
#include <filesystem>

namespace poolscope {

namespace {
std::atomic<std::size_t> g_live{0};
std::atomic<std::size_t> g_created{0};
}  // namespace

Thread::Thread(std::string name, std::move_only_function<void()> body) {
  g_live.fetch_add(1, std::memory_order_relaxed);
  try {
    t_ = std::thread([name = std::move(name), body = std::move(body)]() mutable {
      pthread_setname_np(pthread_self(), name.substr(0, 15).c_str());
      body();
      g_live.fetch_sub(1, std::memory_order_release);
    });
  } catch (...) {
    g_live.fetch_sub(1, std::memory_order_relaxed);
    throw;
  }
  g_created.fetch_add(1, std::memory_order_relaxed);
}

Thread& Thread::operator=(Thread&& other) noexcept {
  if (this != &other) {
    if (t_.joinable()) t_.join();
    t_ = std::move(other.t_);
  }
  return *this;
}

Thread::~Thread() {
  if (t_.joinable()) t_.join();
}

void Thread::join() {
  if (t_.joinable()) t_.join();
}

std::size_t live_threads() { return g_live.load(std::memory_order_acquire); }
std::size_t threads_created() { return g_created.load(std::memory_order_relaxed); }

std::size_t os_thread_count() {
  std::size_t n = 0;
  std::error_code ec;
  for (auto it = std::filesystem::directory_iterator("/proc/self/task", ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec))
    ++n;
  return n;
}

}  // namespace poolscope
