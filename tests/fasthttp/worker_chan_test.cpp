// workerChanCap and the channel it sizes.
#include "pools/fasthttp/worker_chan.h"

#include "pools/core/thread.h"
#include "tests/support/sync.h"

using namespace poolscope;
using namespace poolscope::fasthttp;

TEST_CASE("workerChanCap: unbuffered on one CPU, one slot on more") {
  CHECK(workerChanCap(1) == 0);
  CHECK(workerChanCap(2) == 1);
  CHECK(workerChanCap(64) == 1);
  CHECK(usable_cpus() >= 1);
}

TEST_CASE("channel of capacity 1: send returns with nobody receiving yet") {
  Chan ch(1);
  ch.send(Job{7, [] {}});  // would wait forever if it needed a receiver
  Job got = ch.recv();
  CHECK(got.id == 7);
  CHECK(static_cast<bool>(got));
}

TEST_CASE("channel of capacity 0: send returns once the receiver has the job") {
  Chan ch(0);
  std::atomic<bool> sent{false};
  Thread sender("sender", [&] {
    ch.send(Job{7, [] {}});
    sent = true;
  });
  Job got = ch.recv();
  CHECK(got.id == 7);
  test::await_condition([&] { return sent.load(); }, "the sender returned");
  // nil, Go's stop signal, travels like any value.
  Thread stopper("stopper", [&] { ch.send(Job{}); });
  CHECK_FALSE(ch.recv());
}
