// `java` behind the Pool interface, and its registry entry.
#include <climits>

#include "pools/core/duration.h"
#include "pools/core/registry.h"
#include "pools/core/submit_gate.h"
#include "pools/java/array_blocking_queue.h"
#include "pools/java/labels.h"
#include "pools/java/linked_blocking_queue.h"
#include "pools/java/priority_blocking_queue.h"
#include "pools/java/synchronous_queue.h"
#include "pools/java/thread_pool_executor.h"

namespace poolscope::java {
namespace {

std::unique_ptr<BlockingQueue> make_queue(const std::string& kind, int capacity) {
  if (kind == "SynchronousQueue") return std::make_unique<SynchronousQueue>();
  if (kind == "ArrayBlockingQueue") return std::make_unique<ArrayBlockingQueue>(capacity);
  if (kind == "LinkedBlockingQueue") return std::make_unique<LinkedBlockingQueue>(capacity == 0 ? INT_MAX : capacity);
  return std::make_unique<PriorityBlockingQueue>();
}

std::shared_ptr<RejectedExecutionHandler> make_handler(const std::string& policy) {
  if (policy == "CallerRunsPolicy") return std::make_shared<CallerRunsPolicy>();
  if (policy == "DiscardPolicy") return std::make_shared<DiscardPolicy>();
  if (policy == "DiscardOldestPolicy") return std::make_shared<DiscardOldestPolicy>();
  return std::make_shared<AbortPolicy>();
}

// IllegalArgumentException from a setter, as a config error on `param`.
template <class Set>
void set_or_explain(std::string_view param, const std::string& rule, Set set) {
  try {
    set();
  } catch (const IllegalArgumentException& e) {
    std::string what = e.what();
    throw ConfigError(
        "/" + std::string(param),
        "IllegalArgumentException" + (what == "IllegalArgumentException" ? " (" + rule + ")" : ": \"" + what + "\""));
  }
}

class JavaPool final : public Pool {
 public:
  JavaPool(const Params& p, const TraceTarget& target)
      : handler_(p.choice("handler")),
        impl_(static_cast<int>(p.integer("corePoolSize")), static_cast<int>(p.integer("maximumPoolSize")),
              p.duration("keepAliveTime"),
              make_queue(p.choice("workQueue"), static_cast<int>(p.integer("queueCapacity"))),
              std::make_shared<DefaultThreadFactory>(), make_handler(handler_), target),
        queue_(p.choice("workQueue")),
        capacity_(p.integer("queueCapacity")),
        prestart_(p.boolean("prestartAllCoreThreads")),
        submit_(p.choice("submitWith") == "submit") {
    if (p.boolean("allowCoreThreadTimeOut")) impl_.allow_core_thread_time_out(true);
    if (prestart_) impl_.prestart_all_core_threads();
  }
  ~JavaPool() override { shutdown(ShutdownMode::graceful); }

  std::string_view design() const override { return "java"; }

  SubmitResult submit(Task task, const SubmitOptions& options) override {
    return gate_.pass(impl_.trace(), [&] {
      try {
        if (submit_) {
          // AbstractExecutorService.submit: the task runs inside a FutureTask,
          // which keeps what it throws; nobody calls get(), as in a Java
          // program that drops the future.
          return impl_.execute_future(impl_.new_task_for<void>(std::move(task)), options.priority);
        }
        return impl_.execute(std::move(task), options.priority);
      } catch (const RejectedExecutionException&) {
        return SubmitResult::refuse(kRejected);
      } catch (const NullPointerException&) {
        throw;  // an empty task: the caller's mistake, not a fate
      } catch (...) {
        // CallerRunsPolicy ran the task on this thread and it threw (Java lets
        // it out of execute); the trace counted it as threw.
        return SubmitResult::accept();
      }
    });
  }

  // shutdown()/shutdownNow() first, then wait out the submits under way: an
  // execute that races with them is rejected or taken back (execute's
  // re-check), and a CallerRuns submitter running a task cannot hold up the
  // drop.
  void shutdown(ShutdownMode mode) override {
    std::size_t dropped = 0;
    const bool first = gate_.shut([&] {
      if (mode == ShutdownMode::now)
        dropped = InOrder<Runnable>(impl_.shutdown_now()).size();  // released in order (task.h)
      else
        impl_.shutdown();
    });
    impl_.close();
    if (first) impl_.trace().stopped(stopped_rule(mode), static_cast<std::int64_t>(dropped));
  }

  Counters state() const override {
    return Counters{static_cast<std::uint32_t>(impl_.get_pool_size()),
                    static_cast<std::uint32_t>(impl_.get_active_count()),
                    static_cast<std::uint32_t>(impl_.get_queue().size()), 0};
  }

  json params() const override {
    std::lock_guard g(m_);
    return {{"corePoolSize", impl_.get_core_pool_size()},
            {"maximumPoolSize", impl_.get_maximum_pool_size()},
            {"keepAliveTime", format_duration(impl_.get_keep_alive_time())},
            {"allowCoreThreadTimeOut", impl_.allows_core_thread_time_out()},
            {"workQueue", queue_},
            {"queueCapacity", capacity_},
            {"handler", handler_},
            {"prestartAllCoreThreads", prestart_},
            {"submitWith", submit_ ? "submit" : "execute"}};
  }

