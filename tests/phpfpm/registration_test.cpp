// The registry entry `phpfpm`: php-fpm.conf's directives with www.conf's
// defaults, fpm_conf's errors as config errors on the directive, its
// notices as state events (the conformance suite runs the defaults).
#include "pools/core/registry.h"
#include "pools/core/trace_log.h"
#include "tests/support/sync.h"

using namespace poolscope;

namespace {

std::string config_error(const json& config) {
  ManualClock clock;
  try {
    Registry::global().create("phpfpm", config, {.clock = &clock});
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("phpfpm registry: www.conf's defaults, none live") {
  const Design& d = Registry::global().get("phpfpm");
  CHECK(d.docs == "docs/pools/phpfpm.md");
  CHECK(d.param("pm")->default_value == "dynamic");
  CHECK(d.param("pm.max_children")->default_value == 5);
  CHECK(d.param("pm.start_servers")->default_value == 2);
  CHECK(d.param("pm.min_spare_servers")->default_value == 1);
  CHECK(d.param("pm.max_spare_servers")->default_value == 3);
  CHECK(d.param("pm.max_spawn_rate")->default_value == 32);
  CHECK(d.param("pm.process_idle_timeout")->default_value == "10s");
  CHECK(d.param("listen.backlog")->default_value == -1);  // PHP 8.2: somaxconn
  // The model around php-fpm, as measured on Debian 12.
  CHECK(d.param("net.core.somaxconn")->default_value == 4096);
  CHECK(d.param("client")->default_value == "nonblocking-unix");
  CHECK(d.param("fork_time")->default_value == "600us");
  CHECK(d.param("child_start")->default_value == "1.5ms");
  CHECK(d.param("clock_phase")->default_value == "0s");
  for (const ParamSpec& p : d.params) CHECK_FALSE(p.live);

  ManualClock clock;
  auto pool = Registry::global().create("phpfpm", nullptr, {.clock = &clock});
  test::await_condition([&] { return pool->state().workers == 2; }, "the 2 start servers");
  CHECK(pool->params()["pm"] == "dynamic");
  CHECK(pool->params()["pm.process_idle_timeout"] == "10s");
}

TEST_CASE("phpfpm registry: fpm_conf's errors name the directive") {
  CHECK(config_error({{"pm.max_children", 0}}) ==
        "/pm.max_children: [pool www] pm.max_children must be a positive value");
  CHECK(config_error({{"pm.min_spare_servers", 4}}) ==
        "/pm.max_spare_servers: [pool www] pm.max_spare_servers(3) must not be less than pm.min_spare_servers(4)");
  CHECK(config_error({{"pm.start_servers", 4}}) ==
        "/pm.start_servers: [pool www] pm.start_servers(4) must not be less than pm.min_spare_servers(1) and not "
        "greater than pm.max_spare_servers(3)");
  CHECK(config_error({{"pm", "ondemand"}, {"pm.process_idle_timeout", "500ms"}}) ==
        "/pm.process_idle_timeout: [pool www] pm.process_idle_timeout(0s) must be greater than 0s");
  CHECK(config_error({{"pm", "static"}, {"pm.min_spare_servers", 9}}).empty());  // spares matter to dynamic only
}

TEST_CASE("phpfpm registry: fpm_conf's notices are state events when the pool starts") {
  ManualClock clock;
  TraceStream stream{std::size_t{1} << 12};
  TraceLog log{stream};
  auto pool = Registry::global().create("phpfpm", {{"pm.start_servers", 0}, {"pm.max_spare_servers", 5}},
                                        {.clock = &clock, .stream = &stream});
  CHECK(pool->params()["pm.start_servers"] == 3);  // 1 + (5 - 1) / 2
  Event e = test::await_event(log, is_kind(EventKind::pool_state), "the notice");
  CHECK(label_code(e.rule) == "start-servers-not-set");
  CHECK(e.arg == 3);
}
