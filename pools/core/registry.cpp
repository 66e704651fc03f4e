#include "pools/core/registry.h"

#include <algorithm>
#include <stdexcept>

#include "pools/core/self_stop.h"

namespace poolscope {

const ParamSpec* Design::param(std::string_view name) const {
  for (const ParamSpec& p : params)
    if (p.name == name) return &p;
  return nullptr;
}

json Design::to_json() const {
  json ps = json::array();
  for (const ParamSpec& p : params) ps.push_back(p.to_json());
  return {{"name", name}, {"summary", summary}, {"docs", docs}, {"origin", origin}, {"params", ps}};
}

Registry& Registry::global() {
  static Registry r;
  return r;
}

void Registry::add(Design design) {
  std::lock_guard g(m_);
  auto same = [&](const Design& d) { return d.name == design.name; };
  if (std::any_of(designs_.begin(), designs_.end(), same))
    throw std::logic_error("poolscope: pool design '" + design.name + "' registered twice");
  designs_.push_back(std::move(design));
}

const Design* Registry::find(std::string_view name) const {
  std::lock_guard g(m_);
  for (const Design& d : designs_)
    if (d.name == name) return &d;
  return nullptr;
}

const Design& Registry::get(std::string_view name) const {
  if (const Design* d = find(name)) return *d;
  std::string known;
  for (const std::string& n : names()) known += (known.empty() ? "" : ", ") + n;
  throw ConfigError("", "unknown pool design '" + std::string(name) + "' (known: " + known + ")");
}

std::vector<std::string> Registry::names() const {
  std::lock_guard g(m_);
  std::vector<std::string> out;
  for (const Design& d : designs_)
    if (d.origin != "challenge") out.push_back(d.name);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> Registry::challenge_pools() const {
  std::lock_guard g(m_);
  std::vector<std::string> out;
  for (const Design& d : designs_)
    if (d.origin == "challenge") out.push_back(d.name);
  std::sort(out.begin(), out.end());
  return out;
}

Design detail::as_challenge(Design d, const char* name) {
  d.summary = "challenge pool (" + d.name + " with a planted mistake): " + d.summary;
  d.name = name;
  d.origin = "challenge";
  return d;
}

std::unique_ptr<Pool> Registry::create(std::string_view name, const json& config, const TraceTarget& target) const {
  const Design& d = get(name);
  Params params = parse_params(d.params, config, d.name);
  // So that a task may stop its own pool without waiting for itself (self_stop.h).
  return std::make_unique<SelfStoppable>(d.make(params, target));
}

void Registry::tune(Pool& pool, std::string_view name, const json& value) const {
  const Design& d = get(pool.design());
  const ParamSpec* spec = d.param(name);
  std::string path = "/";
  path += name;  // not "/" + std::string(name): g++ 12 -O3 warns falsely on it (-Wrestrict, GCC PR 105651)
  if (!spec) throw ConfigError(path, "pool design '" + d.name + "' has no parameter '" + std::string(name) + "'");
  if (!spec->live)
    throw ConfigError(path, "pool design '" + d.name + "' cannot change '" + spec->name + "' while running");
  pool.set_param(name, parse_param(*spec, value, path));
}

}  // namespace poolscope
