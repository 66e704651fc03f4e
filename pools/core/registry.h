// The registry of designs: name -> description of its parameters + factory.
// The runner lists it, the GUI builds its editors from it, the conformance
// suite runs on every entry. A design (or a lab pool) joins with one line in
// its own .cpp:
//
//   POOLSCOPE_REGISTER_DESIGN(fasthttp_design);   // a function returning Design
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "pools/core/pool.h"

namespace poolscope {

using PoolFactory = std::function<std::unique_ptr<Pool>(const Params&, const TraceTarget&)>;

struct Design {
  std::string name;     // registry key, e.g. "fasthttp"
  std::string summary;  // one line: the idea a student should see
  std::string docs;     // its page, e.g. "docs/pools/fasthttp.md"
  std::string origin;   // "baseline", "design", "lab", or "challenge" (a lab mutant: never listed)
  std::vector<ParamSpec> params;
  // Builds a pool from validated params. May throw ConfigError for rules that
  // span parameters (e.g. ants: PreAlloc with unlimited size), quoting the
  // original's error.
  PoolFactory make;

  const ParamSpec* param(std::string_view name) const;
  json to_json() const;  // name, summary, docs, origin, params
};

class Registry {
 public:
  static Registry& global();

  void add(Design design);  // throws std::logic_error on a duplicate name
  const Design* find(std::string_view name) const;
  // Throws ConfigError("unknown pool design 'x' (known: ...)").
  const Design& get(std::string_view name) const;
  std::vector<std::string> names() const;  // sorted; challenge pools (origin "challenge") left out
  std::vector<std::string> challenge_pools() const;  // sorted: only those

  // Validates `config` (a JSON object, or null for all defaults) and builds
  // the pool. Errors are ConfigErrors whose path is relative to the config.
  std::unique_ptr<Pool> create(std::string_view design, const json& config, const TraceTarget& target) const;

  // Changes a live parameter of a running pool after checking it exists, is
  // live and is in range.
  void tune(Pool& pool, std::string_view param, const json& value) const;

 private:
  mutable std::mutex m_;
  std::deque<Design> designs_;  // a deque: references stay valid as labs register more
};

namespace detail {
struct Registrar {
  explicit Registrar(Design (*make)()) { Registry::global().add(make()); }
};
// A challenge pool (docs/challenges.md): `d` renamed, origin "challenge".
Design as_challenge(Design d, const char* name);
}  // namespace detail

}  // namespace poolscope

#define POOLSCOPE_CONCAT_(a, b) a##b
#define POOLSCOPE_CONCAT(a, b) POOLSCOPE_CONCAT_(a, b)
// Registers the Design returned by `make_design` (a function taking nothing)
// when the program starts.
#ifndef POOLSCOPE_CHALLENGE_POOL
#define POOLSCOPE_REGISTER_DESIGN(make_design) \
  static const ::poolscope::detail::Registrar POOLSCOPE_CONCAT(poolscope_registrar_, __LINE__) { make_design }
#else
// A lab's reference compiled once more with a LAB_MUTANT_* switch
// (labs/CMakeLists.txt, POOLSCOPE_CHALLENGE_POOLS) registers under its
// challenge name instead, with origin "challenge": found by name (a
// challenge's scenario names it), never listed (names() leaves it out).
#define POOLSCOPE_REGISTER_DESIGN(make_design)                                                  \
  static const ::poolscope::detail::Registrar POOLSCOPE_CONCAT(poolscope_registrar_, __LINE__) { \
    [] { return ::poolscope::detail::as_challenge(make_design(), POOLSCOPE_CHALLENGE_POOL); }     \
  }
#endif
