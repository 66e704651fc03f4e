// ants.go's poolCommon, in its order. Index:
//   newPool, start_           validate the size and options; start purge and ticktock
//   purgeStaleWorkers         every ExpiryDuration: the expired idle workers get nil
//   ticktock                  every 500 ms: the coarse clock workers are stamped with
//   Tune, Release, ReleaseTimeout, Reboot, release_and_join
//   retrieveWorker            a worker for a task (the call tree below)
//   revertWorker              a worker back on the idle queue after its task
//
// clang-format off
// How a task gets a worker:
//   Submit(task) -> retrieveWorker
//     workers.detach()                       an idle worker (stack: LIFO; PreAlloc ring: FIFO)
//     | running < Cap -> workerCache.Get() -> run()   a new goroutine (worker.cpp)
//     | Nonblocking or MaxBlockingTasks reached -> ErrPoolOverload
//     | cond.Wait -> retry                   until revertWorker or a worker's exit signals
//   -> worker.inputFunc(task)                its channel; the worker runs it, then revertWorker
// clang-format on
#include "pools/ants/pool_common.h"

#include <exception>
#include <string>
#include <system_error>

#include "pools/ants/rules.h"
#include "pools/core/go/defer.h"
#include "pools/core/go/select.h"
#include "pools/core/spin.h"

