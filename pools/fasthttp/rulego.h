// rulego's copy of this pool, and what rulego's engine does when it refuses
// (the `flavor=rulego` of the fasthttp design; docs/pools/fasthttp.md,
// "rulego"). Read at github.com/rulego/rulego v0.37.0:
// - WorkerPool: utils/pool/workerpool.go (pool/workerpool.go before v0.32),
//   "inspired by" fasthttp's workerpool.go. Its rules are fasthttp's
//   (worker_pool.h); two changes show: Start's body runs once (startOnce,
//   line 169), and Submit (line 390) returns errors.New("no idle workers")
//   where Serve returns false.
// - DefaultRuleContext::SubmitTask: engine/rule_context.go, lines 623-636.
//   When the pool's Submit fails, rulego v0.31.3 to v0.37.0 logs
//   "SubmitTask error:%s, fallback to goroutine" and runs `go task()`: the
//   task runs anyway, outside the pool. v0.18.0 to v0.31.2 logged
//   "SubmitTask error:%s" and the task never ran (Fallback::none).
// Where C++ differs:
// - `go task()` is a thread of a go::ThreadGroup, joined at shutdown; the
//   trace shows it as a worker of its own (spawned, handed the task, exits
//   with it: rule fallback-goroutine), so every task is accounted for.
// - SubmitTask returns what became of the task; Go's returns nothing.
#pragma once

#include <atomic>
#include <expected>

#include "pools/core/go/once.h"
#include "pools/core/go/thread_group.h"
#include "pools/fasthttp/worker_pool.h"

namespace poolscope::fasthttp::rulego {

// What the engine does with a task the pool refused: the rulego version.
enum class Fallback {
  goroutine,  // v0.31.3 to v0.37.0 (current): go task()
  none,       // v0.18.0 to v0.31.2: logged, and lost
};

// Submit's error: errors.New("no idle workers").
extern const Label kErrNoIdleWorkers;
// The engine's go task(): the spawn, the hand-off, and the end of the goroutine.
extern const Label kFallbackGoroutine;
extern const Label kGoroutineDone;

// rulego's WorkerPool: fasthttp's workerPool with Submit(fn) error.
class WorkerPool {
 public:
  WorkerPool(Config config, const TraceTarget& target) : wp(config, target) {}

  // `if wp.stopCh != nil { return }; wp.startOnce.Do(...)`: after Stop, Start
  // does nothing, so no cleaner runs again (fasthttp's starts a new one).
  void Start() {
    startOnce.Do([&] { wp.start(); });
  }
  void Stop() { wp.stop(); }  // Release() is the same
  // Hands `job` to a worker (getCh), or returns errors.New("no idle workers")
  // and leaves `job` to the caller. Nothing is traced for a refusal: what
  // becomes of the task is the engine's choice (SubmitTask).
  std::expected<void, Label> Submit(Job& job);

  void join() { wp.join(); }  // C++: as fasthttp's
  Counters state() const { return wp.state(); }
  PoolTrace& trace() { return wp.trace(); }
  const PoolTrace& trace() const { return wp.trace(); }

 private:
  fasthttp::WorkerPool wp;
  go::Once startOnce;
};

// The part of rulego's DefaultRuleContext that submits a node's task.
class DefaultRuleContext {
 public:
  DefaultRuleContext(WorkerPool& pool, Fallback fallback) : pool(&pool), fallback_(fallback) {}
  ~DefaultRuleContext() { join(); }

  // Submits `task` to the pool; if the pool refuses it, runs it on a
  // goroutine of its own (Fallback::goroutine) or loses it (Fallback::none:
  // the error is Submit's, traced as the task's refusal).
  std::expected<void, Label> SubmitTask(Task task);

  // C++: waits for every fallback goroutine to end (Go waits for none).
  void join() { goroutines_.wait(); }
  // C++: fallback goroutines alive (each is running its task).
  std::uint32_t goroutines() const { return alive_.load(std::memory_order_relaxed); }

 private:
  WorkerPool* pool;
  const Fallback fallback_;
  go::ThreadGroup goroutines_;
  std::atomic<std::uint32_t> alive_{0};
};

}  // namespace poolscope::fasthttp::rulego
