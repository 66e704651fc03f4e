#include "pools/fasthttp/worker_chan.h"

namespace poolscope::fasthttp {

int workerChanCap(int gomaxprocs) { return gomaxprocs == 1 ? 0 : 1; }

}  // namespace poolscope::fasthttp
