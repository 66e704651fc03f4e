// fasthttp's defaults and the rules its trace events name, in one place (as
// ants keeps its errors and defaults in ants.go). Each label's text is the
// one-line "why" the GUI shows on hover.
#pragma once

#include <chrono>

#include "pools/core/labels.h"

namespace poolscope::fasthttp {

// getMaxIdleWorkerDuration: a MaxIdleWorkerDuration <= 0 means 10 s.
inline constexpr std::chrono::nanoseconds kDefaultMaxIdleWorkerDuration = std::chrono::seconds(10);
// fasthttp's Server uses DefaultConcurrency = 256 * 1024 when Concurrency <= 0:
// a limit goroutines can afford and a classroom's OS threads cannot. poolscope
// keeps it as the upper bound and defaults to a number of lanes one can watch.
inline constexpr int kDefaultConcurrency = 256 * 1024;
inline constexpr int kDefaultMaxWorkersCount = 16;

// getCh's three outcomes.
extern const Label kReadyStackPop;  // handoff to the most recently released worker
extern const Label kNewWorker;      // spawn, and handoff to the new worker
extern const Label kNoIdleWorkers;  // refusal: no ready worker and MaxWorkersCount running
// release: back on the ready stack.
extern const Label kReadyStack;
// clean: a reap, and the pass that did it.
extern const Label kCleanerPass;
// Start and Stop.
extern const Label kStartCleaner;  // pool state: the cleaner runs
extern const Label kStopReady;     // reap: Stop sends nil to every ready worker
extern const Label kMustStop;      // pool state: mustStop set; exit: release saw it
// The other way a worker leaves its loop.
extern const Label kNilReceived;

}  // namespace poolscope::fasthttp
