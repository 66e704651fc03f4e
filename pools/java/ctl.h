// ctl: ThreadPoolExecutor's one atomic int. Its high 3 bits hold the run
// state and its low 29 bits the worker count ("workers permitted to start
// and not permitted to stop", which may briefly differ from the number of
// live threads), so execute, addWorker and getTask check both and change the
// count with a single compare-and-set.
//
// The run states, in the order comparisons rely on (they only increase):
//   RUNNING     accepts new tasks and runs queued ones
//   SHUTDOWN    accepts none, still runs the queued ones     (shutdown())
//   STOP        accepts none, runs none, interrupts workers  (shutdownNow())
//   TIDYING     no workers, empty queue: terminated() runs
//   TERMINATED  terminated() has returned
//
// The transitions, as the JDK lists them:
//   RUNNING -> SHUTDOWN               on shutdown()
//   (RUNNING or SHUTDOWN) -> STOP     on shutdownNow()
//   SHUTDOWN -> TIDYING               when queue and pool are empty
//   STOP -> TIDYING                   when pool is empty
//   TIDYING -> TERMINATED             when terminated() returns
// awaitTermination() returns when the state reaches TERMINATED.
#pragma once

namespace poolscope::java {

inline constexpr int COUNT_BITS = 29;  // Integer.SIZE - 3
inline constexpr int COUNT_MASK = (1 << COUNT_BITS) - 1;

inline constexpr int RUNNING = -1 << COUNT_BITS;
inline constexpr int SHUTDOWN = 0 << COUNT_BITS;
inline constexpr int STOP = 1 << COUNT_BITS;
inline constexpr int TIDYING = 2 << COUNT_BITS;
inline constexpr int TERMINATED = 3 << COUNT_BITS;

// Packing and unpacking ctl.
constexpr int runStateOf(int c) { return c & ~COUNT_MASK; }
constexpr int workerCountOf(int c) { return c & COUNT_MASK; }
constexpr int ctlOf(int rs, int wc) { return rs | wc; }

// Comparisons that need no unpacking: the state is in the high bits.
constexpr bool runStateLessThan(int c, int s) { return c < s; }
constexpr bool runStateAtLeast(int c, int s) { return c >= s; }
constexpr bool isRunning(int c) { return c < SHUTDOWN; }

}  // namespace poolscope::java
