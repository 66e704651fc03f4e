// workerpool.go, in its order. Index:
//   NewWorkerPool, init          validate, make the channels and all maxWorkerNum slots
//   Run                          start minWorkerNum workers and the watcher
//   watchAddWorker, addWorker    a growth token starts a worker on the slot at indexWorkers, if free
//   AddTask                      send into chWorkTask (blocks while full), then maybe a growth token
//   addWorkerWhenAddTask
//   GetStat, GetCurrentGoNumber, isWorking
//   close                        the first worker to find chWorkTask closed and drained stops the pool
//   Stop                         wait out blocked AddTasks (30 s at most), close chWorkTask, wait
//   C++: beginStop_, stop_, finish_, the helpers, counters_
// The worker's loop is in worker.cpp (worker.go).
#include "pools/weedge/workerpool.h"

#include <chrono>
#include <mutex>
#include <string>
#include <system_error>

#include "pools/core/go/select.h"

namespace poolscope::weedge {

using namespace rules;
using namespace std::chrono_literals;

std::unique_ptr<WorkerPool> NewWorkerPool(int minWorkerNum, int maxWorkerNum, int taskChSize, const TraceTarget& target,
                                          bool go123) {
  if (minWorkerNum <= 0 || minWorkerNum > maxWorkerNum) {
    // log.Error("worker pool init error , the min number: ", minWorkerNum, " the max number: ", maxWorkerNum)
    return nullptr;
  }
  if (taskChSize <= 0) {
    // log.Error("worker pool init error , the nChan : ", taskChSize)
    return nullptr;
  }
  std::unique_ptr<WorkerPool> wp(new WorkerPool(minWorkerNum, maxWorkerNum, target, go123));
  wp->init(taskChSize);
  return wp;
}

WorkerPool::WorkerPool(std::int32_t minWorkerNum, std::int32_t maxWorkerNum, const TraceTarget& target, bool go123)
    : trace(target, "weedge"), go123(go123), minWorkerNum(minWorkerNum), maxWorkerNum(maxWorkerNum) {}

WorkerPool::~WorkerPool() {
  beginStop_();
  stop_(false);
}

void WorkerPool::init(int taskChSize) {
  if (stat.load() > 0) return;  // "worker pool is already initialized ! the stat is "
  stat.exchange(WorkerPool_Stat_Start);
  chWorkTask = std::make_unique<go::Chan<Task>>(static_cast<std::size_t>(taskChSize));
  // C++: chAddWorker is made with the pool (a member channel).
  workers.reserve(static_cast<std::size_t>(maxWorkerNum));
  for (std::int32_t i = 0; i < maxWorkerNum; i++) workers.push_back(std::make_unique<Worker>(this));
  // " init worker pool ok , the min number:  ", " the max number : "
}

void WorkerPool::Run() {
  for (std::int32_t i = 0; i < minWorkerNum; i++) {
    curWorkerNum.fetch_add(1);
    workers[static_cast<std::size_t>(i)]->hasGoroutineRunning.exchange(1);
    if (!startWorker_(i, kRunMin)) {
      // C++: the OS refused the thread: the slot stays free, uncounted.
      curWorkerNum.fetch_sub(1);
      workers[static_cast<std::size_t>(i)]->hasGoroutineRunning.exchange(0);
    }
  }
  indexWorkers = static_cast<int>(minWorkerNum);
  // C++: with max == min the index is one past the last slot; Go would index
  // out of range at the first token (a panic the watcher recovers from, and
  // then it is gone). Wrapped here, so the token finds slot 0 running.
  if (indexWorkers >= maxWorkerNum) indexWorkers = 0;
  // wp.wg.Add(1); go wp.watchAddWorker(). C++: the watcher has a thread of
  // its own, outside wg, joined first: it is the one that starts workers, so
  // none can start while wg.Wait() joins them (go::ThreadGroup's wait must
  // not race its go).
  watcher_ = Thread("weedge-watch", [this] { watchAddWorker(); });
  stat.exchange(WorkerPool_Stat_Running);
  // " run worker pool ok , run the min number:  ", " timeout workers and one watch add worker"
}

void WorkerPool::watchAddWorker() {
  // defer recover(): "watch add worker goroutine crash, panic". C++: nothing here throws.
  for (std::int32_t ch = 0; chAddWorker.recv(ch);) {
    bool added = false;  // C++: for the trace
    for (std::int32_t nTimes = 0; isWorking() && nTimes < maxWorkerNum;) {
      nTimes++;
      // Go first skips a nil slot (" the workers is nil the index is "); C++: init made them all.
      if (workers[static_cast<std::size_t>(indexWorkers)]->hasGoroutineRunning.load() <= 0) {
        addWorker();
        // "create a new worker, current worker number is : ", " the flag "
        added = true;
        break;
      }
    }
    if (!added && isWorking()) trace.state(kSlotRunning);
  }
}

void WorkerPool::addWorker() {
  workers[static_cast<std::size_t>(indexWorkers)]->hasGoroutineRunning.exchange(1);
  if (!startWorker_(indexWorkers, kWatchAddWorker)) {
    // C++: the OS refused the thread: the slot stays free, the index stays.
    workers[static_cast<std::size_t>(indexWorkers)]->hasGoroutineRunning.exchange(0);
    return;
  }
  curWorkerNum.fetch_add(1);
  indexWorkers++;
  if (indexWorkers >= maxWorkerNum) indexWorkers = 0;
}

Label WorkerPool::AddTask(Task task) {
  task.id_ = trace.submitted();
  const TaskId id = task.id_;
  // Go first checks the *Task itself for nil ("AddTask task is nil").
  if (!task.Do || !task.InParam.has_value() || !task.OutParam.has_value()) {
    // "add task Do func is nil", "add task Do func inParam is nil", "add task Do func outParam is nil"
    trace.refused(id, kTaskNil);
    return kTaskNil;
  }
  if (stat.load() != WorkerPool_Stat_Running) {
    // "this worker pool is not a running stat! the stat is ", wp.stat
    trace.refused(id, kNotRunning);
    return kNotRunning;
  }

  addTaskStat.fetch_add(1);
  bool blocked = false;
  try {
    if (!chWorkTask->try_send(task)) {  // C++: tried first, so a blocked AddTask is traced as one
      blocked = true;
      blocked_.fetch_add(1);
      trace.blocked(id);
      chWorkTask->send(std::move(task));
    }
  } catch (const go::ClosedChannel&) {
    // C++: Go panics ("send on closed channel") when Stop closes the channel
    // under a blocked AddTask; here the task is refused.
    if (blocked) blocked_.fetch_sub(1), trace.unblocked(id);
    addTaskStat.fetch_sub(1);
    trace.refused(id, kSendOnClosed);
    return kSendOnClosed;
  }
  if (blocked) blocked_.fetch_sub(1), trace.unblocked(id);
  trace.queued(id, kChWorkTask, static_cast<std::int64_t>(chWorkTask->len()));
  addTaskStat.fetch_sub(1);

  addWorkerWhenAddTask();
  return kNoLabel;
}

// add worker when add task cond:
// 1. 1 < work task num < (min worker num)/2
// 2. cur worker num < max worker num
// (Go's comment says "<"; its code says ">", and the code is what runs.)
void WorkerPool::addWorkerWhenAddTask() {
  const auto chWorkTaskNum = static_cast<std::int32_t>(chWorkTask->len());
  if (chWorkTaskNum > 1 && chWorkTaskNum > minWorkerNum / 2 && curWorkerNum.load() < maxWorkerNum) {
    try {
      chAddWorker.send(1);
    } catch (const go::ClosedChannel&) {  // C++: the pool stopped meanwhile (Go panics)
      return;
    }
    addWorkerLastTime.store(unixNow_());
  }
}

bool WorkerPool::isWorking() const {
  return stat.load() == WorkerPool_Stat_Running || stat.load() == WorkerPool_Stat_Stoping;
}

void WorkerPool::close() {
  {
    std::lock_guard g(lock);
    if (isWorking()) {
      stat.exchange(WorkerPool_Stat_Stop);
      trace.state(kStop);
      for (auto& w : workers) {
        w->hasGoroutineRunning.exchange(1);  // 不让自启 (no restarting)
        w->chExecuteGoroutineOut.close();
      }
      chAddWorker.close();
    }
  }
  notify_();
}

void WorkerPool::Stop() {
  std::int32_t running = WorkerPool_Stat_Running;
  if (!stat.compare_exchange_strong(running, WorkerPool_Stat_Stoping)) {
    // "this worker pool is not a running stat,can't stop ! the stat is "
    return;
  }
  trace.state(kStoping);
  // wait add task product over
  const std::int64_t stopTime = unixNow_();
  for (std::unique_lock g(exitLock_); addTaskStat.load() > 0 && unixNow_() - stopTime < addWaitingTimeWhenStopPool;)
    exitCv_.wait_until(g, trace.clock(), trace.clock().now() + 10ms);  // time.Sleep(10 * time.Millisecond)
  // "stop worker pool, stop to close chWorkTask -> close worker pool"
  finish_(false);
}

// --- C++: poolscope's shutdown ----------------------------------------------

void WorkerPool::beginStop_() {
  std::int32_t running = WorkerPool_Stat_Running;
  if (stat.compare_exchange_strong(running, WorkerPool_Stat_Stoping)) trace.state(kStoping);
  closeChWorkTask_();
}

int WorkerPool::stop_(bool now) {
  beginStop_();
  return finish_(now);
}

// close(chWorkTask), then wg.Wait(). C++: the wait cannot hang. When no
// worker is left to drain the channel and call close() (they all exited by
// destroyAfterTaskDone), Go's wg.Wait() would wait for ever for the watcher:
// here the stranded tasks are dropped as such (no-live-worker, in either
// mode: no worker would ever have run them) and the pool closed. A worker
// lost on a panicked task with no timer is released (strand_).
int WorkerPool::finish_(bool now) {
  closeChWorkTask_();
  releaseStranded_();
  int dropped = 0;
  if (now && live_.load() > 0)
    for (Task t; chWorkTask->recv(t);) trace.dropped(t.id_, kShutdownNow), ++dropped;
  {
    std::unique_lock g(exitLock_);
    exitCv_.wait(g, [&] { return stat.load() == WorkerPool_Stat_Stop || live_.load() == 0; });
  }
  if (stat.load() != WorkerPool_Stat_Stop) {
    if (chWorkTask->len() > 0) trace.state(kStopWouldHang);
    for (Task t; chWorkTask->recv(t);) trace.dropped(t.id_, kNoLiveWorker), ++dropped;
    close();
  }
  if (watcher_.joinable()) watcher_.join();  // chAddWorker is closed: it ends
  wg.wait();
  doGroup_.wait();
  return dropped;
}

void WorkerPool::closeChWorkTask_() {
  if (!chWorkTaskClosed_.exchange(true)) chWorkTask->close();
}

// go wp.workers[index].safelyDo(), with wg.Add(1). The trace counts the
// worker before its thread runs, as curWorkerNum does.
bool WorkerPool::startWorker_(int index, Label rule) {
  Worker* w = workers[static_cast<std::size_t>(index)].get();
  const WorkerId id = trace.new_worker_id();
  live_.fetch_add(1);
  trace.spawned(id, rule);
  try {
    wg.go("weedge-" + std::to_string(id), [w, id] { w->safelyDo(id); });
  } catch (const std::system_error&) {
    live_.fetch_sub(1);
    trace.exited(id, poolscope::rules::thread_create_failed());
    notify_();
    return false;
  }
  return true;
}

void WorkerPool::workerExited_(WorkerId id, Label why) {
  live_.fetch_sub(1);
  trace.exited(id, why);
  notify_();
}

void WorkerPool::notify_() {
  { std::lock_guard g(exitLock_); }  // a waiter between its check and its wait sees the change
  exitCv_.notify_all();
}

// runtimer.GoSafely(nil, false, func() { taskDoResCh <- task.Do(task.InParam, task.OutParam) }, nil, nil)
void WorkerPool::goSafely_(WorkerId w, std::shared_ptr<Task> task, std::shared_ptr<go::Chan<bool>> taskDoResCh,
                           bool untimed) {
  auto body = [this, w, task, taskDoResCh, untimed] {
    bool result = false;
    Job job{task->id_, [&] { result = task->Do(task->InParam, task->OutParam); }};
    running_.fetch_add(1);
    const bool panicked = trace.run(w, job) != nullptr;
    running_.fetch_sub(1);
    // GoSafely recovers a panic and prints "%s goroutine panic: %v\n%s\n";
    // the send never happens, so the worker waits for its timer and reports
    // the task timed out.
    if (!panicked)
      taskDoResCh->send(result);
    else if (untimed)
      strand_(w, task->id_, taskDoResCh);  // C++: no timer either: Go's worker waits for ever
  };
  try {
    doGroup_.go("weedge-do-" + std::to_string(task->id_), body);
  } catch (const std::system_error&) {
    // C++: the OS refused the task's thread: the worker runs it itself, so
    // this one task cannot time out.
    body();
  }
}

// C++: the worker `w` waits for a result that will never come, on a timer
// that will never fire: in Go it is lost for ever, still counted in
// curWorkerNum, and Stop's wg.Wait() would wait for it for ever. poolscope's
// shutdown closes the result channel instead (the worker's own `ok` check
// then sends nothing on ChIsTimeOut), so that the stop ends.
void WorkerPool::strand_(WorkerId w, TaskId task, std::shared_ptr<go::Chan<bool>> taskDoResCh) {
  trace.emit(EventKind::pool_state, kNoResult, w, task);
  std::lock_guard g(exitLock_);
  if (!stopping_) {
    stranded_.push_back(std::move(taskDoResCh));
    return;
  }
  trace.state(kStopWouldHang);
  taskDoResCh->close();
}

// C++: shutdown began: release the workers strand_ lost.
void WorkerPool::releaseStranded_() {
  std::lock_guard g(exitLock_);
  stopping_ = true;
  if (stranded_.empty()) return;
  trace.state(kStopWouldHang);
  for (auto& ch : stranded_) ch->close();
  stranded_.clear();
}

std::int64_t WorkerPool::unixNow_() const {
  return kUnixAtOrigin + std::chrono::duration_cast<std::chrono::seconds>(trace.clock().now()).count();
}

Counters WorkerPool::counters_() const {
  auto n = [](std::int64_t v) { return static_cast<std::uint32_t>(v < 0 ? 0 : v); };
  return Counters{n(live_.load()), n(running_.load()), n(static_cast<std::int64_t>(chWorkTask->len())),
                  n(blocked_.load())};
}

}  // namespace poolscope::weedge
