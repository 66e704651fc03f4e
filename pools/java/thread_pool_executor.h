// java.util.concurrent.ThreadPoolExecutor from OpenJDK 17
// (src/java.base/share/classes/java/util/concurrent/ThreadPoolExecutor.java),
// with the parts of AbstractExecutorService it inherits (submit, invokeAll,
// invokeAny), in C++. Read it beside ThreadPoolExecutor.java: execute,
// addWorker, runWorker, getTask, processWorkerExit and tryTerminate keep
// their names and their order of decisions; ctl.h packs the run state and
// worker count; worker.h is the Worker; future_task.h is FutureTask; the
// work queues and rejection policies have files of their own.
//
// thread_pool_executor.cpp is ordered by the life of a task (execute,
// addWorker, runWorker, getTask, processWorkerExit), not by Java's file
// order; run_state.cpp has shutdown and termination, settings.cpp the
// setters and statistics, submit.h what AbstractExecutorService adds.
//
// Public methods follow C++ naming (shutdownNow -> shutdown_now,
// getPoolSize -> get_pool_size); private steps keep Java's names.
//
// Where C++ makes it differ (each place marked `// C++:`):
//  - Threads are joined, not garbage-collected: close() (and the destructor)
//    waits for termination and joins every thread the pool started.
//  - Interrupts are cooperative, as in Java, but C++ threads have none
//    (interrupt.h): a worker's flag wakes its queue waits, its Future.get()
//    and the task's sleep_for(); a task that never looks at it runs to its
//    end, as a Java task that ignores interrupts does.
//  - execute() returns what became of the task (Java's returns void), so
//    the Pool adapter can report its fate; AbortPolicy still throws.
//  - Tasks carry a trace id and a priority (Runnable, blocking_queue.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "pools/core/go/thread_group.h"
#include "pools/core/pool.h"
#include "pools/core/shared_setting.h"
#include "pools/java/blocking_queue.h"
#include "pools/java/ctl.h"
#include "pools/java/future_task.h"
#include "pools/java/rejected_execution_handler.h"
#include "pools/java/thread_factory.h"

namespace poolscope::java {

class ThreadPoolExecutor {
 public:
  // Throws IllegalArgumentException if corePoolSize < 0, maximumPoolSize <= 0,
  // maximumPoolSize < corePoolSize or keepAliveTime < 0, and
  // NullPointerException if workQueue, threadFactory or handler is null.
  // Starts no thread.
  ThreadPoolExecutor(int corePoolSize, int maximumPoolSize, Nanos keepAliveTime,
                     std::unique_ptr<BlockingQueue> workQueue,
                     std::shared_ptr<ThreadFactory> threadFactory = std::make_shared<DefaultThreadFactory>(),
                     std::shared_ptr<RejectedExecutionHandler> handler = std::make_shared<AbortPolicy>(),
                     const TraceTarget& target = {});
  // C++: close(). A subclass that overrides the hooks must call close() in
  // its own destructor, before its overrides are gone.
  virtual ~ThreadPoolExecutor();
  ThreadPoolExecutor(const ThreadPoolExecutor&) = delete;
  ThreadPoolExecutor& operator=(const ThreadPoolExecutor&) = delete;

  // Runs `command` some time in the future, on a new or a pooled thread, or
  // hands it to the rejection handler. `priority` orders a
  // PriorityBlockingQueue. Throws NullPointerException for an empty task and
  // whatever the handler throws (AbortPolicy: RejectedExecutionException).
  SubmitResult execute(Task command, int priority = 0);
  // The same for a task the trace already numbered (DiscardOldest's retry).
  SubmitResult execute(Runnable command);

  // Orderly shutdown: queued tasks still run, new ones are rejected.
  void shutdown();
  // Stops: the queued tasks are removed (each traced as dropped) and
  // returned; every started worker is interrupted, so a running task that
  // sleeps with sleep_for() (or waits in Future.get()) ends early.
  std::vector<Runnable> shutdown_now();
  bool is_shutdown() const;
  bool is_terminating() const;
  bool is_terminated() const;
  // Waits on the pool's clock, at most `timeout`, for TERMINATED.
  bool await_termination(Nanos timeout);
  // C++: waits for TERMINATED without a time limit (and without the clock).
  void await_termination();
  // shutdown(), await_termination(), then join every thread (JDK 19's close(), plus the joins).
  void close();

