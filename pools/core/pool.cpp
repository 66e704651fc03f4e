#include "pools/core/pool.h"

namespace poolscope {

void Pool::set_param(std::string_view name, const ParamValue&) {
  throw ConfigError("/" + std::string(name),
                    "pool design '" + std::string(design()) + "' cannot change it while running");
}

}  // namespace poolscope
