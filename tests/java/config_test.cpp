// Construction and settings: the exceptions Java throws (types, not
// messages), the getters and setters, prestarting, and the registry entry.
#include <atomic>
#include <optional>
#include <thread>

#include "pools/core/registry.h"
#include "tests/java/rig.h"

using namespace poolscope;
using namespace poolscope::java;
using namespace poolscope::java::test;

namespace {

std::unique_ptr<ThreadPoolExecutor> build(
    int core, int max, Nanos keepAlive, std::unique_ptr<BlockingQueue> queue = std::make_unique<LinkedBlockingQueue>(),
    std::shared_ptr<ThreadFactory> factory = std::make_shared<DefaultThreadFactory>(),
    std::shared_ptr<RejectedExecutionHandler> handler = std::make_shared<AbortPolicy>()) {
  return std::make_unique<ThreadPoolExecutor>(core, max, keepAlive, std::move(queue), std::move(factory),
                                              std::move(handler));
}

}  // namespace

TEST_CASE("java: the constructor rejects bad sizes and null parts (TCK testConstructor*)") {
  CHECK_THROWS_AS(build(-1, 1, 1s), IllegalArgumentException);
  CHECK_THROWS_AS(build(1, -1, 1s), IllegalArgumentException);
  CHECK_THROWS_AS(build(0, 0, 1s), IllegalArgumentException);
  CHECK_THROWS_AS(build(1, 1, -1s), IllegalArgumentException);
  CHECK_THROWS_AS(build(2, 1, 1s), IllegalArgumentException);
  CHECK_THROWS_AS(build(1, 1, 1s, nullptr), NullPointerException);
  CHECK_THROWS_AS(build(1, 1, 1s, std::make_unique<LinkedBlockingQueue>(), nullptr), NullPointerException);
  CHECK_THROWS_AS(
      build(1, 1, 1s, std::make_unique<LinkedBlockingQueue>(), std::make_shared<DefaultThreadFactory>(), nullptr),
      NullPointerException);
  CHECK_THROWS_AS(ArrayBlockingQueue(0), IllegalArgumentException);
  CHECK_THROWS_AS(LinkedBlockingQueue(0), IllegalArgumentException);
  auto e = build(0, 1, 0s);        // the smallest valid pool
  CHECK(e->get_pool_size() == 0);  // no thread at construction
  CHECK_THROWS_AS(e->execute(Task{}), NullPointerException);
}

TEST_CASE("java: setters throw IllegalArgumentException and leave the sizes unchanged (TCK testPoolSizeInvariants)") {
  for (int s = 1; s < 5; ++s) {
    auto e = build(s, s, 1s);
    CHECK_THROWS_AS(e->set_maximum_pool_size(s - 1), IllegalArgumentException);
    CHECK_THROWS_AS(e->set_core_pool_size(s + 1), IllegalArgumentException);
    CHECK_THROWS_AS(e->set_core_pool_size(-1), IllegalArgumentException);
    CHECK_THROWS_AS(e->set_maximum_pool_size(-s), IllegalArgumentException);
    CHECK(e->get_core_pool_size() == s);
    CHECK(e->get_maximum_pool_size() == s);
  }
  auto e = build(2, 3, 1s);
  CHECK_THROWS_AS(e->set_keep_alive_time(-1ns), IllegalArgumentException);
  CHECK(e->get_keep_alive_time() == 1s);
  e->allow_core_thread_time_out(true);
  CHECK_THROWS_AS(e->set_keep_alive_time(0s), IllegalArgumentException);
  CHECK_THROWS_AS(e->set_thread_factory(nullptr), NullPointerException);
  CHECK_THROWS_AS(e->set_rejected_execution_handler(nullptr), NullPointerException);
  auto zero = build(1, 1, 0s);
  CHECK_THROWS_AS(zero->allow_core_thread_time_out(true), IllegalArgumentException);
  CHECK_FALSE(zero->allows_core_thread_time_out());
}

