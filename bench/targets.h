// Every row of the benchmark tables: the references (bench/references.h),
// then every design in the registry, labs included, so a student's pool gets
// its numbers by registering itself.
#pragma once

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/references.h"
#include "pools/core/registry.h"

namespace poolscope::bench {

// What a benchmark needs of the pool's configuration.
enum class Purpose {
  fixed,  // exactly N workers and room for every task (a fixed pool: Executors.newFixedThreadPool)
  churn,  // up to N workers that come and go (Executors.newCachedThreadPool, bounded)
};

// The config that gives `design` N workers. The known designs are spelled
// out (each in its original's terms); any other design, a lab pool say, gets
// N for every integer parameter counted in workers or threads.
inline json config_for(const Design& design, int n, Purpose purpose) {
  const std::string& d = design.name;
  if (d == "spawn") return json::object();
  if (d == "fasthttp") return {{"MaxWorkersCount", n}};
  if (d == "ants") return {{"size", n}};
  if (d == "ants-multi") {
    int pools = std::min(n, 2);  // its default of 2 pools, but never an empty one
    return {{"size", pools}, {"sizePerPool", n / pools}};
  }
  if (d == "gammazero") return {{"maxWorkers", n}};
  if (d == "java") {
    if (purpose == Purpose::churn)
      return {{"corePoolSize", 0}, {"maximumPoolSize", n}, {"workQueue", "SynchronousQueue"}};
    return {{"corePoolSize", n}, {"maximumPoolSize", n}, {"workQueue", "LinkedBlockingQueue"}, {"queueCapacity", 0}};
  }
  if (d == "coremax")  // the seed's pool never reaps: churn shows it
    return {{"coreSize", n}, {"maxSize", n}, {"taskQueueCap", 1 << 20}, {"isBlocking", true}};
  json config = json::object();
  for (const ParamSpec& p : design.params) {
    if (p.type != ParamType::integer || (p.unit != "workers" && p.unit != "threads")) continue;
    std::int64_t v = n;
    if (p.min.is_number()) v = std::max(v, p.min.get<std::int64_t>());
    if (p.max.is_number()) v = std::min(v, p.max.get<std::int64_t>());
    config[p.name] = v;
  }
  return config;
}

// A registered design behind the Executor interface.
class DesignExecutor final : public Executor {
 public:
  explicit DesignExecutor(std::unique_ptr<Pool> pool) : pool_(std::move(pool)) {}
  bool offer(Task task) override {
    SubmitResult r = pool_->submit(std::move(task));
    if (r.fate == Fate::closed) throw std::logic_error("submit to a closed pool");
    return r.accepted();
  }
  void shutdown() override { pool_->shutdown(ShutdownMode::graceful); }

 private:
  std::unique_ptr<Pool> pool_;
};

struct Target {
  std::string name;
  bool reference = false;  // not a design: never traced
  std::function<std::unique_ptr<Executor>(int workers, Purpose, const TraceTarget&)> make;
};

inline std::vector<Target> targets() {
  std::vector<Target> out;
  auto reference = [&](std::string name, auto make) {
    out.push_back({std::move(name), true, [make](int n, Purpose, const TraceTarget&) { return make(n); }});
  };
  reference("plain", [](int n) -> std::unique_ptr<Executor> { return std::make_unique<PlainPool>(n); });
#ifdef POOLSCOPE_BENCH_BOOST
  reference("asio", [](int n) -> std::unique_ptr<Executor> { return std::make_unique<AsioPool>(n); });
#endif
#ifdef POOLSCOPE_BENCH_TBB
  reference("tbb", [](int n) -> std::unique_ptr<Executor> { return std::make_unique<TbbPool>(n); });
#endif
  for (const std::string& name : Registry::global().names()) {
    out.push_back({name, false, [name](int n, Purpose purpose, const TraceTarget& trace) -> std::unique_ptr<Executor> {
                     const Registry& r = Registry::global();
                     return std::make_unique<DesignExecutor>(
                         r.create(name, config_for(r.get(name), n, purpose), trace));
                   }});
  }
  return out;
}

}  // namespace poolscope::bench
