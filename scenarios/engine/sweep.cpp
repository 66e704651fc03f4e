#include "scenarios/engine/sweep.h"

#include <algorithm>
#include <charconv>
#include <set>

#include "pools/core/registry.h"
#include "pools/core/suggest.h"
#include "scenarios/engine/json_reader.h"
#include "scenarios/engine/result_json.h"

namespace poolscope::scenario::sweep {

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::size_t from = 0;
  for (;;) {
    std::size_t at = s.find(sep, from);
    parts.push_back(s.substr(from, at == std::string::npos ? std::string::npos : at - from));
    if (at == std::string::npos) return parts;
    from = at + 1;
  }
}

// How results and --set call an entry: its name, else its design.
std::string name_of(const json& p) {
  if (!p.is_object()) return {};
  if (p.contains("name") && p["name"].is_string()) return p["name"].get<std::string>();
  return p.contains("design") && p["design"].is_string() ? p["design"].get<std::string>() : std::string();
}

std::string design_of(const json& p) {
  return p.is_object() && p.contains("design") && p["design"].is_string() ? p["design"].get<std::string>()
                                                                          : std::string();
}

std::optional<double> numeric_of(const ParamValue& v) {
  switch (v.type()) {
    case ParamType::integer: return static_cast<double>(v.integer());
    case ParamType::number: return v.number();
    case ParamType::boolean: return v.boolean() ? 1.0 : 0.0;
    case ParamType::duration: return static_cast<double>(v.duration().count()) / 1e9;
    case ParamType::choice: return std::nullopt;
  }
  return std::nullopt;
}

// The short names and the summary keys they stand for ("" : cpu, below).
const std::vector<std::pair<std::string, std::string>>& short_names() {
  static const std::vector<std::pair<std::string, std::string>> names = {
      {"spawned", "workers.spawned"},       {"reaped", "workers.reaped"},
      {"p99_queue_wait", "queue_wait_s.p99"}, {"refusals", "tasks.refused"},
      {"mean_workers", "workers.mean"},     {"cpu", ""}};
  return names;
}

// Every numeric leaf of a summary, by dotted key. The invariant's own copy of
// the accounting is left out (the same counts are under "tasks").
void numeric_keys(const json& j, const std::string& prefix, std::vector<std::string>& out) {
  for (const auto& [key, value] : j.items()) {
    std::string path = prefix.empty() ? key : prefix + "." + key;
    if (path == "invariant") continue;
    if (value.is_object())
      numeric_keys(value, path, out);
    else if (value.is_number())
      out.push_back(path);
  }
}

std::vector<std::string> summary_keys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> out;
    numeric_keys(summary_json(metrics::Summary{}, PoolOutcome{}, true), "", out);
    return out;
  }();
  return keys;
}

// A duration unless it counts: "queue_wait_s.p99" is, "queue_wait_s.count" is not.
bool is_seconds(const std::string& key) {
  std::vector<std::string> parts = split(key, '.');
  if (parts.back() == "count") return false;
  return std::any_of(parts.begin(), parts.end(),
                     [](const std::string& p) { return p.size() > 2 && p.ends_with("_s"); });
}

// An argument as a message quotes it: whole up to 80 characters, else its
// start and its length, so that 2,000 values are not echoed back.
std::string bounded(const std::string& text) {
  if (text.size() <= 80) return text;
  std::size_t cut = 60;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
  return text.substr(0, cut) + "... (" + std::to_string(text.size()) + " characters)";
}

// 4000000 as "4,000,000". (Appended digit by digit: g++ 12 warns falsely
// about string::insert here, -Wrestrict, an error in CI.)
std::string with_commas(std::size_t n) {
  const std::string digits = std::to_string(n);
  std::string s;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) s += ',';
    s += digits[i];
  }
  return s;
}

}  // namespace

