#include "pools/fasthttp/rules.h"

namespace poolscope::fasthttp {

const Label kReadyStackPop =
    intern_label("ready-stack-pop", "fasthttp getCh: pop the most recently released worker off the ready stack (LIFO)");
const Label kNewWorker =
    intern_label("new-worker", "fasthttp getCh: no ready worker and workersCount < MaxWorkersCount: start one");
const Label kNoIdleWorkers = intern_label(
    "no-idle-workers",
    "fasthttp getCh: no ready worker and MaxWorkersCount running; no queue, so Serve returns false (HTTP 503)");
const Label kReadyStack =
    intern_label("ready-stack", "fasthttp release: lastUseTime stamped, pushed on top of the ready stack");
const Label kCleanerPass =
    intern_label("cleaner-pass",
                 "fasthttp clean: every MaxIdleWorkerDuration, stop the workers idle longer than that, oldest first");
const Label kStartCleaner =
    intern_label("start-cleaner", "fasthttp Start: the cleaner starts, its first pass at once (mustStop is not reset)");
const Label kStopReady = intern_label("stop-ready", "fasthttp Stop: every ready (idle) worker is sent nil");
const Label kMustStop =
    intern_label("must-stop", "fasthttp Stop set mustStop: a worker finishing a task exits instead of going idle");
const Label kNilReceived =
    intern_label("nil-received", "fasthttp workerFunc: got nil on its channel (from clean or Stop): the loop ends");

}  // namespace poolscope::fasthttp
