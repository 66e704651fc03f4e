#include "scenarios/runner/sweep_table.h"

#include <algorithm>
#include <cstdio>

#include "scenarios/runner/table.h"

namespace poolscope::runner {

namespace {

std::string cell(const json& v, bool seconds) {
  if (v.is_null()) return "-";
  if (v.is_number_integer() || v.is_number_unsigned()) return v.dump();
  if (!v.is_number()) return v.dump();
  if (seconds) return human_duration(v.get<double>());
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v.get<double>());
  return buf;
}

}  // namespace

void print_sweep_table(std::ostream& out, const scenario::sweep::Sweep& sweep,
                       const std::vector<scenario::sweep::PointResult>& points) {
  using scenario::sweep::grid_choice;
  const bool all_ok = std::all_of(points.begin(), points.end(), [](const auto& p) { return p.status == "ok"; });
  std::vector<std::string> header = {"point"};
  for (const auto& p : sweep.params) header.push_back(p.spec);
  header.push_back("pool");
  for (const auto& m : sweep.metrics) header.push_back(m.name);
  if (!all_ok) header.push_back("status");

  std::vector<std::vector<std::string>> rows;
  for (const auto& r : points) {
    const auto choice = grid_choice(sweep.params, r.index);
    std::vector<std::string> lead = {std::to_string(r.index)};
    for (std::size_t k = 0; k < sweep.params.size(); ++k) lead.push_back(sweep.params[k].shown[choice[k]]);
    auto finish = [&](std::vector<std::string> row) {
      if (!all_ok) row.push_back(r.status);
      rows.push_back(std::move(row));
    };
    if (r.pools.empty()) {
      std::vector<std::string> row = lead;
      row.push_back("-");
      for (std::size_t k = 0; k < sweep.metrics.size(); ++k) row.push_back("-");
      finish(std::move(row));
    }
    for (const json& pool : r.pools) {
      std::vector<std::string> row = lead;
      row.push_back(pool.at("name").get<std::string>());
      for (const auto& m : sweep.metrics) row.push_back(cell(pool.at("metrics").value(m.name, json(nullptr)), m.seconds));
      finish(std::move(row));
    }
  }

  std::vector<std::size_t> width(header.size());
  for (std::size_t c = 0; c < header.size(); ++c) {
    width[c] = header[c].size();
    for (const auto& row : rows) width[c] = std::max(width[c], row[c].size());
  }
  // Parameters and the pool read left to right; the point and the metrics are right-aligned numbers.
  const std::size_t first_metric = 2 + sweep.params.size();
  auto print = [&](const std::vector<std::string>& row) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      const bool left = (c >= 1 && c < first_metric) || (!all_ok && c + 1 == row.size());
      const std::string pad(width[c] - row[c].size(), ' ');
      out << (c ? "  " : "") << (left ? row[c] + (c + 1 == row.size() ? "" : pad) : pad + row[c]);
    }
    out << "\n";
  };
  print(header);
  for (const auto& row : rows) print(row);
}

}  // namespace poolscope::runner
