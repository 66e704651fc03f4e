#include "pools/redis/rules.h"

namespace poolscope::redis::rules {

const Label kPendingWrite = intern_label(
    "pending-write", "Redis putClientInPendingWriteQueue: the client's reply waits for the next beforeSleep, added "
                     "at the head of clients_pending_write");
const Label kSingleThreaded =
    intern_label("single-threaded", "Redis io-threads 1: the main thread writes every client itself");
const Label kBelowThreshold = intern_label(
    "below-threshold", "Redis stopThreadedIOIfNeeded: fewer than 2 x io-threads clients pending: the main thread "
                       "writes them all, the I/O threads stay parked");
const Label kRoundRobin = intern_label(
    "round-robin", "Redis handleClientsWithPendingWritesUsingThreads: client item_id goes to list item_id % "
                   "io-threads, from the head; list 0 is the main thread's own slice");
const Label kMainThread =
    intern_label("main-thread", "Redis: the main thread runs the event loop and is I/O slot 0");
const Label kIOThread = intern_label(
    "io-thread", "Redis initThreadedIO: io-threads - 1 threads start with the server, their mutexes locked by the "
                 "main thread; never more, never fewer");
const Label kIOThreadSpin = intern_label(
    "io-thread-spin", "Redis IOThreadMain: list done, pending count 0; spin up to 1,000,000 bare reads (about 0.23 "
                      "ms) waiting for the next batch, then again while threaded I/O stays on (a busy CPU, not a "
                      "sleep)");
const Label kIOThreadPark = intern_label(
    "io-thread-park", "Redis IOThreadMain: the spin found nothing; lock and unlock its mutex, which the main thread "
                      "holds while threaded I/O is off: parked");
const Label kStartThreadedIO = intern_label(
    "start-threaded-io", "Redis startThreadedIO: at least 2 x io-threads clients pending: unlock every I/O thread's "
                         "mutex (io_threads_active = 1)");
const Label kStopThreadedIO = intern_label(
    "stop-threaded-io", "Redis stopThreadedIO from beforeSleep: fewer than 2 x io-threads clients pending: lock every "
                        "I/O thread's mutex (io_threads_active = 0)");
const Label kCronStop = intern_label(
    "cron-stop-threaded-io", "Redis serverCron (every 1000/hz ms) called stopThreadedIOIfNeeded: too few clients "
                             "pending, the I/O threads are parked again");
const Label kBarrier = intern_label(
    "barrier", "Redis: after its own slice the main thread busy-waits until every I/O thread's pending count is 0; "
               "arg = ns it spun (CPU burnt), arg2 = clients in the batch");
const Label kReadBarrier = intern_label(
    "read-barrier", "Redis handleClientsWithPendingReadsUsingThreads (io-threads-do-reads): the main thread read its "
                    "slice, then busy-waited for the I/O threads' reads; it executes every command itself next; "
                    "arg = ns spun, arg2 = clients read");
const Label kShutdown = intern_label(
    "shutdown", "poolscope's shutdown: Redis never stops its I/O or bio threads (it exits); here they are joined, and "
                "shutdown-now drops the clients still pending");
const Label kBioInit =
    intern_label("bio-init", "Redis bioInit: one background thread per job type, each with its own list, mutex and "
                             "condition variables; never more, never fewer");
const Label kBioJobs[BIO_NUM_OPS] = {
    intern_label("bio-close-file", "Redis bioCreateCloseJob: appended to the BIO_CLOSE_FILE list (FIFO, unbounded)"),
    intern_label("bio-aof-fsync", "Redis bioCreateFsyncJob: appended to the BIO_AOF_FSYNC list (FIFO, unbounded)"),
    intern_label("bio-lazy-free", "Redis bioCreateLazyFreeJob: appended to the BIO_LAZY_FREE list (FIFO, unbounded)"),
};
const Label kBioHead = intern_label(
    "bio-head", "Redis bioProcessBackgroundJobs: the type's thread takes the head of its list, which stays listed "
                "(and counted by bioPendingJobsOfType) until the job is done");
const Label kBioNewJobCond =
    intern_label("bio-newjob-cond", "Redis bioProcessBackgroundJobs: the list is empty: wait on bio_newjob_cond");

}  // namespace poolscope::redis::rules