Param parse_param(const std::string& arg, const json& scenario) {
  auto fail = [&](const std::string& why) { throw ConfigError("--param " + bounded(arg), why); };
  if (!valid_utf8(arg)) throw ConfigError("--param", "expected POOL.PARAM=V1,V2,... in UTF-8; the argument is not valid UTF-8");
  const std::size_t eq = arg.find('=');
  if (eq == std::string::npos) fail("expected POOL.PARAM=V1,V2,...: no '='");
  Param p;
  p.spec = arg.substr(0, eq);
  const std::size_t dot = p.spec.find('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == p.spec.size())
    fail("expected POOL.PARAM=V1,V2,...: '" + p.spec + "' is not POOL.PARAM");
  const std::string pool = p.spec.substr(0, dot);
  p.param = p.spec.substr(dot + 1);

  // The entry of that name, else every entry of that design (as --pool picks them).
  const json pools = scenario.is_object() && scenario.contains("pools") && scenario["pools"].is_array()
                         ? scenario["pools"]
                         : json::array();
  std::string design;
  for (const json& e : pools)
    if (name_of(e) == pool) {
      p.pools.push_back(pool);
      design = design_of(e);
      break;
    }
  if (p.pools.empty())
    for (const json& e : pools)
      if (design_of(e) == pool) {
        p.pools.push_back(name_of(e));
        design = pool;
      }
  if (p.pools.empty()) {
    std::string known;
    for (const json& e : pools) known += (known.empty() ? "" : ", ") + name_of(e);
    fail("no pool '" + pool + "' in this run (its pools: " + known + "), by name or by design");
  }
  const Design* d = Registry::global().find(design);
  if (!d) fail("pool '" + pool + "' has design '" + design + "', which is not registered in this build");
  const ParamSpec* spec = d->param(p.param);
  if (!spec) {
    std::string msg = "unknown parameter '" + p.param + "' for pool design '" + design + "'";
    if (auto nearest = nearest_name(p.param, d->params, &ParamSpec::name)) {
      msg += " (did you mean '" + *nearest + "'?)";
    } else {
      msg += "; known:";
      for (std::size_t i = 0; i < d->params.size(); ++i) msg += (i ? ", " : " ") + d->params[i].name;
      if (d->params.empty()) msg += " none";
    }
    fail(msg);
  }

  const std::string list = arg.substr(eq + 1);
  if (list.empty()) fail("expected POOL.PARAM=V1,V2,...: no values");
  for (const std::string& text : split(list, ',')) {
    if (text.empty()) fail("expected POOL.PARAM=V1,V2,...: an empty value in '" + bounded(list) + "'");
    // As --set reads a value: JSON when it parses as JSON, else a string (so 2s needs no quotes).
    json v = json::parse(text, nullptr, false);
    if (v.is_discarded()) v = text;
    try {
      p.numeric.push_back(numeric_of(poolscope::parse_param(*spec, v, "/" + p.param)));
    } catch (const ConfigError& e) {
      fail("value '" + bounded(text) + "' of " + design + "." + p.param + ": " + e.message());
    }
    p.values.push_back(std::move(v));
    p.shown.push_back(text);
  }
  return p;
}

std::vector<Param> parse_params(const std::vector<std::string>& args, const json& scenario) {
  if (args.empty()) throw ConfigError("--param", "expected at least one --param POOL.PARAM=V1,V2,...");
  std::vector<Param> params;
  for (const std::string& a : args) {
    Param p = parse_param(a, scenario);
    for (const Param& q : params)
      for (const std::string& pool : p.pools)
        if (q.param == p.param && std::find(q.pools.begin(), q.pools.end(), pool) != q.pools.end())
          throw ConfigError("--param " + bounded(a), "sets " + pool + "." + p.param + ", which --param " + q.spec + " sets too");
    params.push_back(std::move(p));
    // Checked as it grows, so the product cannot overflow (at most kMaxPoints times this one's values).
    if (const std::size_t n = grid_size(params); n > kMaxPoints) {
      std::string factors;
      for (const Param& q : params) factors += (factors.empty() ? "" : " x ") + with_commas(q.values.size());
      throw ConfigError("--param " + bounded(a), "expected a grid of at most " + with_commas(kMaxPoints) +
                                                     " points; this one has " + with_commas(n) + " (" + factors +
                                                     " values)");
    }
  }
  return params;
}

std::size_t grid_size(const std::vector<Param>& params) {
  std::size_t n = 1;
  for (const Param& p : params) n *= p.values.size();
  return n;
}

std::vector<std::size_t> grid_choice(const std::vector<Param>& params, std::size_t i) {
  std::vector<std::size_t> choice(params.size());
  for (std::size_t k = params.size(); k-- > 0;) {
    choice[k] = i % params[k].values.size();
    i /= params[k].values.size();
  }
  return choice;
}

Shard parse_shard(const std::string& text) {
  auto fail = [&] {
    throw ConfigError("--shard " + text, "expected K/N with whole numbers 1 <= K <= N (this machine's share of N)");
  };
  const std::size_t slash = text.find('/');
  if (slash == std::string::npos) fail();
  auto number = [&](std::string_view s) {
    std::size_t v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size()) fail();
    return v;
  };
  Shard s{number(std::string_view(text).substr(0, slash)), number(std::string_view(text).substr(slash + 1))};
  if (s.k < 1 || s.k > s.n) fail();
  return s;
}

