// The child's request loop (fpm_main.c's `while (!fpm_is_running...)`
// around fcgi_accept_request, and fpm_request.c's stage changes): accepting
// (Idle), accept, reading headers (requests++), execute, end; after
// pm.max_requests the child leaves the loop and exits.
#include <mutex>

#include "pools/phpfpm/fpm_worker_pool.h"

namespace poolscope::phpfpm {

using namespace rules;

void fpm_worker_pool_s::fpm_child_main(fpm_child_s& child) {
  std::unique_lock lock(m_);
  Label why = kNoLabel;
  // C++: a thread has nothing to set up: it waits in accept() at once. A
  // real child first runs fpm_child_init and the SAPI's startup, 1 to 2 ms,
  // before its first accept(); its scoreboard slot says so, and so does this
  // one's for child_start_ after its fork (fpm_request_is_idle_).
  for (;;) {
    // fpm_request_accepting()
    child.request_stage = FPM_REQUEST_ACCEPTING;
    child.tv = trace.clock().now();
    trace.idle(child.pid, kAccepting);

    // accept(): the children compete for the backlog's oldest connection.
    while (!child.quit && listening_socket.empty() && fpm_state == FPM_PCTL_STATE_NORMAL) accept_.wait(lock);
    if (child.quit) {  // SIGQUIT/SIGTERM closed the listening socket for this child
      why = child.quit_rule;
      break;
    }
    if (listening_socket.empty()) {  // C++: finishing, and the backlog is served
      why = kFinishing;
      break;
    }
    Job job = std::move(listening_socket.front());
    listening_socket.pop_front();
    room_.notify_all();  // C++: a client waiting in a blocking connect() may enter

    // fpm_request_reading_headers()
    child.request_stage = FPM_REQUEST_READING_HEADERS;
    child.tv = trace.clock().now();
    child.requests++;
    busy_++;
    trace.handoff(job.id, child.pid, kAccept, true);
    lock.unlock();
    // C++: a task that throws ends its request, not the child (a PHP fatal
    // error is reported and the child takes the next request).
    (void)trace.run(child.pid, job);
    job.fn = nullptr;
    lock.lock();
    busy_--;

    // fpm_request_end()
    child.request_stage = FPM_REQUEST_FINISHED;
    child.tv = trace.clock().now();
    if (config.pm_max_requests != 0 && child.requests >= config.pm_max_requests) {
      why = kMaxRequests;
      break;
    }
  }
  fpm_children_bury(child, why);
}

}  // namespace poolscope::phpfpm
