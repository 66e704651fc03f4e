#include "scenarios/runner/theory_table.h"

#include <cstdio>
#include <cmath>
#include <iomanip>

#include "scenarios/engine/theory.h"
#include "scenarios/runner/table.h"

namespace poolscope::runner {

namespace {

std::string fixed(double v, int decimals) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string count(std::int64_t v) { return v == theory::kUnbounded ? "inf" : std::to_string(v); }

std::string wait(double s) { return std::isfinite(s) ? human_duration(s) : "inf"; }

// "predicted / measured"
std::string pair(const theory::Comparison& c, double theory::Figures::*f, std::string (*show)(double)) {
  std::string p = c.predicted ? show((*c.predicted).*f) : "-";
  std::string m = c.measured ? show((*c.measured).*f) : "-";
  return p + " / " + m;
}

std::string share(double v) { return fixed(v, 3); }
std::string mean(double v) { return std::isfinite(v) ? fixed(v, 2) : "inf"; }

}  // namespace

void print_theory(std::ostream& out, const scenario::Scenario& s, const scenario::RunOutcome& outcome,
                  const metrics::RunMetrics& metrics) {
  const auto phases = theory::phase_models(s);
  auto comparisons = theory::predict(s, phases);
  if (comparisons.empty()) return;  // no Poisson phase: nothing to set beside the measurement
  theory::measure(comparisons, phases, outcome, metrics);
  out << "\ntheory: queueing theory's prediction / what each pool measured (docs/theory.md)\n";
  for (const theory::PhaseModel& ph : phases) {
    if (!ph.eligible) continue;
    out << "\nphase '" << ph.name << "': Poisson " << fixed(ph.lambda, 1) << "/s, E[S] "
        << human_duration(ph.mean_service_s) << ", CV² " << fixed(ph.scv, 2) << ", offered load "
        << fixed(ph.lambda * ph.mean_service_s, 2) << "\n";
    std::vector<std::vector<std::string>> rows = {
        {"pool", "c", "K", "found all busy", "refused", "queue wait", "queued", "busy", "workers"}};
    std::vector<std::string> notes;
    for (const theory::Comparison& c : comparisons) {
      if (c.phase != ph.index) continue;
      if (!c.predicted) {
        rows.push_back({c.pool, c.capacity.modelled ? count(c.capacity.c) : "-",
                        c.capacity.modelled ? count(c.capacity.K) : "-", "-", "-", "-", "-", "-",
                        c.measured ? mean(c.workers) : "-"});
        notes.push_back(c.pool + ": " + (c.capacity.modelled ? "" : "not modelled: ") + c.why_not);
        continue;
      }
      rows.push_back({c.pool + (c.approximate ? " ~" : ""), count(c.capacity.c), count(c.capacity.K),
                      pair(c, &theory::Figures::p_wait, share), pair(c, &theory::Figures::p_refused, share),
                      pair(c, &theory::Figures::wq_s, wait), pair(c, &theory::Figures::lq, mean),
                      pair(c, &theory::Figures::busy, mean), c.measured ? mean(c.workers) : "-"});
      notes.push_back(c.pool + ": " + c.capacity.basis);
      for (const std::string& n : c.notes) notes.push_back(c.pool + " ~ " + n);
    }
    std::vector<std::size_t> w(rows[0].size(), 0);
    for (const auto& r : rows)
      for (std::size_t i = 0; i < r.size(); ++i) w[i] = std::max(w[i], r[i].size());
    for (const auto& r : rows) {
      out << std::left << std::setw(static_cast<int>(w[0])) << r[0];
      for (std::size_t i = 1; i < r.size(); ++i) out << "  " << std::right << std::setw(static_cast<int>(w[i])) << r[i];
      out << "\n";
    }
    for (const std::string& n : notes) out << "  " << n << "\n";
  }
  out << "(workers: mean alive, measured; the model keeps c. ~: an approximation, why below.)\n";
}

}  // namespace poolscope::runner
