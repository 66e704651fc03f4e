// `redis-io` and `redis-bio` behind the Pool interface, and their registry
// entries. redis-io's submit is a reply the main thread has to write
// (putClientInPendingWriteQueue); redis-bio's is a background job, its type
// chosen by the `jobType` parameter.
#include <atomic>
#include <limits>
#include <mutex>

#include "pools/core/duration.h"
#include "pools/core/registry.h"
#include "pools/core/submit_gate.h"
#include "pools/redis/bio.h"
#include "pools/redis/server.h"

namespace poolscope::redis {
namespace {

class RedisIOPool final : public Pool {
 public:
  RedisIOPool(const Params& p, const TraceTarget& target)
      : server_(Config{.io_threads_num = static_cast<int>(p.integer("io-threads")),
                       .hz = static_cast<int>(p.integer("hz")),
                       .spins_ = p.integer("spins"),
                       .io_threads_do_reads = p.boolean("io-threads-do-reads"),
                       .read_ = p.duration("read"),
                       .exec_ = p.duration("exec")},
                target) {}
  ~RedisIOPool() override { shutdown(ShutdownMode::graceful); }

  std::string_view design() const override { return "redis-io"; }

  SubmitResult submit(Task task, const SubmitOptions&) override {
    return gate_.pass(server_.trace(), [&] {
      return server_.putClientInPendingWriteQueue(std::move(task)) != 0 ? SubmitResult::accept()
                                                                        : SubmitResult::refuse(rules::kShutdown);
    });
  }

  // graceful: every pending reply is written, then the threads end; now:
  // the pending replies are dropped (Redis has no such notion).
  void shutdown(ShutdownMode mode) override {
    const bool first = gate_.shut();
    const std::size_t dropped = server_.shutdown_(mode == ShutdownMode::now);
    if (first) server_.trace().stopped(stopped_rule(mode), static_cast<std::int64_t>(dropped));
  }

  Counters state() const override { return server_.state(); }
  json params() const override {
    return {{"io-threads", server_.config().io_threads_num},
            {"hz", server_.config().hz},
            {"spins", server_.config().spins_},
            {"io-threads-do-reads", server_.config().io_threads_do_reads},
            {"read", format_duration(server_.config().read_)},
            {"exec", format_duration(server_.config().exec_)}};
  }
  const PoolTrace& trace() const override { return server_.trace(); }

 private:
  Server server_;
  SubmitGate gate_;
};

class RedisBioPool final : public Pool {
 public:
  RedisBioPool(const Params& p, const TraceTarget& target) : job_type_(p.choice("jobType")), bio_(target) {}
  ~RedisBioPool() override { shutdown(ShutdownMode::graceful); }

  std::string_view design() const override { return "redis-bio"; }

  SubmitResult submit(Task task, const SubmitOptions& options) override {
    return gate_.pass(bio_.trace(), [&] {
      return bio_.bioSubmitJob(type_of(options), std::move(task)) != 0 ? SubmitResult::accept()
                                                                       : SubmitResult::refuse(rules::kShutdown);
    });
  }

  void shutdown(ShutdownMode mode) override {
    const bool first = gate_.shut();
    const std::size_t dropped = bio_.bioKillThreads(mode == ShutdownMode::now);
    if (first) bio_.trace().stopped(stopped_rule(mode), static_cast<std::int64_t>(dropped));
  }

  Counters state() const override { return bio_.state(); }
  json params() const override { return {{"jobType", job_type_}}; }
  const PoolTrace& trace() const override { return bio_.trace(); }

 private:
  // A scenario's task has no job type: the parameter picks one.
  int type_of(const SubmitOptions& options) {
    if (job_type_ == "round-robin") return static_cast<int>(next_++ % BIO_NUM_OPS);
    if (job_type_ == "by-priority") return ((options.priority % BIO_NUM_OPS) + BIO_NUM_OPS) % BIO_NUM_OPS;
    if (job_type_ == "BIO_AOF_FSYNC") return BIO_AOF_FSYNC;
    if (job_type_ == "BIO_LAZY_FREE") return BIO_LAZY_FREE;
    return BIO_CLOSE_FILE;
  }

