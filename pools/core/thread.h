// Every thread a pool starts goes through poolscope::Thread: it carries a name
// (visible in gdb, top and perf) and is counted, so tests can prove that a
// destroyed pool left no thread behind. Unlike std::thread, a Thread that is
// still joinable is joined on destruction rather than calling std::terminate.
// Started under a Scheduler (scheduler.h; a simulation), it is one of the
// Scheduler's threads.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <thread>

namespace poolscope {

struct ScheduledThread;

class Thread {
 public:
  Thread() = default;
  // Starts `body` on a new OS thread named `name` (truncated to 15 chars, the
  // Linux limit). Throws std::system_error if the OS refuses a new thread.
  Thread(std::string name, std::move_only_function<void()> body);
  Thread(Thread&& other) noexcept;
  Thread& operator=(Thread&& other) noexcept;
  ~Thread();

  bool joinable() const { return t_.joinable() || scheduled_; }
  void join();

 private:
  std::thread t_;
  // Under a Scheduler the thread is the Scheduler's (a simulation's fiber),
  // started and joined through it.
  ScheduledThread* scheduled_ = nullptr;
};

// Threads started through Thread whose body has not yet returned.
std::size_t live_threads();
// Threads started through Thread since the process began.
std::size_t threads_created();
// Every OS thread of this process right now (/proc/self/task), whoever made it.
std::size_t os_thread_count();

namespace testing {
// For tests of what a design does when the OS refuses a thread: of the
// Threads whose name starts with `prefix`, the next `skip` start and the `n`
// after them are not started: their constructor throws std::system_error
// (EAGAIN) as pthread_create's would. n = 0 disarms it.
void refuse_threads(std::string prefix, std::size_t n, std::size_t skip = 0);
}  // namespace testing

}  // namespace poolscope
