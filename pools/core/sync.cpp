#include "pools/core/sync.h"

#include <exception>
#include <thread>

namespace poolscope {

// The simulated paths are filled in by pools/core/sim/ (not yet present:
// nothing sets sim::active() so far).
void Mutex::sim_lock() { std::terminate(); }
bool Mutex::sim_try_lock() { std::terminate(); }
void Mutex::sim_unlock() { std::terminate(); }

void this_thread::yield() { std::this_thread::yield(); }

}  // namespace poolscope
