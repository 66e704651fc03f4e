#include "scenarios/engine/queueing.h"

#include <algorithm>
#include <cmath>

namespace poolscope::theory {

double erlang_b(std::int64_t c, double a) {
  if (a <= 0) return c == 0 ? 1.0 : 0.0;
  // B(0) = 1, B(n) = a·B(n−1) / (n + a·B(n−1)): each step in [0, 1], no
  // factorial. Far beyond a it falls below the smallest double and stays 0.
  double b = 1;
  for (std::int64_t n = 1; n <= c && b > 0; ++n) b = a * b / (static_cast<double>(n) + a * b);
  return b;
}

double erlang_c(std::int64_t c, double a) {
  if (a <= 0) return c == 0 ? 1.0 : 0.0;
  const auto cd = static_cast<double>(c);
  if (a >= cd) return 1.0;
  const double b = erlang_b(c, a);
  return cd * b / (cd - a * (1 - b));
}

namespace {

// The queue's states c + j, j = 1..m, have probabilities p_c·r^j. With
// weights taken relative to the largest of them (p_c when r <= 1, p_K when
// r > 1) nothing overflows: sums of r^j (g0) and j·r^j (g1), and the weight
// of state c itself (top), all in that scale.
struct Tail {
  double top = 1, g0 = 0, g1 = 0;
};

Tail tail(double r, std::int64_t m) {
  Tail t;
  if (m == 0) return t;
  const auto md = static_cast<double>(m);
  if (m <= 1'000'000) {  // summed directly: exact near r = 1, where the closed forms cancel
    if (r <= 1) {
      double w = 1;
      for (std::int64_t j = 1; j <= m; ++j) {
        w *= r;
        t.g0 += w;
        t.g1 += static_cast<double>(j) * w;
      }
    } else {
      const double s = 1 / r;
      double w = 1;  // r^(j − m), from j = m down
      for (std::int64_t j = m; j >= 1; --j) {
        t.g0 += w;
        t.g1 += static_cast<double>(j) * w;
        w *= s;
      }
      t.top = w;  // r^(−m)
    }
    return t;
  }
  if (r == 1) return {1, md, md * (md + 1) / 2};
  if (r < 1) {
    const double rm = std::pow(r, md);
    t.g0 = r * (1 - rm) / (1 - r);
    t.g1 = r * (1 - (md + 1) * rm + md * rm * r) / ((1 - r) * (1 - r));
    return t;
  }
  // r > 1 and a long queue: in p_K's scale, sums over s = 1/r from the top.
  const double s = 1 / r, sm = std::pow(s, md);
  t.top = sm;
  t.g0 = (1 - sm) / (1 - s);                                             // Σ_{i<m} s^i
  const double i_sum = s * (1 - md * sm / s + (md - 1) * sm) / ((1 - s) * (1 - s));  // Σ_{i<m} i·s^i
  t.g1 = md * t.g0 - i_sum;
  return t;
}

}  // namespace

QueueFigures mmck(double lambda, double mean_service, std::int64_t c, std::int64_t K) {
  QueueFigures f;
  const double a = lambda * mean_service;
  if (a <= 0 || c <= 0) {
    if (c <= 0 && a > 0) f.p_all_busy = f.p_refused = 1;  // no server: everything refused
    return f;
  }
  const auto cd = static_cast<double>(c);
  const double r = a / cd;
  const double b = erlang_b(c, a);
  if (K == kUnbounded) {
    if (a >= cd) {  // no steady state: the queue grows for ever
      f.p_all_busy = 1;
      f.wq = f.lq = std::numeric_limits<double>::infinity();
      f.busy = cd;
      return f;
    }
    f.p_all_busy = erlang_c(c, a);
    f.wq = f.p_all_busy / (cd / mean_service - lambda);
    f.lq = lambda * f.wq;
    f.busy = a;
    return f;
  }
  const std::int64_t m = std::max<std::int64_t>(K - c, 0);
  const Tail t = tail(r, m);
  // States 0..c weigh 1/B in p_c's scale (B = p_c / Σ_{n<=c} p_n).
  const double norm = t.top / b + t.g0;
  const double p_c = t.top / norm;
  f.p_refused = m == 0 ? b : (r <= 1 ? p_c * std::pow(r, static_cast<double>(m)) : 1 / norm);
  f.p_all_busy = (t.top + t.g0) / norm;
  f.lq = t.g1 / norm;
  const double accepted = lambda * (1 - f.p_refused);
  f.wq = accepted > 0 ? f.lq / accepted : 0;
  f.busy = a * (1 - f.p_refused);
  return f;
}

}  // namespace poolscope::theory
