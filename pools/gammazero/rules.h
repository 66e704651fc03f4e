// The rules gammazero's trace events name, each with the one-line "why" the
// GUI shows on hover, and its one error (workerpool.go: ErrStopped).
#pragma once

#include <system_error>

#include "pools/core/labels.h"

namespace poolscope::gammazero {

// Go: var ErrStopped = errors.New("submitting work to stopped workerpool")
enum Error { ErrStopped = 1 };
const std::error_category& error_category();
std::error_code make_error_code(Error e);

namespace rules {
// Where a task went.
extern const Label kReadyWorker;   // handoff: a worker was waiting on workerQueue
extern const Label kNewWorker;     // spawn and handoff: fewer than maxWorkers run
extern const Label kWaitingQueue;  // queued: maxWorkers run, none ready
extern const Label kBehindQueue;   // queued: tasks already wait, the new one goes behind them
extern const Label kQueueHead;     // handoff: a ready worker gets the head of the waiting queue
extern const Label kWorkerQueue;   // idle: the worker waits on workerQueue
// The idle timer.
extern const Label kIdleTick;       // reap: no task for a whole idle timeout
extern const Label kTickAfterTask;  // cleaner pass: a task came in the last period; nobody stops
// Stopping.
extern const Label kStopNil;     // exit: stopping, the dispatcher sends nil to each ready worker
extern const Label kAbandoned;   // dropped: Stop leaves the waiting queue unrun
extern const Label kErrStopped;  // refusal: ErrStopped
// States.
extern const Label kStop;
extern const Label kStopWait;
extern const Label kPause;
extern const Label kResume;
}  // namespace rules

}  // namespace poolscope::gammazero

template <>
struct std::is_error_code_enum<poolscope::gammazero::Error> : std::true_type {};
