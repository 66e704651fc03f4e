// Which runtime a real run's pools run on (--runtime, RunOptions::runtime):
// OS threads (the OS schedules every thread a design starts), or goroutines
// (pools/core/goroutines/: Go's scheduler, every thread a fiber). One seam
// per platform: runtime.desktop.cpp runs the goroutine runtime, and
// runtime.web.cpp says a page has none (a page runs simulations only).
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace poolscope::scenario {

inline constexpr std::string_view kRuntimes = "threads, goroutines";

// Throws ConfigError naming `where` unless `name` is "threads" or "goroutines".
void check_runtime(std::string_view name, const std::string& where);

// Runs `body` as goroutine 1 of a goroutine runtime of GOMAXPROCS Ms, on
// the calling OS thread's behalf, until it returns (what it throws is
// rethrown). When every goroutine falls asleep with nothing timed (Go's
// "all goroutines are asleep - deadlock!"), `on_deadlock` is given the
// report, with each goroutine's wait point, and the run ends.
void run_on_goroutines(std::move_only_function<void()> body, std::function<void(const std::string&)> on_deadlock);

}  // namespace poolscope::scenario