std::vector<std::size_t> shard_points(std::size_t total, Shard shard) {
  std::vector<std::size_t> points;
  for (std::size_t i = shard.k - 1; i < total; i += shard.n) points.push_back(i);
  return points;
}

std::vector<std::string> short_metric_names() {
  std::vector<std::string> out;
  for (const auto& [name, key] : short_names()) out.push_back(name);
  return out;
}

std::vector<std::string> metric_names() {
  std::vector<std::string> out = short_metric_names();
  for (const std::string& k : summary_keys()) out.push_back(k);
  return out;
}

std::vector<Metric> parse_metrics(const std::vector<std::string>& args) {
  std::vector<std::string> names;
  for (const std::string& a : args)
    for (const std::string& n : split(a, ',')) names.push_back(n);
  if (names.empty()) names = short_metric_names();
  std::vector<Metric> out;
  std::set<std::string> seen;
  for (const std::string& name : names) {
    std::string key = name;
    auto alias = std::find_if(short_names().begin(), short_names().end(), [&](const auto& s) { return s.first == name; });
    if (alias != short_names().end()) key = alias->second;
    const auto keys = summary_keys();
    if (alias == short_names().end() && std::find(keys.begin(), keys.end(), key) == keys.end()) {
      std::string list;
      for (const std::string& n : metric_names()) list += (list.empty() ? "" : ", ") + n;
      std::string hint;
      if (auto nearest = nearest_name(name, metric_names())) hint = " (did you mean '" + *nearest + "'?)";
      throw ConfigError("--metric " + name, "unknown metric" + hint + "; expected one of: " + list);
    }
    if (!seen.insert(name).second) continue;
    Metric m{name, "", key.empty()};
    if (!key.empty()) {
      for (const std::string& part : split(key, '.')) m.pointer += "/" + part;
      m.seconds = is_seconds(key);
    }
    out.push_back(std::move(m));
  }
  return out;
}

Overrides point_overrides(const Overrides& base, const std::vector<Param>& params, std::size_t i) {
  Overrides o = base;
  const std::vector<std::size_t> choice = grid_choice(params, i);
  for (std::size_t k = 0; k < params.size(); ++k)
    for (const std::string& pool : params[k].pools)
      o.settings.emplace_back(pool + "." + params[k].param, params[k].values[choice[k]]);
  return o;
}

std::string describe_point(const std::vector<Param>& params, std::size_t i) {
  const std::vector<std::size_t> choice = grid_choice(params, i);
  std::string out;
  for (std::size_t k = 0; k < params.size(); ++k)
    out += (k ? " " : "") + params[k].spec + "=" + params[k].shown[choice[k]];
  return out;
}

}  // namespace poolscope::scenario::sweep
