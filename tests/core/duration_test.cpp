#include "pools/core/duration.h"

#include <cstdint>
#include <limits>

#include <catch2/catch.hpp>

using namespace poolscope;
using namespace std::chrono_literals;

TEST_CASE("durations parse in Go's syntax") {
  CHECK(parse_duration("250ms") == Nanos(250ms));
  CHECK(parse_duration("2s") == Nanos(2s));
  CHECK(parse_duration("1.5s") == Nanos(1500ms));
  CHECK(parse_duration("1m30s") == Nanos(90s));
  CHECK(parse_duration("1h") == Nanos(1h));
  CHECK(parse_duration("10us") == Nanos(10us));
  CHECK(parse_duration("10µs") == Nanos(10us));
  CHECK(parse_duration("7ns") == Nanos(7));
  CHECK(parse_duration("-1s") == Nanos(-1s));
  CHECK(parse_duration("0") == Nanos(0));
  CHECK(parse_duration("0s") == Nanos(0));
  CHECK(parse_duration(".5s") == Nanos(500ms));
}

TEST_CASE("malformed durations are rejected") {
  for (const char* bad : {"", "10", "s", "1.5", "10 s", "1x", "ms", "--1s", "1s ", "1e3s"})
    CHECK_FALSE(parse_duration(bad).has_value());
}

TEST_CASE("durations format back to their shortest spelling") {
  CHECK(format_duration(10s) == "10s");
  CHECK(format_duration(250ms) == "250ms");
  CHECK(format_duration(1500ms) == "1.5s");
  CHECK(format_duration(90s) == "1m30s");
  CHECK(format_duration(1h) == "1h");
  CHECK(format_duration(-1s) == "-1s");
  CHECK(format_duration(0s) == "0s");
  CHECK(format_duration(Nanos(1'500)) == "1.5us");
  CHECK(format_duration(Nanos(12)) == "12ns");
  for (auto d : {Nanos(10s), Nanos(250ms), Nanos(1500ms), Nanos(90s), Nanos(-2500ms), Nanos(333us)})
    CHECK(parse_duration(format_duration(d)) == d);
}

TEST_CASE("parse_duration: the largest int64 nanoseconds and beyond do not wrap to negative") {
  CHECK(parse_duration("9223372036854775807ns") == Nanos(std::numeric_limits<std::int64_t>::max()));
  CHECK_FALSE(parse_duration("9223372036854775808ns"));
  CHECK_FALSE(parse_duration("2562048h"));
  CHECK(parse_duration("-9223372036854775807ns") == Nanos(-std::numeric_limits<std::int64_t>::max()));
}
