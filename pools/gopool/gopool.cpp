// gopool.go: defaultPool, RegisterPool, GetPool.
#include "pools/gopool/gopool.h"

#include <limits>
#include <map>
#include <mutex>

#include "pools/core/sync.h"

namespace poolscope::gopool {

pool& defaultPool() {
  static pool p("gopool.DefaultPool", std::numeric_limits<std::int32_t>::max(), NewConfig());
  return p;
}

namespace {
// var poolMap sync.Map. C++: an ordered map under a Mutex.
struct {
  Mutex m;
  std::map<std::string, pool*, std::less<>> pools;
} poolMap;
}  // namespace

std::error_code RegisterPool(pool& p) {
  std::lock_guard g(poolMap.m);
  const bool loaded = !poolMap.pools.emplace(p.Name(), &p).second;  // LoadOrStore
  if (loaded) return ErrAlreadyRegistered;
  return {};
}

pool* GetPool(const std::string& name) {
  std::lock_guard g(poolMap.m);
  auto it = poolMap.pools.find(name);
  return it == poolMap.pools.end() ? nullptr : it->second;
}

}  // namespace poolscope::gopool
