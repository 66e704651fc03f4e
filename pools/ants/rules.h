// The rules of ants that the trace names: why a worker was started, which
// idle worker a task went to, where a worker waits, why a submit was refused,
// why a worker's thread ended, what a purge tick did. Each is a label with a
// short code and the one-line "why" the GUI shows on hover.
#pragma once

#include "pools/core/labels.h"

namespace poolscope::ants::rules {

// retrieveWorker: a new worker, and why one could be started.
extern const Label kBelowCapacity;
extern const Label kUnlimited;
// retrieveWorker: which worker took the task.
extern const Label kStackDetach;
extern const Label kLoopQueueDetach;
extern const Label kNewWorker;
// revertWorker: where the idle worker waits.
extern const Label kWorkerStack;
extern const Label kLoopQueue;
// retrieveWorker: ErrPoolOverload, and which option caused it.
extern const Label kNonblocking;
extern const Label kMaxBlockingTasks;
// Why a worker's thread ended (and what reaped it).
extern const Label kPurgeTick;
extern const Label kOverCapacity;
extern const Label kQueueFull;
extern const Label kPanic;
extern const Label kNilTask;
// The pool: release (also why workers end), reboot, the dormant broadcast,
// and Tune's parameter.
extern const Label kRelease;
extern const Label kReboot;
extern const Label kDormant;
extern const Label kSize;

}  // namespace poolscope::ants::rules