  void set_param(std::string_view name, const ParamValue& v) override {
    if (name == "corePoolSize") {
      set_or_explain(name, "corePoolSize < 0 or > maximumPoolSize",
                     [&] { impl_.set_core_pool_size(static_cast<int>(v.integer())); });
    } else if (name == "maximumPoolSize") {
      set_or_explain(name, "maximumPoolSize <= 0 or < corePoolSize",
                     [&] { impl_.set_maximum_pool_size(static_cast<int>(v.integer())); });
    } else if (name == "keepAliveTime") {
      set_or_explain(name, "keepAliveTime < 0", [&] { impl_.set_keep_alive_time(v.duration()); });
    } else if (name == "allowCoreThreadTimeOut") {
      set_or_explain(name, "", [&] { impl_.allow_core_thread_time_out(v.boolean()); });
    } else if (name == "handler") {
      std::lock_guard g(m_);
      handler_ = v.choice();
      impl_.set_rejected_execution_handler(make_handler(handler_));
    } else {
      Pool::set_param(name, v);
    }
  }

  const PoolTrace& trace() const override { return impl_.trace(); }

 private:
  mutable Mutex m_;  // guards handler_ (the name; the executor has its own copy of the policy)
  std::string handler_;
  ThreadPoolExecutor impl_;
  SubmitGate gate_;
  const std::string queue_;
  const std::int64_t capacity_;
  const bool prestart_;
  const bool submit_;  // submitWith: "submit" wraps each task in a FutureTask
};

ParamSpec size_param(std::string name, int def, int min, std::string help) {
  return ParamSpec{.name = std::move(name),
                   .type = ParamType::integer,
                   .default_value = def,
                   .min = min,
                   .max = COUNT_MASK,
                   .unit = "threads",
                   .live = true,
                   .help = std::move(help)};
}

Design java_design() {
  return Design{
      .name = "java",
      .summary =
          "java.util.concurrent.ThreadPoolExecutor (JDK 17): core threads first, then the work queue, then "
          "threads up to the maximum, then the rejection policy; keep-alive culls threads above core; a task that "
          "throws kills its thread if it came through execute(), not through submit() (submitWith), whose "
          "FutureTask keeps the exception",
      .docs = "docs/pools/java.md",
      .origin = "design",
      .runtime = "jvm",
      .params =
          {
              size_param("corePoolSize", 2, 0, "threads kept even when idle (unless allowCoreThreadTimeOut)"),
              size_param("maximumPoolSize", 4, 1, "threads allowed in all; reached only when the queue refuses"),
              ParamSpec{.name = "keepAliveTime",
                        .type = ParamType::duration,
                        .default_value = "60s",
                        .min = "0s",
                        .live = true,
                        .help = "how long a thread above core (or any, with allowCoreThreadTimeOut) waits for a task "
                                "before it exits"},
              ParamSpec{.name = "allowCoreThreadTimeOut",
                        .type = ParamType::boolean,
                        .default_value = false,
                        .live = true,
                        .help = "core threads time out too (needs keepAliveTime > 0)"},
              ParamSpec{
                  .name = "workQueue",
                  .type = ParamType::choice,
                  .default_value = "ArrayBlockingQueue",
                  .choices = {"SynchronousQueue", "ArrayBlockingQueue", "LinkedBlockingQueue", "PriorityBlockingQueue"},
                  .help = "where tasks wait: direct hand-off, bounded array, linked (unbounded unless "
                          "queueCapacity), or unbounded priority heap"},
              ParamSpec{.name = "queueCapacity",
                        .type = ParamType::integer,
                        .default_value = 16,
                        .min = 0,
                        .max = INT_MAX,
                        .unit = "tasks",
                        .help = "ArrayBlockingQueue's capacity (at least 1); LinkedBlockingQueue's (0 = unbounded); "
                                "ignored by the others"},
              ParamSpec{.name = "handler",
                        .type = ParamType::choice,
                        .default_value = "AbortPolicy",
                        .choices = {"AbortPolicy", "CallerRunsPolicy", "DiscardPolicy", "DiscardOldestPolicy"},
                        .live = true,
                        .help = "what happens to a task the saturated pool cannot take"},
              ParamSpec{.name = "prestartAllCoreThreads",
                        .type = ParamType::boolean,
                        .default_value = false,
                        .help = "start the core threads at construction instead of on the first tasks"},
              ParamSpec{.name = "submitWith",
                        .type = ParamType::choice,
                        .default_value = "execute",
                        .choices = {"execute", "submit"},
                        .help = "execute(task): a task that throws kills its thread, which is replaced; "
                                "submit(task): a FutureTask keeps the exception, and the thread lives on"},
          },
      .make = [](const Params& p, const TraceTarget& target) -> std::unique_ptr<Pool> {
        auto core = p.integer("corePoolSize"), max = p.integer("maximumPoolSize");
        if (max < core)
          throw ConfigError("/maximumPoolSize", "IllegalArgumentException (maximumPoolSize " + std::to_string(max) +
                                                    " < corePoolSize " + std::to_string(core) + ")");
        if (p.choice("workQueue") == "ArrayBlockingQueue" && p.integer("queueCapacity") < 1)
          throw ConfigError("/queueCapacity", "IllegalArgumentException (ArrayBlockingQueue capacity < 1)");
        if (p.boolean("allowCoreThreadTimeOut") && p.duration("keepAliveTime") <= Nanos(0))
          throw ConfigError("/allowCoreThreadTimeOut",
                            "IllegalArgumentException: \"Core threads must have nonzero keep alive times\"");
        return std::make_unique<JavaPool>(p, target);
      },
  };
}

}  // namespace

POOLSCOPE_REGISTER_DESIGN(java_design);

}  // namespace poolscope::java
