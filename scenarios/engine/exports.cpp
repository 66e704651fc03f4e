#include "scenarios/engine/exports.h"

#include <cctype>
#include <cstdio>

#include "scenarios/engine/atomic_file.h"

namespace poolscope::scenario {

namespace {

std::string us(std::int64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(ns) / 1000.0);
  return buf;
}

std::string json_string(std::string_view s) { return json(std::string(s)).dump(); }

std::string_view marker_name(EventKind k) {
  switch (k) {
    case EventKind::worker_spawned:
      return "spawned";
    case EventKind::worker_reaped:
      return "reaped";
    case EventKind::worker_exited:
      return "exited";
    case EventKind::task_refused:
      return "refused";
    case EventKind::task_threw:
      return "threw";
    case EventKind::task_dropped:
      return "dropped";
    case EventKind::cleaner_pass:
      return "cleaner pass";
    case EventKind::param_tuned:
      return "tuned";
    case EventKind::pool_state:
      return "state";
    case EventKind::pool_stopped:
      return "stopped";
    default:
      return kind_name(k);
  }
}

std::string safe_file_name(std::string_view name) {
  std::string out;
  for (char c : name)
    out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.') ? c : '_';
  return out.empty() ? "pool" : out;
}

}  // namespace

void write_chrome_trace(std::ostream& out, const Scenario& scenario, const metrics::RunMetrics& metrics) {
  out << "{\"traceEvents\":[\n";
  bool first = true;
  auto emit = [&](const std::string& event) {
    out << (first ? "" : ",\n") << event;
    first = false;
  };
  for (const metrics::PoolMetrics& pool : metrics.pools()) {
    const std::string pid = std::to_string(pool.info().id + 1);
    const std::string head = "{\"pid\":" + pid + ",";
    emit(head + "\"ph\":\"M\",\"name\":\"process_name\",\"args\":{\"name\":" +
         json_string(pool.info().name + " (" + pool.info().design + ")") + "}}");
    emit(head + "\"ph\":\"M\",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":" + pid + "}}");
    emit(head + "\"tid\":0,\"ph\":\"M\",\"name\":\"thread_name\",\"args\":{\"name\":\"pool\"}}");
    for (const metrics::WorkerLane& lane : pool.lanes()) {
      const std::string tid = std::to_string(lane.id);
      emit(head + "\"tid\":" + tid + ",\"ph\":\"M\",\"name\":\"thread_name\",\"args\":{\"name\":\"worker " + tid +
           "\"}}");
      emit(head + "\"tid\":" + tid + ",\"ph\":\"M\",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":" + tid +
           "}}");
      for (const metrics::TaskSlice& s : lane.slices) {
        std::int64_t end = s.end >= 0 ? s.end : pool.last_time();
        emit(head + "\"tid\":" + tid + ",\"ph\":\"X\",\"name\":\"task " + std::to_string(s.task) +
             "\",\"cat\":\"task\",\"ts\":" + us(s.start) + ",\"dur\":" + us(end - s.start) +
             ",\"args\":{\"task\":" + std::to_string(s.task) + ",\"threw\":" + (s.threw ? "true" : "false") + "}}");
      }
    }
    for (const metrics::Marker& m : pool.markers()) {
      std::string args = "{\"rule\":" + json_string(label_code(m.rule)) + ",\"why\":" + json_string(label_text(m.rule));
      if (m.task) args += ",\"task\":" + std::to_string(m.task);
      if (m.arg) args += ",\"arg\":" + std::to_string(m.arg);
      if (m.arg2) args += ",\"arg2\":" + std::to_string(m.arg2);
      args += "}";
      emit(head + "\"tid\":" + std::to_string(m.worker) + ",\"ph\":\"i\",\"s\":\"t\",\"cat\":\"rule\",\"name\":" +
           json_string(marker_name(m.kind)) + ",\"ts\":" + us(m.t) + ",\"args\":" + args + "}");
    }
    for (const metrics::CounterPoint& p : pool.series()) {
      emit(head + "\"ph\":\"C\",\"name\":\"pool\",\"ts\":" + us(p.t) +
           ",\"args\":{\"workers\":" + std::to_string(p.c.workers) + ",\"busy\":" + std::to_string(p.c.busy) +
           ",\"idle\":" + std::to_string(p.c.idle()) + ",\"queued\":" + std::to_string(p.c.queued) +
           ",\"blocked\":" + std::to_string(p.c.blocked) + "}}");
    }
  }
  out << "\n],\n\"otherData\":{\"generator\":\"poolscope " POOLSCOPE_VERSION "\",\"scenario\":"
      << json_string(scenario.name) << "}}\n";
}

std::vector<std::filesystem::path> write_csv_series(const std::filesystem::path& dir,
                                                    const metrics::RunMetrics& metrics) {
  std::filesystem::create_directories(dir);
  std::vector<std::filesystem::path> files;
  for (const metrics::PoolMetrics& pool : metrics.pools()) {
    auto path = dir / (safe_file_name(pool.info().name) + ".csv");
    write_atomically(path, [&](std::ostream& out) {
      out << "t_s,workers,busy,idle,queued,blocked\n";
      char line[128];
      for (const metrics::CounterPoint& p : pool.series()) {
        std::snprintf(line, sizeof line, "%.9f,%u,%u,%u,%u,%u\n", static_cast<double>(p.t) / 1e9, p.c.workers, p.c.busy,
                      p.c.idle(), p.c.queued, p.c.blocked);
        out << line;
      }
    });
    files.push_back(path);
  }
  return files;
}

}  // namespace poolscope::scenario