  std::string job_type_;
  std::atomic<unsigned> next_{0};
  Bio bio_;
  SubmitGate gate_;
};

Design redis_io_design() {
  return Design{
      .name = "redis-io",
      .summary = "one main thread deals each loop iteration's pending writes round-robin over itself and the I/O "
                 "threads, then busy-waits for them; threaded only at 2 x io-threads pending; no queue, no growth",
      .docs = "docs/pools/redis.md",
      .origin = "design",
      .runtime = "os-threads",
      .params =
          {
              {.name = "io-threads",
               .type = ParamType::integer,
               .default_value = kDefaultIOThreads,
               .min = 1,
               .max = IO_THREADS_MAX_NUM,
               .unit = "threads",
               .help = "threads writing replies, the main thread included (Redis' default 1: threaded I/O off)"},
              {.name = "hz",
               .type = ParamType::integer,
               .default_value = CONFIG_DEFAULT_HZ,
               .min = CONFIG_MIN_HZ,
               .max = CONFIG_MAX_HZ,
               .unit = "per second",
               .help = "serverCron's frequency; each run parks the I/O threads if fewer than 2 x io-threads replies "
                       "are pending"},
              {.name = "spins",
               .type = ParamType::integer,
               .default_value = kIOThreadSpins,
               .min = 0,
               .max = std::numeric_limits<std::int32_t>::max(),
               .unit = "reads",
               .help = "how many times an idle I/O thread reads its pending count before it tries its mutex (Redis: "
                       "1000000, hard-coded: about 0.23 ms of bare reads)"},
              {.name = "io-threads-do-reads",
               .type = ParamType::boolean,
               .default_value = false,
               .help = "while the I/O threads are active, they also read the queries (Redis' default no: the main "
                       "thread reads)"},
              {.name = "read",
               .type = ParamType::duration,
               .default_value = "0s",
               .help = "CPU to read one client's query: on the main thread, or on the I/O threads with "
                       "io-threads-do-reads while they are active"},
              {.name = "exec",
               .type = ParamType::duration,
               .default_value = "0s",
               .help = "CPU to parse and execute one client's command: always on the main thread, between the "
                       "fan-outs"},
          },
      .make = [](const Params& p, const TraceTarget& target) { return std::make_unique<RedisIOPool>(p, target); },
  };
}

Design redis_bio_design() {
  return Design{
      .name = "redis-bio",
      .summary = "one background thread per job type (close file, AOF fsync, lazy free), each with its own "
                 "unbounded FIFO list: a job waits only behind jobs of its own type",
      .docs = "docs/pools/redis.md",
      .origin = "design",
      .runtime = "os-threads",
      .params =
          {
              {.name = "jobType",
               .type = ParamType::choice,
               .default_value = "BIO_LAZY_FREE",
               .choices = {"BIO_LAZY_FREE", "BIO_AOF_FSYNC", "BIO_CLOSE_FILE", "by-priority", "round-robin"},
               .help = "which type (so which thread) a task is. In Redis the caller decides: lazy free is always "
                       "BIO_LAZY_FREE, fsync always BIO_AOF_FSYNC, so one kind of job runs on one thread; "
                       "by-priority (priority modulo 3) mixes kinds deliberately; round-robin spreads one kind over "
                       "three threads, which Redis never does"},
          },
      .make = [](const Params& p, const TraceTarget& target) { return std::make_unique<RedisBioPool>(p, target); },
  };
}

}  // namespace

POOLSCOPE_REGISTER_DESIGN(redis_io_design);
POOLSCOPE_REGISTER_DESIGN(redis_bio_design);

}  // namespace poolscope::redis
