#include "visualizer/plot/palette.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "scenarios/engine/scenario.h"

using namespace poolscope::plot;

namespace {

// What a translucent colour looks like drawn on the GUI's dark background.
Rgba over_background(Rgba c) {
  const Rgba bg{20, 20, 23};
  auto mix = [&](std::uint8_t v, std::uint8_t b) {
    return static_cast<std::uint8_t>((v * c.a + b * (255 - c.a)) / 255);
  };
  return {mix(c.r, bg.r), mix(c.g, bg.g), mix(c.b, bg.b)};
}

std::vector<std::pair<std::string, Rgba>> states_and_markers(const Palette& p) {
  std::vector<std::pair<std::string, Rgba>> v = {
      {"idle", over_background(p.idle)},
      {"reaped", p.reaped},
      {"threw", p.threw},
      {"refused", p.refused},
      {"cursor", p.cursor},
      {"pool_event", p.pool_event},
  };
  for (std::size_t i = 0; i < p.mechanisms.size(); ++i)
    v.emplace_back("mechanism " + std::to_string(i), p.mechanism(i));
  return v;
}

}  // namespace

TEST_CASE("palette: the colour distance is CIE76, zero for equal colours") {
  CHECK(colour_distance({10, 20, 30}, {10, 20, 30}) == Approx(0));
  CHECK(colour_distance({0, 0, 0}, {255, 255, 255}) == Approx(100).margin(0.1));
  CHECK(colour_distance({225, 60, 60}, {225, 87, 89}) < kDistinct);  // the old reaped red and Java's red
}

TEST_CASE("palette: no state or marker colour looks like a pool colour, in either palette") {
  for (PaletteKind kind : {PaletteKind::standard, PaletteKind::colour_blind_safe}) {
    const Palette& p = palette(kind);
    for (const auto& [name, c] : states_and_markers(p))
      for (std::size_t i = 0; i < p.pools.size(); ++i) {
        INFO(p.name << ": " << name << " against pool " << i + 1);
        CHECK(colour_distance(c, p.pool(i)) >= kDistinct);
      }
  }
}

TEST_CASE("palette: the pools' colours differ from each other, and so do the reap mechanisms'") {
  for (PaletteKind kind : {PaletteKind::standard, PaletteKind::colour_blind_safe}) {
    const Palette& p = palette(kind);
    for (std::size_t i = 0; i < p.pools.size(); ++i)
      for (std::size_t j = i + 1; j < p.pools.size(); ++j) {
        INFO(p.name << ": pools " << i + 1 << " and " << j + 1);
        CHECK(colour_distance(p.pool(i), p.pool(j)) >= kDistinct);
      }
    // Reap glyphs share a glyph (▼): only their colours tell the mechanisms apart.
    for (std::size_t i = 0; i < p.mechanisms.size(); ++i)
      for (std::size_t j = i + 1; j < p.mechanisms.size(); ++j) {
        INFO(p.name << ": mechanisms " << i << " and " << j);
        CHECK(colour_distance(p.mechanism(i), p.mechanism(j)) >= kDistinct);
      }
    // In a lane: idle, running (the pool's colour), threw, reaped.
    CHECK(colour_distance(over_background(p.idle), p.reaped) >= kDistinct);
    CHECK(colour_distance(over_background(p.idle), p.threw) >= kDistinct);
    CHECK(colour_distance(p.threw, p.reaped) >= kDistinct);
  }
}

TEST_CASE("palette: each reaping mechanism has a fixed colour, whatever else the run reaped") {
  const Palette& p = palette(PaletteKind::standard);
  REQUIRE(known_mechanisms().size() + 2 == p.mechanisms.size());
  for (std::size_t i = 0; i < known_mechanisms().size(); ++i) {
    CHECK(mechanism_slot(known_mechanisms()[i]) == i);
    CHECK(p.mechanism(known_mechanisms()[i]) == p.mechanism(i));
  }
  CHECK(mechanism_slot("cleaner-pass") == 0);
  CHECK(mechanism_slot("purge-tick") == 1);
  CHECK(mechanism_slot("idle-tick") == 2);
  CHECK(mechanism_slot("keep-alive") == 3);
  // Shutdown reaps share one slot; anything unknown the last.
  CHECK(mechanism_slot("stop-ready") == known_mechanisms().size());
  CHECK(mechanism_slot("stopped") == known_mechanisms().size());
  CHECK(mechanism_slot("a-lab-rule") == known_mechanisms().size() + 1);
  CHECK(mechanism_slot("") == known_mechanisms().size() + 1);
}

TEST_CASE("palette: a design has the same colour in every scenario, and a second pool of it a variant (issue 21)") {
  using poolscope::plot::pool_colours;
  for (auto kind : {PaletteKind::standard, PaletteKind::colour_blind_safe}) {
    const Palette& p = palette(kind);
    const std::vector<std::string> tour = {"fasthttp", "ants", "gammazero", "java", "spawn"};
    const std::vector<std::string> overload = {"java", "gammazero", "ants", "fasthttp"};
    const auto a = pool_colours(p, tour), b = pool_colours(p, overload);
    CHECK(a[2] == b[1]);  // gammazero
    CHECK(a[3] == b[0]);  // java
    CHECK(a[0] == b[3]);  // fasthttp
    // Pools of one design: its colour first, then variants, told apart.
    const std::vector<std::string> twins = {"java", "java", "java"};
    const auto c = pool_colours(p, twins);
    CHECK(c[0] == a[3]);
    CHECK(colour_distance(c[0], c[1]) >= kSiblingDistinct);
    CHECK(colour_distance(c[0], c[2]) >= kSiblingDistinct);
    CHECK(colour_distance(c[1], c[2]) >= kSiblingDistinct);
    // An unknown design: a fixed slot, whatever the run.
    CHECK(poolscope::plot::design_slot("my-pool") == poolscope::plot::design_slot("my-pool"));
  }
}

