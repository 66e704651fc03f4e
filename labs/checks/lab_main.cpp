// The main of the lab graders (a starter's own binary, and lab_grade): Catch2
// with a listener that prints one line per check, PASS or FAIL, and under a
// failing check the hint its author wrote. `scripts/lab` runs these.
#define CATCH_CONFIG_MAIN
#define CATCH_CONFIG_EXTERNAL_INTERFACES
// One line per message: Catch wraps at 80 columns by default, and
// scripts/lab, which shows a failure's first lines, would cut a message in two.
#define CATCH_CONFIG_CONSOLE_WIDTH 400
#include <cstdio>

#include <catch2/catch.hpp>

#include "labs/checks/lab_check.h"

namespace {

class LabListener : public Catch::TestEventListenerBase {
 public:
  using TestEventListenerBase::TestEventListenerBase;

  // The hint first, flushed: a check that hangs or crashes is killed before
  // it ends, and scripts/lab still shows the hint its author wrote.
  void testCaseStarting(const Catch::TestCaseInfo& info) override {
    std::string_view hint = poolscope::lab::hint_for(info.name);
    if (!hint.empty()) std::printf("lab-kit: hint: %.*s\n", static_cast<int>(hint.size()), hint.data());
    std::fflush(stdout);
  }

  void testCaseEnded(const Catch::TestCaseStats& stats) override {
    const std::string& name = stats.testInfo.name;
    bool ok = stats.totals.assertions.failed == 0 && stats.totals.testCases.failed == 0;
    (ok ? passed_ : failed_)++;
    std::printf("%s  %s\n", ok ? "PASS" : "FAIL", name.c_str());
    if (!ok) {
      std::string_view hint = poolscope::lab::hint_for(name);
      if (!hint.empty()) std::printf("      hint: %.*s\n", static_cast<int>(hint.size()), hint.data());
    }
    std::fflush(stdout);
  }

  void testRunEnded(const Catch::TestRunStats&) override {
    std::printf("checks: %d passed, %d failed\n", passed_, failed_);
    std::fflush(stdout);
  }

 private:
  int passed_ = 0, failed_ = 0;
};

// What to look at when a conformance test fails on a lab pool.
const poolscope::lab::HintRegistrar kConformanceHints[] = {
    {"conformance: each accepted task runs exactly once, and every fate is reported",
     "every submit returns accepted (and the task runs once) or refused with a reason label; count each fate "
     "with the PoolTrace operation of the same name"},
    {"conformance: graceful shutdown runs everything accepted, even what waits",
     "shutdown(graceful) must let every queued task run before the threads exit; a stop flag that threads "
     "check before taking the next task loses the queue"},
    {"conformance: shutdown-now drops what waits and accounts for every task",
     "shutdown(now) drops each waiting task with trace.dropped() before waiting for the running ones"},
    {"conformance: the state counters agree with the trace",
     "state() reads the pool's own fields; each field must change together with the trace event that "
     "reports it (under the same lock)"},
    {"conformance: the accounting invariant holds under 8 concurrent submitters",
     "submitted = completed + threw + refused + dropped: look for a path that neither runs nor refuses a task"},
    {"conformance: a task that throws neither kills the pool nor loses other tasks",
     "trace.run() returns what the task threw; the worker must carry on (or be replaced)"},
    {"conformance: destroying a pool joins every thread it started",
     "the adapter's destructor calls shutdown(graceful), which joins every Thread the pool started"},
    {"conformance: after shutdown, submissions are refused as closed",
     "after shutdown, submit records trace.refused(trace.submitted(), rules::pool_closed()) and returns "
     "SubmitResult::closed()"},
};

}  // namespace

CATCH_REGISTER_LISTENER(LabListener)
