// The findings' rules, one file each, and what they share: the design's own
// parameter names (knobs) and intervals over a pool's counter series.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "scenarios/engine/findings.h"

namespace poolscope::findings {

void idle_while_queued(const PoolView& v, std::vector<Finding>& out);
void stuck_at_core(const PoolView& v, std::vector<Finding>& out);
void spawn_reap_churn(const PoolView& v, std::vector<Finding>& out);
void never_expire(const PoolView& v, std::vector<Finding>& out);
void refused_below_max(const PoolView& v, std::vector<Finding>& out);
void blocked_submitters(const PoolView& v, std::vector<Finding>& out);
void stall(const PoolView& v, std::vector<Finding>& out);
void head_of_line(const PoolView& v, std::vector<Finding>& out);

// ---- knobs.cpp: what each design calls the parameters the rules name.

// One value of the pool's config (params() at the end of the run); nullopt
// or "" when the key is missing, of another type, or the config is not an
// object at all (a PoolOutcome made by hand, as a benchmark or a test does,
// has a null one). Rules read the config through these, never json::value(),
// which throws on a null.
std::optional<std::int64_t> config_integer(const PoolView& v, const char* key);
std::string config_text(const PoolView& v, const char* key);

// The most workers the pool may run, from its config; nullopt: unlimited or
// the design has no such cap.
std::optional<std::int64_t> max_workers(const PoolView& v);
// The workers the design keeps however idle (core, min, static); 0 if none.
std::int64_t floor_workers(const PoolView& v);
// How long an idle worker above the floor waits before the design lets it
// go, from its config; nullopt: never (no idle limit, or it is disabled).
std::optional<std::int64_t> idle_limit_ns(const PoolView& v);
// The parameter names, for Finding::parameter; "" when the design has none.
std::string max_knob(const std::string& design);
std::string idle_knob(const std::string& design);
std::string blocking_knob(const std::string& design);

// ---- series.cpp: stretches of time where a condition on the counters held.

struct Stretch {
  std::int64_t from = 0, to = 0;
  std::uint32_t peak_a = 0, peak_b = 0;  // the rule's two figures' peaks over the stretch
  std::int64_t length() const { return to - from; }
};
// The shortest stretch a rule counts: a hand-off takes a wake-up
// (microseconds), so 1 ms is far above one, simulated or real. Rules take
// the longer of this and a typical task (the median service time).
constexpr std::int64_t kHandoffFloor = 1'000'000;

// Maximal stretches of the pool's series where `holds` is true, up to the
// pool's last event. `a` and `b` are what Stretch's peaks record.
std::vector<Stretch> stretches(const metrics::PoolMetrics& m, const std::function<bool(const Counters&)>& holds,
                               const std::function<std::uint32_t(const Counters&)>& a,
                               const std::function<std::uint32_t(const Counters&)>& b);

// ---- format.cpp
std::string seconds_text(double s);  // "1.2 s", "35 ms"
double to_s(std::int64_t ns);
Finding make(const PoolView& v, const char* rule, std::int64_t from, std::int64_t to);

}  // namespace poolscope::findings
