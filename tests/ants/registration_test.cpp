// The registry entries `ants` and `ants-multi`: parameters, the original's
// errors as config errors, live Tune, and the PoolWithFunc path behind the
// Pool interface (the conformance suite runs the defaults).
#include <atomic>

#include "pools/ants/rules.h"
#include "pools/core/registry.h"
#include "tests/ants/rig.h"

using namespace poolscope;
using namespace poolscope::ants::test;

namespace {

std::unique_ptr<poolscope::Pool> create(Rig& rig, std::string_view design, const json& config) {
  return Registry::global().create(design, config, rig.target());
}

// The ConfigError a config gets, as "path: message".
std::string config_error(std::string_view design, const json& config) {
  Rig rig;
  try {
    create(rig, design, config);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("ants registry: both designs, with the original's defaults") {
  const Design& ants = Registry::global().get("ants");
  CHECK(ants.origin == "design");
  CHECK(ants.docs == "docs/pools/ants.md");
  CHECK(ants.param("size")->default_value == 10);
  CHECK(ants.param("size")->live);
  CHECK(ants.param("ExpiryDuration")->default_value == "1s");
  CHECK_FALSE(ants.param("ExpiryDuration")->live);
  CHECK(ants.param("MaxBlockingTasks")->default_value == 0);
  for (const char* name : {"PreAlloc", "Nonblocking", "DisablePurge", "PoolWithFunc"})
    CHECK(ants.param(name)->default_value == false);

  const Design& multi = Registry::global().get("ants-multi");
  CHECK(multi.param("size")->default_value == 2);
  CHECK_FALSE(multi.param("size")->live);
  CHECK(multi.param("sizePerPool")->live);
  CHECK(multi.param("lbs")->choices == std::vector<std::string>{"RoundRobin", "LeastTasks"});

  Rig rig;
  auto pool = create(rig, "ants", nullptr);
  CHECK(pool->params()["size"] == 10);
  CHECK(pool->params()["ExpiryDuration"] == "1s");
}

TEST_CASE("ants registry: the original's errors become config errors on the parameter") {
  CHECK(config_error("ants", {{"ExpiryDuration", "-1s"}}) ==
        "/ExpiryDuration: invalid expiry for pool (ants ErrInvalidPoolExpiry)");
  CHECK(config_error("ants", {{"ExpiryDuration", "-1s"}, {"DisablePurge", true}}).empty());
  CHECK(config_error("ants", {{"size", 0}, {"PreAlloc", true}}) ==
        "/PreAlloc: can not set up a negative capacity under PreAlloc mode (ants ErrInvalidPreAllocSize)");
  CHECK(config_error("ants-multi", {{"size", 0}}) ==
        "/size: invalid size for multiple pool (ants ErrInvalidMultiPoolSize)");
  CHECK(config_error("ants-multi", {{"sizePerPool", 0}, {"PreAlloc", true}}) ==
        "/PreAlloc: can not set up a negative capacity under PreAlloc mode (ants ErrInvalidPreAllocSize)");
  CHECK(config_error("ants", {{"MaxBlockingTasks", -1}}) != "");
}

TEST_CASE("ants registry: size is live (Tune), and the trace says so") {
  Rig rig;
  auto pool = create(rig, "ants", {{"size", 4}});
  Registry::global().tune(*pool, "size", 6);
  CHECK(pool->params()["size"] == 6);
  Event tuned = await_event(rig.log, is_kind(EventKind::param_tuned), "tuned");
  CHECK(tuned.rule == ants::rules::kSize);
  CHECK(tuned.arg == 6);
  CHECK_THROWS_AS(Registry::global().tune(*pool, "ExpiryDuration", "2s"), ConfigError);

  // Tune is ignored with PreAlloc, as in ants: the capacity stays.
  auto pre = create(rig, "ants", {{"size", 4}, {"PreAlloc", true}});
  Registry::global().tune(*pre, "size", 6);
  CHECK(pre->params()["size"] == 4);

  auto multi = create(rig, "ants-multi", {{"size", 3}, {"sizePerPool", 2}});
  Registry::global().tune(*multi, "sizePerPool", 5);
  CHECK(multi->params()["sizePerPool"] == 5);
}

TEST_CASE("ants registry: PoolWithFunc and Nonblocking behind the Pool interface") {
  const char* design = GENERATE("ants", "ants-multi");
  CAPTURE(design);
  Rig rig;
  auto pool = create(rig, design, {{"PoolWithFunc", true}, {"Nonblocking", true}});
  Gate gate;
  int accepted = 0;
  SubmitResult refused;
  for (int i = 0; i < 11; ++i) {
    SubmitResult r = pool->submit(gate.task());
    if (r.accepted()) {
      ++accepted;
    } else {
      refused = r;
    }
  }
  CHECK(accepted == 10);
  CHECK(refused.fate == Fate::refused);
  CHECK(refused.reason == ants::rules::kNonblocking);
  CHECK(pool->state() == Counters{10, 10, 0, 0});
  gate.open();
  pool->shutdown(ShutdownMode::graceful);
  CHECK(pool->submit([] {}).fate == Fate::closed);
  CHECK(pool->accounting().completed == 10);
  CHECK(pool->accounting().balanced());
  CHECK(pool->state() == Counters{});
}

TEST_CASE("ants registry: shutdown wakes a blocked submitter with closed") {
  Rig rig;
  auto pool = create(rig, "ants", {{"size", 1}});
  Gate gate;
  REQUIRE(pool->submit(gate.task()).accepted());
  SubmitResult blocked;
  BoundedThread submitter("submitter", [&] { blocked = pool->submit([] {}); });
  await_condition([&] { return pool->state().blocked == 1; }, "a blocked submitter");
  BoundedThread opener("opener", [&] {
    await_event(rig.log, is_kind(EventKind::pool_state, ants::rules::kRelease), "released");
    gate.open();
  });
  pool->shutdown(ShutdownMode::now);
  submitter.join();
  opener.join();
  CHECK(blocked.fate == Fate::closed);
  CHECK(pool->accounting().dropped == 0);
  CHECK(pool->accounting().balanced());
}
