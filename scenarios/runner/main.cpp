// poolscope: the headless runner.
#include <iomanip>
#include <iostream>

#include <CLI/CLI.hpp>

#include "pools/core/duration.h"
#include "pools/core/registry.h"

namespace {

using poolscope::json;
using poolscope::Registry;

int list_pools(bool as_json) {
  const Registry& r = Registry::global();
  if (as_json) {
    json out = json::array();
    for (const auto& name : r.names()) out.push_back(r.get(name).to_json());
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  for (const auto& name : r.names()) {
    const auto& d = r.get(name);
    std::cout << std::left << std::setw(12) << d.name << " " << d.summary << "\n";
  }
  return 0;
}

int describe_pool(const std::string& name, bool as_json) {
  const auto& d = Registry::global().get(name);
  if (as_json) {
    std::cout << d.to_json().dump(2) << "\n";
    return 0;
  }
  std::cout << d.name << ": " << d.summary << "\n";
  if (!d.docs.empty()) std::cout << "docs: " << d.docs << "\n";
  if (d.params.empty()) std::cout << "\n(no parameters)\n";
  for (const auto& p : d.params) {
    std::cout << "\n  " << p.name << " (" << poolscope::type_name(p.type) << (p.live ? ", live" : "") << ")\n";
    std::cout << "    default " << p.default_value.dump();
    if (!p.min.is_null() || !p.max.is_null())
      std::cout << ", range [" << (p.min.is_null() ? "" : p.min.dump()) << ", " << (p.max.is_null() ? "" : p.max.dump())
                << "]";
    if (!p.choices.empty()) {
      std::cout << ", one of";
      for (const auto& c : p.choices) std::cout << " " << c;
    }
    if (!p.unit.empty()) std::cout << ", unit " << p.unit;
    std::cout << "\n    " << p.help << "\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"poolscope: compare worker-pool designs under the same scripted workload"};
  app.require_subcommand(1);

  bool json_out = false;
  auto* pools = app.add_subcommand("pools", "list the registered pool designs");
  pools->add_flag("--json", json_out, "print JSON for scripts");

  std::string pool_name;
  auto* describe = app.add_subcommand("describe", "show a design's parameters: defaults, ranges, help");
  describe->add_option("POOL", pool_name, "design name (see `poolscope pools`)")->required();
  describe->add_flag("--json", json_out, "print JSON for scripts");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  try {
    if (*pools) return list_pools(json_out);
    if (*describe) return describe_pool(pool_name, json_out);
  } catch (const poolscope::ConfigError& e) {
    std::cerr << "poolscope: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
