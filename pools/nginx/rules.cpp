#include "pools/nginx/rules.h"

namespace poolscope::nginx {

const Label kThreadPoolQueue = intern_label(
    "thread-pool-queue", "nginx ngx_thread_task_post: appended at the tail of the pool's one FIFO queue, waiting++");
const Label kQueueOverflow = intern_label(
    "queue-overflow",
    "nginx ngx_thread_task_post: waiting >= max_queue: thread pool \"%V\" queue overflow: %i tasks waiting");
const Label kThreadPoolInit = intern_label(
    "thread-pool-init", "nginx ngx_thread_pool_init: all `threads` threads start with the worker process; none is "
                        "ever added or reaped");
const Label kQueueHead =
    intern_label("queue-head", "nginx ngx_thread_pool_cycle: the thread takes the head of the queue (FIFO)");
const Label kCondWait = intern_label(
    "cond-wait", "nginx ngx_thread_pool_cycle: waiting-- (it may become negative), then wait on the cond while the "
                 "queue is empty");
const Label kThreadPoolHandler = intern_label(
    "thread-pool-handler", "nginx ngx_thread_pool_handler: the event loop takes the whole done queue and runs each "
                           "task's completion handler, one at a time, on its one thread, between the network "
                           "events it also serves; arg = completions, arg2 = us the oldest waited since its thread "
                           "finished it");
const Label kExitTask = intern_label(
    "exit-task", "nginx ngx_thread_pool_destroy: an exit task posted at the tail of the queue ends the thread, "
                 "one thread at a time");
const Label kQuit = intern_label(
    "quit", "nginx ngx_quit (graceful): no new posts; the loop runs until every posted task has completed");
const Label kTerminate = intern_label(
    "terminate", "nginx ngx_terminate (fast): the loop exits now; completion handlers of running tasks never run");
const Label kTerminateDrop = intern_label(
    "terminate-drop", "poolscope's shutdown-now: the tasks still in the queue are dropped (nginx's exit tasks would "
                      "queue behind them and run them)");

}  // namespace poolscope::nginx
