// Redis' threaded I/O and bio: defaults, log texts and the rules their trace
// events name, in one place. Each label's text is the one-line "why" the GUI
// shows on hover; the log texts keep Redis' words.
#pragma once

#include <cstdint>

#include "pools/core/labels.h"

namespace poolscope::redis {

// networking.c
inline constexpr int IO_THREADS_MAX_NUM = 128;
inline constexpr int IO_THREADS_OP_IDLE = 0;
inline constexpr int IO_THREADS_OP_READ = 1;
inline constexpr int IO_THREADS_OP_WRITE = 2;
// IOThreadMain's "Wait for start" loop: reads of its pending count before it
// gives the main thread a chance to stop it; bare seq_cst loads, 0.23 ms for
// the million on this project's machine (kBareReadPicos in pools/core/spin.h).
inline constexpr std::int64_t kIOThreadSpins = 1000000;
// config.c: io-threads 1..128, default 1 ("Single threaded by default"); hz
// (server.h CONFIG_DEFAULT_HZ, CONFIG_MIN_HZ, CONFIG_MAX_HZ).
inline constexpr int kDefaultIOThreads = 1;
inline constexpr int CONFIG_DEFAULT_HZ = 10;
inline constexpr int CONFIG_MIN_HZ = 1;
inline constexpr int CONFIG_MAX_HZ = 500;

// bio.h
inline constexpr int BIO_CLOSE_FILE = 0;  // Deferred close(2) syscall.
inline constexpr int BIO_AOF_FSYNC = 1;   // Deferred AOF fsync.
inline constexpr int BIO_LAZY_FREE = 2;   // Deferred objects freeing.
inline constexpr int BIO_NUM_OPS = 3;

// The texts Redis logs, verbatim.
namespace text {
inline constexpr const char* kTooManyIOThreads =
    "Fatal: too many I/O threads configured. The maximum number is %d.";
inline constexpr const char* kCantInitIOThread = "Fatal: Can't initialize IO thread.";
inline constexpr const char* kCantInitBio = "Fatal: Can't initialize Background Jobs.";
inline constexpr const char* kBioWrongType = "Warning: bio thread started with wrong type %lu";
}  // namespace text

namespace rules {
// Threaded I/O: where a client's write goes.
extern const Label kPendingWrite;     // queued: putClientInPendingWriteQueue, at the head of clients_pending_write
extern const Label kSingleThreaded;   // handoff: io-threads 1, the main thread writes every client
extern const Label kBelowThreshold;   // handoff: fewer than 2 x io-threads pending, the main thread writes them all
extern const Label kRoundRobin;       // handoff: item_id % io_threads_num, slot 0 being the main thread
extern const Label kMainThread;       // spawn: the main thread, slot 0, the event loop itself
extern const Label kIOThread;         // spawn: initThreadedIO starts io-threads - 1 threads, parked
extern const Label kIOThreadSpin;     // idle: the list is done; the thread spins on its pending count
extern const Label kIOThreadPark;     // idle: the spin ended with nothing to do; it blocks on the mutex the main thread holds
extern const Label kStartThreadedIO;  // pool state: the main thread unlocks every I/O thread's mutex
extern const Label kStopThreadedIO;   // pool state: beforeSleep found too few pending; the main thread locks the mutexes
extern const Label kCronStop;         // pool state: serverCron's stopThreadedIOIfNeeded did the same
extern const Label kBarrier;          // pool state: the main thread spun until every pending count was 0; arg = ns spun
extern const Label kReadBarrier;      // pool state: the same after a threaded read; arg = ns spun, arg2 = clients read
extern const Label kShutdown;         // exit / dropped: C++: Redis never joins its I/O threads
// bio
extern const Label kBioInit;        // spawn: bioInit starts one thread per job type
extern const Label kBioJobs[BIO_NUM_OPS];  // queued: at the tail of that type's list
extern const Label kBioHead;        // handoff: the thread takes the head (it stays listed until done)
extern const Label kBioNewJobCond;  // idle: the list is empty, wait on bio_newjob_cond
}  // namespace rules

}  // namespace poolscope::redis
