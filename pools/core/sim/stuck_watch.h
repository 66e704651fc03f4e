// The stuck watch: a thread of a World that runs on without reaching a
// scheduling point (a busy-wait on a plain atomic, a raw std::mutex or
// sleep_for the World cannot see) never gives the World back its OS thread,
// so only another OS thread can see it.
//
//   stuck_watch.desktop.cpp  a watcher thread: after Settings::stuck_after of
//                            wall time without a switch it reports the
//                            thread and exits the process (the stuck code
//                            cannot be unwound)
//   stuck_watch.web.cpp      nothing: a page has no second thread to watch
//                            from (docs/web-engine.md says what that means)
#pragma once

#include <memory>

namespace poolscope::sim {

class World;

class StuckWatch {
 public:
  explicit StuckWatch(const World& world);  // watches from now on
  ~StuckWatch();                            // until destroyed
  StuckWatch(const StuckWatch&) = delete;
  StuckWatch& operator=(const StuckWatch&) = delete;

 private:
  struct Watcher;
  std::unique_ptr<Watcher> watcher_;
};

}  // namespace poolscope::sim
