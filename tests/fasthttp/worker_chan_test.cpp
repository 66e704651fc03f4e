// workerChanCap: the rule that sizes each worker's channel (the channel
// itself is go::Chan, tested in tests/core/go_test.cpp).
#include <catch2/catch.hpp>

#include "pools/core/go/park.h"
#include "pools/fasthttp/worker_chan.h"

using namespace poolscope;
using namespace poolscope::fasthttp;

TEST_CASE("workerChanCap: unbuffered when GOMAXPROCS is 1, one slot above") {
  CHECK(workerChanCap(1) == 0);
  CHECK(workerChanCap(2) == 1);
  CHECK(workerChanCap(64) == 1);
  CHECK(workerChanCap(go::gomaxprocs()) == (go::gomaxprocs() == 1 ? 0 : 1));
}
