// poolscope-screenshot-check: does a screenshot of poolscope-gui show a run?
// Checks that the image is not blank (many distinct colours, most of them not
// the background) and that each of the first N pool colours of the palette
// covers at least a few pixels of the region given, i.e. each pool's series
// was drawn there. With --region the plots' rectangle (which poolscope-gui
// prints with --screenshot), lanes, swatches and the table header, which
// carry the pools' colours too, cannot make a broken plot pass. With
// --distinct, every two pools' colours must be at least kSiblingDistinct
// apart (CIE76), and a pixel counts for the nearest pool colour only, so
// three near-identical shades cannot pass on one pool's line (issue 39).
//
//   poolscope-screenshot-check shot.png --pools 2 [--palette colour-blind] [--min-pixels 1500]
//                              [--region X0,Y0,X1,Y1] [--distinct]
//
// Exit codes: 0 the image passes; 1 it does not; 2 bad usage or unreadable file.
#include <stb_image.h>

#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "visualizer/plot/palette.h"

namespace {

using poolscope::plot::Rgba;

bool near(const unsigned char* p, Rgba c, int tolerance) {
  return std::abs(p[0] - c.r) <= tolerance && std::abs(p[1] - c.g) <= tolerance && std::abs(p[2] - c.b) <= tolerance;
}

}  // namespace

int main(int argc, char** argv) {
  std::string file;
  int pools = 1, min_pixels = 1500;  // the swatches beside the names cover a few hundred: more means series and lanes
  int x0 = 0, y0 = 0, x1 = -1, y1 = -1;  // the region counted (default: everything)
  auto kind = poolscope::plot::PaletteKind::standard;
  std::vector<std::string> designs;  // --designs: each pool's colour is its design's
  bool apart = false;                // --distinct
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--pools" && i + 1 < argc) {
      pools = std::atoi(argv[++i]);
    } else if (a == "--designs" && i + 1 < argc) {
      std::string list = argv[++i];
      for (std::size_t at = 0; at <= list.size();) {
        std::size_t comma = std::min(list.find(',', at), list.size());
        designs.push_back(list.substr(at, comma - at));
        at = comma + 1;
      }
      pools = static_cast<int>(designs.size());
    } else if (a == "--min-pixels" && i + 1 < argc) {
      min_pixels = std::atoi(argv[++i]);
    } else if (a == "--region" && i + 1 < argc) {
      if (std::sscanf(argv[++i], "%d,%d,%d,%d", &x0, &y0, &x1, &y1) != 4 || x1 <= x0 || y1 <= y0) {
        std::fprintf(stderr, "poolscope-screenshot-check: --region wants X0,Y0,X1,Y1 with X0 < X1, Y0 < Y1\n");
        return 2;
      }
    } else if (a == "--distinct") {
      apart = true;
    } else if (a == "--palette" && i + 1 < argc) {
      kind = std::string(argv[++i]) == "colour-blind" ? poolscope::plot::PaletteKind::colour_blind_safe
                                                      : poolscope::plot::PaletteKind::standard;
    } else if (file.empty() && a[0] != '-') {
      file = a;
    } else {
      std::fprintf(stderr,
                   "usage: poolscope-screenshot-check FILE.png [--pools N | --designs D1,D2..] [--palette colour-blind] [--min-pixels N]\n"
                   "                                  [--region X0,Y0,X1,Y1] [--distinct]\n");
      return 2;
    }
  }
  int w = 0, h = 0, channels = 0;
  unsigned char* pixels = stbi_load(file.c_str(), &w, &h, &channels, 3);
  if (!pixels) {
    std::fprintf(stderr, "poolscope-screenshot-check: cannot read %s: %s\n", file.c_str(), stbi_failure_reason());
    return 2;
  }
  const auto n = static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
  if (x1 < 0) x1 = w, y1 = h;
  if (x0 < 0 || y0 < 0 || x1 > w || y1 > h) {
    std::fprintf(stderr, "poolscope-screenshot-check: the region %d,%d,%d,%d is not inside the %dx%d image\n", x0, y0,
                 x1, y1, w, h);
    stbi_image_free(pixels);
    return 2;
  }
  std::set<unsigned> distinct;
  std::size_t like_corner = 0;
  const unsigned char* corner = pixels + (n - 1) * 3;  // the background, bottom right
  const auto& palette = poolscope::plot::palette(kind);
  std::vector<std::size_t> hits(static_cast<std::size_t>(pools), 0);
  std::vector<Rgba> colours;
  if (!designs.empty())
    colours = poolscope::plot::pool_colours(palette, designs);
  else
    for (int k = 0; k < pools; ++k) colours.push_back(palette.pool(static_cast<std::size_t>(k)));
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char* p = pixels + i * 3;
    distinct.insert(static_cast<unsigned>(p[0]) << 16 | static_cast<unsigned>(p[1]) << 8 | p[2]);
    if (p[0] == corner[0] && p[1] == corner[1] && p[2] == corner[2]) ++like_corner;
    const auto x = static_cast<int>(i % static_cast<std::size_t>(w)),
               y = static_cast<int>(i / static_cast<std::size_t>(w));
    if (x < x0 || x >= x1 || y < y0 || y >= y1) continue;
    // Without --distinct every colour the pixel is near; with it, only the nearest.
    int best = -1, best_d = 1 << 30;
    for (int k = 0; k < pools; ++k) {
      const Rgba c = colours[static_cast<std::size_t>(k)];
      if (!near(p, c, 6)) continue;
      if (!apart) {
        ++hits[static_cast<std::size_t>(k)];
        continue;
      }
      const int d = std::abs(p[0] - c.r) + std::abs(p[1] - c.g) + std::abs(p[2] - c.b);
      if (d < best_d) best = k, best_d = d;
    }
    if (best >= 0) ++hits[static_cast<std::size_t>(best)];
  }
  stbi_image_free(pixels);

  bool ok = true;
  std::printf("%s: %dx%d, %zu distinct colours, %.1f%% background\n", file.c_str(), w, h, distinct.size(),
              100.0 * static_cast<double>(like_corner) / static_cast<double>(n));
  if (distinct.size() < 64 || like_corner > n * 95 / 100) {
    std::printf("FAIL: the image is (nearly) blank\n");
    ok = false;
  }
  for (int k = 0; k < pools; ++k) {
    Rgba c = colours[static_cast<std::size_t>(k)];
    bool found = hits[static_cast<std::size_t>(k)] >= static_cast<std::size_t>(min_pixels);
    std::printf("%s: pool %d's colour #%02x%02x%02x covers %zu pixels of %d,%d,%d,%d (at least %d wanted)\n",
                found ? "ok" : "FAIL", k + 1, c.r, c.g, c.b, hits[static_cast<std::size_t>(k)], x0, y0, x1, y1,
                min_pixels);
    ok = ok && found;
  }
  if (apart)
    for (int a = 0; a < pools; ++a)
      for (int b = a + 1; b < pools; ++b) {
        const double d = poolscope::plot::colour_distance(colours[static_cast<std::size_t>(a)],
                                                          colours[static_cast<std::size_t>(b)]);
        const bool far = d >= poolscope::plot::kSiblingDistinct;
        std::printf("%s: pools %d and %d are %.1f apart (CIE76; at least %.0f wanted)\n", far ? "ok" : "FAIL", a + 1,
                    b + 1, d, poolscope::plot::kSiblingDistinct);
        ok = ok && far;
      }
  return ok ? 0 : 1;
}
