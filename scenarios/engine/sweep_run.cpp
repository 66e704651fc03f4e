#include "scenarios/engine/sweep_run.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <thread>

#include "scenarios/engine/atomic_file.h"
#include "scenarios/engine/explore.h"
#include "scenarios/engine/result_json.h"

namespace poolscope::scenario::sweep {

namespace {

namespace fs = std::filesystem;

// The point's CPU: the pool's own process CPU when it ran alone (a real,
// sequential run), else the modelled machine's CPU of a simulated point
// (tasks and costs, for all its pools), else the whole run's process CPU.
double cpu_of(const PoolOutcome& p, const RunOutcome& o) {
  if (p.cpu_seconds) return *p.cpu_seconds;
  if (o.simulation) return static_cast<double>(o.simulation->cpu.count()) / 1e9;
  return o.cpu_seconds;
}

// A child's record, readable by the parent once renamed into place.
fs::path record_path(const fs::path& dir, std::size_t index) { return dir / ("point-" + std::to_string(index) + ".json"); }

json to_json(const PointResult& r) {
  return {{"index", r.index}, {"status", r.status},      {"problem", r.problem},
          {"wall_s", r.wall_s}, {"pools", r.pools}, {"result", r.result_file}};
}

PointResult from_json(const json& j) {
  PointResult r;
  r.index = j.at("index").get<std::size_t>();
  r.status = j.at("status").get<std::string>();
  r.problem = j.at("problem").get<std::string>();
  r.wall_s = j.at("wall_s").get<double>();
  r.pools = j.at("pools");
  r.result_file = j.at("result").get<std::string>();
  return r;
}

// Runs in the forked child: the point, its full result, its record; never returns.
[[noreturn]] void run_child(std::size_t index, const Scenario& s, const Sweep& sweep, const RunSettings& settings,
                            const fs::path& records) {
  // Ctrl-C reaches the whole process group: a point just ends.
  ::signal(SIGINT, SIG_DFL);
  ::signal(SIGTERM, SIG_DFL);
  PointResult r;
  try {
    RunOptions options;
    options.keep_events = !settings.out_dir.empty();
    RunResult run = run_scenario(s, options);
    r = measure_point(index, run, sweep.metrics, settings.series_points);
    // A simulation that could not go on abandoned its threads: there is no result to write.
    const bool failed = run.outcome.simulation && run.outcome.simulation->failure;
    if (!settings.out_dir.empty() && !failed) {
      r.result_file = result_file_name(index, sweep.total);
      write_atomically(settings.out_dir / r.result_file, [&](std::ostream& out) {
        write_result(out, s, run.outcome, run.metrics, ResultOptions{.include_events = true});
      });
    }
  } catch (const std::exception& e) {
    r.index = index;
    r.status = "failed";
    r.problem = e.what();
  }
  const fs::path part = record_path(records, index).concat(".part");
  {
    std::ofstream out(part);
    out << to_json(r).dump();
  }
  std::error_code ec;
  fs::rename(part, record_path(records, index), ec);
  // No destructors: a failed simulation's threads stand where they stopped.
  std::_Exit(0);
}

std::string describe_wait_status(int status) {
  if (WIFSIGNALED(status)) return std::string("was killed by signal ") + strsignal(WTERMSIG(status));
  return "exited with status " + std::to_string(WEXITSTATUS(status));
}

// A private directory for the children's records, removed on every way out.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "poolscope-sweep-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) throw std::runtime_error("cannot make a temporary directory: " + std::string(std::strerror(errno)));
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

}  // namespace

std::string result_file_name(std::size_t index, std::size_t total) {
  // Zero-padded to the grid's width, so the files list in grid order.
  const std::size_t width = std::max<std::size_t>(3, std::to_string(total > 0 ? total - 1 : 0).size());
  std::string n = std::to_string(index);
  return "point-" + std::string(width > n.size() ? width - n.size() : 0, '0') + n + ".json";
}

PointResult measure_point(std::size_t index, const RunResult& run, const std::vector<Metric>& metrics,
                          std::size_t series_points) {
  const RunOutcome& o = run.outcome;
  PointResult r;
  r.index = index;
  r.problem = run_problem(o, run.metrics);
  r.status = o.simulation && o.simulation->failure ? "failed" : std::string(status_name(run_status(o, run.metrics)));
  r.wall_s = o.wall_seconds;
  for (const PoolOutcome& p : o.pools) {
    json pj = {{"name", p.name}, {"design", p.design}};
    const metrics::PoolMetrics* pm = run.metrics.pool(p.trace_id);
    json values = json::object();
    if (pm) {
      const json summary = summary_json(pm->summary(o.workload_end.count()), p, o.events_dropped == 0);
      for (const Metric& m : metrics) {
        if (m.pointer.empty()) {
          values[m.name] = cpu_of(p, o);
          continue;
        }
        const json::json_pointer ptr(m.pointer);
        values[m.name] = summary.contains(ptr) ? summary.at(ptr) : json(nullptr);
      }
      pj["series"] = series_json(*pm, series_points);
    } else {
      // A pool that never ran (its creation was refused a thread): nothing measured.
      for (const Metric& m : metrics) values[m.name] = nullptr;
      pj["series"] = nullptr;
    }
    pj["metrics"] = std::move(values);
    r.pools.push_back(std::move(pj));
  }
  return r;
}

SweepOutcome run_points(const std::vector<std::pair<std::size_t, Scenario>>& points, const Sweep& sweep,
                        const RunSettings& settings, const std::function<bool(std::size_t)>& keep_going) {
  TempDir records;
  SweepOutcome out;
  std::map<pid_t, std::size_t> running;  // pid -> position in `points`
  std::vector<std::optional<PointResult>> results(points.size());
  std::size_t next = 0, done = 0;
  const unsigned jobs = std::max(1u, settings.jobs);
  auto go_on = [&] { return !keep_going || keep_going(done); };

  // Whatever ends the loop (a stop, an exception), no child outlives it.
  struct Reaper {
    std::map<pid_t, std::size_t>& running;
    ~Reaper() {
      for (const auto& [pid, i] : running) ::kill(pid, SIGKILL);
      for (const auto& [pid, i] : running) ::waitpid(pid, nullptr, 0);
    }
  } reaper{running};

  while (next < points.size() || !running.empty()) {
    if (!go_on()) {
      out.stopped = true;
      break;
    }
    while (running.size() < jobs && next < points.size()) {
      std::cout.flush();
      std::cerr.flush();
      const pid_t pid = ::fork();
      if (pid < 0) {
        if (!running.empty()) break;  // try again once a point has ended
        throw std::runtime_error("cannot start a process for a point: " + std::string(std::strerror(errno)));
      }
      if (pid == 0) run_child(points[next].first, points[next].second, sweep, settings, records.path);
      running.emplace(pid, next++);
    }
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, WNOHANG);
    if (pid == 0 || (pid < 0 && errno == EINTR)) {
      // Polled, so a stop request is seen while long real points run.
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      continue;
    }
    if (pid < 0) throw std::runtime_error("waiting for a point's process: " + std::string(std::strerror(errno)));
    auto it = running.find(pid);
    if (it == running.end()) continue;  // not one of ours
    const std::size_t pos = it->second;
    running.erase(it);
    ++done;
    const std::size_t index = points[pos].first;
    std::ifstream in(record_path(records.path, index));
    json record = json::parse(in, nullptr, false);
    if (in && !record.is_discarded() && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
      results[pos] = from_json(record);
    } else {
      PointResult r;
      r.index = index;
      r.status = "failed";
      r.problem = "the point's process " + describe_wait_status(status);
      results[pos] = std::move(r);
    }
  }
  for (auto& r : results)
    if (r) out.points.push_back(std::move(*r));
  return out;
}

}  // namespace poolscope::scenario::sweep
