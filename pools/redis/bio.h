// Redis' background I/O threads (redis/redis src/bio.c and bio.h at tag
// 7.0.15; the same shape from 4.0 to 7.0; 7.2 maps job types to workers).
//
// One thread per job type (BIO_CLOSE_FILE, BIO_AOF_FSYNC, BIO_LAZY_FREE),
// each with its own FIFO list, mutex, two condition variables and pending
// count. A job waits behind every earlier job of its type, however long that
// one takes, and never behind a job of another type. The lists are unbounded
// and a submit never fails. The thread takes the head WITHOUT removing it and
// removes it once done, so bioPendingJobsOfType counts the running job too.
//
// Read bio.cpp beside bio.c: the same functions in the same order (bioInit,
// bioSubmitJob, bioCreateLazyFreeJob, bioCreateCloseJob, bioCreateFsyncJob,
// bioProcessBackgroundJobs, bioPendingJobsOfType, bioWaitStepOfType,
// bioKillThreads) and Redis' names. `// C++:` marks where it differs:
// - A job's work is a task: closing a file, an fsync or a lazy free is
//   whatever the task does.
// - Redis never stops its bio threads (bioKillThreads only cancels them when
//   it crashes); here they end and are joined, after their lists are done,
//   or, for shutdown-now, with their waiting jobs dropped.
#pragma once

#include <array>
#include <atomic>
#include <deque>

#include "pools/core/clock.h"
#include "pools/core/pool_trace.h"
#include "pools/core/sync.h"
#include "pools/core/thread.h"
#include "pools/redis/rules.h"

namespace poolscope::redis {

class Bio {
 public:
  // bioInit: one thread per job type. Throws std::system_error if the OS
  // refuses one ("Fatal: Can't initialize Background Jobs."; Redis exits).
  explicit Bio(const TraceTarget& target = {});
  ~Bio();  // bioKillThreads(false) if not done
  Bio(const Bio&) = delete;
  Bio& operator=(const Bio&) = delete;

  // The job constructors; each returns the job's id in the trace.
  TaskId bioCreateLazyFreeJob(Task free_fn);
  TaskId bioCreateCloseJob(Task close);
  TaskId bioCreateFsyncJob(Task fsync);
  TaskId bioSubmitJob(int type, Task job);  // C++: public, for a caller that picks the type

  unsigned long long bioPendingJobsOfType(int type);
  unsigned long long bioWaitStepOfType(int type);

  // C++: the threads finish their lists and end (drop: the jobs not yet
  // started are dropped first), and are joined. Returns the number dropped.
  // Idempotent.
  std::size_t bioKillThreads(bool drop);

  // C++: poolscope's counters: the three threads, those running a job, the
  // jobs not yet started.
  Counters state() const;
  PoolTrace& trace() { return trace_; }
  const PoolTrace& trace() const { return trace_; }

 private:
  void bioProcessBackgroundJobs(int type);

  PoolTrace trace_;
  mutable std::array<Mutex, BIO_NUM_OPS> bio_mutex;
  std::array<CondVar, BIO_NUM_OPS> bio_newjob_cond;
  std::array<CondVar, BIO_NUM_OPS> bio_step_cond;
  std::array<std::deque<Job>, BIO_NUM_OPS> bio_jobs;
  std::array<unsigned long long, BIO_NUM_OPS> bio_pending{};

  // C++: per type, under bio_mutex[type]: the head is running; the thread should end.
  std::array<bool, BIO_NUM_OPS> running_{};
  std::array<bool, BIO_NUM_OPS> exit_{};
  std::array<WorkerId, BIO_NUM_OPS> worker_{};
  std::atomic<std::uint32_t> alive_{0};
  Mutex kill_mtx_;
  bool killed_ = false;
  std::size_t dropped_ = 0;
  std::array<Thread, BIO_NUM_OPS> bio_threads;
};

}  // namespace poolscope::redis
