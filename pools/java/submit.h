// What ThreadPoolExecutor inherits from AbstractExecutorService (OpenJDK
// 17): invokeAll and invokeAny, built on newTaskFor and execute as Java's
// are (submit is in the class itself). Included at the end of
// thread_pool_executor.h, because they are templates.
#pragma once

#include <deque>

namespace poolscope::java {

namespace detail {
// Cancels every future (invokeAll's and invokeAny's cancelAll).
template <class V>
void cancelAll(const std::vector<Future<V>>& futures) {
  for (const Future<V>& f : futures) f->cancel(true);
}

// ExecutorCompletionService's completionQueue, as invokeAny uses it: the
// futures that are done, in the order they finished; its owner parks on its
// own interrupt flag until one arrives.
template <class V>
class CompletionQueue {
 public:
  explicit CompletionQueue(InterruptFlag& owner) : owner_(owner) {}
  void add(Future<V> f) {
    std::lock_guard g(m_);
    done_.push_back(std::move(f));
    owner_.unpark();
  }
  // poll(): a done future, or null.
  Future<V> poll() {
    std::lock_guard g(m_);
    if (done_.empty()) return nullptr;
    Future<V> f = std::move(done_.front());
    done_.pop_front();
    return f;
  }
  // take() / poll(timeout): waits (until `deadline` on `clock`); null on
  // time-out; InterruptedException if the owner is interrupted.
  Future<V> await(Clock& clock, Time deadline) {
    for (;;) {
      if (Future<V> f = poll()) return f;
      throw_if_interrupted(owner_);
      if (clock.now() >= deadline) return nullptr;
      owner_.park_until(clock, deadline);
    }
  }

 private:
  InterruptFlag& owner_;
  Mutex m_;
  std::deque<Future<V>> done_;
};
}  // namespace detail

template <class V>
std::vector<Future<V>> ThreadPoolExecutor::invoke_all(std::vector<std::move_only_function<V()>> tasks) {
  std::vector<Future<V>> futures;
  futures.reserve(tasks.size());
  try {
    for (auto& t : tasks) {
      Future<V> f = new_task_for<V>(std::move(t));
      futures.push_back(f);
      execute_future(f);
    }
    for (const Future<V>& f : futures) {
      if (!f->is_done()) {
        try {
          f->get();
        } catch (const CancellationException&) {
        } catch (const ExecutionException&) {
        }
      }
    }
    return futures;
  } catch (...) {
    detail::cancelAll(futures);
    throw;
  }
}

template <class V>
std::vector<Future<V>> ThreadPoolExecutor::invoke_all(std::vector<std::move_only_function<V()>> tasks, Nanos timeout) {
  Clock& clock = trace_.clock();
  const Time deadline = deadline_after(clock.now(), std::max(timeout, Nanos(0)));
  std::vector<Future<V>> futures;
  futures.reserve(tasks.size());
  std::size_t j = 0;
  try {
    // Java creates every future first, so that a time-out during the
    // executes leaves them all cancelled.
    for (auto& t : tasks) futures.push_back(new_task_for<V>(std::move(t)));
    // Interleave time checks and calls to execute in case executor doesn't
    // have any/much parallelism.
    for (std::size_t i = 0; i < futures.size(); i++) {
      if (clock.now() >= deadline) {
        detail::cancelAll(futures);  // timedOut
        return futures;
      }
      execute_future(futures[i]);
    }
    for (; j < futures.size(); j++) {
      const Future<V>& f = futures[j];
      if (!f->is_done()) {
        try {
          f->get(deadline - clock.now());
        } catch (const CancellationException&) {
        } catch (const ExecutionException&) {
        } catch (const TimeoutException&) {
          detail::cancelAll(futures);  // timedOut: cancel those from j on
          return futures;
        }
      }
    }
    return futures;
  } catch (...) {
    detail::cancelAll(futures);
    throw;
  }
}

template <class V>
V ThreadPoolExecutor::invoke_any(std::vector<std::move_only_function<V()>> tasks) {
  return doInvokeAny<V>(tasks, false, Nanos(0));
}

template <class V>
V ThreadPoolExecutor::invoke_any(std::vector<std::move_only_function<V()>> tasks, Nanos timeout) {
  return doInvokeAny<V>(tasks, true, timeout);
}

// The main mechanics of invokeAny: submit one task; while none is done,
// submit the next; return the first result; cancel the rest.
template <class V>
V ThreadPoolExecutor::doInvokeAny(std::vector<std::move_only_function<V()>>& tasks, bool timed, Nanos timeout) {
  std::size_t ntasks = tasks.size();
  if (ntasks == 0) throw IllegalArgumentException();
  for (const auto& t : tasks)
    if (!t) throw NullPointerException();
  std::vector<Future<V>> futures;
  futures.reserve(ntasks);
  auto ecs = std::make_shared<detail::CompletionQueue<V>>(current_interrupt());
  // ExecutorCompletionService.submit: a future whose done() queues it.
  auto submitOne = [&](std::move_only_function<V()>& task) {
    auto self = std::make_shared<std::weak_ptr<FutureTask<V>>>();
    Future<V> f = new_task_for<V>(std::move(task), [self, queue = std::weak_ptr(ecs)] {
      if (auto q = queue.lock())
        if (auto me = self->lock()) q->add(me);
    });
    *self = f;
    futures.push_back(f);
    execute_future(f);
  };
  Clock& clock = trace_.clock();
  const Time deadline = timed ? deadline_after(clock.now(), std::max(timeout, Nanos(0))) : Time::max();
  struct CancelAll {
    std::vector<Future<V>>& futures;
    ~CancelAll() { detail::cancelAll(futures); }
  } finally{futures};

  std::exception_ptr ee;  // the last ExecutionException
  auto it = tasks.begin();
  // Start one task for sure; the rest incrementally.
  submitOne(*it++);
  --ntasks;
  int active = 1;
  for (;;) {
    Future<V> f = ecs->poll();
    if (!f) {
      if (ntasks > 0) {
        --ntasks;
        submitOne(*it++);
        ++active;
      } else if (active == 0) {
        break;
      } else if (timed) {
        f = ecs->await(clock, deadline);
        if (!f) throw TimeoutException();
      } else {
        f = ecs->await(clock, Time::max());
      }
    }
    if (f) {
      --active;
      try {
        return f->get();
      } catch (const ExecutionException&) {
        ee = std::current_exception();
      } catch (const CancellationException&) {
        ee = std::make_exception_ptr(ExecutionException(std::current_exception()));
      }
    }
  }
  if (!ee) ee = std::make_exception_ptr(ExecutionException(nullptr));
  std::rethrow_exception(ee);
}

}  // namespace poolscope::java