TEST_CASE("java: getters return what the constructor and setters set (TCK getters and setters)") {
  auto factory = std::make_shared<DefaultThreadFactory>();
  auto handler = std::make_shared<DiscardPolicy>();
  auto e = build(1, 3, 1000ms, std::make_unique<LinkedBlockingQueue>(), factory, handler);
  CHECK(e->get_core_pool_size() == 1);
  CHECK(e->get_keep_alive_time() == 1s);
  CHECK(e->get_maximum_pool_size() == 3);
  CHECK(e->get_thread_factory() == factory);
  CHECK(e->get_rejected_execution_handler() == handler);
  e->set_maximum_pool_size(5);
  CHECK(e->get_maximum_pool_size() == 5);
  e->set_maximum_pool_size(4);
  CHECK(e->get_maximum_pool_size() == 4);
  auto other = std::make_shared<CallerRunsPolicy>();
  e->set_rejected_execution_handler(other);
  CHECK(e->get_rejected_execution_handler() == other);
  CHECK(dynamic_cast<AbortPolicy*>(build(1, 1, 1s)->get_rejected_execution_handler().get()) != nullptr);
}

namespace {

// A default factory that counts the threads it makes.
class CountingThreadFactory final : public ThreadFactory {
 public:
  std::optional<UnstartedThread> newThread(std::move_only_function<void()> r) override {
    ++made;
    return inner_.newThread(std::move(r));
  }
  std::atomic<int> made{0};

 private:
  DefaultThreadFactory inner_;
};

}  // namespace

TEST_CASE(
    "java: setThreadFactory: get returns the factory set, and new threads come from it (TCK "
    "testSetThreadFactory)") {
  Rig rig;
  auto e = rig.make(1, 1, 60s, std::make_unique<LinkedBlockingQueue>());
  auto factory = std::make_shared<CountingThreadFactory>();
  e->set_thread_factory(factory);
  CHECK(e->get_thread_factory() == factory);
  e->execute([] {});
  e->close();
  CHECK(factory->made == 1);
}

TEST_CASE("java: prestartCoreThread and prestartAllCoreThreads (TCK)") {
  Rig rig;
  auto e = rig.make(2, 6, 60s, std::make_unique<ArrayBlockingQueue>(10));
  CHECK(e->prestart_core_thread());
  CHECK(e->get_pool_size() == 1);
  CHECK(e->prestart_core_thread());
  CHECK(e->get_pool_size() == 2);
  CHECK_FALSE(e->prestart_core_thread());
  e->set_core_pool_size(4);
  CHECK(e->prestart_core_thread());
  CHECK(e->prestart_core_thread());
  CHECK(e->get_pool_size() == 4);
  CHECK_FALSE(e->prestart_core_thread());
  CHECK(rig.count(is_kind(EventKind::worker_spawned, kPrestart)) == 4);

  auto all = rig.make(2, 6, 60s, std::make_unique<ArrayBlockingQueue>(10));
  CHECK(all->prestart_all_core_threads() == 2);
  CHECK(all->get_pool_size() == 2);
  CHECK(all->prestart_all_core_threads() == 0);
  all->set_core_pool_size(4);
  CHECK(all->prestart_all_core_threads() == 2);
  CHECK(all->get_pool_size() == 4);
}

TEST_CASE("java: registry config errors name the parameter and Java's rule") {
  TraceTarget untraced;
  auto error_path = [&](const json& config) {
    try {
      Registry::global().create("java", config, untraced);
    } catch (const ConfigError& e) {
      return e.path();
    }
    return std::string("(no error)");
  };
  CHECK(error_path({{"corePoolSize", 5}, {"maximumPoolSize", 4}}) == "/maximumPoolSize");
  CHECK(error_path({{"maximumPoolSize", 0}}) == "/maximumPoolSize");
  CHECK(error_path({{"corePoolSize", -1}}) == "/corePoolSize");
  CHECK(error_path({{"queueCapacity", 0}}) == "/queueCapacity");
  CHECK(error_path({{"queueCapacity", 0}, {"workQueue", "LinkedBlockingQueue"}}) == "(no error)");
  CHECK(error_path({{"keepAliveTime", "0s"}, {"allowCoreThreadTimeOut", true}}) == "/allowCoreThreadTimeOut");
  CHECK(error_path({{"handler", "CallerRuns"}}) == "/handler");
}

