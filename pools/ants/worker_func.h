// worker_func_generic.go: the worker of a PoolWithFunc<T>, which receives
// arguments instead of functions and calls the pool's one function with each.
// Like Go's generic worker it has a separate exit signal (here: an empty
// optional), because a T need not have a nil.
#pragma once

#include <functional>
#include <optional>

#include "pools/ants/pool_common.h"
#include "pools/ants/worker.h"
#include "pools/core/go/defer.h"

namespace poolscope::ants {

// C++: what travels on a worker's arg channel: Go's arg with the id the trace
// gave it when it was submitted, as a Job is a func() with its id
// (pools/core/task.h).
template <class T>
struct Arg {
  TaskId id;
  T value;
};

template <class T>
class GoWorkerWithFunc final : public WorkerThread {
 public:
  GoWorkerWithFunc(PoolCommon& pool, const std::function<void(T)>& fn) : WorkerThread(pool), fn(fn) {}

  // run starts a goroutine to repeat the process that performs the function
  // calls.
  void run() override {
    addRunning();
    go([this] {
      std::exception_ptr panic;  // what recover() returns
      go::Defer deferred([&] { exit(panic); });

      for (std::optional<Arg<T>> arg; args.recv(arg);) {  // for arg := range w.arg
        if (!arg) return;                                 // the exit signal
        PoolTrace& trace = pool.trace();
        trace.started(id_, arg->id);
        try {
          fn(std::move(arg->value));  // w.pool.fn(arg)
        } catch (...) {
          trace.threw(id_, arg->id);
          panic = std::current_exception();
          return;
        }
        trace.finished(id_, arg->id);
        if (!pool.revertWorker(this)) return;
      }
    });
  }

  void finish(Label why) override {
    exitRule = why;
    args.send(std::nullopt);
  }
  // Go's inputArg: w.arg <- arg.
  void inputArg(Arg<T> arg) { args.send(std::move(arg)); }

 private:
  const std::function<void(T)>& fn;
  go::Chan<std::optional<Arg<T>>> args{static_cast<std::size_t>(workerChanCap())};
};

}  // namespace poolscope::ants
