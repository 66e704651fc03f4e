#include "scenarios/engine/result_reader.h"

#include <cmath>
#include <fstream>
#include <limits>
#include <unordered_map>

#include "scenarios/engine/json_reader.h"
#include "scenarios/engine/result_json.h"

namespace poolscope::scenario {

namespace {

// One pool's events as read, with rule codes not yet interned: Event::rule
// holds an index into `codes` + 1 (0: no rule) until the texts are known.
struct PoolEvents {
  std::vector<Event> events;
  std::vector<std::string> codes;
  std::unordered_map<std::string, Label> code_index;
};

// A SAX handler: builds JSON values for everything but the events arrays
// (/pools/N/events), whose objects it turns straight into Events.
class ResultSax {
 public:
  using string_t = json::string_t;

  json root;
  std::vector<PoolEvents> pools;

  bool null() { return value(json(nullptr)); }
  bool boolean(bool v) { return value(json(v)); }
  bool number_integer(json::number_integer_t v) { return value(json(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return value(json(v)); }
  bool number_float(json::number_float_t v, const string_t&) { return value(json(v)); }
  bool string(string_t& v) { return value(json(std::move(v))); }
  bool binary(json::binary_t&) { return value(json(nullptr)); }

  bool key(string_t& k) {
    key_ = std::move(k);
    return true;
  }

  bool start_object(std::size_t) {
    if (events_depth_ > 0) {
      if (events_depth_ != 1) fail(key_, "a number, a string or the counters array");
      events_depth_ = 2;
      event_ = Event{};
      seen_time_ = seen_kind_ = false;
      counters_seen_ = -1;
      return true;
    }
    return open(json::object());
  }

  bool end_object() {
    if (events_depth_ == 2) {
      finish_event();
      events_depth_ = 1;
      return true;
    }
    stack_.pop_back();
    return true;
  }

  bool start_array(std::size_t) {
    if (events_depth_ == 2 && key_ == "counters" && counters_seen_ < 0) {
      events_depth_ = 3;
      counters_seen_ = 0;
      return true;
    }
    if (events_depth_ > 0) fail(key_, "a number or a string");
    if (stack_.size() == 1 && key_ == "pools") {
      open(json::array());
      pools_array_ = stack_.back();
      return true;
    }
    if (stack_.size() == 3 && stack_[1] == pools_array_ && key_ == "events") {
      // The events of the pool being read: straight into Event records.
      pool_ = pools_array_->size() - 1;
      if (pools.size() <= pool_) pools.resize(pool_ + 1);
      stack_.back()->emplace("events", json::array());  // present, and empty: the events are in `pools`
      events_depth_ = 1;
      return true;
    }
    return open(json::array());
  }

  bool end_array() {
    if (events_depth_ == 3) {
      if (counters_seen_ != 4) fail("counters", "4 counters (workers, busy, queued, blocked)");
      events_depth_ = 2;
      return true;
    }
    if (events_depth_ == 1) {
      events_depth_ = 0;
      return true;
    }
    stack_.pop_back();
    return true;
  }

  bool parse_error(std::size_t position, const std::string&, const json::exception& e) {
    throw ConfigError("", "not valid JSON at byte " + std::to_string(position) + ": " + e.what());
  }

 private:
  bool open(json container) {
    json* at = insert(std::move(container));
    stack_.push_back(at);
    return true;
  }

  bool value(json v) {
    if (events_depth_ == 2) return event_field(v);
    if (events_depth_ == 3) return counter(v);
    if (events_depth_ == 1) fail("", "an event object");
    insert(std::move(v));
    return true;
  }

  json* insert(json v) {
    if (stack_.empty()) {
      root = std::move(v);
      return &root;
    }
    json& top = *stack_.back();
    if (top.is_object()) return &(top[key_] = std::move(v));
    top.push_back(std::move(v));
    return &top.back();
  }

  std::string event_path(std::string_view field) const {
    std::string p = "/pools/" + std::to_string(pool_) + "/events/" + std::to_string(pools[pool_].events.size());
    return field.empty() ? p : p + "/" + std::string(field);
  }
  [[noreturn]] void fail(std::string_view field, const std::string& expected) const {
    throw ConfigError(event_path(field), "expected " + expected);
  }

  // An integer event field read as T by json_reader's one integer reader;
  // the field's path is only built for an error.
  template <std::integral T>
  T integer(const json& v, std::string_view field, T min = std::numeric_limits<T>::min(),
            T max = std::numeric_limits<T>::max()) const {
    if (auto i = integer_in<T>(v, min, max)) return *i;
    fail_at(event_path(field), "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]", v);
  }

  bool event_field(const json& v) {
    if (key_ == "t") {
      // Within a million seconds either way: a time in ns must fit the
      // int64 the trace keeps (1e300 s would be undefined behaviour).
      if (!v.is_number() || !(std::fabs(v.get<double>()) <= 1e6))
        fail_at(event_path(key_), "a time in seconds, from -1e6 to 1e6", v);
      event_.time = std::llround(v.get<double>() * 1e9);
      seen_time_ = true;
    } else if (key_ == "kind") {
      auto kind = v.is_string() ? parse_kind(v.get_ref<const std::string&>()) : std::nullopt;
      if (!kind) fail_at(event_path(key_), "an event kind such as \"task_started\"", v);
      event_.kind = *kind;
      seen_kind_ = true;
    } else if (key_ == "worker") {
      event_.worker = integer<WorkerId>(v, key_, 0);
    } else if (key_ == "task") {
      event_.task = static_cast<TaskId>(integer<std::int64_t>(v, key_, 0));
    } else if (key_ == "arg") {
      event_.arg = integer<std::int64_t>(v, key_);
    } else if (key_ == "arg2") {
      event_.arg2 = integer<std::int32_t>(v, key_);
    } else if (key_ == "rule") {
      if (!v.is_string()) fail_at(event_path(key_), "a rule code", v);
      PoolEvents& p = pools[pool_];
      auto [it, fresh] = p.code_index.try_emplace(v.get<std::string>(), static_cast<Label>(p.codes.size() + 1));
      if (fresh) p.codes.push_back(it->first);
      event_.rule = it->second;
    } else {
      throw ConfigError(event_path(key_),
                        "unknown event field (an event has t, kind, worker, task, rule, arg, arg2, counters)");
    }
    return true;
  }

  bool counter(const json& v) {
    if (counters_seen_ >= 4) fail("counters", "4 counters (workers, busy, queued, blocked)");
    auto c = integer<std::uint32_t>(v, "counters/" + std::to_string(counters_seen_));
    std::uint32_t* fields[] = {&event_.counters.workers, &event_.counters.busy, &event_.counters.queued,
                               &event_.counters.blocked};
    *fields[counters_seen_++] = c;
    return true;
  }

  void finish_event() {
    if (!seen_time_) fail("t", "the event's time");
    if (!seen_kind_) fail("kind", "the event's kind");
    if (counters_seen_ != 4) fail("counters", "the pool's counters after the event");
    event_.pool = static_cast<PoolId>(pool_);
    pools[pool_].events.push_back(event_);
  }

  std::vector<json*> stack_;  // the containers being filled, outermost first
  std::string key_;
  json* pools_array_ = nullptr;
  // Inside /pools/N/events: 1 in the array, 2 in an event, 3 in its counters.
  int events_depth_ = 0;
  std::size_t pool_ = 0;
  Event event_;
  bool seen_time_ = false, seen_kind_ = false;
  int counters_seen_ = -1;
};

const json& required(const json& object, const std::string& path, std::string_view key) {
  auto it = object.find(key);
  if (it == object.end()) throw ConfigError(path + "/" + std::string(key), "missing");
  return *it;
}

std::string required_string(const json& object, const std::string& path, std::string_view key) {
  const json& v = required(object, path, key);
  if (!v.is_string()) fail_at(path + "/" + std::string(key), "a string", v);
  return v.get<std::string>();
}

ResultFile build(ResultSax& sax, const std::string& file) {
  const json& root = sax.root;
  if (!root.is_object()) fail_at("", "a poolscope result object", root);
  ResultFile r;
  r.file = file;
  if (std::string format = required_string(root, "", "format"); format != kResultFormat)
    fail_at("/format", "\"" + std::string(kResultFormat) + "\"", format);
  r.status = required_string(root, "", "status");
  r.scenario = required(root, "", "scenario");
  r.environment = root.value("environment", json::object());
  r.run = root.value("run", json::object());
  r.explore = root.value("explore", json(nullptr));
  r.findings = root.value("findings", json::array());
  const json& pools = required(root, "", "pools");
  if (!pools.is_array()) fail_at("/pools", "an array of pools", pools);
  sax.pools.resize(pools.size());

  for (std::size_t i = 0; i < pools.size(); ++i) {
    const std::string path = "/pools/" + std::to_string(i);
    const json& p = pools[i];
    if (!p.is_object()) fail_at(path, "a pool object", p);
    ResultPool pool;
    pool.info = PoolInfo{static_cast<PoolId>(i), required_string(p, path, "name"), required_string(p, path, "design")};
    pool.config = p.value("config", json::object());
    pool.summary = p.value("summary", json::object());
    if (const auto d = p.find("events_dropped"); d != p.end())
      pool.events_dropped = integer_at<std::uint64_t>(*d, path + "/events_dropped");
    pool.series = p.value("series", json(nullptr));
    const json rules = p.value("rules", json::object());
    for (const auto& [code, text] : rules.items()) {
      if (!text.is_string()) fail_at(path + "/rules/" + code, "the rule's one-line reason", text);
      pool.rules[code] = text.get<std::string>();
    }
    if (p.contains("events")) {
      if (!p["events"].is_array()) fail_at(path + "/events", "an array of events", p["events"]);
      r.has_events = true;
    }
    pool.events = sax.pools[i].events.size();
    r.pools.push_back(std::move(pool));
  }

  // Rule codes become labels, with the texts this file gives them.
  for (std::size_t i = 0; i < sax.pools.size(); ++i) {
    PoolEvents& pe = sax.pools[i];
    std::vector<Label> labels;
    for (const std::string& code : pe.codes) {
      auto text = r.pools[i].rules.find(code);
      Label known = find_label(code);
      labels.push_back(text != r.pools[i].rules.end() ? intern_label(code, text->second)
                       : known != kNoLabel            ? known
                                                      : intern_label(code));
    }
    for (Event& e : pe.events)
      if (e.rule != kNoLabel) e.rule = labels[e.rule - 1];
  }

  // Merge the pools' events by time. Each pool's timestamps may go back a few
  // ns where two threads read the clock in one order and reserved their slots
  // in the other; like the metrics, order each pool by its running maximum.
  std::size_t total = 0;
  for (const PoolEvents& pe : sax.pools) total += pe.events.size();
  r.events.reserve(total);
  std::vector<std::size_t> next(sax.pools.size(), 0);
  std::vector<std::int64_t> key(sax.pools.size(), std::numeric_limits<std::int64_t>::min());
  while (r.events.size() < total) {
    std::size_t best = sax.pools.size();
    std::int64_t best_key = 0;
    for (std::size_t i = 0; i < sax.pools.size(); ++i) {
      if (next[i] == sax.pools[i].events.size()) continue;
      std::int64_t k = std::max(key[i], sax.pools[i].events[next[i]].time);
      if (best == sax.pools.size() || k < best_key) {
        best = i;
        best_key = k;
      }
    }
    key[best] = best_key;
    r.events.push_back(sax.pools[best].events[next[best]++]);
  }
  return r;
}

}  // namespace

std::vector<PoolInfo> ResultFile::pool_infos() const {
  std::vector<PoolInfo> infos;
  for (const ResultPool& p : pools) infos.push_back(p.info);
  return infos;
}

metrics::RunMetrics ResultFile::metrics() const {
  metrics::RunMetrics m;
  m.set_pools(pool_infos());
  m.add(events);
  return m;
}

ResultFile read_result(std::istream& in, const std::string& file) {
  try {
    ResultSax sax;
    json::sax_parse(in, &sax);
    return build(sax, file);
  } catch (const ConfigError& e) {
    throw ScenarioError(file, e);
  } catch (const json::exception& e) {  // a parse error, or 1e400
    throw ScenarioError(file, ConfigError("", json_error_text(e)));
  }
}

ResultFile load_result(const std::filesystem::path& file) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec))
    throw ScenarioError(file.string(), ConfigError("", "is a directory; expected a file"));
  if (std::filesystem::exists(file, ec) && !std::filesystem::is_regular_file(file, ec))
    throw ScenarioError(file.string(), ConfigError("", "is not a regular file (a FIFO, a device or a socket)"));
  std::ifstream in(file, std::ios::binary);
  if (!in) throw ScenarioError(file.string(), ConfigError("", "cannot open the file"));
  return read_result(in, file.string());
}

}  // namespace poolscope::scenario