TEST_CASE("java: live settings through the registry, with Java's checks") {
  ManualClock clock;
  auto pool = Registry::global().create("java", {{"corePoolSize", 1}, {"maximumPoolSize", 2}}, {.clock = &clock});
  const Registry& r = Registry::global();
  r.tune(*pool, "maximumPoolSize", 8);
  r.tune(*pool, "corePoolSize", 3);
  r.tune(*pool, "keepAliveTime", "1s");
  r.tune(*pool, "allowCoreThreadTimeOut", true);
  r.tune(*pool, "handler", "DiscardPolicy");
  json p = pool->params();
  CHECK(p["corePoolSize"] == 3);
  CHECK(p["maximumPoolSize"] == 8);
  CHECK(p["keepAliveTime"] == "1s");
  CHECK(p["allowCoreThreadTimeOut"] == true);
  CHECK(p["handler"] == "DiscardPolicy");
  CHECK(p["workQueue"] == "ArrayBlockingQueue");
  CHECK_THROWS_AS(r.tune(*pool, "corePoolSize", 9), ConfigError);                // above the maximum
  CHECK_THROWS_AS(r.tune(*pool, "keepAliveTime", "0s"), ConfigError);            // core threads time out
  CHECK_THROWS_AS(r.tune(*pool, "workQueue", "SynchronousQueue"), ConfigError);  // not live
  CHECK(pool->params()["corePoolSize"] == 3);
}

TEST_CASE("java: the Pool adapter reports each policy's fate") {
  ManualClock clock;
  Gate gate;
  // Every pool is declared before the OpenOnExit: the gate opens before any
  // pool's destructor waits for its gated task.
  std::unique_ptr<Pool> abort, discard, oldest, caller;
  OpenOnExit open(gate);
  // Into `pool`, so that a failed REQUIRE leaves it to the order above.
  auto saturate = [&](std::unique_ptr<Pool>& pool, const char* policy) {
    pool = Registry::global().create("java",
                                     {{"corePoolSize", 1},
                                      {"maximumPoolSize", 1},
                                      {"workQueue", "ArrayBlockingQueue"},
                                      {"queueCapacity", 1},
                                      {"handler", policy}},
                                     {.clock = &clock});
    REQUIRE(pool->submit(gate.task()).accepted());
    REQUIRE(pool->submit([] {}).accepted());
  };
  saturate(abort, "AbortPolicy");
  CHECK(abort->submit([] {}).reason == kRejected);
  saturate(discard, "DiscardPolicy");
  CHECK(discard->submit([] {}).reason == kDiscard);
  saturate(oldest, "DiscardOldestPolicy");
  CHECK(oldest->submit([] {}).accepted());
  saturate(caller, "CallerRunsPolicy");
  std::thread::id ranOn;
  CHECK(caller->submit([&] { ranOn = std::this_thread::get_id(); }).accepted());
  CHECK(ranOn == std::this_thread::get_id());
  CHECK(caller->submit([] { throw std::runtime_error("task failed"); }).accepted());  // it ran, and threw
  gate.open();
  for (auto* p : {abort.get(), discard.get(), oldest.get(), caller.get()}) {
    p->shutdown(ShutdownMode::graceful);
    CHECK(p->accounting().balanced());
  }
  CHECK(oldest->accounting().dropped == 1);
  CHECK(caller->accounting().threw == 1);
}
