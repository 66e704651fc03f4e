#include "visualizer/plot/palette.h"

namespace poolscope::plot {

namespace {

// Tableau 10, reordered so the first four pools differ most.
constexpr Rgba kStandardPools[] = {
    {78, 121, 167},  {242, 142, 43}, {89, 161, 79},   {225, 87, 89},  {176, 122, 161},
    {118, 183, 178}, {237, 201, 72}, {255, 157, 167}, {156, 117, 95}, {186, 176, 172},
};

// Okabe & Ito (2008), without black (the background is dark).
constexpr Rgba kOkabeItoPools[] = {
    {230, 159, 0}, {86, 180, 233}, {0, 158, 115}, {240, 228, 66}, {204, 121, 167}, {213, 94, 0}, {0, 114, 178},
};

// Reap glyphs: white first and then hues the first pools do not use, so a
// reap is not read as another pool's marker.
constexpr Rgba kStandardMechanisms[] = {
    {240, 240, 240}, {100, 220, 230}, {180, 130, 255}, {150, 150, 150}, {255, 150, 200}};
constexpr Rgba kOkabeItoMechanisms[] = {
    {240, 240, 240}, {204, 121, 167}, {213, 94, 0}, {150, 150, 150}, {86, 180, 233}};

const Palette kStandard{
    .name = "standard",
    .pools = kStandardPools,
    .idle = {120, 120, 130, 90},
    .reaped = {225, 60, 60},
    .threw = {255, 0, 200},
    .refused = {255, 200, 60},
    .cursor = {255, 255, 255},
    .pool_event = {200, 200, 200},
    .mechanisms = kStandardMechanisms,
};

const Palette kColourBlindSafe{
    .name = "colour-blind safe",
    .pools = kOkabeItoPools,
    .idle = {120, 120, 130, 90},
    .reaped = {213, 94, 0},  // vermillion
    .threw = {204, 121, 167},
    .refused = {240, 228, 66},
    .cursor = {255, 255, 255},
    .pool_event = {200, 200, 200},
    .mechanisms = kOkabeItoMechanisms,
};

}  // namespace

const Palette& palette(PaletteKind kind) {
  return kind == PaletteKind::colour_blind_safe ? kColourBlindSafe : kStandard;
}

}  // namespace poolscope::plot
