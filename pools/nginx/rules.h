// nginx's thread pool: its defaults, its log texts and the rules its trace
// events name, in one place. Each label's text is the one-line "why" the GUI
// and `poolscope describe`'s readers see; the log texts keep nginx's words,
// with its %V / %i / %ui where nginx formats a value.
#pragma once

#include <cstdint>

#include "pools/core/labels.h"

namespace poolscope::nginx {

// ngx_thread_pool_init_conf: a pool named "default" that no thread_pool
// directive defines gets 32 threads and a max_queue of 65536; ngx_thread_pool
// sets max_queue to 65536 before it reads the directive's arguments.
inline constexpr std::int64_t kDefaultThreads = 32;
inline constexpr std::int64_t kDefaultMaxQueue = 65536;
inline constexpr const char* kDefaultName = "default";

// Log levels (ngx_log.h), for the texts below.
enum ngx_log_level { NGX_LOG_EMERG = 1, NGX_LOG_ALERT = 2, NGX_LOG_ERR = 4, NGX_LOG_DEBUG = 8 };

// The texts nginx logs, verbatim (ngx_thread_pool.c).
namespace text {
inline constexpr const char* kQueueOverflow = "thread pool \"%V\" queue overflow: %i tasks waiting";
inline constexpr const char* kAlreadyActive = "task #%ui already active";
inline constexpr const char* kPthreadCreateFailed = "pthread_create() failed";
inline constexpr const char* kInvalidThreads = "invalid threads value \"%V\"";
inline constexpr const char* kInvalidMaxQueue = "invalid max_queue value \"%V\"";
inline constexpr const char* kMustHaveThreads = "\"%V\" must have \"threads\" parameter";
}  // namespace text

// ngx_thread_task_post
extern const Label kThreadPoolQueue;  // queued: appended at the tail of the pool's one FIFO queue
extern const Label kQueueOverflow;    // refusal: waiting >= max_queue
// ngx_thread_pool_cycle
extern const Label kThreadPoolInit;  // spawn: every thread is created at init, all at once
extern const Label kQueueHead;       // handoff: a thread takes the head of the queue
extern const Label kCondWait;        // idle: the queue is empty, the thread waits on the pool's cond
// ngx_thread_pool_handler: the completion lane, on the event loop
extern const Label kThreadPoolHandler;  // pool state: one pass over the done queue; arg = completions run, arg2 = µs the oldest waited
// ngx_thread_pool_destroy
extern const Label kExitTask;        // exit: the thread ran an exit task posted by destroy
extern const Label kQuit;            // pool state: graceful shutdown (ngx_quit): wait for every posted task
extern const Label kTerminate;       // pool state: fast shutdown (ngx_terminate)
extern const Label kTerminateDrop;   // dropped: C++: fast shutdown drops the queue (nginx would run it)

}  // namespace poolscope::nginx
