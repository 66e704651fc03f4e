// Random numbers that are the same on every machine and compiler. The std::
// distributions are implementation-defined, so a seed would give different
// workloads under libstdc++ and libc++; here the generator (xoshiro256**,
// seeded through splitmix64) and every distribution are written out.
#pragma once

#include <cstdint>
#include <string_view>

namespace poolscope::scenario {

std::uint64_t splitmix64(std::uint64_t& state);

// An independent stream for one purpose ("arrivals", "tasks", "client") and
// index (a phase, a client), so editing one phase leaves the others' numbers alone.
std::uint64_t derive_seed(std::uint64_t seed, std::string_view purpose, std::uint64_t index = 0);

class Rng {
 public:
  explicit Rng(std::uint64_t seed);
  std::uint64_t next();
  double uniform();       // [0, 1), 53 random bits
  double uniform_open();  // (0, 1): safe for log()
  bool chance(double p) { return uniform() < p; }
  double exponential(double mean);
  double normal(double mean, double stddev);  // Box-Muller, one value per call

 private:
  std::uint64_t s_[4];
};

}  // namespace poolscope::scenario
