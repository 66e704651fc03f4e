#include "scenarios/engine/distribution.h"

#include <cmath>
#include <limits>
#include <numbers>

#include "pools/core/duration.h"
#include "scenarios/engine/json_reader.h"

namespace poolscope::scenario {

namespace {
double ns(Nanos d) { return static_cast<double>(d.count()); }
Nanos to_nanos(double v) {
  if (!(v > 0)) return Nanos(0);
  if (v >= 9.2e18) return Nanos::max();
  return Nanos(static_cast<std::int64_t>(std::llround(v)));
}
std::string dur(double v) { return format_duration(to_nanos(v)); }
}  // namespace

Distribution Distribution::fixed(Nanos d) {
  Distribution out;
  out.a_ = ns(d);
  return out;
}

Distribution Distribution::parse(const json& j, const std::string& path) {
  if (j.is_string()) {
    Nanos d = parse_duration_at(j, path);
    if (d < Nanos(0)) fail_at(path, "a duration >= 0", j);
    return fixed(d);
  }
  if (!j.is_object()) fail_at(path, "a duration such as \"10ms\" or a distribution object {\"dist\": ...}", j);
  ObjectReader r(j, path);
  Distribution out;
  std::string kind = r.choice("dist", {"fixed", "uniform", "exponential", "normal", "lognormal", "pareto", "mix"});
  if (kind == "fixed") {
    out.a_ = ns(r.duration("value", std::nullopt, Nanos(0)));
  } else if (kind == "uniform") {
    out.kind_ = Kind::uniform;
    out.a_ = ns(r.duration("min", std::nullopt, Nanos(0)));
    out.b_ = ns(r.duration("max", std::nullopt, Nanos(0)));
    if (out.b_ < out.a_) r.fail("max", "a duration >= min (" + dur(out.a_) + ")", r.get("max"));
  } else if (kind == "exponential") {
    out.kind_ = Kind::exponential;
    out.a_ = ns(r.duration("mean", std::nullopt, Nanos(0), true));
  } else if (kind == "normal") {
    out.kind_ = Kind::normal;
    out.a_ = ns(r.duration("mean", std::nullopt, Nanos(0)));
    out.b_ = ns(r.duration("stddev", std::nullopt, Nanos(0)));
  } else if (kind == "lognormal") {
    out.kind_ = Kind::lognormal;
    out.a_ = std::log(ns(r.duration("median", std::nullopt, Nanos(0), true)));
    out.b_ = r.number("sigma", std::nullopt, 0.0, 10.0);
  } else if (kind == "pareto") {
    out.kind_ = Kind::pareto;
    out.a_ = ns(r.duration("scale", std::nullopt, Nanos(0), true));
    out.b_ = r.number("shape", std::nullopt, 0.0, 100.0, true);
    if (r.has("max")) {
      out.cap_ = ns(r.duration("max", std::nullopt, Nanos(0), true));
      if (out.cap_ < out.a_) r.fail("max", "a duration >= scale (" + dur(out.a_) + ")", r.get("max"));
    }
  } else {
    out.kind_ = Kind::mix;
    const json& of = r.required("of");
    std::string of_path = r.path_of("of");
    if (!of.is_array() || of.empty())
      fail_at(of_path, "a non-empty array of {\"weight\": w, \"value\": distribution}", of);
    for (std::size_t i = 0; i < of.size(); ++i) {
      ObjectReader item(of[i], of_path + "/" + std::to_string(i));
      double w = item.number("weight", std::nullopt, 0.0, std::nullopt, true);
      Distribution d = parse(item.required("value"), item.path_of("value"));
      item.done();
      out.total_weight_ += w;
      out.mix_.emplace_back(w, std::move(d));
    }
  }
  r.done();
  return out;
}

Nanos Distribution::sample(Rng& rng) const {
  switch (kind_) {
    case Kind::fixed:
      return to_nanos(a_);
    case Kind::uniform:
      return to_nanos(a_ + (b_ - a_) * rng.uniform());
    case Kind::exponential:
      return to_nanos(rng.exponential(a_));
    case Kind::normal:
      // Truncated at 0 by rejection, so the shape of the positive side is kept.
      for (int i = 0; i < 1000; ++i)
        if (double v = rng.normal(a_, b_); v >= 0) return to_nanos(v);
      return Nanos(0);
    case Kind::lognormal:
      return to_nanos(std::exp(rng.normal(a_, b_)));
    case Kind::pareto: {
      double v = a_ / std::pow(rng.uniform_open(), 1.0 / b_);
      return to_nanos(cap_ > 0 ? std::min(v, cap_) : v);
    }
    case Kind::mix: {
      double pick = rng.uniform() * total_weight_;
      for (const auto& [w, d] : mix_) {
        if (pick < w) return d.sample(rng);
        pick -= w;
      }
      return mix_.back().second.sample(rng);
    }
  }
  return Nanos(0);
}

Nanos Distribution::mean() const {
  switch (kind_) {
    case Kind::fixed:
      return to_nanos(a_);
    case Kind::uniform:
      return to_nanos((a_ + b_) / 2);
    case Kind::exponential:
      return to_nanos(a_);
    case Kind::normal: {
      if (b_ == 0) return to_nanos(a_);
      // Mean of a normal truncated to [0, inf).
      double alpha = -a_ / b_;
      double pdf = std::exp(-alpha * alpha / 2) / std::sqrt(2 * std::numbers::pi);
      double tail = 0.5 * std::erfc(alpha / std::sqrt(2.0));
      return to_nanos(a_ + b_ * pdf / tail);
    }
    case Kind::lognormal:
      return to_nanos(std::exp(a_ + b_ * b_ / 2));
    case Kind::pareto: {
      if (cap_ > 0) {
        // E[min(X, cap)]: the mean below the cap plus the cap times P(X > cap).
        double k = b_, xm = a_, c = cap_;
        double below = k == 1 ? xm * std::log(c / xm) : xm * k / (k - 1) * (1 - std::pow(xm / c, k - 1));
        return to_nanos(below + c * std::pow(xm / c, k));
      }
      return b_ <= 1 ? Nanos::max() : to_nanos(a_ * b_ / (b_ - 1));
    }
    case Kind::mix: {
      double sum = 0;
      for (const auto& [w, d] : mix_) sum += w / total_weight_ * ns(d.mean());
      return to_nanos(sum);
    }
  }
  return Nanos(0);
}

double Distribution::second_moment() const {
  switch (kind_) {
    case Kind::fixed:
      return a_ * a_;
    case Kind::uniform:
      return (a_ * a_ + a_ * b_ + b_ * b_) / 3;
    case Kind::exponential:
      return 2 * a_ * a_;
    case Kind::normal: {
      if (b_ == 0) return a_ * a_;
      // A normal truncated to [0, inf): mean m + s·h, variance s²(1 + α·h − h²), h the hazard at α.
      double alpha = -a_ / b_;
      double pdf = std::exp(-alpha * alpha / 2) / std::sqrt(2 * std::numbers::pi);
      double h = pdf / (0.5 * std::erfc(alpha / std::sqrt(2.0)));
      double m = a_ + b_ * h;
      return b_ * b_ * (1 + alpha * h - h * h) + m * m;
    }
    case Kind::lognormal:
      return std::exp(2 * a_ + 2 * b_ * b_);
    case Kind::pareto: {
      double k = b_, xm = a_, c = cap_;
      if (c > 0) {  // E[min(X, cap)²]: below the cap, plus cap² times P(X > cap)
        double below = k == 2 ? k * xm * xm * std::log(c / xm)
                              : k * std::pow(xm, k) * (std::pow(c, 2 - k) - std::pow(xm, 2 - k)) / (2 - k);
        return below + c * c * std::pow(xm / c, k);
      }
      return k <= 2 ? std::numeric_limits<double>::infinity() : k * xm * xm / (k - 2);
    }
    case Kind::mix: {
      double sum = 0;
      for (const auto& [w, d] : mix_) sum += w / total_weight_ * d.second_moment();
      return sum;
    }
  }
  return 0;
}

json Distribution::to_json() const {
  switch (kind_) {
    case Kind::fixed:
      return dur(a_);
    case Kind::uniform:
      return {{"dist", "uniform"}, {"min", dur(a_)}, {"max", dur(b_)}};
    case Kind::exponential:
      return {{"dist", "exponential"}, {"mean", dur(a_)}};
    case Kind::normal:
      return {{"dist", "normal"}, {"mean", dur(a_)}, {"stddev", dur(b_)}};
    case Kind::lognormal:
      return {{"dist", "lognormal"}, {"median", dur(std::exp(a_))}, {"sigma", b_}};
    case Kind::pareto: {
      json j = {{"dist", "pareto"}, {"scale", dur(a_)}, {"shape", b_}};
      if (cap_ > 0) j["max"] = dur(cap_);
      return j;
    }
    case Kind::mix: {
      json of = json::array();
      for (const auto& [w, d] : mix_) of.push_back({{"weight", w}, {"value", d.to_json()}});
      return {{"dist", "mix"}, {"of", of}};
    }
  }
  return nullptr;
}

}  // namespace poolscope::scenario
