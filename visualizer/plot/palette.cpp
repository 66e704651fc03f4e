#include "visualizer/plot/palette.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

namespace poolscope::plot {

namespace {

// Tableau 10, reordered so the first four pools differ most, without its
// grey: a grey pool would look like idle lanes and leave no neutral colour
// for the markers.
constexpr Rgba kStandardPools[] = {
    {78, 121, 167},  {242, 142, 43}, {89, 161, 79},   {225, 87, 89},  {176, 122, 161},
    {118, 183, 178}, {237, 201, 72}, {255, 157, 167}, {156, 117, 95},
};

// Okabe & Ito (2008), without black (the background is dark).
constexpr Rgba kOkabeItoPools[] = {
    {230, 159, 0}, {86, 180, 233}, {0, 158, 115}, {240, 228, 66}, {204, 121, 167}, {213, 94, 0}, {0, 114, 178},
};

constexpr std::array<std::string_view, 6> kMechanisms = {"cleaner-pass", "purge-tick",    "idle-tick",
                                                         "keep-alive",   "core-time-out", "over-maximum"};
constexpr std::string_view kShutdownReaps[] = {"stop-ready",       "stopped", "stop",     "pool-close",
                                               "shutdown-drained", "close",   "close-now"};

// Reap glyphs, by mechanism_slot(): saturated hues Tableau does not use, white
// and grey. Okabe and Ito's colours are all pools already, so the colour-blind
// palette's are white, greys and pale tints, told apart by lightness and by
// the blue-yellow contrast the common deficiencies keep.
constexpr Rgba kStandardMechanisms[] = {
    {245, 245, 245},  // cleaner-pass: white
    {0, 240, 255},    // purge-tick: cyan
    {150, 90, 255},   // idle-tick: violet
    {255, 255, 0},    // keep-alive: yellow
    {120, 255, 200},  // core-time-out: mint
    {255, 80, 220},   // over-maximum: hot pink
    {160, 160, 160},  // shutdown: grey
    {255, 230, 160},  // anything else: cream
};
constexpr Rgba kOkabeItoMechanisms[] = {
    {245, 245, 245},  // cleaner-pass: white
    {170, 225, 255},  // purge-tick: pale blue
    {150, 150, 150},  // idle-tick: grey
    {255, 210, 150},  // keep-alive: peach
    {255, 190, 230},  // core-time-out: pale pink
    {200, 255, 210},  // over-maximum: pale green
    {95, 95, 95},     // shutdown: dark grey
    {200, 170, 255},  // anything else: lavender
};
static_assert(std::size(kStandardMechanisms) == kMechanisms.size() + 2);
static_assert(std::size(kOkabeItoMechanisms) == kMechanisms.size() + 2);

// The shipped designs, the most often seen first: each prefers the slot of its
// place here (modulo the palette's size), and the earlier ones choose first,
// so the four main designs keep their colours in every run. The labs' reference
// designs come last: a lab's scenario shows few other designs.
constexpr std::string_view kDesigns[] = {
    "fasthttp",      "ants",     "gammazero", "java",   "spawn",      "coremax",     "gopool",        "nginx",
    "weedge",        "redis-io", "redis-bio", "phpfpm", "ants-multi", "lab01-fixed", "lab02-reaping", "lab03-keepalive",
    "lab04-overload"};

// A design's place among the shipped ones (any other after them all).
std::size_t design_rank(std::string_view design) {
  return static_cast<std::size_t>(std::find(std::begin(kDesigns), std::end(kDesigns), design) - std::begin(kDesigns));
}

const Palette kStandard{
    .name = "standard",
    .pools = kStandardPools,
    .idle = {120, 120, 130, 90},
    .reaped = {245, 245, 245},  // white: the lane's end
    .threw = {255, 0, 200},     // magenta
    .refused = {180, 255, 40},  // lime
    .cursor = {255, 255, 255},
    .pool_event = {210, 210, 210},
    .mechanisms = kStandardMechanisms,
};

const Palette kColourBlindSafe{
    .name = "colour-blind safe",
    .pools = kOkabeItoPools,
    .idle = {120, 120, 130, 90},
    .reaped = {245, 245, 245},   // white
    .threw = {255, 190, 230},    // pale pink
    .refused = {255, 255, 160},  // pale yellow
    .cursor = {255, 255, 255},
    .pool_event = {200, 200, 200},
    .mechanisms = kOkabeItoMechanisms,
};

struct Lab {
  double l, a, b;
};

// sRGB (D65) to CIELAB.
Lab to_lab(Rgba c) {
  auto linear = [](std::uint8_t v) {
    double x = v / 255.0;
    return x <= 0.04045 ? x / 12.92 : std::pow((x + 0.055) / 1.055, 2.4);
  };
  const double r = linear(c.r), g = linear(c.g), b = linear(c.b);
  const double x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const double y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const double z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  auto f = [](double t) { return t > 216.0 / 24389 ? std::cbrt(t) : (24389.0 / 27 * t + 16) / 116; };
  const double fx = f(x), fy = f(y), fz = f(z);
  return {116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)};
}

// CIELAB to linear sRGB, unclamped: outside [0, 1] where the screen cannot show it.
std::array<double, 3> linear_rgb(Lab c) {
  const double fy = (c.l + 16) / 116, fx = fy + c.a / 500, fz = fy - c.b / 200;
  auto finv = [](double t) { return t * t * t > 216.0 / 24389 ? t * t * t : (116 * t - 16) / (24389.0 / 27); };
  const double x = finv(fx) * 0.95047, y = finv(fy), z = finv(fz) * 1.08883;
  return {3.2406 * x - 1.5372 * y - 0.4986 * z, -0.9689 * x + 1.8758 * y + 0.0415 * z,
          0.0557 * x - 0.2040 * y + 1.0570 * z};
}

bool in_gamut(Lab c) {
  const auto rgb = linear_rgb(c);
  return std::all_of(rgb.begin(), rgb.end(), [](double v) { return v >= -1e-9 && v <= 1 + 1e-9; });
}

Rgba from_lab(Lab c) {
  auto byte = [](double v) {
    v = std::clamp(v, 0.0, 1.0);
    v = v <= 0.0031308 ? 12.92 * v : 1.055 * std::pow(v, 1 / 2.4) - 0.055;
    return static_cast<std::uint8_t>(std::lround(std::clamp(v, 0.0, 1.0) * 255));
  };
  const auto rgb = linear_rgb(c);
  return {byte(rgb[0]), byte(rgb[1]), byte(rgb[2])};
}

}  // namespace

