#include "pools/core/thread.h"

#include <atomic>
#include <filesystem>
#include <mutex>
#include <system_error>
#include <utility>

#include "pools/core/platform.h"
#include "pools/core/scheduler.h"

namespace poolscope {

namespace {
std::atomic<std::size_t> g_live{0};
std::atomic<std::size_t> g_created{0};

// testing::refuse_threads: read on every Thread start, so one relaxed load
// when disarmed.
std::atomic<bool> g_refusing{false};
std::mutex g_refuse_m;
std::string g_refuse_prefix;
std::size_t g_refuse_left = 0;
std::size_t g_refuse_skip = 0;

bool refused(const std::string& name) {
  if (!g_refusing.load(std::memory_order_relaxed)) return false;
  std::lock_guard g(g_refuse_m);
  if (g_refuse_left == 0 || !name.starts_with(g_refuse_prefix)) return false;
  if (g_refuse_skip > 0) {
    --g_refuse_skip;
    return false;
  }
  if (--g_refuse_left == 0) g_refusing.store(false, std::memory_order_relaxed);
  return true;
}
}  // namespace

namespace testing {
void refuse_threads(std::string prefix, std::size_t n, std::size_t skip) {
  std::lock_guard g(g_refuse_m);
  g_refuse_prefix = std::move(prefix);
  g_refuse_left = n;
  g_refuse_skip = skip;
  g_refusing.store(n > 0, std::memory_order_relaxed);
}
}  // namespace testing

Thread::Thread(std::string name, std::move_only_function<void()> body) {
  if (refused(name))
    throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again),
                            "poolscope::testing::refuse_threads");
  g_live.fetch_add(1, std::memory_order_relaxed);
  if (Scheduler* s = this_thread::scheduler()) [[unlikely]] {
    scheduled_ = s->spawn(std::move(name), [body = std::move(body)]() mutable {
      body();
      g_live.fetch_sub(1, std::memory_order_release);
    });
    g_created.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  try {
    t_ = std::thread([name = std::move(name), body = std::move(body)]() mutable {
      platform::name_this_thread(name);
      body();
      g_live.fetch_sub(1, std::memory_order_release);
    });
  } catch (...) {
    g_live.fetch_sub(1, std::memory_order_relaxed);
    throw;
  }
  g_created.fetch_add(1, std::memory_order_relaxed);
}

Thread::Thread(Thread&& other) noexcept
    : t_(std::move(other.t_)), scheduled_(std::exchange(other.scheduled_, nullptr)) {}

Thread& Thread::operator=(Thread&& other) noexcept {
  if (this != &other) {
    join();
    t_ = std::move(other.t_);
    scheduled_ = std::exchange(other.scheduled_, nullptr);
  }
  return *this;
}

Thread::~Thread() { join(); }

void Thread::join() {
  if (scheduled_) {
    // Outside its Scheduler (a World that has ended and abandoned it) there is nothing to join.
    if (Scheduler* s = this_thread::scheduler()) s->join(scheduled_);
    scheduled_ = nullptr;
  }
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
