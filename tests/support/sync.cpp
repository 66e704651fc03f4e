#include "tests/support/sync.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace poolscope::test {

Event await_event(TraceLog& log, const TraceLog::Pred& pred, const std::string& what) {
  auto e = log.wait_for(pred, kSafetyLimit);
  if (!e) FAIL("no trace event within the safety limit: " << what);
  return *e;
}

void await_count(TraceLog& log, const TraceLog::Pred& pred, std::size_t n, const std::string& what) {
  await_condition(
      [&] {
        log.sync();
        return log.count(pred) >= n;
      },
      what);
}

void await_condition(const std::function<bool()>& cond, const std::string& what) {
  auto deadline = std::chrono::steady_clock::now() + kSafetyLimit;
  while (!cond()) {
    if (std::chrono::steady_clock::now() > deadline) FAIL("condition not reached within the safety limit: " << what);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

namespace {

std::set<long> os_thread_ids() {
  std::set<long> ids;
  std::error_code ec;
  for (auto it = std::filesystem::directory_iterator("/proc/self/task", ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec))
    ids.insert(std::stol(it->path().filename().string()));
  return ids;
}

// The state letter of /proc/self/task/TID/stat ("TID (comm) S ..."; comm may
// hold spaces and parentheses, so look after the last ')'), or '?'.
char thread_state(long tid) {
  std::ifstream in("/proc/self/task/" + std::to_string(tid) + "/stat");
  std::stringstream text;
  text << in.rdbuf();
  const std::string stat = text.str();
  const auto close = stat.rfind(')');
  return close == std::string::npos || close + 2 >= stat.size() ? '?' : stat[close + 2];
}

}  // namespace

OsThreads::OsThreads() {
  std::thread([] {}).join();
  ids_ = os_thread_ids();
}

std::size_t OsThreads::added() const {
  std::size_t n = 0;
  for (long id : os_thread_ids()) n += ids_.count(id) == 0 ? 1 : 0;
  return n;
}

void OsThreads::await_none_added(const std::string& what) const {
  await_condition([&] { return added() == 0; }, what);
}

long current_tid() { return static_cast<long>(::syscall(SYS_gettid)); }

void await_blocked(long tid, const std::string& what) {
  await_condition(
      [&] {
        const char state = thread_state(tid);
        return state == 'S' || state == 'D';
      },
      what + " (its thread asleep in the kernel)");
}

void Gate::open() {
  {
    std::lock_guard g(m_);
    open_ = true;
  }
  cv_.notify_all();
}

bool Gate::is_open() const {
  std::lock_guard g(m_);
  return open_;
}

void Gate::pass() {
  arrived_.fetch_add(1);
  std::unique_lock lock(m_);
  // Not a Catch assertion: this runs on pool threads, where Catch may not report.
  if (!cv_.wait_for(lock, kGateLimit, [&] { return open_; })) std::terminate();
}

std::function<void()> Gate::task() {
  return [this] { pass(); };
}

void Gate::await_arrivals(int n) {
  await_condition([&] { return arrived_.load() >= n; }, std::to_string(n) + " tasks at the gate");
}

}  // namespace poolscope::test
