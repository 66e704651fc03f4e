// java.util.concurrent.FutureTask (OpenJDK 17), in C++: what
// ThreadPoolExecutor.submit() wraps a task in (AbstractExecutorService's
// newTaskFor). Its run() catches what the task throws and keeps it for
// get(), so a task submitted with submit() that throws does not kill its
// worker, where the same task given to execute() does.
//
// States, as in Java:
//   NEW -> COMPLETING -> NORMAL        the task returned
//   NEW -> COMPLETING -> EXCEPTIONAL   the task threw
//   NEW -> CANCELLED                   cancel(false)
//   NEW -> INTERRUPTING -> INTERRUPTED cancel(true)
//
// C++: Java's FutureTask moves between states with CAS and keeps a Treiber
// stack of waiting threads; this one guards its state with a mutex and
// keeps the waiters' InterruptFlags (interrupt.h) in a vector, parking and
// unparking them as Java does.
#pragma once

#include <algorithm>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
#include <variant>
#include <vector>

#include "pools/core/pool_trace.h"
#include "pools/java/blocking_queue.h"
#include "pools/java/interrupt.h"

namespace poolscope::java {

// get() on a task that threw: cause() is what it threw.
class ExecutionException : public std::runtime_error {
 public:
  explicit ExecutionException(std::exception_ptr cause)
      : std::runtime_error("ExecutionException"), cause_(std::move(cause)) {}
  const std::exception_ptr& cause() const { return cause_; }

 private:
  std::exception_ptr cause_;
};

// get() on a cancelled task.
class CancellationException : public std::runtime_error {
 public:
  CancellationException() : std::runtime_error("CancellationException") {}
};

// A timed get() whose time passed first.
class TimeoutException : public std::runtime_error {
 public:
  TimeoutException() : std::runtime_error("TimeoutException") {}
};

// C++: set by FutureTask::run when the task threw (whether get() will see
// it, or a cancel came first), so that the worker's trace records
// task_threw for a task whose run() itself returned: submit()'s failures
// are still failures.
// (Per simulated thread inside a simulation: a switch may come between the
// set and the read.)
struct FutureCaughtTag;
inline bool& future_caught_exception() { return thread_value<bool, FutureCaughtTag>(); }

// PoolTrace::run, plus what a FutureTask kept: runs `job` as worker `w` and
// records started, then finished or threw. Returns what escaped job.fn.
inline std::exception_ptr run_traced(PoolTrace& trace, WorkerId w, Job& job) {
  trace.started(w, job.id);
  future_caught_exception() = false;
  try {
    job.fn();
  } catch (...) {
    trace.threw(w, job.id);
    return std::current_exception();
  }
  if (std::exchange(future_caught_exception(), false))
    trace.threw(w, job.id);
  else
    trace.finished(w, job.id);
  return nullptr;
}

template <class V>
class FutureTask final : public Cancellable {
 public:
  using Callable = std::move_only_function<V()>;

  // `clock`: what a timed get() waits on (the pool's). `done`: Java's
  // protected done() hook, called once the task is done, however
  // (ExecutorCompletionService's QueueingFuture overrides it; invoke_any uses it).
  FutureTask(Callable callable, Clock& clock, std::move_only_function<void()> done = {})
      : callable(std::move(callable)), clock_(clock), done_(std::move(done)) {
    if (!this->callable) throw NullPointerException();
  }

  // Runs the task unless it was cancelled or has run; keeps its result or
  // what it threw.
  void run() {
    {
      std::lock_guard g(m_);
      if (state != NEW || runner) return;
      runner = &current_interrupt();
    }
    std::optional<Value> result;
    std::exception_ptr ex;
    try {
      if constexpr (std::is_void_v<V>) {
        callable();
        result.emplace();
      } else {
        result.emplace(callable());
      }
    } catch (...) {
      ex = std::current_exception();
      future_caught_exception() = true;  // C++: for the trace (run_traced)
    }
    std::lock_guard g(m_);
    if (ex)
      setException(ex);
    else
      set(std::move(*result));
    // runner must be non-null until state is settled, to prevent concurrent
    // calls to run().
    runner = nullptr;
    // A cancel(true) that raced with the end of the task has, under our
    // lock, already interrupted this thread and reached INTERRUPTED: Java's
    // handlePossibleCancellationInterrupt has nothing to wait for.
  }

