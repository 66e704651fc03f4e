#include "pools/fasthttp/rulego.h"

#include <string>
#include <system_error>

namespace poolscope::fasthttp::rulego {

const Label kErrNoIdleWorkers = intern_label(
    "no-idle-workers",
    "rulego Submit: no ready worker and MaxWorkersCount running; it returns errors.New(\"no idle workers\"), and the "
    "engine (v0.18.0 to v0.31.2) logs \"SubmitTask error:%s\": the task never runs");
const Label kFallbackGoroutine = intern_label(
    "fallback-goroutine",
    "rulego SubmitTask (v0.31.3 on): the pool refused (\"no idle workers\"), so the engine logs \"SubmitTask "
    "error:%s, fallback to goroutine\" and runs go task(), outside the pool");
const Label kGoroutineDone =
    intern_label("goroutine-done", "rulego SubmitTask's fallback goroutine ends with its task");

std::expected<void, Label> WorkerPool::Submit(Job& job) {
  auto ch = wp.getCh(job.id);
  if (!ch) return std::unexpected(ch.error() == fasthttp::kNoIdleWorkers ? kErrNoIdleWorkers : ch.error());
  (*ch)->ch.send(std::move(job));  // ch.ch <- fn
  return {};
}

std::expected<void, Label> DefaultRuleContext::SubmitTask(Task task) {
  PoolTrace& trace = pool->trace();
  Job job{trace.submitted(), std::move(task)};
  auto err = pool->Submit(job);
  if (err) return {};
  if (fallback_ == Fallback::none) {  // logger.Printf("SubmitTask error:%s", err)
    trace.refused(job.id, err.error());
    return err;
  }
  // logger.Printf("SubmitTask error:%s, fallback to goroutine", err); go task()
  const WorkerId w = trace.new_worker_id();
  trace.spawned(w, kFallbackGoroutine);
  trace.handoff(job.id, w, kFallbackGoroutine);  // before the goroutine can start it
  alive_.fetch_add(1, std::memory_order_relaxed);
  const TaskId id = job.id;
  try {
    goroutines_.go("rulego-go-" + std::to_string(w), [this, &trace, w, job = std::move(job)]() mutable {
      trace.run(w, job);  // C++: catches what the task throws (a panic in Go's goroutine ends the process)
      job = Job{};
      alive_.fetch_sub(1, std::memory_order_relaxed);
      trace.exited(w, kGoroutineDone);
    });
  } catch (const std::system_error&) {
    // C++: a goroutine always starts; a thread may not.
    alive_.fetch_sub(1, std::memory_order_relaxed);
    trace.exited(w, rules::thread_create_failed());
    trace.refused(id, rules::thread_create_failed());
    return std::unexpected(rules::thread_create_failed());
  }
  return {};
}

}  // namespace poolscope::fasthttp::rulego
