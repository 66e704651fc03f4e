#include "pools/core/params.h"

#include <catch2/catch.hpp>

#include "pools/core/registry.h"

using namespace poolscope;
using namespace std::chrono_literals;
using Catch::Matchers::Contains;

namespace {
std::vector<ParamSpec> specs() {
  return {
      {.name = "MaxWorkersCount",
       .type = ParamType::integer,
       .default_value = 8,
       .min = 1,
       .max = 1000,
       .unit = "workers",
       .live = true,
       .help = "most workers at once"},
      {.name = "MaxIdleWorkerDuration",
       .type = ParamType::duration,
       .default_value = "10s",
       .min = "0s",
       .help = "idle time before a worker is stopped"},
      {.name = "Ratio", .type = ParamType::number, .default_value = 0.5, .min = 0.0, .max = 1.0, .help = "a ratio"},
      {.name = "Nonblocking", .type = ParamType::boolean, .default_value = false, .help = "refuse instead of blocking"},
      {.name = "Queue",
       .type = ParamType::choice,
       .default_value = "stack",
       .choices = {"stack", "loop"},
       .help = "queue"},
  };
}
}  // namespace

TEST_CASE("params: defaults fill what the config leaves out") {
  Params p = parse_params(specs(), json{{"MaxWorkersCount", 4}}, "demo");
  CHECK(p.integer("MaxWorkersCount") == 4);
  CHECK(p.duration("MaxIdleWorkerDuration") == 10s);
  CHECK(p.number("Ratio") == 0.5);
  CHECK_FALSE(p.boolean("Nonblocking"));
  CHECK(p.choice("Queue") == "stack");
  CHECK(p.config_json() == json{{"MaxWorkersCount", 4},
                                {"MaxIdleWorkerDuration", "10s"},
                                {"Ratio", 0.5},
                                {"Nonblocking", false},
                                {"Queue", "stack"}});
  CHECK(parse_params(specs(), nullptr, "demo").integer("MaxWorkersCount") == 8);
}

TEST_CASE("params: every bad value names the parameter and what was expected") {
  auto error_of = [](const json& config) -> std::string {
    try {
      parse_params(specs(), config, "demo");
    } catch (const ConfigError& e) {
      return e.what();
    }
    return "no error";
  };
  CHECK(error_of({{"MaxWorkersCount", "ten"}}) == "/MaxWorkersCount: expected an integer in [1, 1000], got \"ten\"");
  CHECK(error_of({{"MaxWorkersCount", 0}}) == "/MaxWorkersCount: expected an integer in [1, 1000], got 0");
  CHECK(error_of({{"MaxWorkersCount", 2.5}}) == "/MaxWorkersCount: expected an integer in [1, 1000], got 2.5");
  CHECK(error_of({{"MaxIdleWorkerDuration", 10}}) ==
        "/MaxIdleWorkerDuration: expected a duration string such as \"250ms\" or \"10s\" >= 0s, got 10");
  CHECK(error_of({{"MaxIdleWorkerDuration", "-1s"}}) ==
        "/MaxIdleWorkerDuration: expected a duration string such as \"250ms\" or \"10s\" >= 0s, got \"-1s\"");
  CHECK(error_of({{"Ratio", 2}}) == "/Ratio: expected a number in [0.0, 1.0], got 2");
  CHECK(error_of({{"Nonblocking", "yes"}}) == "/Nonblocking: expected true or false, got \"yes\"");
  CHECK(error_of({{"Queue", "ring"}}) == "/Queue: expected one of \"stack\", \"loop\", got \"ring\"");
  CHECK(error_of({{"MaxWorkerCount", 3}}) ==
        "/MaxWorkerCount: unknown parameter 'MaxWorkerCount' for pool design 'demo' (did you mean 'MaxWorkersCount'?)");
  CHECK_THAT(error_of({{"Colour", 3}}), Contains("unknown parameter 'Colour'") && Contains("known: MaxWorkersCount,"));
  CHECK(error_of(json::array()) == "expected an object of parameters for pool design 'demo', got []");
}

TEST_CASE("params: a ConfigError can be placed under its parent's path") {
  ConfigError e("/rate", "expected a number");
  CHECK(std::string(e.prefixed("/phases/2/arrival").what()) == "/phases/2/arrival/rate: expected a number");
}

TEST_CASE("params: descriptions serialise for the runner and the GUI") {
  json j = specs()[0].to_json();
  CHECK(j["name"] == "MaxWorkersCount");
  CHECK(j["type"] == "integer");
  CHECK(j["default"] == 8);
  CHECK(j["min"] == 1);
  CHECK(j["max"] == 1000);
  CHECK(j["live"] == true);
  CHECK(j["unit"] == "workers");
}
