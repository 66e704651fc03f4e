// bytedance/gopkg util/gopool (pool.go, worker.go, config.go, gopool.go at
// c97c000, tag v0.1.3; gopool itself last changed in 7f5f1de, 2023-05): a
// drop-in for the `go` statement. CtxGo appends the task to a linked list
// under a lock and starts a worker when the list holds at least
// ScaleThreshold tasks and fewer than cap workers run, or when none run. A
// worker pops tasks until the list is empty and then exits at once: gopool
// never keeps an idle worker, so it has no clock, no timer and no reaper.
// The cap limits how many workers run, never how many tasks wait: nothing is
// ever refused, and the list has no bound.
//
// clang-format off
//   gopool::pool p("svc", 100, gopool::NewConfig());   // Go: p := gopool.NewPool("svc", 100, gopool.NewConfig())
//   p.Go([] { ... });                                  // Go: p.Go(func() { ... })
//   p.CtxGo(ctx, [] { ... });                          // Go: p.CtxGo(ctx, func() { ... })
// clang-format on
//
// Read pool.cpp beside pool.go and worker.cpp beside worker.go: the same
// functions in the same order, the same field names; what C++ adds ends in
// an underscore. Where C++ differs, a `// C++:` comment says so; in short:
// goroutines are threads (a refused thread gives the task back to the list;
// the next CtxGo, which then sees no worker, starts one; the caller pays for
// a thread start, not for joining the exited ones), a panic is a thrown
// exception, Go's context is a std::any, and poolscope's shutdown (gopool
// has none: its pools live as long as the program) waits for the list to
// drain, or drops it.
#pragma once

#include <any>
#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <string>

#include "pools/core/go/thread_group.h"
#include "pools/core/pool_trace.h"
#include "pools/core/sync.h"
#include "pools/core/task.h"
#include "pools/gopool/config.h"
#include "pools/gopool/rules.h"

namespace poolscope::gopool {

// C++: Go's context.Context, which gopool only carries to the panic handler
// and the logger (it never cancels anything with it).
using Context = std::any;
inline Context Background() { return {}; }  // context.Background()

// func(context.Context, interface{}): what recover() returned is the exception.
using PanicHandler = std::function<void(const Context&, std::exception_ptr)>;
// C++: logger.CtxErrorf, injectable so that tests and the registry can keep quiet.
using Logger = std::function<void(const Context&, const std::string&)>;
void defaultLogger(const Context& ctx, const std::string& msg);  // to stderr, as gopkg's default logger

class worker;

// The task node: taken from taskPool (a sync.Pool), linked on the list,
// recycled once run.
struct task {
  Context ctx;
  Job f;  // C++: Go's func(), with the trace id CtxGo gave it
  task* next = nullptr;

  void zero();
  void Recycle();
};

class pool {
 public:
  // NewPool creates a new pool with the given name, cap and config.
  pool(std::string name, std::int32_t cap, Config config, const TraceTarget& target = {});
  // C++: Go's pools are never stopped (the default one lives as long as the
  // program); a C++ object must join its threads, so this waits until the
  // workers have drained the list and exited.
  ~pool();
  pool(const pool&) = delete;
  pool& operator=(const pool&) = delete;

  // Name returns the corresponding pool name.
  const std::string& Name() const { return name; }
  // SetCap sets the goroutine capacity of the pool. An atomic store: it
  // stops no worker and starts none.
  void SetCap(std::int32_t cap);
  // Go executes f.
  void Go(Task f) { CtxGo(Background(), std::move(f)); }
  // CtxGo executes f and accepts the context.
  void CtxGo(Context ctx, Task f);
  // SetPanicHandler sets the panic handler. C++: call it before the first
  // task (Go's is an unsynchronised write too).
  void SetPanicHandler(PanicHandler f) { panicHandler = std::move(f); }
  // WorkerCount returns the number of running workers.
  std::int32_t WorkerCount() const { return workerCount.load(); }

  // C++: poolscope's shutdown; gopool has none. graceful: no more tasks
  // come, and this waits until the workers have emptied the list (they exit
  // by themselves). now: the tasks still on the list are dropped first.
  // Returns the number dropped. Call once, after the last CtxGo has returned.
  int shutdown_(bool now);

  // C++: the state poolscope reports. A gopool worker is never idle: it is
  // running a task or on its way out, so busy = workers.
  Counters counters_() const;
  std::int32_t cap_() const { return cap.load(); }
  const Config& config_() const { return config; }
  void set_logger_(Logger logger) { logger_ = std::move(logger); }
  PoolTrace& trace_() { return trace; }
  const PoolTrace& trace_() const { return trace; }
  // C++: the workers' threads started and not yet joined.
  std::size_t threads_() const { return wg_.size(); }

 private:
  friend class worker;
  void incWorkerCount() { workerCount.fetch_add(1); }
  void decWorkerCount() { workerCount.fetch_sub(1); }
  // C++: `w.run()` failed: the OS refused the thread. The task stays on the list.
  void runRefused_(worker* w, WorkerId id);

  // The name of the pool
  const std::string name;
  // capacity of the pool, the maximum number of goroutines that are actually working
  std::atomic<std::int32_t> cap;
  // Configuration information
  const Config config;
  // linked list of tasks
  task* taskHead = nullptr;
  task* taskTail = nullptr;
  Mutex taskLock;
  std::atomic<std::int32_t> taskCount{0};
  // Record the number of running workers
  std::atomic<std::int32_t> workerCount{0};
  // This method will be called when the worker panic
  PanicHandler panicHandler;

  PoolTrace trace;
  Logger logger_ = defaultLogger;
  std::atomic<std::int32_t> listed_{0};  // C++: the list's length, changed under taskLock (taskCount can read -1)
  // C++: the workers' threads (a goroutine needs no join). CtxGo starts them
  // on the caller's thread, where Go's `go` costs about a microsecond, so the
  // joins are left to the workers: each joins, as it exits, those that exited
  // before it. Starting the thread still costs the caller (tens of µs).
  go::ThreadGroup wg_{go::ThreadGroup::Joins::in_finishing};
};

}  // namespace poolscope::gopool