  // Removes a queued task (traced as dropped); false if it is not queued.
  bool remove(TaskId task);
  // Removes the queued futures that were cancelled (each traced as dropped).
  void purge();

  // AbstractExecutorService (submit.h has the rest).
  // C++: SubmitOptions::priority, for a PriorityBlockingQueue; a type of its
  // own so that submit(task, priority) cannot be read as submit(task, result).
  struct Priority {
    int value;  // C++: no default member initializer, which clang 14 cannot use in submit's default argument
  };
  // submit(Callable<T>) / submit(Runnable): newTaskFor(task), then
  // execute(ftask). The future holds the result, or what the task threw.
  template <class F>
  auto submit(F task, Priority priority = {0}) -> Future<std::invoke_result_t<F&>> {
    if (is_null(task)) throw NullPointerException();  // if (task == null) throw new NullPointerException();
    auto ftask = new_task_for<std::invoke_result_t<F&>>(std::move(task));
    execute_future(ftask, priority.value);
    return ftask;
  }
  // submit(Runnable task, T result): get() gives `result` once task has run.
  template <class F, class T>
  requires(!std::is_same_v<T, Priority>) Future<T> submit(F task, T result) {
    // Checked here, at the call, as Java's is: the wrapper below is never
    // empty, so an empty task would otherwise reach the worker.
    if (is_null(task)) throw NullPointerException();
    return submit([task = std::move(task), result = std::move(result)]() mutable -> T {
      task();
      return result;
    });
  }
  // invokeAll: runs every task, waits for all, returns their futures in order.
  template <class V>
  std::vector<Future<V>> invoke_all(std::vector<std::move_only_function<V()>> tasks);
  // Timed invokeAll: the tasks not done when `timeout` (pool's clock) passes are cancelled.
  template <class V>
  std::vector<Future<V>> invoke_all(std::vector<std::move_only_function<V()>> tasks, Nanos timeout);
  // invokeAny: the result of one task that returned; ExecutionException if
  // none did; the others are cancelled.
  template <class V>
  V invoke_any(std::vector<std::move_only_function<V()>> tasks);
  // Timed invokeAny: TimeoutException if none returned in time.
  template <class V>
  V invoke_any(std::vector<std::move_only_function<V()>> tasks, Nanos timeout);

  // C++: Java's `task == null`. An empty std::function, move_only_function
  // or function pointer is null; a lambda never is. (An empty std::function
  // would otherwise become a non-empty move_only_function holding it.)
  template <class F>
  static bool is_null(const F& task) {
    if constexpr (std::is_pointer_v<F>)
      return task == nullptr;
    else if constexpr (requires { task.operator bool(); })
      return !task.operator bool();
    else
      return false;
  }

  // newTaskFor(callable): the FutureTask submit() executes, on the pool's clock.
  template <class V>
  Future<V> new_task_for(std::move_only_function<V()> callable, std::move_only_function<void()> done = {}) {
    return std::make_shared<FutureTask<V>>(std::move(callable), trace_.clock(), std::move(done));
  }
  // C++: execute(ftask), returning the fate (the Pool adapter's submitWith=submit).
  template <class V>
  SubmitResult execute_future(const Future<V>& ftask, int priority = 0) {
    Runnable r{{trace_.submitted(), [ftask] { ftask->run(); }}, priority};
    r.future = ftask;
    return execute(std::move(r));
  }

  // Settings. The setters throw IllegalArgumentException as Java's do.
  void set_core_pool_size(int corePoolSize);
  int get_core_pool_size() const { return corePoolSize.load(); }
  bool prestart_core_thread();
  int prestart_all_core_threads();
  bool allows_core_thread_time_out() const { return allowCoreThreadTimeOut.load(); }
  void allow_core_thread_time_out(bool value);
  void set_maximum_pool_size(int maximumPoolSize);
  int get_maximum_pool_size() const { return maximumPoolSize.load(); }
  void set_keep_alive_time(Nanos time);
  Nanos get_keep_alive_time() const { return Nanos(keepAliveTime.load()); }
  void set_thread_factory(std::shared_ptr<ThreadFactory> threadFactory);
  std::shared_ptr<ThreadFactory> get_thread_factory() const { return threadFactory.load(); }
  void set_rejected_execution_handler(std::shared_ptr<RejectedExecutionHandler> handler);
  std::shared_ptr<RejectedExecutionHandler> get_rejected_execution_handler() const { return handler.load(); }
  BlockingQueue& get_queue() { return *workQueue; }
  const BlockingQueue& get_queue() const { return *workQueue; }

