#include "scenarios/engine/random.h"

#include <cmath>
#include <numbers>

namespace poolscope::scenario {

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::uint64_t derive_seed(std::uint64_t seed, std::string_view purpose, std::uint64_t index) {
  std::uint64_t h = 0xCBF29CE484222325ull;  // FNV-1a of the purpose
  for (unsigned char c : purpose) h = (h ^ c) * 0x100000001B3ull;
  std::uint64_t state = seed ^ h ^ (index * 0xD6E8FEB86659FD93ull);
  splitmix64(state);
  return splitmix64(state);
}

Rng::Rng(std::uint64_t seed) {
  for (auto& s : s_) s = splitmix64(seed);
}

std::uint64_t Rng::next() {
  auto rotl = [](std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); };
  std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

double Rng::uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

double Rng::uniform_open() { return (static_cast<double>(next() >> 12) + 0.5) * 0x1.0p-52; }

double Rng::exponential(double mean) { return -mean * std::log(uniform_open()); }

double Rng::normal(double mean, double stddev) {
  double u1 = uniform_open(), u2 = uniform();
  return mean + stddev * std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

}  // namespace poolscope::scenario