const Palette& palette(PaletteKind kind) {
  return kind == PaletteKind::colour_blind_safe ? kColourBlindSafe : kStandard;
}

std::span<const std::string_view> known_mechanisms() { return kMechanisms; }

std::size_t mechanism_slot(std::string_view code) {
  if (auto it = std::find(kMechanisms.begin(), kMechanisms.end(), code); it != kMechanisms.end())
    return static_cast<std::size_t>(it - kMechanisms.begin());
  if (std::find(std::begin(kShutdownReaps), std::end(kShutdownReaps), code) != std::end(kShutdownReaps))
    return kMechanisms.size();
  return kMechanisms.size() + 1;
}

std::size_t design_slot(std::string_view design) {
  if (const std::size_t r = design_rank(design); r < std::size(kDesigns)) return r;
  std::size_t h = 2166136261u;  // FNV-1a: the same slot in every run and build
  for (char c : design) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
  return h % 9;
}

// The k-th shade of a colour, in CIELAB's lightness and hue (perceptual,
// where HSL's lightness is not: HSL's steps left phpfpm's three pools three
// greens 19 to 26 apart, read as one on a laptop). A shade is 20 L* from the
// colour, or 40 or 60, then 10, 30 or 50, nearest first, the lighter before
// the darker (lines and names read better light on the dark background),
// within [35, 92] (darker would vanish into the background, lighter into
// the white of a reaped lane's end); its hue turns 25 degrees
// for each 20 L*, one way darker, the other lighter, so a design's pools stay
// one family (blues stay blues) yet differ in two ways; once every level is
// used, the same levels with the hue turned the other way, then twice as far
// either way (kVariantCandidates: four rounds of at most 12). The chroma is
// kept where the screen can show it, else the most it can. pool_colours()
// picks among them.
Rgba variant(Rgba c, std::size_t k) {
  if (k == 0) return c;
  const Lab lab = to_lab(c);
  constexpr double kStep = 20, kTurn = 25 * std::numbers::pi / 180, kLow = 35, kHigh = 92;
  std::vector<double> levels;
  for (double j : {1.0, 2.0, 3.0, 0.5, 1.5, 2.5})
    for (double to : {lab.l + kStep * j, lab.l - kStep * j})
      if (to >= kLow && to <= kHigh) levels.push_back(to);
  if (levels.empty()) return c;  // (no colour has no room: L* is within [0, 100])
  const double l = levels[(k - 1) % levels.size()];
  // Rounds over the levels: the hue turned one way, the other, then twice as far each way.
  const std::size_t round = (k - 1) / levels.size() % 4;
  const double turn = (round % 2 ? -kTurn : kTurn) * (round < 2 ? 1 : 2);
  const double hue = std::atan2(lab.b, lab.a) + turn * (l - lab.l) / kStep;
  // The most chroma, up to the colour's own, that the screen shows at this lightness and hue.
  double lo = 0, hi = std::hypot(lab.a, lab.b);
  for (int i = 0; i < 24; ++i) {
    const double mid = (lo + hi) / 2;
    (in_gamut({l, mid * std::cos(hue), mid * std::sin(hue)}) ? lo : hi) = mid;
  }
  Rgba out = from_lab({l, lo * std::cos(hue), lo * std::sin(hue)});
  out.a = c.a;
  return out;
}

