// Queueing formulas, pure: Erlang B, Erlang C, M/M/c and M/M/c/K in steady
// state. Every figure comes from Erlang B's recurrence and closed geometric
// sums, never from a^n/n! directly, so c = 10,000 or K = 2^31 neither
// overflows nor loses precision (docs/theory.md).
#pragma once

#include <cstdint>
#include <limits>

namespace poolscope::theory {

// Erlang B: the probability that an arrival finds all c servers busy in an
// M/M/c/c loss system with offered load a = λ·E[S] (and in M/G/c/c: B is
// insensitive to the service distribution). c >= 0, a >= 0.
double erlang_b(std::int64_t c, double a);

// Erlang C: the probability that an arrival must wait in M/M/c (an
// unbounded queue); 1 when a >= c (the queue grows without bound).
double erlang_c(std::int64_t c, double a);

// Steady-state figures of a queue, per arrival and over time.
struct QueueFigures {
  double p_all_busy = 0;  // an arrival finds every server busy (Erlang C; Erlang B when K = c)
  double p_refused = 0;   // an arrival finds the system full (K in system): refused
  double wq = 0;          // mean wait in the queue of an accepted task, in units of 1/λ's time (seconds if λ per s)
  double lq = 0;          // mean tasks waiting (Little: Lq = λ·(1 − p_refused)·Wq)
  double busy = 0;        // mean busy servers: λ·(1 − p_refused)·E[S]
};

inline constexpr std::int64_t kUnbounded = std::numeric_limits<std::int64_t>::max();

// M/M/c/K: Poisson arrivals at `lambda`, exponential service of mean
// `mean_service`, c servers, at most K tasks in the system (running and
// waiting; K >= c; kUnbounded for M/M/c). For K = kUnbounded the result is
// only meaningful when λ·E[S] < c: check stable() first.
QueueFigures mmck(double lambda, double mean_service, std::int64_t c, std::int64_t K);

// An unbounded queue reaches a steady state only when the offered load is
// below the servers.
inline bool stable(double lambda, double mean_service, std::int64_t c) { return lambda * mean_service < static_cast<double>(c); }

}  // namespace poolscope::theory
