// What each design calls the parameters the findings name: its cap on
// workers, the workers it keeps however idle, its idle limit, and what makes
// its submitters wait. Read from the pool's config at the end of the run
// (params(), defaults filled in), so a finding names the value that ran.
#include <algorithm>

#include "pools/core/duration.h"
#include "scenarios/engine/findings/rules.h"

namespace poolscope::findings {

namespace {

const json& config(const PoolView& v) { return v.outcome.config; }

std::optional<std::int64_t> integer(const PoolView& v, const char* key) {
  const json& c = config(v);
  if (!c.is_object() || !c.contains(key) || !c[key].is_number_integer()) return std::nullopt;
  return c[key].get<std::int64_t>();
}

std::string text(const PoolView& v, const char* key) {
  const json& c = config(v);
  return c.is_object() && c.contains(key) && c[key].is_string() ? c[key].get<std::string>() : "";
}

bool flag(const PoolView& v, const char* key) {
  const json& c = config(v);
  return c.is_object() && c.contains(key) && c[key].is_boolean() && c[key].get<bool>();
}

std::optional<std::int64_t> duration(const PoolView& v, const char* key) {
  auto d = parse_duration(text(v, key));
  if (!d) return std::nullopt;
  return d->count();
}

// The labs' pools (references and students' copies alike) take their
// parameters, and keep their workers, the way the design they follow does:
// lab 01 and lab 04 are nginx's fixed pool, lab 02 is fasthttp's reaping
// (MaxWorkersCount, MaxIdleWorkerDuration). Lab 03 is coremax with Java's
// keep-alive, so its names are its own (below).
const std::string& design(const PoolView& v) {
  static const std::string nginx = "nginx", fasthttp = "fasthttp";
  const std::string& d = v.outcome.design;
  if (d.starts_with("lab01-") || d.starts_with("lab04-")) return nginx;
  if (d.starts_with("lab02-")) return fasthttp;
  return d;
}

bool lab03(const PoolView& v) { return v.outcome.design.starts_with("lab03-"); }

}  // namespace

std::optional<std::int64_t> config_integer(const PoolView& v, const char* key) { return integer(v, key); }
std::string config_text(const PoolView& v, const char* key) { return text(v, key); }

std::optional<std::int64_t> max_workers(const PoolView& v) {
  const std::string& d = design(v);
  std::optional<std::int64_t> n;
  if (d == "fasthttp") n = integer(v, "MaxWorkersCount");
  else if (d == "ants") n = integer(v, "size");
  else if (d == "ants-multi") {
    auto pools = integer(v, "size"), per = integer(v, "sizePerPool");
    if (pools && per && *per > 0) n = *pools * *per;
  } else if (d == "gammazero") n = std::max<std::int64_t>(integer(v, "maxWorkers").value_or(1), 1);
  else if (d == "java") n = integer(v, "maximumPoolSize");
  else if (d == "coremax" || lab03(v)) n = integer(v, "maxSize");
  else if (d == "nginx") n = integer(v, "threads");
  else if (d == "gopool") n = integer(v, "cap");
  else if (d == "weedge") n = integer(v, "maxWorkerNum");
  else if (d == "phpfpm") n = integer(v, "pm.max_children");
  if (n && *n <= 0) return std::nullopt;  // ants' size <= 0: unlimited
  return n;
}

std::int64_t floor_workers(const PoolView& v) {
  const std::string& d = design(v);
  if (d == "java") return flag(v, "allowCoreThreadTimeOut") ? 0 : integer(v, "corePoolSize").value_or(0);
  if (d == "coremax") return integer(v, "coreSize").value_or(0);
  if (lab03(v)) return flag(v, "allowCoreThreadTimeOut") ? 0 : integer(v, "coreSize").value_or(0);
  if (d == "weedge") return integer(v, "minWorkerNum").value_or(0);
  if (d == "nginx") return integer(v, "threads").value_or(0);
  if (d == "phpfpm") {
    const std::string pm = text(v, "pm");
    if (pm == "static") return integer(v, "pm.max_children").value_or(0);
    if (pm == "dynamic") return integer(v, "pm.max_spare_servers").value_or(0);
  }
  if (d.starts_with("redis")) return v.summary.peak_workers;  // a thread per job type or I/O thread, for life
  return 0;
}

std::optional<std::int64_t> idle_limit_ns(const PoolView& v) {
  const std::string& d = design(v);
  auto positive = [](std::optional<std::int64_t> ns) -> std::optional<std::int64_t> {
    return ns && *ns > 0 ? ns : std::nullopt;
  };
  if (d == "fasthttp") return positive(duration(v, "MaxIdleWorkerDuration")).value_or(10'000'000'000);  // <= 0 means 10s
  if (d == "ants" || d == "ants-multi")
  {
    if (flag(v, "DisablePurge")) return std::nullopt;
    return positive(duration(v, "ExpiryDuration")).value_or(1'000'000'000);
  }
  if (d == "gammazero") {
    auto t = duration(v, "idleTimeout");
    if (t && *t < 0) return std::nullopt;  // < 0: never
    return positive(t).value_or(2'000'000'000);
  }
  if (d == "java" || lab03(v)) return positive(duration(v, "keepAliveTime"));
  if (d == "weedge") return std::int64_t{30'000'000'000};  // shrinks after 30 s (docs/pools/weedge.md)
  if (d == "phpfpm") {
    if (text(v, "pm") == "ondemand") return positive(duration(v, "pm.process_idle_timeout"));
    return std::int64_t{1'000'000'000};  // the master's once-a-second tick stops one spare child
  }
  if (d == "gopool" || d == "spawn") return std::int64_t{0};  // a worker ends the moment it has nothing to do
  return std::nullopt;  // coremax (seed 001's flaw), nginx, redis: never
}

std::string max_knob(const std::string& d) {
  if (d == "fasthttp") return "MaxWorkersCount";
  if (d == "ants") return "size";
  if (d == "ants-multi") return "size, sizePerPool, lbs";
  if (d == "gammazero") return "maxWorkers";
  if (d == "java") return "maximumPoolSize, workQueue, queueCapacity";
  if (d == "coremax") return "maxSize, taskQueueCap";
  if (d == "nginx") return "threads, max_queue";
  if (d == "gopool") return "cap";
  if (d == "weedge") return "maxWorkerNum, taskChSize";
  if (d == "phpfpm") return "pm.max_children, pm.max_spawn_rate";
  return "";
}

std::string idle_knob(const std::string& d) {
  if (d == "fasthttp") return "MaxIdleWorkerDuration";
  if (d == "ants" || d == "ants-multi") return "ExpiryDuration";
  if (d == "gammazero") return "idleTimeout";
  if (d == "java") return "keepAliveTime, corePoolSize";
  if (d == "weedge") return "minWorkerNum";
  if (d == "phpfpm") return "pm.max_spare_servers, pm.process_idle_timeout";
  if (d == "gopool") return "ScaleThreshold (its workers exit as the list empties: the design)";
  if (d == "coremax") return "none: coreSize, maxSize (the design has no idle limit)";
  return "";
}

std::string blocking_knob(const std::string& d) {
  if (d == "ants" || d == "ants-multi") return "size, Nonblocking, MaxBlockingTasks";
  if (d == "coremax") return "maxSize, isBlocking, blockMaxNum";
  if (d == "weedge") return "taskChSize, maxWorkerNum";
  if (d == "java") return "handler, maximumPoolSize, queueCapacity";
  return max_knob(d);
}

}  // namespace poolscope::findings
