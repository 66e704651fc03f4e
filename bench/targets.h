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

// Whether `design` refuses a task while every one of its workers is busy
// (fasthttp's Serve, and lab 02's copy of it): its saturated runs measure
// refusals and retries as much as dispatch.
inline bool refuses_when_busy(const Design& design) {
  return design.name == "fasthttp" || design.name.starts_with("lab02-");
}

// Whether every key of `config` is a parameter of `design` (a lab config is
// used only on a pool that takes the lab's parameters).
inline bool takes(const Design& design, const json& config) {
  for (const auto& [key, value] : config.items())
    if (std::none_of(design.params.begin(), design.params.end(), [&](const ParamSpec& p) { return p.name == key; }))
      return false;
  return true;
}

// The labs' pools, reference solution or a student's copy alike (named
// "labNN-..."), in their own parameters; empty if `design` is none of them
// or does not take them.
inline json lab_config(const Design& design, int n, Purpose purpose) {
  const std::string& d = design.name;
  json config;
  if (d.starts_with("lab01-"))  // nginx: fixed threads, a queue long enough that no post overflows
    config = {{"threads", n}, {"max_queue", 1 << 20}};
  else if (d.starts_with("lab02-"))  // fasthttp's MaxWorkersCount; its cleaner reaps in churn
    config = {{"MaxWorkersCount", n}};
  else if (d.starts_with("lab03-")) {
    if (purpose == Purpose::churn)  // workers beyond core, so keep-alive has someone to reap
      config = {{"coreSize", n / 2}, {"maxSize", n}, {"taskQueueCap", 0}, {"isBlocking", true}};
    else  // as coremax: core = max = N, and a submitter waits rather than being rejected
      config = {{"coreSize", n}, {"maxSize", n}, {"taskQueueCap", 1 << 17}, {"isBlocking", true}};
  } else if (d.starts_with("lab04-"))  // a full queue blocks the submitter (ants), never refuses
    config = {{"threads", n}, {"max_queue", 1 << 20}, {"on_full", "block"}};
  else
    return json();
  return takes(design, config) ? config : json();
}

// The config that gives `design` N workers, and how many it really gets. The
// known designs are spelled out (each in its original's terms); any other
// design gets N for every integer parameter counted in workers or threads,
// within the parameter's range (so it may get fewer: `workers` says).
struct BenchConfig {
  json config;
  int workers;
};
inline BenchConfig bench_config(const Design& design, int n, Purpose purpose) {
  const std::string& d = design.name;
  if (d == "spawn") return {json::object(), n};
  if (d == "fasthttp") return {{{"MaxWorkersCount", n}}, n};
  if (d == "ants") return {{{"size", n}}, n};
  if (d == "ants-multi") {
    int pools = std::min(n, 2);  // its default of 2 pools, but never an empty one
    return {{{"size", pools}, {"sizePerPool", n / pools}}, pools * (n / pools)};
  }
  if (d == "gammazero") return {{{"maxWorkers", n}}, n};
  if (d == "java") {
    if (purpose == Purpose::churn)
      return {{{"corePoolSize", 0}, {"maximumPoolSize", n}, {"workQueue", "SynchronousQueue"}}, n};
    return {{{"corePoolSize", n}, {"maximumPoolSize", n}, {"workQueue", "LinkedBlockingQueue"}, {"queueCapacity", 0}},
            n};
  }
  if (d == "coremax")  // the seed's pool never reaps: churn shows it
    return {{{"coreSize", n}, {"maxSize", n}, {"taskQueueCap", 1 << 20}, {"isBlocking", true}}, n};
  if (d == "redis-bio") return {json::object(), 3};  // one thread per job type, whatever n is
  if (d == "phpfpm") {
    // php-fpm counts children, not workers or threads: the rule below would
    // set none and leave it at www.conf's pm.max_children = 5 while its rows
    // claimed n (sleep/: 100,000 tasks of 10 ms on 5 children, 200 s a run).
    // In php-fpm.conf's own terms instead; the listen backlog, its only
    // queue, long enough for every task (php-fpm takes any value; a kernel
    // caps it at net.core.somaxconn, which a server raises to match).
    if (purpose == Purpose::churn)  // a child forked per connection that finds none idle, stopped once idle
      return {{{"pm", "ondemand"}, {"pm.max_children", n}, {"listen.backlog", 1 << 20}}, n};
    return {{{"pm", "static"}, {"pm.max_children", n}, {"listen.backlog", 1 << 20}}, n};  // n children, forked at start
  }
  if (json lab = lab_config(design, n, purpose); !lab.is_null()) return {lab, n};
  json config = json::object();
  std::int64_t granted = n;
  for (const ParamSpec& p : design.params) {
    if (p.type != ParamType::integer || (p.unit != "workers" && p.unit != "threads")) continue;
    std::int64_t v = n;
    if (p.min.is_number()) v = std::max(v, p.min.get<std::int64_t>());
    if (p.max.is_number()) v = std::min(v, p.max.get<std::int64_t>());
    config[p.name] = v;
    granted = std::min(granted, v);
  }
  return {config, static_cast<int>(granted)};
}
inline json config_for(const Design& design, int n, Purpose purpose) { return bench_config(design, n, purpose).config; }

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
  // How many workers `make(n, ...)` really gives (n, unless a parameter's range caps it).
  std::function<int(int workers, Purpose)> granted = [](int n, Purpose) { return n; };
  bool refuses_when_busy = false;  // refuses_when_busy(design)
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
    out.push_back(
        {name, false,
         [name](int n, Purpose purpose, const TraceTarget& trace) -> std::unique_ptr<Executor> {
           const Registry& r = Registry::global();
           return std::make_unique<DesignExecutor>(r.create(name, config_for(r.get(name), n, purpose), trace));
         },
         [name](int n, Purpose purpose) { return bench_config(Registry::global().get(name), n, purpose).workers; },
         refuses_when_busy(Registry::global().get(name))});
  }
  return out;
}

}  // namespace poolscope::bench
