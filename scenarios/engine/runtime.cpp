#include "scenarios/engine/runtime.h"

#include "pools/core/params.h"

namespace poolscope::scenario {

void check_runtime(std::string_view name, const std::string& where) {
  if (name != "threads" && name != "goroutines")
    throw ConfigError(where + " \"" + std::string(name) + "\"", "expected threads or goroutines");
}

}  // namespace poolscope::scenario
