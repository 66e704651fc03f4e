// bio.c, in its order. Index:
//   bioInit                    one thread per job type
//   bioSubmitJob               lock, append at the tail, pending++, signal
//   bioCreate{LazyFree,Close,Fsync}Job
//   bioProcessBackgroundJobs   a type's thread: wait while empty, run the head, then remove it
//   bioPendingJobsOfType       the running job included
//   bioWaitStepOfType          wait for one job of the type to finish
//   bioKillThreads             C++: the orderly end
#include "pools/redis/bio.h"

#include <stdexcept>
#include <string>
#include <system_error>

namespace poolscope::redis {

using namespace rules;

namespace {
// redis_set_thread_title's names (15 characters at most, as Linux allows).
constexpr const char* kThreadNames[BIO_NUM_OPS] = {"bio_close_file", "bio_aof_fsync", "bio_lazy_free"};
}  // namespace

Bio::Bio(const TraceTarget& target) : trace_(target, "redis-bio") {
  // C++: REDIS_THREAD_STACK_SIZE (4 MiB) is the OS's default stack here.
  for (int j = 0; j < BIO_NUM_OPS; j++) {
    worker_[j] = trace_.new_worker_id();
    alive_++;
    trace_.spawned(worker_[j], kBioInit);
    try {
      bio_threads[j] = Thread(kThreadNames[j], [this, j] { bioProcessBackgroundJobs(j); });
    } catch (const std::system_error&) {
      // "Fatal: Can't initialize Background Jobs." and Redis exits. C++: the
      // threads already started end, and the constructor throws.
      alive_--;
      trace_.exited(worker_[j], poolscope::rules::thread_create_failed());
      for (int k = j; k < BIO_NUM_OPS; k++) exit_[k] = true;  // no thread to end
      bioKillThreads(false);
      throw;
    }
  }
}

Bio::~Bio() { bioKillThreads(false); }

TaskId Bio::bioSubmitJob(int type, Task fn) {
  // C++: Redis calls a job's NULL free_fn in the bio thread and crashes;
  // refused here, before it is counted.
  if (!fn) throw std::invalid_argument("redis: bioSubmitJob needs a job");
  Job job{trace_.submitted(), std::move(fn)};
  const TaskId id = job.id;
  std::lock_guard g(bio_mutex[type]);
  if (exit_[type]) {  // C++: a killed bio takes no more jobs
    trace_.refused(id, kShutdown);
    return 0;
  }
  bio_jobs[type].push_back(std::move(job));
  bio_pending[type]++;
  trace_.queued(id, kBioJobs[type], static_cast<std::int64_t>(bio_pending[type]));
  bio_newjob_cond[type].notify_one();
  return id;
}

TaskId Bio::bioCreateLazyFreeJob(Task free_fn) { return bioSubmitJob(BIO_LAZY_FREE, std::move(free_fn)); }
TaskId Bio::bioCreateCloseJob(Task close) { return bioSubmitJob(BIO_CLOSE_FILE, std::move(close)); }
TaskId Bio::bioCreateFsyncJob(Task fsync) { return bioSubmitJob(BIO_AOF_FSYNC, std::move(fsync)); }

void Bio::bioProcessBackgroundJobs(int type) {
  // (A thread started with a type >= BIO_NUM_OPS logs "Warning: bio thread
  // started with wrong type %lu"; bioInit never starts one.)
  const WorkerId w = worker_[type];
  std::unique_lock lk(bio_mutex[type]);
  for (;;) {
    // The loop always starts with the lock held.
    if (bio_jobs[type].empty()) {
      if (exit_[type]) break;  // C++: the orderly end, once the list is done
      trace_.idle(w, kBioNewJobCond);
      bio_newjob_cond[type].wait(lk);
      continue;
    }
    // Take the job from the queue, but leave it listed until it is done.
    Job& job = bio_jobs[type].front();
    running_[type] = true;
    trace_.handoff(job.id, w, kBioHead, true);
    // It is now possible to unlock the background system as we know have a
    // stand alone job structure to process.
    lk.unlock();

    // Process the job accordingly to its type. C++: the job is the task.
    trace_.run(w, job);  // C++: a task that throws is traced as threw; the thread goes on
    job.fn = nullptr;

    // Lock again before reiterating the loop, if there are no longer jobs to
    // process we'll block again in the condition wait.
    lk.lock();
    bio_jobs[type].pop_front();
    bio_pending[type]--;
    running_[type] = false;

    // Unblock threads blocked on bioWaitStepOfType() if any.
    bio_step_cond[type].notify_all();
  }
  lk.unlock();
  alive_--;
  trace_.exited(w, kShutdown);
}

unsigned long long Bio::bioPendingJobsOfType(int type) {
  std::lock_guard g(bio_mutex[type]);
  return bio_pending[type];
}

unsigned long long Bio::bioWaitStepOfType(int type) {
  std::unique_lock lk(bio_mutex[type]);
  unsigned long long val = bio_pending[type];
  if (val != 0) {
    bio_step_cond[type].wait(lk);
    val = bio_pending[type];
  }
  return val;
}

std::size_t Bio::bioKillThreads(bool drop) {
  std::lock_guard k(kill_mtx_);
  if (!killed_) {
    killed_ = true;
    for (int j = 0; j < BIO_NUM_OPS; j++) {
      std::lock_guard g(bio_mutex[j]);
      if (drop) {
        // The head stays if it is running; every job behind it is dropped.
        auto& jobs = bio_jobs[j];
        const std::size_t keep = running_[j] ? 1 : 0;
        for (std::size_t i = keep; i < jobs.size(); i++) trace_.dropped(jobs[i].id, kShutdown);
        dropped_ += jobs.size() - keep;
        bio_pending[j] -= jobs.size() - keep;
        jobs.erase(jobs.begin() + static_cast<std::ptrdiff_t>(keep), jobs.end());
      }
      exit_[j] = true;
      bio_newjob_cond[j].notify_all();
      bio_step_cond[j].notify_all();
    }
  }
  // C++: Redis cancels and joins ("Bio thread for job type #%d terminated").
  for (Thread& t : bio_threads)
    if (t.joinable()) t.join();
  return dropped_;
}

Counters Bio::state() const {
  Counters c{.workers = alive_.load()};
  for (int j = 0; j < BIO_NUM_OPS; j++) {
    std::lock_guard g(bio_mutex[j]);
    c.busy += running_[j] ? 1 : 0;
    c.queued += static_cast<std::uint32_t>(bio_jobs[j].size()) - (running_[j] ? 1 : 0);
  }
  return c;
}

}  // namespace poolscope::redis
