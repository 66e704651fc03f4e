// The engine's API for JavaScript: what the runner does, with text in and
// JSON text out, and a run advanced a slice at a time by its caller, since a
// page has no other thread. poolscope-api.mjs wraps it; docs/web-engine.md
// documents what callers see.
//
// A plain C ABI of exported functions that return nothing: a call may switch
// fibers (a simulation runs, or a pool is built to check a scenario), and
// Asyncify then unwinds the caller's wasm stack to the exported function,
// losing what it returns (and embind's JavaScript frames in between could
// not be unwound at all). So each call leaves its reply in one buffer, read
// by poolscope_reply() afterwards: {"ok": true, "value": ...}, or
// {"ok": false, "error": "..."} with the runner's own message, naming the
// file, the JSON path and what was expected. Nothing escapes as an exception.
//
// Index: replies; the shipped scenarios and designs; reading a scenario with
// options; validate; WebRun (a run and its event columns); explore; the
// exported functions.
#include <emscripten/emscripten.h>

#include <map>

#include <fstream>
#include <sstream>

#include "pools/core/registry.h"
#include "scenarios/engine/cli_values.h"
#include "scenarios/engine/explore.h"
#include "scenarios/engine/exports.h"
#include "scenarios/engine/json_reader.h"
#include "scenarios/engine/library.h"
#include "scenarios/engine/result_json.h"
#include "scenarios/engine/scenario.h"
#include "scenarios/engine/workload.h"

