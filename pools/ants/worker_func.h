// worker_func_generic.go: the worker of a PoolWithFunc<T>, which receives
// arguments instead of functions and calls the pool's one function with each.
// Like Go's generic worker it has a separate exit signal (here: an empty
// optional), because a T need not have a nil.
#pragma once

#include <functional>
#include <optional>

#include "pools/ants/pool_common.h"
#include "pools/ants/worker.h"

namespace poolscope::ants {

template <class T>
class GoWorkerWithFunc final : public WorkerThread {
 public:
  GoWorkerWithFunc(PoolCommon& pool, const std::function<void(T)>& fn) : WorkerThread(pool), fn_(fn) {}

  void finish(Label why) override {
    exitRule = why;
    args.send(std::nullopt);
  }
  // Go's inputArg: w.arg <- arg.
  void inputArg(TaskId t, T arg) { args.send(Arg{t, std::move(arg)}); }

 private:
  struct Arg {
    TaskId id;
    T value;
  };

  std::exception_ptr loop() override {
    PoolTrace& trace = pool_.trace();
    while (std::optional<Arg> arg = args.receive()) {
      trace.started(id_, arg->id);
      try {
        fn_(std::move(arg->value));
      } catch (...) {
        trace.threw(id_, arg->id);
        return std::current_exception();
      }
      trace.finished(id_, arg->id);
      if (!pool_.revertWorker(this)) return nullptr;
    }
    return nullptr;  // the exit signal
  }

  const std::function<void(T)>& fn_;
  WorkerChan<std::optional<Arg>> args;
};

}  // namespace poolscope::ants