TEST_CASE("palette: different designs in one run get different colours while the palette has free ones (survey)") {
  std::vector<std::string> survey;  // 14 pools, 12 designs
  const auto scenario =
      poolscope::scenario::read_scenario_json(std::string(POOLSCOPE_SOURCE_DIR) + "/scenarios/library/survey.json");
  for (const auto& pool : scenario["pools"]) survey.push_back(pool["design"]);
  REQUIRE(survey.size() == 14);
  for (auto kind : {PaletteKind::standard, PaletteKind::colour_blind_safe}) {
    const Palette& p = palette(kind);
    INFO(p.name);
    const auto c = pool_colours(p, survey);
    std::map<std::string, Rgba> first;  // each design's first pool's colour
    for (std::size_t i = 0; i < survey.size(); ++i) first.emplace(survey[i], c[i]);
    // As many base colours shown as designs, until the palette runs out.
    std::set<std::size_t> bases;
    for (const auto& [design, colour] : first)
      if (auto it = std::find(p.pools.begin(), p.pools.end(), colour); it != p.pools.end())
        bases.insert(static_cast<std::size_t>(it - p.pools.begin()));
    CHECK(bases.size() == std::min(first.size(), p.pools.size()));
    // No two pools alike, and the main four in their colours of every run.
    for (std::size_t i = 0; i < c.size(); ++i)
      for (std::size_t j = i + 1; j < c.size(); ++j) {
        INFO(survey[i] << " and " << survey[j]);
        CHECK(c[i] != c[j]);
      }
    CHECK(first["fasthttp"] == p.pool(0));
    CHECK(first["ants"] == p.pool(1));
    CHECK(first["gammazero"] == p.pool(2));
    CHECK(first["java"] == p.pool(3));
    // rulego, survey's second fasthttp pool: a variant of fasthttp's colour.
    bool a_variant = false;
    for (std::size_t k = 1; k <= kVariantCandidates; ++k) a_variant = a_variant || c[2] == variant(p.pool(0), k);
    CHECK(a_variant);
  }
  // A design whose slot another design of the run holds takes the next free one.
  const Palette& p = palette(PaletteKind::standard);
  REQUIRE(design_slot("redis-io") % p.pools.size() == 0);
  const std::vector<std::string> two = {"redis-io", "fasthttp"};
  const auto c = pool_colours(p, two);
  CHECK(c[1] == p.pool(0));
  CHECK(c[0] == p.pool(1));
}

TEST_CASE("palette: three pools of one design are clearly told apart, for every colour of both palettes (issue 39)") {
  // phpfpm-ramp's phpfpm-dynamic, -ondemand and -static were three greens 19
  // to 26 apart in HSL lightness alone, the darkest lost on the background.
  for (PaletteKind kind : {PaletteKind::standard, PaletteKind::colour_blind_safe}) {
    const Palette& p = palette(kind);
    for (std::size_t i = 0; i < p.pools.size(); ++i)
      for (std::size_t k = 0; k <= kVariantCandidates; ++k) {
        const Rgba v = variant(p.pool(i), k);
        INFO(p.name << ": colour " << i + 1 << ", variant " << k);
        CHECK(v.a == p.pool(i).a);
        // Every variant stands out from the background (the darkest, L* 35, about 30 away).
        CHECK(colour_distance(v, kBackground) >= 25);
        if (k > 0) CHECK(v != p.pool(i));
      }
  }
  // As a run gets them, three pools sharing any colour of either palette:
  // apart from each other and from every state and marker colour.
  const std::vector<std::string> shipped = {"fasthttp", "ants",   "gammazero", "java",  "spawn",
                                            "coremax",  "gopool", "nginx",     "weedge"};
  for (PaletteKind kind : {PaletteKind::standard, PaletteKind::colour_blind_safe}) {
    const Palette& p = palette(kind);
    for (std::size_t i = 0; i < p.pools.size(); ++i) {
      REQUIRE(design_slot(shipped[i]) % p.pools.size() == i);
      const std::vector<std::string> three(3, shipped[i]);
      const auto c = pool_colours(p, three);
      CHECK(c[0] == p.pool(i));
      for (std::size_t a = 0; a < 3; ++a) {
        for (const auto& [name, m] : states_and_markers(p)) {
          INFO(p.name << ": " << shipped[i] << "'s pool " << a + 1 << " against " << name);
          CHECK(colour_distance(c[a], m) >= kDistinct);
        }
        CHECK(!like_a_marker(p, c[a]));
        for (std::size_t b = a + 1; b < 3; ++b) {
          INFO(p.name << ": " << shipped[i] << "'s pools " << a + 1 << " and " << b + 1);
          CHECK(colour_distance(c[a], c[b]) >= kSiblingDistinct);
        }
      }
    }
  }
  // phpfpm-ramp: three phpfpm and ants.
  const std::vector<std::string> ramp = {"phpfpm", "phpfpm", "phpfpm", "ants"};
  for (PaletteKind kind : {PaletteKind::standard, PaletteKind::colour_blind_safe}) {
    const auto c = pool_colours(palette(kind), ramp);
    for (std::size_t a = 0; a < c.size(); ++a)
      for (std::size_t b = a + 1; b < c.size(); ++b) {
        INFO(palette(kind).name << ": pools " << a + 1 << " and " << b + 1);
        CHECK(colour_distance(c[a], c[b]) >= kSiblingDistinct);
      }
  }
}
