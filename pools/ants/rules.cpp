#include "pools/ants/rules.h"

namespace poolscope::ants::rules {

const Label kBelowCapacity = intern_label(
    "below-capacity", "ants retrieveWorker: no idle worker and Running() < Cap(): start one (under the lock)");
const Label kUnlimited =
    intern_label("unlimited", "ants retrieveWorker: no idle worker and the pool is unlimited (size <= 0): start one");
const Label kStackDetach = intern_label(
    "stack-detach", "ants retrieveWorker: the most recently used idle worker, popped off the stack (LIFO)");
const Label kLoopQueueDetach = intern_label(
    "loop-queue-detach", "ants retrieveWorker: the least recently used idle worker, from the ring's head (FIFO)");
const Label kNewWorker = intern_label("new-worker", "ants retrieveWorker: the task goes to the worker just started");
const Label kWorkerStack =
    intern_label("worker-stack", "ants revertWorker: pushed onto the stack of idle workers, stamped by ticktock");
const Label kLoopQueue =
    intern_label("loop-queue", "ants revertWorker: put at the tail of the ring (PreAlloc), stamped by ticktock");
const Label kNonblocking = intern_label(
    "nonblocking", "ants Nonblocking: no idle worker and the pool is full: ErrPoolOverload instead of waiting");
const Label kMaxBlockingTasks =
    intern_label("max-blocking-tasks", "ants MaxBlockingTasks: that many submitters already wait: ErrPoolOverload");
const Label kPurgeTick =
    intern_label("purge-tick", "ants purge ticker: idle since ExpiryDuration or longer at a tick: stopped");
const Label kOverCapacity = intern_label(
    "over-capacity-after-tune", "ants revertWorker: Running() > Cap() (Tune shrank the pool): the worker exits");
const Label kQueueFull = intern_label(
    "queue-full", "ants revertWorker: the ring of idle workers is full (errQueueIsFull): the worker exits");
const Label kPanic = intern_label(
    "panic", "ants: the task threw (Go: panicked): PanicHandler or Logger gets it, and the worker's thread ends");
const Label kNilTask =
    intern_label("nil-task", "ants: submit(nil) is the exit signal: the worker ends without running anything");
const Label kRelease = intern_label(
    "release", "ants Release: closed; idle workers stop, busy ones exit after their task, waiters get ErrPoolClosed");
const Label kReboot = intern_label("reboot", "ants Reboot: the closed pool opens again; purge and ticktock restart");
const Label kDormant = intern_label(
    "dormant", "ants purge: every worker was stale while submitters wait: Broadcast, so they start new workers");
const Label kSize = intern_label(
    "size", "ants Tune: the capacity; growing wakes one or all waiters, shrinking trims workers at revertWorker");

}  // namespace poolscope::ants::rules
