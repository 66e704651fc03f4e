// The one interface every design (and every lab pool) implements, so the
// scenario engine, the GUI and the conformance tests treat them alike. Each
// design also keeps its own native API, named after its original; the class
// implementing Pool is a thin adapter over it.
#pragma once

#include <string_view>

#include "pools/core/params.h"
#include "pools/core/pool_trace.h"

namespace poolscope {

enum class Fate : std::uint8_t {
  accepted,  // the pool took the task (it runs, or it may be dropped at shutdown-now)
  refused,   // the design said no, for `reason` (no idle worker, overload, rejected...)
  closed,    // the pool was shut down
};

struct SubmitResult {
  Fate fate = Fate::accepted;
  Label reason = kNoLabel;  // label_code / label_text say why, in the design's own words

  bool accepted() const { return fate == Fate::accepted; }
  static SubmitResult accept() { return {}; }
  static SubmitResult refuse(Label reason) { return {Fate::refused, reason}; }
  static SubmitResult closed() { return {Fate::closed, rules::pool_closed()}; }
};

// What a submitter may say about a task beyond the task itself.
struct SubmitOptions {
  int priority = 0;  // higher runs first, where the design has a priority queue (Java's PriorityBlockingQueue)
};

enum class ShutdownMode {
  graceful,  // stop accepting; everything accepted runs
  now,       // stop accepting; tasks still waiting are dropped (and counted)
};

// The rule a pool_stopped event names for `mode`.
inline Label stopped_rule(ShutdownMode mode) {
  return mode == ShutdownMode::graceful ? rules::graceful() : rules::now();
}

class Pool {
 public:
  virtual ~Pool() = default;  // implementations shut down gracefully if not done yet, and join every thread

  virtual std::string_view design() const = 0;

  // Hands `task` to the pool and reports its fate. A design whose original
  // blocks the submitter (ants, Java's CallerRuns) blocks here too.
  virtual SubmitResult submit(Task task, const SubmitOptions& options) = 0;
  SubmitResult submit(Task task) { return submit(std::move(task), SubmitOptions{}); }

  // Stops accepting: later submits get Fate::closed, and submitters blocked
  // inside submit() are woken and get Fate::closed. Then finishes as `mode`
  // says; with `now`, every task still waiting is dropped (a task_dropped
  // event each) before shutdown waits for the running ones. Running tasks
  // run to the end (C++ cannot stop a thread safely), unless the design
  // interrupts them as its original does (Java's shutdownNow) and they
  // look (pools/core/interrupt.h: the scenario's sleep tasks do). Returns once
  // every thread the pool started has been joined; never waits on the pool's
  // clock (a manual clock may never move). Idempotent; a second call (either
  // mode) only waits for the first. Called by one of the pool's own tasks, it
  // cannot wait for that task's thread: a pool from the registry then starts
  // the stop and returns at once (self_stop.h).
  virtual void shutdown(ShutdownMode mode) = 0;

  // The state counters, read from the design's own fields.
  virtual Counters state() const = 0;

  // The current parameters, in config form (what a scenario would write).
  virtual json params() const = 0;

  // Changes a parameter the registry describes as live; `value` has been
  // validated against its ParamSpec (use Registry::tune). Designs whose
  // original cannot change anything live keep this default, which throws.
  virtual void set_param(std::string_view name, const ParamValue& value);

  virtual const PoolTrace& trace() const = 0;
  Accounting accounting() const { return trace().accounting(); }
};

}  // namespace poolscope
