#include "pools/fasthttp/worker_pool.h"

#include <expected>
#include <memory>
#include <stdexcept>
#include <string>
#include <system_error>

namespace poolscope::fasthttp {

WorkerPool::WorkerPool(Config config, const TraceTarget& target)
    : config_(config), trace_(target, "fasthttp") {
  workerChanPool.New = [cap = config.workerChanCap_] { return std::make_unique<workerChan>(cap); };
}

WorkerPool::~WorkerPool() {
  stop();
  join();
}

void WorkerPool::start() {
  if (stopCh) return;
  stopCh = std::make_unique<StopCh>();
  trace_.state(kStartCleaner);
  cleaner_ = Thread("fasthttp-clean", [this, stop = stopCh.get()] { cleaner(*stop); });
}

void WorkerPool::stop() {
  if (!stopCh) return;
  stopCh->close();
  // C++: Go lets the cleaner goroutine notice the close on its own; stopCh
  // dies here, so wait for it (it wakes at once: it sleeps on stopCh).
  cleaner_.join();
  stopCh.reset();

  // Do not wait for busy workers: they stop after their task, when release
  // notices mustStop.
  stopReady();
  trace_.state(kMustStop);
}

void WorkerPool::stopReady() {
  std::lock_guard g(lock);
  const Time now = trace_.clock().now();
  for (workerChan* ch : ready) {
    trace_.reaped(ch->worker_, kStopReady, now - ch->lastUseTime);
    ch->ch.send(Job{});  // under the lock, as in Go; the worker is waiting in recv and needs no lock to take it
  }
  ready.clear();
  mustStop = true;
}

std::expected<void, Label> WorkerPool::serve(Task task) {
  // Go's nil conn is the stop signal, and an empty C++ callable cannot be called.
  if (!task) throw std::invalid_argument("fasthttp: serve needs a task");
  Job job{trace_.submitted(), std::move(task)};
  auto ch = getCh(job.id);
  if (!ch) {  // ch == nil: return false
    trace_.refused(job.id, ch.error());
    return std::unexpected(ch.error());
  }
  (*ch)->ch.send(std::move(job));
  return {};
}

std::expected<workerChan*, Label> WorkerPool::getCh(TaskId task) {
  workerChan* ch = nullptr;
  bool createWorker = false;
  {
    std::lock_guard g(lock);
    if (ready.empty()) {
      if (workersCount < config_.MaxWorkersCount) {
        createWorker = true;
        workersCount++;
      }
    } else {
      ch = ready.back();  // the most recently released worker
      ready.pop_back();
    }
  }

  if (ch != nullptr) {
    trace_.handoff(task, ch->worker_, kReadyStackPop);
    return ch;
  }
  if (!createWorker) return std::unexpected(kNoIdleWorkers);  // nil

  ch = workerChanPool.Get();
  ch->worker_ = trace_.new_worker_id();
  trace_.spawned(ch->worker_, kNewWorker);
  try {
    workers_.go("fasthttp-" + std::to_string(ch->worker_), [this, ch] {
      workerFunc(ch);
      workerChanPool.Put(ch);
    });
  } catch (const std::system_error&) {
    // C++: a goroutine always starts; a thread may not. Undo the count and refuse.
    {
      std::lock_guard g(lock);
      workersCount--;
    }
    trace_.exited(ch->worker_, rules::thread_create_failed());
    workerChanPool.Put(ch);
    return std::unexpected(rules::thread_create_failed());
  }
  trace_.handoff(task, ch->worker_, kNewWorker);
  return ch;
}

bool WorkerPool::release(workerChan* ch) {
  ch->lastUseTime = trace_.clock().now();
  std::lock_guard g(lock);
  if (mustStop) return false;
  ready.push_back(ch);
  // Traced under the lock, so the worker shows idle before any getCh can pop it.
  trace_.idle(ch->worker_, kReadyStack);
  return true;
}

void WorkerPool::workerFunc(workerChan* ch) {
  const WorkerId w = ch->worker_;
  Label why = kMustStop;
  for (Job c; ch->ch.recv(c);) {  // for c = range ch.ch
    if (!c) {
      why = kNilReceived;
      break;
    }
    trace_.run(w, c);  // C++: catches what the task throws (Go would crash; see worker_pool.h)
    c = Job{};         // C++: let go of the task's captures before going back on the stack
    if (!release(ch)) break;
  }

  {
    std::lock_guard g(lock);
    workersCount--;
  }
  trace_.exited(w, why);
}

void WorkerPool::join() {
  stopReady();
  workers_.wait();
}

Counters WorkerPool::state() const {
  std::lock_guard g(lock);
  const auto workers = static_cast<std::uint32_t>(workersCount);
  return Counters{.workers = workers, .busy = workers - static_cast<std::uint32_t>(ready.size())};
}

}  // namespace poolscope::fasthttp