  bool cancel(bool mayInterruptIfRunning) {
    std::lock_guard g(m_);
    if (state != NEW) return false;
    state = mayInterruptIfRunning ? INTERRUPTING : CANCELLED;
    if (mayInterruptIfRunning) {
      if (runner) runner->set();
      state = INTERRUPTED;
    }
    finishCompletion();
    return true;
  }

  bool is_cancelled() const override {
    std::lock_guard g(m_);
    return state >= CANCELLED;
  }
  bool is_done() const {
    std::lock_guard g(m_);
    return state != NEW;
  }

  // Waits for the outcome: the result, or ExecutionException (the task
  // threw), CancellationException, or InterruptedException (this thread was
  // interrupted while waiting).
  V get() { return report(awaitDone(false, Time::max())); }
  // The same, waiting at most `timeout` on the pool's clock; then TimeoutException.
  V get(Nanos timeout) {
    Time deadline = deadline_after(clock_.now(), std::max(timeout, Nanos(0)));
    return report(awaitDone(true, deadline));
  }

 private:
  enum State { NEW, COMPLETING, NORMAL, EXCEPTIONAL, CANCELLED, INTERRUPTING, INTERRUPTED };
  using Value = std::conditional_t<std::is_void_v<V>, std::monostate, V>;

  // With m_ held.
  void set(Value v) {
    if (state != NEW) return;
    state = COMPLETING;
    outcome.emplace(std::move(v));
    state = NORMAL;
    finishCompletion();
  }
  void setException(std::exception_ptr t) {
    if (state != NEW) return;
    state = COMPLETING;
    exception_ = std::move(t);
    state = EXCEPTIONAL;
    finishCompletion();
  }
  // Unparks every waiting thread, then calls done().
  void finishCompletion() {
    for (InterruptFlag* q : waiters) q->unpark();
    waiters.clear();
    if (done_) done_();
  }

  // Waits for completion, or aborts on interrupt or timeout.
  State awaitDone(bool timed, Time deadline) {
    InterruptFlag& self = current_interrupt();
    std::unique_lock g(m_);
    for (;;) {
      if (state > COMPLETING) {
        removeWaiter(self);
        return state;
      }
      if (self.test_and_clear()) {
        removeWaiter(self);
        throw InterruptedException();
      }
      if (timed && clock_.now() >= deadline) {
        removeWaiter(self);
        throw TimeoutException();  // Java returns the state; get() then throws
      }
      if (std::find(waiters.begin(), waiters.end(), &self) == waiters.end()) waiters.push_back(&self);
      g.unlock();
      self.park_until(clock_, deadline);
      g.lock();
    }
  }
  void removeWaiter(InterruptFlag& self) { std::erase(waiters, &self); }

  V report(State s) {
    std::lock_guard g(m_);
    if (s == NORMAL) {
      if constexpr (std::is_void_v<V>)
        return;
      else
        return *outcome;
    }
    if (s >= CANCELLED) throw CancellationException();
    throw ExecutionException(exception_);
  }

  Callable callable;
  Clock& clock_;
  std::move_only_function<void()> done_;
  mutable Mutex m_;
  State state = NEW;                    // guarded by m_, as are the rest
  std::optional<Value> outcome;         // NORMAL's result
  std::exception_ptr exception_;        // EXCEPTIONAL's cause
  InterruptFlag* runner = nullptr;      // the thread running the task
  std::vector<InterruptFlag*> waiters;  // threads parked in get()
};

// Java's Future<V>, as submit() returns it.
template <class V>
using Future = std::shared_ptr<FutureTask<V>>;

}  // namespace poolscope::java
