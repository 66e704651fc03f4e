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
    return;
  }
  pool_->shutdown(mode);
  join_stopper();
}

void SelfStoppable::join_stopper() {
  Thread stopper;
  {
    std::lock_guard g(m_);
    stopper = std::move(stopper_);
  }
  if (stopper.joinable()) stopper.join();
}

}  // namespace poolscope