namespace poolscope::web {

namespace {

using namespace poolscope::scenario;

// --- replies -------------------------------------------------------------

std::string ok(const json& value) { return json{{"ok", true}, {"value", value}}.dump(); }
std::string failed(const std::string& error) { return json{{"ok", false}, {"error", error}}.dump(); }

// Runs `f`, turning what the runner reports as bad input into a reply.
template <class F>
std::string reply(F&& f) {
  try {
    return ok(f());
  } catch (const std::exception& e) {
    return failed(e.what());
  }
}

// --- reading a scenario with the runner's options ---------------------------

// A shipped scenario's name stands for its file; other text is the caller's,
// named `file` in messages, with no folder of its own.
std::filesystem::path base_dir_of(const std::string& file) {
  std::error_code ec;
  std::filesystem::path shipped = library_dir() / (file + ".json");
  return std::filesystem::is_regular_file(shipped, ec) ? library_dir() : std::filesystem::path("/");
}

// A seed: a JSON number, or a decimal string (JavaScript's numbers hold 53 bits).
std::uint64_t seed_option(const json& v, const std::string& path) {
  if (auto seed = integer_in<std::uint64_t>(v)) return *seed;
  if (v.is_string()) return parse_seed(v.get<std::string>(), path);
  throw ConfigError(path, "expected an integer in [0, 18446744073709551615] (a number, or a decimal string), got " +
                              v.dump());
}

struct Read {
  Scenario scenario;
  bool keep_events = false;
  Limits limits;
};

// The runner's flags as a JSON object: the same overrides, the same checks.
Read read(const std::string& text, const std::string& file, const std::string& options_text) {
  json options = options_text.empty() ? json::object() : parse_scenario_text(options_text, "options");
  if (!options.is_object()) throw ConfigError("options", "expected a JSON object, got " + options.dump());
  Overrides o;
  Read out;
  ObjectReader r(options, "options");
  if (r.boolean("real", false))
    throw ConfigError(r.path_of("real"), "the browser runs the simulation only: real threads need the desktop runner "
                                      "(poolscope run --real)");
  o.simulate = true;
  if (const json* pools = r.get("pools")) {
    if (!pools->is_array()) throw ConfigError(r.path_of("pools"), "expected an array of pool names");
    for (const json& p : *pools) {
      if (!p.is_string()) throw ConfigError(r.path_of("pools"), "expected pool names (strings), got " + p.dump());
      o.pools.push_back(p.get<std::string>());
    }
  }
  if (const json* set = r.get("set")) {
    if (!set->is_object()) throw ConfigError(r.path_of("set"), "expected an object of \"POOL.PARAM\": value");
    for (const auto& [key, value] : set->items()) o.settings.emplace_back(key, value);
  }
  if (const json* seed = r.get("seed")) o.seed = seed_option(*seed, r.path_of("seed"));
  if (const json* sim_seed = r.get("simSeed")) o.sim_seed = seed_option(*sim_seed, r.path_of("simSeed"));
  if (r.get("timeScale")) o.time_scale = r.number("timeScale", 1.0, 0.001, 1000.0);
  if (r.get("cpus")) o.cpus = static_cast<int>(r.integer("cpus", 1, 1, 4096));
  if (r.get("costs")) o.costs = r.string("costs");
  if (r.get("policy")) o.policy = r.string("policy");
  if (r.get("maxTasks"))
    out.limits.max_tasks = static_cast<std::uint64_t>(r.integer("maxTasks", 1, 1, std::int64_t{1} << 40));
  out.keep_events = r.boolean("events", false);
  r.done();  // an unknown option is refused, with the nearest known name

  json j = parse_scenario_text(text, file);
  try {
    j = apply_overrides(std::move(j), o);
  } catch (const ConfigError& e) {
    throw ScenarioError(file, e);
  }
  out.scenario = parse_scenario(j, file, base_dir_of(file));
  try {
    count_workload(out.scenario, out.limits);  // before anything is generated
  } catch (const ConfigError& e) {
    throw ScenarioError(file, e);
  }
  return out;
}

}  // namespace

// --- the shipped scenarios and the designs -----------------------------------

std::string list_scenarios() {
  return reply([] {
    json out = json::array();
    for (const LibraryEntry& e : list_library()) out.push_back({{"name", e.name}, {"lesson", e.lesson}});
    return out;
  });
}

std::string scenario_text(const std::string& name) {
  return reply([&] {
    std::ifstream in(resolve_scenario(name), std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return json(text.str());
  });
}

std::string list_designs() {
  return reply([] {
    json out = json::array();
    for (const std::string& name : Registry::global().names()) out.push_back(Registry::global().get(name).to_json());
    return out;
  });
}

// --- validate ------------------------------------------------------------

std::string validate(const std::string& text, const std::string& file) {
  return reply([&] {
    Scenario s = parse_scenario(parse_scenario_text(text, file), file, base_dir_of(file));
    WorkloadCount w;
    try {
      w = count_workload(s, Limits{});
    } catch (const ConfigError& e) {
      throw ScenarioError(file, e);
    }
    json skipped = json::array();
    for (const PoolEntry& e : s.skipped) skipped.push_back({{"name", e.name}, {"why", skip_reason(e)}});
    return json{{"name", s.name},
                {"phases", s.phases.size()},
                {"arrivals", w.arrivals},
                {"tasks", w.tasks},
                {"clients", w.clients},
                {"pools", s.pools.size()},
                {"duration", static_cast<double>(s.duration().count()) / 1e9},
                {"skipped", skipped}};
  });
}

// --- a run -----------------------------------------------------------------

class WebRun {
 public:
  WebRun(const std::string& text, const std::string& file, const std::string& options) {
    try {
      Read r = read(text, file, options);
      scenario_ = std::make_unique<Scenario>(std::move(r.scenario));
      RunOptions ro;
      ro.keep_events = keep_events_ = r.keep_events;
      ro.limits = r.limits;
      ro.sliced = true;
      run_ = std::make_unique<Run>(*scenario_, ro);
      run_->start();
    } catch (const std::exception& e) {
      error_ = e.what();
      run_.reset();
    }
  }

  std::string error() const { return error_; }

  // Runs at most `max_switches` switches of the simulation; true once ended.
  bool advance(double max_switches) {
    if (!run_) return true;
    if (!run_->advance(static_cast<std::uint64_t>(std::max(1.0, max_switches)))) return false;
    if (result_.empty()) finish();
    return true;
  }

  double progress() const { return run_ ? run_->progress() : 1.0; }
  double virtual_seconds() const { return run_ ? static_cast<double>(run_->now().count()) / 1e9 : 0.0; }

  // What `poolscope run --out` writes, without the events; once ended.
  std::string result() const { return result_; }
  // What `poolscope run --chrome-trace` writes (Perfetto opens it), once ended.
  std::string chrome_trace() const {
    if (result_.empty()) throw std::logic_error("the run has not ended: advance it until done");
    if (!keep_events_) throw std::logic_error("a Chrome trace needs every event: make the run with events: true");
    std::ostringstream out;
    write_chrome_trace(out, *scenario_, run_->metrics());
    return out.str();
  }
  // The runner's exit status for it: 0, or 1 (a stall, a breach, a failed simulation).
  int exit_status() const { return exit_status_; }

  std::size_t event_count() const { return run_ && !result_.empty() ? run_->metrics().events().size() : 0; }

  // One field of every event, as an array of `T` that JavaScript copies out
  // of the module's memory (kept until the next column is asked for):
  // time, task, arg (f64); arg2 (i32); worker, workers, busy, queued,
  // blocked (u32); pool, rule (u16); kind (u8). Null for another name.
  const void* event_column(const std::string& name) {
    const std::vector<Event>& ev = run_ && !result_.empty() ? run_->metrics().events() : no_events_;
    if (name == "time") return column<double>(ev, [](const Event& e) { return static_cast<double>(e.time); });
    if (name == "task") return column<double>(ev, [](const Event& e) { return static_cast<double>(e.task); });
    if (name == "arg") return column<double>(ev, [](const Event& e) { return static_cast<double>(e.arg); });
    if (name == "arg2") return column<std::int32_t>(ev, [](const Event& e) { return e.arg2; });
    if (name == "worker") return column<std::uint32_t>(ev, [](const Event& e) { return e.worker; });
    if (name == "pool") return column<std::uint16_t>(ev, [](const Event& e) { return e.pool; });
    if (name == "kind") return column<std::uint8_t>(ev, [](const Event& e) { return static_cast<std::uint8_t>(e.kind); });
    if (name == "rule") return column<std::uint16_t>(ev, [](const Event& e) { return e.rule; });
    if (name == "workers") return column<std::uint32_t>(ev, [](const Event& e) { return e.counters.workers; });
    if (name == "busy") return column<std::uint32_t>(ev, [](const Event& e) { return e.counters.busy; });
    if (name == "queued") return column<std::uint32_t>(ev, [](const Event& e) { return e.counters.queued; });
    if (name == "blocked") return column<std::uint32_t>(ev, [](const Event& e) { return e.counters.blocked; });
    return nullptr;
  }

  // What the columns' numbers name: {pools: {id: name}, kinds: [name by
  // number], rules: {id: code}} (rule ids differ between builds; codes do not).
  std::string event_tables() const {
    json pools = json::object(), rules = json::object(), kinds = json::array();
    for (int k = 0; k < kEventKindCount; ++k) kinds.push_back(kind_name(static_cast<EventKind>(k)));
    if (run_ && !result_.empty()) {
      for (const PoolOutcome& p : run_->outcome().pools) pools[std::to_string(p.trace_id)] = p.name;
      for (const Event& e : run_->metrics().events())
        if (e.rule) rules[std::to_string(e.rule)] = label_code(e.rule);
    }
    return json{{"pools", pools}, {"kinds", kinds}, {"rules", rules}}.dump();
  }

 private:
  void finish() {
    std::ostringstream out;
    const RunOutcome& outcome = run_->outcome();
    write_result(out, *scenario_, outcome, run_->metrics(), ResultOptions{});
    result_ = out.str();
    const RunStatus status = run_status(outcome, run_->metrics());
    exit_status_ = status == RunStatus::ok || status == RunStatus::stopped ? 0 : 1;
  }

  template <class T, class F>
  const void* column(const std::vector<Event>& events, F field) {
    column_.resize(events.size() * sizeof(T));
    T* out = reinterpret_cast<T*>(column_.data());
    for (std::size_t i = 0; i < events.size(); ++i) out[i] = static_cast<T>(field(events[i]));
    return column_.data();
  }

  inline static const std::vector<Event> no_events_;
  std::string error_;
  std::unique_ptr<Scenario> scenario_;
  std::unique_ptr<Run> run_;
  bool keep_events_ = false;
  std::string result_;
  int exit_status_ = 0;
  std::vector<unsigned char> column_;  // the last column asked for
};

// --- explore ---------------------------------------------------------------

// `options`: those of a run, and schedules, firstSeed, policy (random or pct).
std::string explore_schedules(const std::string& text, const std::string& file, const std::string& options_text) {
  return reply([&] {
    json options = options_text.empty() ? json::object() : parse_scenario_text(options_text, "options");
    ExploreOptions eo;
    json run_options = json::object();
    if (options.is_object())
      for (const auto& [key, value] : options.items()) {
        if (key == "schedules") {
          eo.schedules = integer_at<int>(value, "options/schedules", 1, 1'000'000);
        } else if (key == "firstSeed") {
          eo.first_seed = seed_option(value, "options/firstSeed");
        } else if (key == "policy") {
          const std::string p = value.is_string() ? value.get<std::string>() : value.dump();
          if (p != "random" && p != "pct")
            throw ConfigError("options/policy", "expected \"random\" or \"pct\" (explore's schedules), got " + value.dump());
          eo.policy = sim::parse_policy(p);
        } else {
          run_options[key] = value;
        }
      }
    Read r = read(text, file, run_options.dump());
    ExploreResult er = explore(r.scenario, eo);
    json failure = nullptr;
    if (er.failure)
      failure = {{"schedule", er.failure->schedule + 1},
                 {"seed", std::to_string(er.failure->settings.seed)},
                 {"policy", sim::to_string(er.failure->settings.policy)},
                 {"problem", er.failure->problem}};
    return json{{"ran", er.ran}, {"failure", failure}};
  });
}

// --- the exported functions ------------------------------------------------

namespace {

std::string g_reply;                             // the last call's reply
bool g_raw_failed = false;                       // a raw reply (a result, a trace) is an error instead
std::map<int, std::unique_ptr<WebRun>> g_runs;   // by handle
int g_next_run = 1;

// A reply that is text of its own (a result, a trace), or an error reply.
template <class F>
void raw_reply(F&& f) {
  try {
    g_reply = f();
    g_raw_failed = false;
  } catch (const std::exception& e) {
    g_reply = failed(e.what());
    g_raw_failed = true;
  }
}

WebRun* find_run(int id) {
  auto it = g_runs.find(id);
  if (it == g_runs.end()) throw std::invalid_argument("no run " + std::to_string(id) + " (deleted, or never made)");
  return it->second.get();
}

}  // namespace

}  // namespace poolscope::web

using namespace poolscope::web;
using poolscope::json;

extern "C" {

EMSCRIPTEN_KEEPALIVE const char* poolscope_reply() { return g_reply.c_str(); }
EMSCRIPTEN_KEEPALIVE std::size_t poolscope_reply_size() { return g_reply.size(); }
// After a call whose reply is raw text: true if it is {"ok": false, ...} instead.
EMSCRIPTEN_KEEPALIVE bool poolscope_reply_failed() { return g_raw_failed; }

EMSCRIPTEN_KEEPALIVE void poolscope_list_scenarios() { g_reply = list_scenarios(); }
EMSCRIPTEN_KEEPALIVE void poolscope_scenario_text(const char* name) { g_reply = scenario_text(name); }
EMSCRIPTEN_KEEPALIVE void poolscope_list_designs() { g_reply = list_designs(); }
EMSCRIPTEN_KEEPALIVE void poolscope_validate(const char* text, const char* file) { g_reply = validate(text, file); }
EMSCRIPTEN_KEEPALIVE void poolscope_explore(const char* text, const char* file, const char* options) {
  g_reply = explore_schedules(text, file, options);
}

// value: {run: handle}
EMSCRIPTEN_KEEPALIVE void poolscope_run_new(const char* text, const char* file, const char* options) {
  g_reply = reply([&] {
    auto run = std::make_unique<WebRun>(text, file, options);
    if (!run->error().empty()) throw std::runtime_error(run->error());
    const int id = g_next_run++;
    g_runs.emplace(id, std::move(run));
    return json{{"run", id}};
  });
}

// value: {done, progress (0..1), now (s of scenario time)}
EMSCRIPTEN_KEEPALIVE void poolscope_run_advance(int id, double max_switches) {
  g_reply = reply([&] {
    WebRun* run = find_run(id);
    const bool done = run->advance(max_switches);
    return json{{"done", done}, {"progress", run->progress()}, {"now", run->virtual_seconds()}};
  });
}

// The reply is the result itself (what `poolscope run --out` writes, without
// its events), or {"ok": false, ...} if the run has not ended.
EMSCRIPTEN_KEEPALIVE void poolscope_run_result(int id) {
  raw_reply([&] {
    WebRun* run = find_run(id);
    if (run->result().empty()) throw std::logic_error("the run has not ended: advance it until done");
    return run->result();
  });
}

// The reply is the Chrome/Perfetto trace itself (the run made with events),
// or {"ok": false, ...}.
EMSCRIPTEN_KEEPALIVE void poolscope_run_chrome_trace(int id) {
  raw_reply([&] { return find_run(id)->chrome_trace(); });
}

// value: {count, exitStatus, pools: {id: name}, kinds: [...], rules: {id: code}}
EMSCRIPTEN_KEEPALIVE void poolscope_run_events(int id) {
  g_reply = reply([&] {
    WebRun* run = find_run(id);
    json tables = json::parse(run->event_tables());
    tables["count"] = run->event_count();
    tables["exitStatus"] = run->exit_status();
    return tables;
  });
}

// Switches no fiber: returns the column's address (poolscope_run_events
// gives the count), or null for an unknown name or run.
EMSCRIPTEN_KEEPALIVE const void* poolscope_run_column(int id, const char* name) {
  auto it = g_runs.find(id);
  return it == g_runs.end() ? nullptr : it->second->event_column(name);
}

// A run not yet ended is stopped and run to its end first (its threads joined).
EMSCRIPTEN_KEEPALIVE void poolscope_run_delete(int id) {
  g_reply = reply([&] {
    find_run(id);
    g_runs.erase(id);
    return json(nullptr);
  });
}

}  // extern "C"
