#include "visualizer/model/sweep_file.h"

#include <algorithm>

#include "scenarios/engine/json_reader.h"
#include "scenarios/engine/scenario.h"
#include "scenarios/engine/sweep_json.h"

namespace poolscope::gui {

std::string_view sweep_counter_name(SweepCounter c) {
  switch (c) {
    case SweepCounter::spawned:
      return "spawned";
    case SweepCounter::reaped:
      return "reaped";
    default:
      return counter_name(static_cast<Counter>(c));
  }
}

std::string_view sweep_counter_help(SweepCounter c) {
  switch (c) {
    case SweepCounter::spawned:
      return "workers started in each bucket: a worker reaped and another started within one bucket leave the "
             "workers' peak flat, and show here";
    case SweepCounter::reaped:
      return "workers reaped in each bucket, by any rule";
    default:
      return counter_help(static_cast<Counter>(c));
  }
}

bool sweep_counter_is_count(SweepCounter c) { return c == SweepCounter::spawned || c == SweepCounter::reaped; }

namespace {

using scenario::ObjectReader;

// The array at `key`, at least `min_items` long.
const json& array(ObjectReader& r, std::string_view key, std::size_t min_items = 0) {
  const json& a = r.required(key);
  if (!a.is_array() || a.size() < min_items)
    r.fail(key, min_items ? "an array of at least " + std::to_string(min_items) + " items" : "an array", &a);
  return a;
}

// The i-th item of an array of numbers (or nulls, when `null_ok`), at `path`.
std::optional<double> number_at(const json& a, std::size_t i, const std::string& path, bool null_ok) {
  const json& v = a[i];
  if (v.is_null() && null_ok) return std::nullopt;
  if (!v.is_number()) scenario::fail_at(path + "/" + std::to_string(i), null_ok ? "a number or null" : "a number", v);
  return v.get<double>();
}

SweepParam read_param(const json& j, const std::string& path) {
  ObjectReader r(j, path);
  SweepParam p;
  p.spec = r.string("spec");
  const json& shown = array(r, "shown", 1);
  for (std::size_t i = 0; i < shown.size(); ++i) {
    if (!shown[i].is_string()) scenario::fail_at(r.path_of("shown") + "/" + std::to_string(i), "a string", shown[i]);
    p.shown.push_back(shown[i].get<std::string>());
  }
  const json& numeric = array(r, "numeric");
  if (numeric.size() != shown.size())
    r.fail("numeric", "one entry per value (" + std::to_string(shown.size()) + ")", &numeric);
  for (std::size_t i = 0; i < numeric.size(); ++i)
    p.numeric.push_back(number_at(numeric, i, r.path_of("numeric"), true));
  r.done({"param", "pools", "values"});
  return p;
}

SweepPool read_pool(const json& j, const std::string& path, const std::vector<SweepMetric>& metrics) {
  ObjectReader r(j, path);
  SweepPool p;
  p.name = r.string("name");
  p.design = r.string("design");
  ObjectReader m(r.required("metrics"), r.path_of("metrics"));
  for (const SweepMetric& metric : metrics) {
    const json* v = m.get(metric.name);
    if (v && !v->is_null() && !v->is_number()) m.fail(metric.name, "a number or null", v);
    p.metrics.push_back(v && v->is_number() ? std::optional(v->get<double>()) : std::nullopt);
  }
  m.done();  // a metric the file does not declare is a mistake, not something to ignore
  if (const json& s = r.required("series"); !s.is_null()) p.series = read_series(s, r.path_of("series"));
  r.done();
  return p;
}

SweepPoint read_point(const json& j, const std::string& path, const SweepFile& sweep) {
  ObjectReader r(j, path);
  SweepPoint p;
  p.index =
      static_cast<std::size_t>(r.integer("index", std::nullopt, 0, static_cast<std::int64_t>(sweep.points_total) - 1));
  const json& choice = array(r, "choice");
  if (choice.size() != sweep.params.size())
    r.fail("choice", "one index per param (" + std::to_string(sweep.params.size()) + ")", &choice);
  for (std::size_t k = 0; k < choice.size(); ++k) {
    const std::size_t values = sweep.params[k].shown.size();
    p.choice.push_back(scenario::integer_at<std::size_t>(
        choice[k], r.path_of("choice") + "/" + std::to_string(k), 0, values - 1,
        "an index of one of " + sweep.params[k].spec + "'s " + std::to_string(values) + " values"));
  }
  p.status = r.string("status");
  p.problem = r.string("problem");
  const json& pools = array(r, "pools");
  for (std::size_t i = 0; i < pools.size(); ++i)
    p.pools.push_back(read_pool(pools[i], r.path_of("pools") + "/" + std::to_string(i), sweep.metrics));
  r.done({"values", "wall_s", "result"});
  return p;
}

}  // namespace

SweepSeries read_series(const json& j, const std::string& path) {
  ObjectReader r(j, path);
  SweepSeries s;
  s.bucket_s = r.number("bucket_s", std::nullopt, 0, std::nullopt, true);
  const json& t = array(r, "t");
  for (std::size_t i = 0; i < t.size(); ++i) s.t.push_back(*number_at(t, i, r.path_of("t"), false));
  for (std::size_t i = 0; i < kSweepCounterCount; ++i) {
    const auto c = static_cast<SweepCounter>(i);
    const std::string_view key = sweep_counter_name(c);
    const json& values = array(r, key);
    if (values.size() != t.size())
      r.fail(key, "one value per bucket of \"t\" (" + std::to_string(t.size()) + ")", &values);
    auto& out = s.counters[static_cast<std::size_t>(c)];
    for (std::size_t i = 0; i < values.size(); ++i) {
      const double v = *number_at(values, i, r.path_of(key), false);
      if (v < 0) scenario::fail_at(r.path_of(key) + "/" + std::to_string(i), "a count, 0 or more", values[i]);
      out.push_back(v);
    }
  }
  r.done();
  return s;
}

bool SweepParam::is_numeric() const {
  return std::all_of(numeric.begin(), numeric.end(), [](const auto& v) { return v.has_value(); });
}

const SweepPool* SweepPoint::pool(std::string_view name) const {
  for (const SweepPool& p : pools)
    if (p.name == name) return &p;
  return nullptr;
}

std::string SweepFile::label(const SweepPoint& p) const {
  std::string out;
  for (std::size_t k = 0; k < params.size(); ++k)
    out += (k ? ", " : "") + params[k].spec + "=" + params[k].shown[p.choice[k]];
  return out;
}

SweepFile read_sweep(const json& doc, const std::string& file) {
  try {
    ObjectReader r(doc, "");
    const std::string format = r.string("format");
    if (format != scenario::sweep::kSweepFormat)
      r.fail("format", "\"" + std::string(scenario::sweep::kSweepFormat) + "\"", r.get("format"));
    SweepFile s;
    s.file = file;
    ObjectReader sc(r.required("scenario"), "/scenario");
    s.scenario = sc.string("name");
    s.scenario_file = sc.string("file", std::string());
    sc.done({});
    s.mode = r.choice("mode", {"simulated", "real"});
    const json& params = array(r, "params", 1);
    for (std::size_t k = 0; k < params.size(); ++k)
      s.params.push_back(read_param(params[k], "/params/" + std::to_string(k)));
    const json& metrics = array(r, "metrics", 1);
    for (std::size_t k = 0; k < metrics.size(); ++k) {
      ObjectReader m(metrics[k], "/metrics/" + std::to_string(k));
      s.metrics.push_back({m.string("name"), m.boolean("seconds")});
      m.done({"key"});
    }
    s.points_total = static_cast<std::size_t>(r.integer("points_total", std::nullopt, 1));
    const json& points = array(r, "points");
    for (std::size_t i = 0; i < points.size(); ++i) {
      s.points.push_back(read_point(points[i], "/points/" + std::to_string(i), s));
      for (const SweepPool& p : s.points.back().pools)
        if (std::find(s.pools.begin(), s.pools.end(), p.name) == s.pools.end()) {
          s.pools.push_back(p.name);
          s.designs.push_back(p.design);
        }
    }
    r.done({"status", "simulation", "shard", "environment"});
    return s;
  } catch (const ConfigError& e) {
    throw scenario::ScenarioError(file, e);
  }
}

SweepFile load_sweep(const std::filesystem::path& file) {
  return read_sweep(scenario::read_scenario_json(file), file.string());
}

}  // namespace poolscope::gui
