#include "scenarios/engine/sweep_json.h"

#include <algorithm>

#include "scenarios/engine/result_json.h"

namespace poolscope::scenario::sweep {

namespace {

// RFC 4180: a field with a comma, a quote or a line break is quoted, quotes doubled.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string csv_number(const json& v) {
  if (v.is_null()) return "";
  if (v.is_number_float()) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", v.get<double>());
    return buf;
  }
  return v.dump();
}

}  // namespace

std::string overall_status(const std::vector<PointResult>& points) {
  const bool ok = std::all_of(points.begin(), points.end(),
                              [](const PointResult& p) { return p.status == "ok" || p.status == "stopped"; });
  return ok ? "ok" : "failed";
}

json sweep_json(const Sweep& sweep, const std::vector<PointResult>& points) {
  json params = json::array();
  for (const Param& p : sweep.params) {
    json numeric = json::array();
    for (const auto& n : p.numeric) numeric.push_back(n ? json(*n) : json(nullptr));
    params.push_back({{"spec", p.spec},
                      {"param", p.param},
                      {"pools", p.pools},
                      {"values", p.values},
                      {"shown", p.shown},
                      {"numeric", numeric}});
  }
  json metrics = json::array();
  for (const Metric& m : sweep.metrics)
    metrics.push_back({{"name", m.name},
                       {"key", m.pointer.empty() ? json(nullptr) : json(m.pointer)},
                       {"seconds", m.seconds}});
  json pts = json::array();
  for (const PointResult& r : points) {
    const std::vector<std::size_t> choice = grid_choice(sweep.params, r.index);
    json values = json::object();
    for (std::size_t k = 0; k < sweep.params.size(); ++k) values[sweep.params[k].spec] = sweep.params[k].shown[choice[k]];
    pts.push_back({{"index", r.index},
                   {"choice", choice},
                   {"values", values},
                   {"status", r.status},
                   {"problem", r.problem},
                   {"wall_s", r.wall_s},
                   {"result", r.result_file.empty() ? json(nullptr) : json(r.result_file)},
                   {"pools", r.pools}});
  }
  return {{"format", kSweepFormat},
          {"status", overall_status(points)},
          {"scenario", {{"file", sweep.scenario_file}, {"name", sweep.scenario_name}}},
          {"mode", sweep.real ? "real" : "simulated"},
          {"simulation", sweep.simulation},
          {"params", params},
          {"metrics", metrics},
          {"shard", {{"k", sweep.shard.k}, {"n", sweep.shard.n}}},
          {"points_total", sweep.total},
          {"environment", environment_json()},
          {"points", pts}};
}

void write_csv(std::ostream& out, const Sweep& sweep, const std::vector<PointResult>& points) {
  out << "point";
  for (const Param& p : sweep.params) out << "," << csv_field(p.spec);
  out << ",pool";
  for (const Metric& m : sweep.metrics) out << "," << csv_field(m.name);
  out << ",status\n";
  for (const PointResult& r : points) {
    const std::vector<std::size_t> choice = grid_choice(sweep.params, r.index);
    for (const json& pool : r.pools) {
      out << r.index;
      for (std::size_t k = 0; k < sweep.params.size(); ++k) out << "," << csv_field(sweep.params[k].shown[choice[k]]);
      out << "," << csv_field(pool.at("name").get<std::string>());
      for (const Metric& m : sweep.metrics) out << "," << csv_number(pool.at("metrics").value(m.name, json(nullptr)));
      out << "," << r.status << "\n";
    }
    if (r.pools.empty()) {  // a point whose process died measured nothing: still a row
      out << r.index;
      for (std::size_t k = 0; k < sweep.params.size(); ++k) out << "," << csv_field(sweep.params[k].shown[choice[k]]);
      out << ",";
      for (std::size_t k = 0; k < sweep.metrics.size(); ++k) out << ",";
      out << "," << r.status << "\n";
    }
  }
}

}  // namespace poolscope::scenario::sweep
