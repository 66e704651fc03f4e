// The rules lab 02's trace names, in fasthttp's words.
#pragma once

#include "pools/core/labels.h"

namespace poolscope::lab02 {

inline const Label kNewWorker =
    intern_label("new-worker", "getCh: no ready worker and fewer than MaxWorkersCount, so a new worker starts");
// The starter's own rule, gone once step 2 is done.
inline const Label kFixedStart = intern_label(
    "fixed-start", "Start: lab 01's fixed threads, every worker started with the pool (step 2: getCh starts them)");
inline const Label kReadyStack = intern_label(
    "ready-stack", "ready: the LIFO stack of idle workers; the last released is reused first, the oldest sink");
inline const Label kConcurrencyLimit = intern_label(
    "concurrency-limit", "Serve returns false: no ready worker and MaxWorkersCount workers run (fasthttp's 503)");
inline const Label kCleanerPass = intern_label(
    "cleaner-pass",
    "clean: every MaxIdleWorkerDuration, stop the ready workers idle longer than that (a binary search, oldest first)");
inline const Label kStop = intern_label("stop", "Stop: idle workers get nil; busy ones exit on their next release");

}  // namespace poolscope::lab02
