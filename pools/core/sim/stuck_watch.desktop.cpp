// The desktop's stuck watch: a watcher thread (stuck_watch.h).
#include "pools/core/sim/stuck_watch.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>

#include "pools/core/duration.h"
#include "pools/core/sim/world.h"

namespace poolscope::sim {

struct StuckWatch::Watcher {
  Watcher(const World& w, int tid) : world(w), os_tid(tid) {}
  const World& world;
  const int os_tid;  // the World's OS thread
  std::mutex m;
  std::condition_variable cv;  // ends the wait at once when the watch ends
  bool watching = true;
  std::thread thread;

  void watch();
  [[noreturn]] void report(const VThread& t, std::chrono::steady_clock::duration stuck);
};

StuckWatch::StuckWatch(const World& world)
    : watcher_(std::make_unique<Watcher>(world, static_cast<int>(syscall(SYS_gettid)))) {
  watcher_->thread = std::thread([w = watcher_.get()] { w->watch(); });
}

StuckWatch::~StuckWatch() {
  {
    std::lock_guard g(watcher_->m);
    watcher_->watching = false;
  }
  watcher_->cv.notify_all();
  watcher_->thread.join();
}

void StuckWatch::Watcher::watch() {
  std::uint64_t last = world.switches();
  auto since = std::chrono::steady_clock::now();
  std::unique_lock lock(m);
  while (watching) {
    cv.wait_for(lock, std::chrono::milliseconds(50));
    if (!watching) break;
    std::uint64_t s = world.switches();
    const VThread* t = world.running();
    if (s != last || !t) {
      last = s;
      since = std::chrono::steady_clock::now();
      continue;
    }
    auto stuck = std::chrono::steady_clock::now() - since;
    if (stuck >= world.settings().stuck_after) report(*t, stuck);
  }
}

// Reported, then the process exits, since the stuck code cannot be unwound.
void StuckWatch::Watcher::report(const VThread& t, std::chrono::steady_clock::duration stuck) {
  // R: running in user space (a busy-wait); S or D: asleep in the kernel.
  char os_state = '?';
  std::ifstream stat("/proc/self/task/" + std::to_string(os_tid) + "/stat");
  std::string line;
  if (std::getline(stat, line)) {
    auto close = line.rfind(')');
    if (close != std::string::npos && close + 2 < line.size()) os_state = line[close + 2];
  }
  const char* where = world.running_where();
  std::string why =
      os_state == 'R' ? "it is running: a busy-wait on something the simulation cannot see (a plain atomic or "
                        "variable); spin with spin_until or poolscope::this_thread::yield"
                      : "it is blocked in the kernel: a primitive the simulation does not own (std::mutex, "
                        "std::condition_variable, sleep_for, I/O); use poolscope::Mutex, CondVar and the Clock";
  std::fprintf(stderr,
               "poolscope: simulation stuck: thread '%s'%s%s ran %.1f s of wall time without reaching a "
               "scheduling point, at virtual time %s (seed %llu); its last point was %s; %s\n",
               t.name.c_str(), t.group.empty() ? "" : " of ", t.group.c_str(),
               std::chrono::duration<double>(stuck).count(), format_duration(world.now()).c_str(),
               static_cast<unsigned long long>(world.settings().seed), where ? where : "its start", why.c_str());
  std::fflush(stderr);
  std::_Exit(3);
}

}  // namespace poolscope::sim
