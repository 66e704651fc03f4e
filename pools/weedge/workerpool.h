// weedge/lib pool/workerpool (define.go, task.go, worker.go, workerpool.go
// at a36dcc1; the pool last changed in 9286932, 2021-12-14, the month of
// seed 002, whose author wrote it): maxWorkerNum Worker slots share one
// buffered task channel. Run starts minWorkerNum workers and a watcher.
// AddTask sends into the channel, blocking while it is full, and when the
// channel then holds more than 1 and more than minWorkerNum/2 tasks, sends a
// growth token to the watcher, which starts a worker on the slot at
// indexWorkers if that slot is free. Every task runs on a goroutine of its
// own, raced against its worker's timer (the task's TimeOut, from pickup);
// a timed-out task runs on, detached, and the worker moves on. After a
// task, a worker exits when the channel is empty, more than minWorkerNum
// are counted and 30 s passed since the last growth.
//
// Its quirks are kept on purpose (docs/pools/weedge.md lists them): the
// watcher never moves past a slot that counts as running, so the pool grows
// by at most max - min workers in its life; an exiting worker lowers no
// count and frees no slot; a timer that fired unseen times out the next task
// at once (go.mod says go 1.15: the pre-1.23 timers); with no worker left,
// tasks strand in the channel and Stop would wait forever.
//
// clang-format off
//   auto wp = weedge::NewWorkerPool(3, 5, 3);        // Go: wp := workerpool.NewWorkerPool(3, 5, 3)
//   wp->Run();                                       // Go: wp.Run()
//   wp->AddTask({.Do = ..., .InParam = ..., .OutParam = ..., .ChIsTimeOut = &ch, .TimeOut = 3s});
//   wp->Stop();
// clang-format on
//
// Read workerpool.cpp beside workerpool.go and worker.cpp beside worker.go:
// the same functions in the same order, the same names; what C++ adds ends
// in an underscore. Where C++ differs, a `// C++:` comment says so; in
// short: goroutines are threads (a refused worker thread leaves its slot
// free; a refused task thread runs the task on its worker, untimed), log
// lines are not printed (each is the text of its rule in the trace),
// AddTask returns why it dropped a task (Go only logs it), a task that
// throws is Go's panic (its worker gets no result and waits for its timer:
// for ever when no timer can fire, until poolscope's shutdown releases it),
// and poolscope's shutdown never waits on the pool's clock nor forever.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "pools/core/go/chan.h"
#include "pools/core/go/thread_group.h"
#include "pools/core/pool_trace.h"
#include "pools/core/sync.h"
#include "pools/core/thread.h"
#include "pools/weedge/define.h"
#include "pools/weedge/rules.h"
#include "pools/weedge/task.h"
#include "pools/weedge/worker.h"

namespace poolscope::weedge {

class WorkerPool {
 public:
  ~WorkerPool();  // C++: Go has no destructor; this stops the pool as shutdown(graceful) does
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Starts minWorkerNum workers and the watcher; state Running.
  void Run();
  // Blocks while chWorkTask is full. C++: returns kNoLabel when the task went
  // into the channel, else the rule of the log line Go writes instead.
  Label AddTask(Task task);
  std::int32_t GetStat() const { return stat.load(); }
  // curWorkerNum: what the pool counts, not what runs (a destroyed worker stays counted).
  std::int32_t GetCurrentGoNumber() const { return curWorkerNum.load(); }
  // Waits while AddTasks are blocked (polling every 10 ms on the pool's
  // clock, up to 30 s), closes chWorkTask (buffered tasks still run) and
  // waits for the workers. C++: a pool with no worker left is stopped
  // anyway (stop-would-hang), its stranded tasks dropped.
  void Stop();

  // C++: poolscope's shutdown, first half: state Stoping and chWorkTask
  // closed at once, so that blocked AddTasks return (kSendOnClosed).
  void beginStop_();
  // C++: the second half: with `now`, the buffered tasks are dropped; then
  // as Stop, without the poll. Returns the tasks dropped.
  int stop_(bool now);

