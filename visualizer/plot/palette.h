// The colours of the GUI, in one place: one per pool (a pool keeps its colour
// in every view), and one per worker state and marker kind. Two palettes: the
// standard one, and one safe for colour-blind viewers (Okabe and Ito's
// colours, distinguishable with every common colour-vision deficiency).
// Plain RGBA, so the screenshot checker and the tests use them without ImGui.
//
// A state or marker colour never resembles a pool colour (tests/visualizer
// checks a CIELAB distance of at least kDistinct between every pair), so a
// reaped lane end, a refusal or a reap glyph is never read as some pool's
// data; and each reaping mechanism has a fixed colour, the same in every run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace poolscope::plot {

struct Rgba {
  std::uint8_t r, g, b, a = 255;
  friend bool operator==(const Rgba&, const Rgba&) = default;
  Rgba with_alpha(std::uint8_t alpha) const { return {r, g, b, alpha}; }
};

struct Palette {
  const char* name;
  std::span<const Rgba> pools;       // series colours, by the pool's position in the run
  Rgba idle;                         // a worker alive and waiting for a task (drawn under its pool's colour)
  Rgba reaped;                       // a worker between being chosen for reaping and exiting (a lane's end)
  Rgba threw;                        // a task that ended with an exception
  Rgba refused;                      // refusals and drops
  Rgba cursor;                       // the replay cursor
  Rgba pool_event;                   // cleaner passes, tunes, state changes
  std::span<const Rgba> mechanisms;  // reap markers, one colour per reaping rule: see mechanism_slot()

  Rgba pool(std::size_t i) const { return pools[i % pools.size()]; }
  Rgba mechanism(std::size_t slot) const { return mechanisms[slot % mechanisms.size()]; }
  // The reap glyph's colour for the mechanism (the rule code) that reaped.
  Rgba mechanism(std::string_view code) const;
};

enum class PaletteKind { standard, colour_blind_safe };
const Palette& palette(PaletteKind kind);

// The reaping mechanisms with a colour of their own, in slot order:
// cleaner-pass (fasthttp), purge-tick (ants), idle-tick (gammazero),
// keep-alive, core-time-out and over-maximum (Java, lab 03). Shutdown reaps
// (stop-ready, stopped, ...) share the next slot, any other code the last.
std::span<const std::string_view> known_mechanisms();
// The slot of a reaping rule's code: fixed, whatever else the run reaped.
std::size_t mechanism_slot(std::string_view code);

// A design's preferred colour slot in a palette (modulo its size): fixed for
// the shipped designs (fasthttp, ants, gammazero, java first), a hash of the
// name for any other, so a design has the same colour in every scenario where
// no other design holds it.
std::size_t design_slot(std::string_view design);
// The colours of a run's pools, by position. Each design its own colour: its
// slot, or when a design placed before it (the shipped ones first, in their
// order) holds it, the next free slot; fasthttp, ants, gammazero and java
// always keep theirs. A second pool of a design gets a variant of its colour,
// a shade of it (another lightness, the hue turned a little: palette.cpp), as do designs
// that must share a slot once every slot is held: the first variant that is
// no state or marker colour and at least kSiblingDistinct from the run's other
// colours, else the farthest from them.
std::vector<Rgba> pool_colours(const Palette& palette, std::span<const std::string> designs);
// The k-th variant of a colour (k = 0: the colour itself); past
// kVariantCandidates they repeat.
Rgba variant(Rgba c, std::size_t k);
inline constexpr std::size_t kVariantCandidates = 48;
// The GUI's background (the plots', the table's): what a translucent colour is drawn on.
inline constexpr Rgba kBackground{20, 20, 23};
// How near a colour comes to the palette's state and marker colours (the
// least CIE76 distance), and whether that is within kDistinct.
double marker_distance(const Palette& palette, Rgba c);
bool like_a_marker(const Palette& palette, Rgba c);

// How different two colours look: CIE76 ΔE, the distance in CIELAB (alpha
// ignored). About 2 is just noticeable; 20 and more is a different colour.
double colour_distance(Rgba a, Rgba b);
// The least distance every state and marker colour keeps from every pool colour.
inline constexpr double kDistinct = 20;
// The least distance between any two of up to three pools sharing a colour
// slot (pools of one design: phpfpm-ramp's three phpfpm pools), in either palette.
inline constexpr double kSiblingDistinct = 20;

}  // namespace poolscope::plot
