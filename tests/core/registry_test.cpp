#include "pools/core/registry.h"

#include <catch2/catch.hpp>
#include <map>

using namespace poolscope;
using Catch::Matchers::Contains;

namespace {

// A minimal design for exercising the registry itself.
class Counter final : public Pool {
 public:
  Counter(const Params& p, const TraceTarget& t) : trace_(t, "registry-test"), limit_(p.integer("Limit")) {}
  std::string_view design() const override { return "registry-test"; }
  SubmitResult submit(Task task, const SubmitOptions&) override {
    trace_.refused(trace_.submitted(), rules::pool_closed());
    (void)task;
    return SubmitResult::closed();
  }
  void shutdown(ShutdownMode) override {}
  Counters state() const override { return {}; }
  json params() const override { return {{"Limit", limit_}, {"Fixed", 1}}; }
  void set_param(std::string_view name, const ParamValue& v) override {
    if (name == "Limit") limit_ = v.integer();
  }
  const PoolTrace& trace() const override { return trace_; }

 private:
  PoolTrace trace_;
  std::int64_t limit_;
};

Design test_design() {
  return Design{
      .name = "registry-test",
      .summary = "only for the registry's own tests",
      .origin = "lab",
      .params =
          {{.name = "Limit",
            .type = ParamType::integer,
            .default_value = 3,
            .min = 1,
            .unit = "tasks",
            .live = true,
            .help = "a limit"},
           {.name = "Fixed", .type = ParamType::integer, .default_value = 1, .unit = "tasks", .help = "not live"}},
      .make = [](const Params& p, const TraceTarget& t) { return std::make_unique<Counter>(p, t); },
  };
}

}  // namespace

POOLSCOPE_REGISTER_DESIGN(test_design);

TEST_CASE("registry: a design registered with one line is found, described and built") {
  const Registry& r = Registry::global();
  auto names = r.names();
  CHECK(std::find(names.begin(), names.end(), "registry-test") != names.end());
  CHECK(std::find(names.begin(), names.end(), "spawn") != names.end());
  CHECK(std::is_sorted(names.begin(), names.end()));

  auto pool = r.create("registry-test", {{"Limit", 7}}, {});
  CHECK(pool->design() == "registry-test");
  CHECK(pool->params()["Limit"] == 7);  // the pool the design built, behind the registry's SelfStoppable
  CHECK(r.get("registry-test").to_json()["params"].size() == 2);
}

TEST_CASE("registry: unknown designs and bad configs are clear errors") {
  const Registry& r = Registry::global();
  CHECK_THROWS_WITH(r.create("fasthtp", nullptr, {}),
                    Contains("unknown pool design 'fasthtp' (known: ") && Contains("spawn"));
  CHECK_THROWS_WITH(r.create("registry-test", {{"Limit", 0}}, {}), "/Limit: expected an integer >= 1, got 0");
  CHECK_THROWS_WITH(r.create("registry-test", {{"Limits", 2}}, {}), Contains("did you mean 'Limit'?"));
}

TEST_CASE("registry: tune changes live parameters only, after validating them") {
  const Registry& r = Registry::global();
  auto pool = r.create("registry-test", nullptr, {});
  r.tune(*pool, "Limit", 9);
  CHECK(pool->params()["Limit"] == 9);
  CHECK_THROWS_WITH(r.tune(*pool, "Limit", -1), "/Limit: expected an integer >= 1, got -1");
  CHECK_THROWS_WITH(r.tune(*pool, "Fixed", 2),
                    "/Fixed: pool design 'registry-test' cannot change 'Fixed' while running");
  CHECK_THROWS_WITH(r.tune(*pool, "Nope", 2), "/Nope: pool design 'registry-test' has no parameter 'Nope'");
}

TEST_CASE("registry: registering a name twice is a programming error") {
  CHECK_THROWS_AS(Registry::global().add(test_design()), std::logic_error);
}

TEST_CASE("registry: every design gives units alike: what an integer counts, none for a duration") {
  for (const std::string& name : Registry::global().names()) {
    for (const ParamSpec& p : Registry::global().get(name).params) {
      CAPTURE(name, p.name);
      if (p.type == ParamType::duration) CHECK(p.unit.empty());  // the value carries its own: "10s"
      if (p.type == ParamType::integer) CHECK_FALSE(p.unit.empty());
    }
  }
}

TEST_CASE("registry: each design declares the runtime its original runs on") {
  const Registry& r = Registry::global();
  const std::map<std::string, std::string> expected = {
      {"ants", "goroutines"},      {"ants-multi", "goroutines"}, {"coremax", "goroutines"},
      {"fasthttp", "goroutines"},  {"gammazero", "goroutines"},  {"gopool", "goroutines"},
      {"spawn", "goroutines"},     {"weedge", "goroutines"},     {"java", "jvm"},
      {"nginx", "os-threads"},     {"redis-io", "os-threads"},   {"redis-bio", "os-threads"},
      {"phpfpm", "processes"},     {"registry-test", "os-threads"}};  // a lab's pool: the default
  for (const auto& [name, runtime] : expected) {
    CAPTURE(name);
    REQUIRE(r.find(name) != nullptr);
    CHECK(r.get(name).runtime == runtime);
    CHECK(r.get(name).to_json()["runtime"] == runtime);
  }
  // Every lab's pool (starter or solution) is an OS-thread pool: students write those.
  for (const std::string& name : r.names())
    if (r.get(name).origin == "lab") CHECK(r.get(name).runtime == "os-threads");

  Design bad = test_design();
  bad.name = "registry-test-bad-runtime";
  bad.runtime = "green-threads";
  CHECK_THROWS_WITH(Registry::global().add(bad),
                    "poolscope: pool design 'registry-test-bad-runtime' declares runtime 'green-threads' "
                    "(expected goroutines, jvm, os-threads or processes)");
  CHECK(r.find("registry-test-bad-runtime") == nullptr);
}
