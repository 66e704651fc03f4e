// Run::Driver: one pool's submitters (each takes every n-th scheduled
// arrival and submits it at its time), its closed-loop clients (submit, wait
// for the task, think, again) and its closer (the shutdown, on a thread of
// its own).
#include <algorithm>

#include "scenarios/engine/engine_parts.h"

namespace poolscope::scenario {

bool Run::Driver::sleep_until(Time t) {
  std::unique_lock lock(m);
  while (!stopping && clock.now() < t) cv.wait_until(lock, clock, t);
  return !stopping;
}

void Run::Driver::stop_submitting() {
  {
    std::lock_guard g(m);
    stopping = true;
  }
  cv.notify_all();
}

void Run::Driver::start_closer(ShutdownMode mode) {
  if (closer || closing) return;
  closing = true;
  try {
    closer = std::make_unique<Thread>("closer", [this, mode] {
      pool->shutdown(mode);
      closed = true;
    });
  } catch (const std::system_error& e) {
    // No thread for it: shut down here, on the controller, at once (a
    // graceful shutdown could wait for work that needs this thread).
    run.note_thread_refused("closer for pool '" + entry.name + "'", e);
    pool->shutdown(ShutdownMode::now);
    closed = true;
  }
}

void Run::Driver::submitter(std::size_t k, std::size_t n) {
  mark_engine_thread();
  for (std::uint64_t i = k; std::optional<ScheduledTask> a = arrivals.take(i); i += n) {
    if (!sleep_until(a->at)) break;
    lateness[k].push_back((clock.now() - a->at).count());
    auto task = std::make_shared<const TaskInstance>(std::move(a->task));
    submit_task(*pool, make_runnable(task, ctx), SubmitOptions{task->priority});
  }
  sleep_until(run.workload_.end);
  active--;
}

void Run::Driver::client(std::size_t c) {
  mark_engine_thread();
  const ClientPlan& plan = run.workload_.clients[c];
  ClientStream stream(run.scenario_.phases[plan.phase], plan.seed);
  if (sleep_until(plan.start)) {
    // The first task is due at the phase's start, like a scheduled arrival:
    // a client thread that got the CPU late still submits it.
    do {
      auto task = std::make_shared<const TaskInstance>(stream.next_task());
      auto done = std::make_shared<Countdown>(1);
      if (submit_task(*pool, make_runnable(task, ctx, done), SubmitOptions{task->priority}).accepted())
        done->wait(ctx.cancel);
      if (!sleep_until(std::min(plan.end, clock.now() + stream.next_think()))) break;
    } while (clock.now() < plan.end);
  }
  active--;
}

}  // namespace poolscope::scenario
