// The rules weedge's trace events name, each with the one-line "why" the GUI
// and `poolscope describe` show. Its log lines are the texts.
#pragma once

#include "pools/core/labels.h"

namespace poolscope::weedge::rules {
// AddTask
extern const Label kChWorkTask;  // queued: the task is in the shared channel
extern const Label kNotRunning;  // refused: "this worker pool is not a running stat! the stat is %d"
extern const Label kTaskNil;     // refused: "add task Do func is nil" (and the other nil checks)
// Workers
extern const Label kRunMin;          // spawn: Run starts minWorkerNum workers
extern const Label kWatchAddWorker;  // spawn: the watcher took a token and the slot at indexWorkers was free
extern const Label kSlotRunning;     // pool_state: a token came but the slot at indexWorkers counts as running
extern const Label kChWorkTaskRecv;  // handoff: a worker received the task from the channel
extern const Label kTaskTimeOut;     // pool_state: the worker's timer won: ChIsTimeOut <- true, OnTimeOut; Do runs on
extern const Label kNoResult;        // pool_state: the task panicked and no timer can fire: Go's worker waits for ever
extern const Label kDestroyAfterTaskDone;  // exit: channel empty, more than min counted, 30 s since growth
extern const Label kChWorkTaskClosed;      // exit: Stop closed the channel and it is drained: close() the pool
extern const Label kExecuteGoroutineOut;   // exit: close() closed the slot's chExecuteGoroutineOut
extern const Label kWorkerPanic;           // exit: the worker goroutine itself panicked (not the task)
// Stopping
extern const Label kStoping;        // state: Stop began (Stoping, sic)
extern const Label kStop;           // state: close(): Stop, every slot's chExecuteGoroutineOut closed
extern const Label kStopWouldHang;  // state: C++: no worker left to close the pool; Go's Stop would hang
extern const Label kNoLiveWorker;   // dropped: stranded in the channel with no worker alive
extern const Label kShutdownNow;    // dropped: poolscope's shutdown-now empties the channel
extern const Label kSendOnClosed;   // refused: the pool stopped while AddTask was blocked (Go panics)
}  // namespace poolscope::weedge::rules
