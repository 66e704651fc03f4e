#include "tests/support/trace_rig.h"

#include "tests/support/sync.h"

namespace poolscope::test {

bool has_code(const Event& e, EventKind kind, std::string_view rule) {
  return e.kind == kind && (rule.empty() || label_code(e.rule) == rule);
}

std::vector<Event> TraceRig::events(EventKind kind, std::string_view rule) {
  log.sync();
  std::vector<Event> out;
  for (const Event& e : log.events())
    if (has_code(e, kind, rule)) out.push_back(e);
  return out;
}

std::size_t TraceRig::count(EventKind kind, std::string_view rule) {
  log.sync();
  return log.count([&](const Event& e) { return has_code(e, kind, rule); });
}

namespace {
std::string what(std::size_t n, EventKind kind, std::string_view rule) {
  return std::to_string(n) + " " + std::string(kind_name(kind)) + (rule.empty() ? "" : " " + std::string(rule));
}
}  // namespace

void TraceRig::await_count(EventKind kind, std::string_view rule, std::size_t n) {
  await_condition([&] { return count(kind, rule) == n; }, what(n, kind, rule));
}

void TraceRig::await_at_least(EventKind kind, std::string_view rule, std::size_t n) {
  await_condition([&] { return count(kind, rule) >= n; }, "at least " + what(n, kind, rule));
}

Event TraceRig::await(EventKind kind, const std::string& what) { return await_event(log, is_kind(kind), what); }

}  // namespace poolscope::test
