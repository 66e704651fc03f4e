// The browser's stuck watch: none (stuck_watch.h).
#include "pools/core/sim/stuck_watch.h"

namespace poolscope::sim {

struct StuckWatch::Watcher {};

StuckWatch::StuckWatch(const World&) {}
StuckWatch::~StuckWatch() = default;

}  // namespace poolscope::sim
