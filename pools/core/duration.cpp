#include "pools/core/duration.h"

#include <cmath>
#include <cstdint>
#include <limits>

namespace poolscope {

namespace {

struct Unit {
  std::string_view name;
  std::int64_t ns;
};
constexpr Unit kUnits[] = {{"ns", 1},
                           {"us", 1'000},
                           {"µs", 1'000},
                           {"ms", 1'000'000},
                           {"s", 1'000'000'000},
                           {"m", 60'000'000'000},
                           {"h", 3'600'000'000'000}};

}  // namespace

std::optional<Nanos> parse_duration(std::string_view s) {
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return Nanos(0);
  if (s.empty()) return std::nullopt;
  long double total = 0;
  while (!s.empty()) {
    // number: digits with an optional fraction
    std::size_t i = 0;
    long double value = 0;
    bool digits = false;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') value = value * 10 + (s[i++] - '0'), digits = true;
    if (i < s.size() && s[i] == '.') {
      long double scale = 0.1L;
      for (++i; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, scale /= 10)
        value += (s[i] - '0') * scale, digits = true;
    }
    if (!digits) return std::nullopt;
    s.remove_prefix(i);
    // unit: the longest that matches ("ms" before "m")
    const Unit* unit = nullptr;
    for (const Unit& u : kUnits)
      if (s.starts_with(u.name) && (!unit || u.name.size() > unit->name.size())) unit = &u;
    if (!unit) return std::nullopt;
    s.remove_prefix(unit->name.size());
    total += value * static_cast<long double>(unit->ns);
  }
  // 2^63 and above do not fit (a double would round 2^63 - 1 up to it and wrap).
  if (total >= 9223372036854775808.0L) return std::nullopt;
  auto ns = static_cast<std::int64_t>(std::llroundl(total));
  return Nanos(negative ? -ns : ns);
}

std::string format_duration(Nanos d) {
  std::int64_t ns = d.count();
  if (ns == 0) return "0s";
  std::string sign = ns < 0 ? "-" : "";
  std::uint64_t v = ns < 0 ? static_cast<std::uint64_t>(-(ns + 1)) + 1 : static_cast<std::uint64_t>(ns);
  auto fixed = [](std::uint64_t n, std::uint64_t unit, std::string_view name) {
    std::string out = std::to_string(n / unit);
    if (std::uint64_t frac = n % unit) {
      std::string f = std::to_string(frac);
      f.insert(0, std::to_string(unit).size() - 1 - f.size(), '0');
      while (f.back() == '0') f.pop_back();
      out += "." + f;
    }
    return out + std::string(name);
  };
  constexpr std::uint64_t kSecond = 1'000'000'000, kMinute = 60 * kSecond, kHour = 60 * kMinute;
  if (v >= kMinute && v % kSecond == 0) {  // Go style: 1h2m3s
    std::string out;
    if (v >= kHour) out += std::to_string(v / kHour) + "h", v %= kHour;
    if (v >= kMinute) out += std::to_string(v / kMinute) + "m", v %= kMinute;
    if (v > 0) out += std::to_string(v / kSecond) + "s";
    return sign + out;
  }
  if (v >= kSecond) return sign + fixed(v, kSecond, "s");
  if (v >= 1'000'000) return sign + fixed(v, 1'000'000, "ms");
  if (v >= 1'000) return sign + fixed(v, 1'000, "us");
  return sign + std::to_string(v) + "ns";
}

}  // namespace poolscope
