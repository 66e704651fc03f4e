#include "tests/support/designs.h"

#include <cstdlib>

#include "pools/core/registry.h"

namespace poolscope::test {

std::vector<std::string> designs() {
  std::vector<std::string> names = Registry::global().names();
  const char* only = std::getenv("POOLSCOPE_DESIGNS");
  if (!only || !*only) return names;
  const std::string list = std::string(",") + only + ",";
  std::erase_if(names, [&](const std::string& n) { return list.find("," + n + ",") == std::string::npos; });
  return names;
}

}  // namespace poolscope::test