  // C++: the state poolscope reports: worker goroutines alive, tasks
  // running (a detached one included: busy can exceed workers), tasks in
  // the channel, AddTasks blocked.
  Counters counters_() const;
  std::int32_t minWorkerNum_() const { return minWorkerNum; }
  std::int32_t maxWorkerNum_() const { return maxWorkerNum; }
  int taskChSize_() const { return static_cast<int>(chWorkTask->cap()); }
  bool go123_() const { return go123; }
  PoolTrace& trace_() { return trace; }
  const PoolTrace& trace_() const { return trace; }
  // C++: whole Unix seconds on the pool's clock (time.Now().Unix()).
  std::int64_t unixNow_() const;

 private:
  friend class Worker;
  friend std::unique_ptr<WorkerPool> NewWorkerPool(int, int, int, const TraceTarget&, bool);
  WorkerPool(std::int32_t minWorkerNum, std::int32_t maxWorkerNum, const TraceTarget& target, bool go123);

  void init(int taskChSize);
  void watchAddWorker();
  void addWorker();
  void addWorkerWhenAddTask();
  bool isWorking() const;
  void close();
  // C++: helpers for what Go writes in a line or two.
  bool startWorker_(int index, Label rule);  // go wp.workers[index].safelyDo(); false if the OS refused
  void workerExited_(WorkerId id, Label why);
  void goSafely_(WorkerId w, std::shared_ptr<Task> task, std::shared_ptr<go::Chan<bool>> taskDoResCh, bool untimed);
  void strand_(WorkerId w, TaskId task, std::shared_ptr<go::Chan<bool>> taskDoResCh);
  void releaseStranded_();
  void closeChWorkTask_();
  int finish_(bool now);
  void notify_();

  PoolTrace trace;
  const bool go123;

  const std::int32_t minWorkerNum;                                // worker goroutine 最小数目 (least)
  const std::int32_t maxWorkerNum;                                // worker goroutine 最大数目 (most)
  std::atomic<std::int32_t> curWorkerNum{0};                      // 当前worker goroutine数量 (current)
  std::atomic<std::int32_t> stat{WorkerPool_Stat_Uninitialized};  // 任务工作池状态 (state)
  std::atomic<std::int32_t> addTaskStat{0};                       // 添加任务状态 (AddTasks inside the send)
  go::Chan<std::int32_t> chAddWorker{1};                          // 添加worker ch -> watchAddWorker
  // 最新添加worker时间 (last growth, Unix seconds). C++: atomic; Go's is a
  // plain int64 written by submitters and read by workers (a data race).
  std::atomic<std::int64_t> addWorkerLastTime{0};
  go::ThreadGroup wg;                            // the workers (C++: the watcher is watcher_)
  std::unique_ptr<go::Chan<Task>> chWorkTask;    // made by init, with taskChSize slots
  std::vector<std::unique_ptr<Worker>> workers;  // maxWorkerNum slots, all made by init
  int indexWorkers = 0;  // watch workers 循环下标 (the watcher's index); the watcher's alone
  Mutex lock;

  Thread watcher_;                        // C++: watchAddWorker's goroutine (Go counts it in wg)
  go::ThreadGroup doGroup_;               // C++: the tasks' own goroutines (GoSafely(nil, ...): Go waits for none)
  std::atomic<std::int32_t> live_{0};     // C++: worker goroutines alive
  std::atomic<std::int32_t> running_{0};  // C++: tasks running
  std::atomic<std::int32_t> blocked_{0};  // C++: AddTasks blocked on the full channel
  std::atomic<bool> chWorkTaskClosed_{false};
  Mutex exitLock_;  // C++: stop_ waits for close() or the last worker's exit
  CondVar exitCv_;
  // C++: under exitLock_: the result channels of panicked tasks whose worker
  // waits for ever (no timer can end its wait), until shutdown closes them.
  std::vector<std::shared_ptr<go::Chan<bool>>> stranded_;
  bool stopping_ = false;  // C++: under exitLock_: finish_ began; a new stranded wait is released at once
};

// NewWorkerPool(minWorkerNum, maxWorkerNum, taskChSize): nullptr when
// min <= 0 or min > max ("worker pool init error , the min number: %d the
// max number: %d") or taskChSize <= 0 ("worker pool init error , the nChan
// : %d"). C++: the trace target, and go123 for Go 1.23's timers.
std::unique_ptr<WorkerPool> NewWorkerPool(int minWorkerNum, int maxWorkerNum, int taskChSize,
                                          const TraceTarget& target = {}, bool go123 = false);

}  // namespace poolscope::weedge