std::vector<Rgba> pool_colours(const Palette& palette, std::span<const std::string> designs) {
  const std::size_t n = palette.pools.size();
  // The run's designs, each once, the shipped ones first in their order.
  std::vector<std::string_view> order;
  for (const std::string& d : designs)
    if (std::find(order.begin(), order.end(), d) == order.end()) order.push_back(d);
  std::stable_sort(order.begin(), order.end(),
                   [](std::string_view a, std::string_view b) { return design_rank(a) < design_rank(b); });
  // Each design takes its own slot where no other took it, else the next free
  // one; only once every slot is held do two designs share one.
  std::vector<std::size_t> slot(order.size(), n);
  std::vector<bool> held(n, false);
  for (std::size_t i = 0; i < order.size(); ++i)
    if (const std::size_t s = design_slot(order[i]) % n; !held[s]) held[s] = true, slot[i] = s;
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (slot[i] < n) continue;
    const std::size_t own = design_slot(order[i]) % n;
    std::size_t k = 1;
    while (k < n && held[(own + k) % n]) ++k;
    slot[i] = (own + k % n) % n;  // every slot held (k == n): its own, shared
    held[slot[i]] = true;
  }
  // A slot's first pool its colour; its further pools (of the same design, or
  // of designs sharing the slot) a variant: the first that is no state or
  // marker colour and at least kSiblingDistinct from every other colour of
  // the run, else the one farthest from them all (the colour-blind palette,
  // dense in pale marker colours, cannot always do both).
  std::vector<Rgba> out(designs.size());
  std::vector<Rgba> run;
  std::vector<bool> first(designs.size(), false), slot_used(n, false);
  std::vector<std::size_t> slot_of(designs.size());
  for (std::size_t i = 0; i < designs.size(); ++i) {
    slot_of[i] = slot[static_cast<std::size_t>(std::find(order.begin(), order.end(), designs[i]) - order.begin())];
    if (slot_used[slot_of[i]]) continue;
    slot_used[slot_of[i]] = first[i] = true;
    out[i] = palette.pools[slot_of[i]];
    run.push_back(out[i]);
  }
  for (std::size_t i = 0; i < designs.size(); ++i) {
    if (first[i]) continue;
    double best_margin = -1;
    for (std::size_t k = 1; k <= kVariantCandidates; ++k) {
      const Rgba v = variant(palette.pools[slot_of[i]], k);
      double margin = marker_distance(palette, v) / kDistinct;
      for (Rgba x : run) margin = std::min(margin, colour_distance(v, x) / kSiblingDistinct);
      if (margin > best_margin) best_margin = margin, out[i] = v;
      if (margin >= 1) break;
    }
    run.push_back(out[i]);
  }
  return out;
}

double marker_distance(const Palette& p, Rgba c) {
  const Rgba bg = kBackground;
  auto over = [&](Rgba m) {  // a translucent colour as drawn on the background
    auto mix = [&](std::uint8_t v, std::uint8_t b) {
      return static_cast<std::uint8_t>((v * m.a + b * (255 - m.a)) / 255);
    };
    return Rgba{mix(m.r, bg.r), mix(m.g, bg.g), mix(m.b, bg.b)};
  };
  double d = 1e9;
  for (Rgba m : {over(p.idle), p.reaped, p.threw, p.refused, p.cursor, p.pool_event})
    d = std::min(d, colour_distance(c, m));
  for (Rgba m : p.mechanisms) d = std::min(d, colour_distance(c, m));
  return d;
}

bool like_a_marker(const Palette& p, Rgba c) { return marker_distance(p, c) < kDistinct; }

Rgba Palette::mechanism(std::string_view code) const { return mechanism(mechanism_slot(code)); }

double colour_distance(Rgba a, Rgba b) {
  const Lab x = to_lab(a), y = to_lab(b);
  return std::hypot(x.l - y.l, x.a - y.a, x.b - y.b);
}

}  // namespace poolscope::plot
