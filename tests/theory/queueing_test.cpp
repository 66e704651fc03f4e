// The formulas against values that can be checked by hand or in published
// Erlang tables (docs/theory.md).
#include <catch2/catch.hpp>

#include <cmath>

#include "scenarios/engine/queueing.h"

using namespace poolscope::theory;

TEST_CASE("Erlang B matches the tables", "[theory]") {
  CHECK(erlang_b(1, 1.0) == Approx(0.5));         // a / (1 + a)
  CHECK(erlang_b(2, 1.0) == Approx(0.2));         // (1/2) / (1 + 1 + 1/2)
  CHECK(erlang_b(8, 6.0) == Approx(0.12188).epsilon(1e-3));
  CHECK(erlang_b(10, 5.0) == Approx(0.018385).epsilon(1e-3));
  CHECK(erlang_b(0, 3.0) == 1.0);                 // no server: every arrival is lost
  CHECK(erlang_b(5, 0.0) == 0.0);
}

TEST_CASE("Erlang C matches the tables", "[theory]") {
  CHECK(erlang_c(1, 0.5) == Approx(0.5));         // M/M/1: P(wait) = ρ
  CHECK(erlang_c(2, 1.0) == Approx(1.0 / 3));     // 2B / (2 − a(1 − B)), B = 0.2
  CHECK(erlang_c(10, 8.0) == Approx(0.4092).epsilon(1e-3));
  CHECK(erlang_c(8, 6.0) == Approx(0.3570).epsilon(1e-3));
  CHECK(erlang_c(4, 4.0) == 1.0);                 // a >= c: everyone waits
}

TEST_CASE("M/M/c with c = 1 is M/M/1", "[theory]") {
  const double lambda = 80, mu = 100;             // ρ = 0.8
  QueueFigures q = mmck(lambda, 1 / mu, 1, kUnbounded);
  CHECK(q.p_all_busy == Approx(0.8));
  CHECK(q.wq == Approx(0.8 / (mu - lambda)));     // Wq = ρ / (μ − λ) = 40 ms
  CHECK(q.lq == Approx(0.8 * 0.8 / 0.2));         // Lq = ρ² / (1 − ρ)
  CHECK(q.busy == Approx(0.8));
  CHECK(q.p_refused == 0);
}

TEST_CASE("M/M/c/K reduces to Erlang B at K = c and to M/M/c as K grows", "[theory]") {
  QueueFigures loss = mmck(300, 0.02, 8, 8);
  CHECK(loss.p_refused == Approx(erlang_b(8, 6.0)));
  CHECK(loss.p_all_busy == Approx(erlang_b(8, 6.0)));
  CHECK(loss.wq == 0);
  CHECK(loss.busy == Approx(6.0 * (1 - erlang_b(8, 6.0))));
  QueueFigures big = mmck(300, 0.02, 8, 8 + 2000);
  QueueFigures inf = mmck(300, 0.02, 8, kUnbounded);
  CHECK(big.wq == Approx(inf.wq).epsilon(1e-9));
  CHECK(big.p_all_busy == Approx(inf.p_all_busy).epsilon(1e-9));
  CHECK(big.p_refused < 1e-100);
}

TEST_CASE("M/M/1/K matches its closed form", "[theory]") {
  // M/M/1/K: p_n = (1 − ρ) ρ^n / (1 − ρ^(K+1)).
  const double rho = 0.9;
  const int K = 5;
  const double p_K = (1 - rho) * std::pow(rho, K) / (1 - std::pow(rho, K + 1));
  QueueFigures q = mmck(rho, 1.0, 1, K);
  CHECK(q.p_refused == Approx(p_K));
  double lq = 0;
  for (int n = 2; n <= K; ++n) lq += (n - 1) * (1 - rho) * std::pow(rho, n) / (1 - std::pow(rho, K + 1));
  CHECK(q.lq == Approx(lq));
  // Overloaded (ρ = 2): the same closed form, computed from the full end.
  const double r2 = 2;
  const double p_K2 = (1 - r2) * std::pow(r2, K) / (1 - std::pow(r2, K + 1));
  CHECK(mmck(r2, 1.0, 1, K).p_refused == Approx(p_K2));
}

TEST_CASE("large c and K neither overflow nor lose the answer", "[theory]") {
  // 10,000 servers at 9,900 Erlangs; a queue of two billion at an overload.
  QueueFigures q = mmck(9900, 1.0, 10'000, kUnbounded);
  CHECK(std::isfinite(q.wq));
  CHECK(q.p_all_busy > 0);
  CHECK(q.p_all_busy < 1);
  QueueFigures over = mmck(2.0, 1.0, 1, 2'000'000'000);
  CHECK(over.p_refused == Approx(0.5).epsilon(1e-6));  // half the arrivals find it full: throughput = μ
  CHECK(std::isfinite(over.lq));
  QueueFigures near = mmck(0.999999, 1.0, 1, 3'000'000'000);
  CHECK(std::isfinite(near.lq));
  CHECK(near.busy == Approx(0.999999).epsilon(1e-3));
  CHECK_FALSE(stable(10, 1, 10));
  CHECK(stable(9.9, 1, 10));
}
