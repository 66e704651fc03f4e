// valyala/fasthttp workerpool_test.go, ported. Go's tests call t.Fatalf from
// any goroutine; Catch2 asserts only on the main thread, so the helpers
// return what went wrong and the test cases check it. Go's in-memory
// connections become tasks that wait at a gate, as its handlers wait on
// `ready`; the clock is a manual one that never moves, so Stop is shown not
// to wait on it.
#include <string>
#include <vector>

#include "tests/fasthttp/rig.h"

using namespace poolscope;
using namespace poolscope::fasthttp;
using test::Gate;

namespace {

constexpr int kMaxWorkersCount = 10;

// Opens a gate when it goes out of scope (Go's `defer close(ready)`).
class OpenOnExit {
 public:
  explicit OpenOnExit(Gate& gate) : gate_(gate) {}
  ~OpenOnExit() { gate_.open(); }
  OpenOnExit(const OpenOnExit&) = delete;
  OpenOnExit& operator=(const OpenOnExit&) = delete;

 private:
  Gate& gate_;
};

// testWorkerPoolStartStop: ten Start/Stop cycles in a row must not hang.
void start_stop(ManualClock& clock) {
  WorkerPool wp({.MaxWorkersCount = kMaxWorkersCount}, {.clock = &clock});
  for (int i = 0; i < 10; ++i) {
    wp.start();
    wp.stop();
  }
}

// testWorkerPoolMaxWorkersCount: MaxWorkersCount tasks are served and held;
// one more is refused five times in a row; released, all of them finish.
std::string max_workers_count(ManualClock& clock) {
  // Declared before the pool, so they outlive its workers; and whatever way
  // this returns, the gate opens before the pool's destructor waits for them.
  Gate ready;
  std::atomic<int> served{0};
  WorkerPool wp({.MaxWorkersCount = kMaxWorkersCount}, {.clock = &clock});
  OpenOnExit open_ready{ready};
  wp.start();
  for (int i = 0; i < kMaxWorkersCount; ++i) {
    if (!wp.serve([&] {
          ready.pass();
          served++;
        }))
      return "worker pool must have enough workers to serve the task";
  }
  for (int i = 0; i < 5; ++i)
    if (wp.serve([] {})) return "worker pool must be full";
  ready.open();
  wp.stop();
  wp.join();  // the held workers finish, then exit
  if (served != kMaxWorkersCount) return std::to_string(served) + " tasks served, expected 10";
  if (!wp.trace().accounting().balanced()) return "accounting does not balance";
  return "";
}

std::string max_workers_count_multi(ManualClock& clock) {
  for (int i = 0; i < 5; ++i)
    if (std::string failure = max_workers_count(clock); !failure.empty()) return failure;
  return "";
}

}  // namespace

TEST_CASE("upstream TestWorkerPoolStartStopSerial: ten Start/Stop cycles return") {
  ManualClock clock;
  const std::size_t live = live_threads();
  start_stop(clock);
  CHECK(live_threads() == live);  // every cleaner was joined
}

TEST_CASE("upstream TestWorkerPoolStartStopConcurrent: the same on ten pools at once") {
  ManualClock clock;
  const std::size_t live = live_threads();
  {
    std::vector<Thread> threads;
    for (int i = 0; i < 10; ++i) threads.emplace_back("start-stop", [&] { start_stop(clock); });
  }
  CHECK(live_threads() == live);
}

TEST_CASE("upstream TestWorkerPoolMaxWorkersCountSerial: the 11th task is refused until the 10 finish") {
  ManualClock clock;
  CHECK(max_workers_count_multi(clock) == "");
}

TEST_CASE("upstream TestWorkerPoolMaxWorkersCountConcurrent: the same on four pools at once") {
  ManualClock clock;
  std::vector<std::string> failures(4);
  {
    std::vector<Thread> threads;
    for (std::size_t i = 0; i < failures.size(); ++i)
      threads.emplace_back("max-workers", [&, i] { failures[i] = max_workers_count_multi(clock); });
  }
  for (const std::string& f : failures) CHECK(f == "");
}
