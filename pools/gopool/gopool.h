// gopool.go: the package-level default pool and the registry of named pools.
#pragma once

#include <system_error>

#include "pools/gopool/pool.h"

namespace poolscope::gopool {

// defaultPool is the global default pool: NewPool("gopool.DefaultPool",
// math.MaxInt32, NewConfig()). The cap was 10000 until 7f5f1de (2023-05),
// the version seed 002 read. C++: made on first use, on real time, untraced;
// destroyed at exit, after its workers have emptied the list.
pool& defaultPool();

// Go is an alternative to the go keyword, which is able to recover panic.
inline void Go(Task f) { defaultPool().Go(std::move(f)); }
// CtxGo is preferred than Go.
inline void CtxGo(Context ctx, Task f) { defaultPool().CtxGo(std::move(ctx), std::move(f)); }
// SetCap is not recommended to be called, this func changes the global pool's
// capacity which will affect other callers.
inline void SetCap(std::int32_t cap) { defaultPool().SetCap(cap); }
// SetPanicHandler sets the panic handler for the global pool.
inline void SetPanicHandler(PanicHandler f) { defaultPool().SetPanicHandler(std::move(f)); }
// WorkerCount returns the number of global default pool's running workers
inline std::int32_t WorkerCount() { return defaultPool().WorkerCount(); }

// RegisterPool registers a new pool to the global map. GetPool can be used
// to get the registered pool by name. Returns ErrAlreadyRegistered ("name:
// %s already registered") if the same name is registered. C++: the map
// holds a pointer; the pool must outlive its registration.
std::error_code RegisterPool(pool& p);
// GetPool gets the registered pool by name. Returns nullptr if not registered.
pool* GetPool(const std::string& name);

}  // namespace poolscope::gopool