namespace poolscope::ants {

Clock& clock_of(const TraceTarget& target) { return target.clock ? *target.clock : default_clock(); }

std::error_code PoolCommon::newPool(int& size, Options& options, const Clock& clock) {
  if (size <= 0) size = -1;  // unlimited: nested submits cannot deadlock

  if (!options.DisablePurge) {
    if (options.ExpiryDuration < Nanos(0)) return ErrInvalidPoolExpiry;
    if (options.ExpiryDuration == Nanos(0)) options.ExpiryDuration = DefaultCleanIntervalTime;
  }
  if (!options.Logger) options.Logger = defaultLogger(clock);
  if (options.PreAlloc && size == -1) return ErrInvalidPreAllocSize;
  return {};
}

PoolCommon::PoolCommon(int size, Options options, std::shared_ptr<PoolTrace> trace)
    : options_(std::move(options)),
      trace_(std::move(trace)),
      capacity(size),
      workers(options_.PreAlloc ? newWorkerQueue(queueType::queueTypeLoopQueue, size)
                                : newWorkerQueue(queueType::queueTypeStack, 0)),
      detachRule_(options_.PreAlloc ? rules::kLoopQueueDetach : rules::kStackDetach),
      idleRule_(options_.PreAlloc ? rules::kLoopQueue : rules::kWorkerStack) {}

std::error_code PoolCommon::start_() {
  std::lock_guard g(lifecycle_);
  try {
    startTickers();
  } catch (const std::system_error&) {
    return errBackgroundThreadFailed;  // the destructor stops and joins what did start
  }
  return {};
}

PoolCommon::~PoolCommon() { release_and_join(); }

// --- the scavenger and the coarse clock ---------------------------------------

void PoolCommon::purgeStaleWorkers(go::Ticker& ticker) {
  makeTicker(ticker);      // ticker := time.NewTicker(p.options.ExpiryDuration)
  while (ticker.wait()) {  // a stopped ticker: Go's purgeCtx.Done()
    if (is_closed()) break;

    Time now{};
    int lookedAt = 0;
    bool isDormant = false;
    std::span<Worker* const> staleWorkers;
    {
      std::lock_guard guard(lock);
      now = clock().now();  // as Go's refresh reads time.Now(), under the lock
      lookedAt = workers->len();
      staleWorkers = workers->refresh(options_.ExpiryDuration, now);
      const int n = running();
      isDormant = n == 0 || n == static_cast<int>(staleWorkers.size());
    }

    // Stop the stale workers outside the lock: each send may wait (capacity 0).
    for (Worker* w : staleWorkers) {
      trace().reaped(w->id(), rules::kPurgeTick, now - w->lastUsedTime());
      w->finish(rules::kPurgeTick);
    }
    trace().cleaner_pass(rules::kPurgeTick, lookedAt, static_cast<std::int32_t>(staleWorkers.size()));
    goroutines_.join_finished();  // C++: the threads of the workers stopped by earlier ticks

    // Every worker may be gone while callers are still stuck in cond.Wait:
    // wake them, so they start new workers.
    if (isDormant && waiting() > 0) {
      trace().state(rules::kDormant);
      cond.Broadcast();
    }
  }
  purgeDone.store(1);
}

// The coarse clock, every 500 ms. A worker reverted after a tick is stamped
// with it, and a purge tick one ExpiryDuration later reaps that worker only
// if the stamp is not after the purge's own time.Now() - ExpiryDuration:
// which of the two tickers made its ticker first decides (see startTickers).
// C++: Go stores time.Now() as the goroutine wakes; this stores the instant
// the tick was due (the same thing in a simulation, where a tick wakes its
// thread on time). Go's two timers fire together from one P's timer heap, so
// a run keeps one order at every tick, as the runs on real ants did; two
// threads here each wake late by their own few microseconds, and the order
// would flip from tick to tick.
void PoolCommon::ticktock(go::Ticker& ticker) {
  const Time origin = makeTicker(ticker);  // ticker := time.NewTicker(nowTimeUpdateInterval)
  while (ticker.wait()) {
    if (is_closed()) break;
    const Nanos since = clock().now() - origin;
    now.store((origin + since / nowTimeUpdateInterval * nowTimeUpdateInterval).count());
  }
  ticktockDone.store(1);
}

void PoolCommon::goPurge() {
  if (options_.DisablePurge) return;
  auto ticker = std::make_shared<go::Ticker>(clock(), options_.ExpiryDuration);
  stopPurge = ticker;
  tickers_.Add(1);
  go::Defer refused([&] {
    if (!purgeThread_.joinable()) tickers_.Done();  // C++: the OS refused the thread
  });
  purgeThread_ = Thread("ants-purge", [this, ticker] { purgeStaleWorkers(*ticker); });
}

void PoolCommon::goTicktock() {
  now.store(clock().now().count());
  auto ticker = std::make_shared<go::Ticker>(clock(), nowTimeUpdateInterval);
  stopTicktock = ticker;
  tickers_.Add(1);
  go::Defer refused([&] {
    if (!ticktockThread_.joinable()) tickers_.Done();  // C++: the OS refused the thread
  });
  ticktockThread_ = Thread("ants-ticktock", [this, ticker] { ticktock(*ticker); });
}

// C++: Go starts purge and ticktock as goroutines and its scheduler picks
// which runs first (runnext, or a steal by an idle P); each makes its ticker
// as it starts, so the two grids fall microseconds apart, either way round.
// That order decides whether a worker stamped by the coarse tick at a whole
// second is reaped at the purge tick one ExpiryDuration later or at the next
// (docs/pools/ants.md, "When a worker is reaped"). Threads would make their
// tickers in the order they were started, so both wait at tickersGate_ until
// both are there, and the scheduler (the OS, or a simulation's policy) picks
// which the unlock lets through first. ticktock is started first, so it waits
// longest: the one a fifo or pct schedule, and mostly a real machine, lets
// through first, the order of all three measured runs of issue 18's bursts.
// New returns once both tickers exist (a caller may move a manual clock at
// once).
void PoolCommon::startTickers() {
  std::unique_lock gate(tickersGate_);
  std::exception_ptr refused;  // the OS refused a thread: the one that started still goes through the gate
  try {
    goTicktock();
    goPurge();
  } catch (const std::system_error&) {
    refused = std::current_exception();
  }
  tickers_.Wait();  // every started thread waits at the gate
  tickers_.Add(static_cast<int>(ticktockThread_.joinable()) + static_cast<int>(purgeThread_.joinable()));
  gate.unlock();
  tickers_.Wait();  // every ticker made
  if (refused) std::rethrow_exception(refused);
}

// C++: the goroutine's time.NewTicker: restarts the ticker the starter made
// (so that a Release before now still stops it) from the moment the
// scheduler lets this thread through startTickers' gate; returns that moment.
Time PoolCommon::makeTicker(go::Ticker& ticker) {
  tickers_.Done();
  Time made{};
  {
    std::lock_guard gate(tickersGate_);
    made = clock().now();
    ticker.reset(ticker.period());
  }
  tickers_.Done();
  return made;
}

void PoolCommon::closeAllDone() {
  std::shared_ptr<go::Chan<empty>> allDone;
  std::shared_ptr<go::Once> once;
  {
    std::lock_guard g(allDoneM_);
    allDone = this->allDone;
    once = this->once;
  }
  once->Do([&] { allDone->close(); });
}

// --- accessors and controls ----------------------------------------------------

int PoolCommon::free() const {
  const int c = cap();
  if (c < 0) return -1;
  return c - running();
}

int PoolCommon::idle() const {
  std::lock_guard guard(lock);
  return workers->len();
}

void PoolCommon::tune(int size) {
  const int capacity = cap();
  if (capacity == -1 || size <= 0 || size == capacity || options_.PreAlloc) return;
  this->capacity.store(size);
  trace().tuned(rules::kSize, size);
  if (size > capacity) {
    if (size - capacity == 1) {
      cond.Signal();
      return;
    }
    cond.Broadcast();
  }
}

void PoolCommon::release() {
  int opened = OPENED;
  if (!state.compare_exchange_strong(opened, CLOSED)) return;
  trace().state(rules::kRelease);

  {
    std::lock_guard g(lifecycle_);
    if (stopPurge) std::exchange(stopPurge, nullptr)->stop();
    if (stopTicktock) std::exchange(stopTicktock, nullptr)->stop();
  }

  {
    std::lock_guard guard(lock);
    workers->reset();
  }

  // Callers may be waiting in retrieveWorker: wake them, or they would block
  // forever.
  cond.Broadcast();
}

std::error_code PoolCommon::release_timeout(Nanos timeout) {
  {
    std::lock_guard g(lifecycle_);
    if (is_closed() || (!options_.DisablePurge && !stopPurge) || !stopTicktock) return ErrPoolClosed;
  }
  const Time start = clock().now();  // before release() emits anything a test may wait for
  release();

  // Go's purgeCh (purgeCtx.Done(), or allDone under DisablePurge) and
  // ticktockCtx.Done() were closed by Release just now: receiving from them
  // below never waits, so they are left out.
  std::shared_ptr<go::Chan<empty>> allDone;
  {
    std::lock_guard g(allDoneM_);
    allDone = this->allDone;
  }
  if (running() == 0) closeAllDone();

  const Time deadline =
      timeout >= Time::max() - start ? Time::max() : start + timeout;  // timer := time.NewTimer(timeout)
  for (;;) {
    empty e;
    switch (go::select(go::after(clock(), deadline), go::recv(*allDone, e))) {
      case 0:
        return ErrTimeout;
      case 1:
        // Go loops on the closed allDone until the purge and ticktock
        // goroutines have run their defers; spin_until is that loop.
        if (spin_until([&] {
              return running() == 0 && (options_.DisablePurge || purgeDone.load() == 1) && ticktockDone.load() == 1;
            }))
          return {};
    }
  }
}

void PoolCommon::reboot() {
  int closed = CLOSED;
  if (!state.compare_exchange_strong(closed, OPENED)) return;
  trace().state(rules::kReboot);

  std::lock_guard g(lifecycle_);
  // C++: the stopped threads end before new ones start (Go lets an old
  // goroutine still run; its defer could then mark the new purge done).
  purgeThread_.join();
  ticktockThread_.join();
  purgeDone.store(0);
  ticktockDone.store(0);
  // C++: a refused thread here leaves the pool open without it (Go's Reboot
  // returns nothing to report it with).
  try {
    startTickers();
  } catch (const std::system_error&) {
    if (!ticktockThread_.joinable()) ticktockDone.store(1);
    if (!options_.DisablePurge && !purgeThread_.joinable()) purgeDone.store(1);
  }
  std::lock_guard a(allDoneM_);
  allDone = std::make_shared<go::Chan<empty>>();
  once = std::make_shared<go::Once>();
}

void PoolCommon::release_and_join() {
  release();
  std::shared_ptr<go::Chan<empty>> allDone;
  {
    std::lock_guard g(allDoneM_);
    allDone = this->allDone;
  }
  if (running() == 0) closeAllDone();
  allDone->recv();
  {
    std::lock_guard g(lifecycle_);
    purgeThread_.join();
    ticktockThread_.join();
  }
  goroutines_.wait();
}

Label PoolCommon::refusal(std::error_code err) const {
  if (err == ErrPoolOverload) return options_.Nonblocking ? rules::kNonblocking : rules::kMaxBlockingTasks;
  if (err == errThreadCreateFailed) return poolscope::rules::thread_create_failed();
  return poolscope::rules::pool_closed();
}

// --- retrieveWorker / revertWorker ------------------------------------------------

std::expected<Worker*, std::error_code> PoolCommon::retrieveWorker() {
  const TaskId t = retrievingFor();  // C++: for the trace
  std::unique_lock guard(lock);

  for (;;) {  // retry:
    // C++: the cond's ticket is taken here, before anything below is
    // looked at; Go's cond.Wait takes it at the end. goexit, Tune, the purge
    // and an over-capacity revertWorker signal without the lock, so a Signal
    // sent between the capacity check and the ticket would be lost, and the
    // caller would sleep until some other worker signals: forever with
    // DisablePurge once the last worker has panicked. Go has that window too,
    // over a few instructions; here it would also hold waiting++ and a trace
    // emit. Taken first, any Signal from here on ends the Wait below.
    const auto ticket = cond.ticket();

    // First try to fetch an idle worker from the queue.
    if (Worker* w = workers->detach()) {
      trace().handoff(t, w->id(), detachRule_);
      return w;
    }

    // The queue is empty and there is room: start a new worker, under the
    // lock, so that concurrent callers cannot overshoot the capacity.
    if (const int capacity = cap(); capacity == -1 || capacity > running()) {
      WorkerThread* w = workerCache.Get();
      try {
        w->run();
      } catch (const std::system_error&) {
        workerCache.Put(w);
        return std::unexpected(make_error_code(errThreadCreateFailed));
      }
      trace().spawned(w->id(), capacity == -1 ? rules::kUnlimited : rules::kBelowCapacity);
      trace().handoff(t, w->id(), rules::kNewWorker);
      return w;
    }

    // Bail out early if nonblocking, or if enough callers already wait.
    if (options_.Nonblocking || (options_.MaxBlockingTasks != 0 && waiting() >= options_.MaxBlockingTasks))
      return std::unexpected(make_error_code(ErrPoolOverload));

    // C++: look at IsClosed under the lock before sleeping. ants only
    // looks after waking, so a caller that checked IsClosed just before
    // Release and gets here just after Release's Broadcast sleeps until some
    // busy worker finishes, and forever if none will. Release sets CLOSED
    // before it takes the lock, so this check closes that window.
    if (is_closed()) return std::unexpected(make_error_code(ErrPoolClosed));

    // Otherwise wait for a worker to be put back (or to exit), and retry.
    addWaiting(1);
    trace().blocked(t);
    cond.Wait(ticket);  // cond.L is lock, which guard holds
    addWaiting(-1);
    trace().unblocked(t);

    if (is_closed()) return std::unexpected(make_error_code(ErrPoolClosed));
  }
}

bool PoolCommon::revertWorker(Worker* worker) {
  const int capacity = cap();
  if (const bool over = capacity > 0 && running() > capacity; over || is_closed()) {
    worker->exitRule = over ? rules::kOverCapacity : rules::kRelease;
    cond.Broadcast();
    return false;
  }

  worker->setLastUsedTime(nowTime());

  std::lock_guard guard(lock);
  // Check again under the lock, or a worker could slip into the queue of a
  // closed pool and never be stopped (ants issue #113).
  if (is_closed()) {
    worker->exitRule = rules::kRelease;
    return false;
  }
  if (workers->insert(worker)) {
    worker->exitRule = rules::kQueueFull;
    return false;
  }
  trace().idle(worker->id(), idleRule_);
  // A worker is available: wake one caller stuck in retrieveWorker.
  cond.Signal();
  return true;
}

void PoolCommon::recoverPanic(std::exception_ptr panic) {
  if (options_.PanicHandler) {
    options_.PanicHandler(panic);
    return;
  }
  std::string what = "unknown exception";
  try {
    std::rethrow_exception(panic);
  } catch (const std::exception& e) {
    what = e.what();
  } catch (...) {
  }
  // Go prints the value and debug.Stack(); a C++ exception carries no stack.
  options_.Logger("worker exits from panic: " + what + "\n");
}

}  // namespace poolscope::ants
