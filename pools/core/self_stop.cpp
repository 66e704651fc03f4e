#include "pools/core/self_stop.h"

#include <mutex>

namespace poolscope {

SelfStoppable::~SelfStoppable() {
  pool_->shutdown(ShutdownMode::graceful);
  join_stopper();
}

void SelfStoppable::shutdown(ShutdownMode mode) {
  if (pool_->trace().runs_task_here()) {
    std::lock_guard g(m_);
    if (!stopper_.joinable()) stopper_ = Thread("self-stop", [this, mode] { pool_->shutdown(mode); });
    self_stopped_.store(true, std::memory_order_release);
    return;
  }
  pool_->shutdown(mode);
  join_stopper();
}

// The pool's shutdown has returned: every task has ended, so a task that
// started a stop set self_stopped_ before.
void SelfStoppable::join_stopper() {
  if (!self_stopped_.load(std::memory_order_acquire)) return;
  Thread stopper;
  {
    std::lock_guard g(m_);
    stopper = std::move(stopper_);
  }
  if (stopper.joinable()) stopper.join();
}

}  // namespace poolscope