  // Statistics.
  int get_pool_size() const;
  int get_active_count() const;
  int get_largest_pool_size() const;
  std::int64_t get_task_count() const;
  std::int64_t get_completed_task_count() const;
  // "[Running, pool size = 2, active threads = 1, queued tasks = 0, completed tasks = 5]"
  std::string to_string() const;

  PoolTrace& trace() { return trace_; }
  const PoolTrace& trace() const { return trace_; }

 protected:
  // Extension hooks, no-ops here. before_execute runs on the worker before
  // each task (if it throws, the task does not run and the worker dies);
  // after_execute after it, with what the task threw (or null); terminated
  // once, on entering TIDYING.
  virtual void before_execute(WorkerId w, const Runnable& r);
  virtual void after_execute(const Runnable& r, std::exception_ptr t);
  virtual void terminated();

 private:
  class Worker;  // worker.h

  // ctl's atomic steps
  bool compareAndIncrementWorkerCount(int expect) { return ctl.compare_exchange_strong(expect, expect + 1); }
  bool compareAndDecrementWorkerCount(int expect) { return ctl.compare_exchange_strong(expect, expect - 1); }
  void decrementWorkerCount() { ctl.fetch_sub(1); }

  void advanceRunState(int targetState);
  void tryTerminate();
  void interruptWorkers();
  void interruptIdleWorkers(bool onlyOne = false);
  SubmitResult reject(Runnable& command);
  std::vector<Runnable> drainQueue();
  bool remove(Runnable& command);  // execute's recheck: takes the task back out of the queue

  // `firstTask` is moved from only if a worker is added; an empty Runnable
  // is Java's null (see null()).
  bool addWorker(Runnable& firstTask, bool core);
  bool addWorker(Runnable&& firstTask, bool core) { return addWorker(firstTask, core); }
  // C++: Java's `null` as addWorker's first task, carrying for the trace why
  // a thread starts with nothing to run (a real first task says it by `core`).
  static Runnable null(Label why) {
    Runnable r;
    r.why = why;
    return r;
  }
  void addWorkerFailed(Worker* w);
  bool launch(std::shared_ptr<Worker> w);  // C++: starts w's thread in threads_
  void processWorkerExit(Worker& w, bool completedAbruptly);
  Runnable getTask(Worker& w);
  void runWorker(Worker& w);

  // C++: getTask's trace bookkeeping, one call per decision (thread_pool_executor.cpp).
  struct IdleWait;
  Runnable workerExits(Worker& w, Label why);
  Runnable workerCulled(Worker& w, int wc, const IdleWait& idle);
  Runnable tookTask(Worker& w, Runnable r, Label how);

  template <class V>
  V doInvokeAny(std::vector<std::move_only_function<V()>>& tasks, bool timed, Nanos timeout);

  PoolTrace trace_;
  std::atomic<int> ctl{ctlOf(RUNNING, 0)};
  const std::unique_ptr<BlockingQueue> workQueue;
  // Java's ReentrantLock: shutdown() holds it while interruptIdleWorkers()
  // takes it again.
  mutable RecursiveMutex mainLock;
  // C++: in worker-id order, where Java's HashSet goes by identity hash: the
  // same run visits its workers in the same order (interruptIdleWorkers(true)
  // interrupts the first), which a simulation needs to be repeatable.
  struct ById {
    bool operator()(const Worker* a, const Worker* b) const;
  };
  std::set<Worker*, ById> workers;      // guarded by mainLock
  CondVar termination;                  // on mainLock
  int largestPoolSize = 0;              // guarded by mainLock
  std::int64_t completedTaskCount = 0;  // guarded by mainLock

  // Java's volatile settings.
  SharedSetting<ThreadFactory> threadFactory;
  SharedSetting<RejectedExecutionHandler> handler;
  std::atomic<std::int64_t> keepAliveTime;  // ns
  std::atomic<bool> allowCoreThreadTimeOut{false};
  std::atomic<int> corePoolSize;
  std::atomic<int> maximumPoolSize;

  // C++: Java's threads are garbage-collected when they end; ours must be
  // joined, so they run in a thread group, the Go designs' own: it joins the
  // ended ones at each new worker, and close() joins them all. Last, so that
  // it is destroyed (and waits) first.
  go::ThreadGroup threads_;
};

}  // namespace poolscope::java

#include "pools/java/submit.h"  // the templates above
