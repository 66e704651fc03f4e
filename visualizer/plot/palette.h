// The colours of the GUI, in one place: one per pool (a pool keeps its colour
// in every view), and one per worker state and marker kind. Two palettes: the
// standard one, and one safe for colour-blind viewers (Okabe and Ito's eight
// colours, distinguishable with every common colour-vision deficiency).
// Plain RGBA, so the screenshot checker and the tests use them without ImGui.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

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
  Rgba reaped;                       // a worker between being chosen for reaping and exiting; reap markers
  Rgba threw;                        // a task that ended with an exception
  Rgba refused;                      // refusals and drops
  Rgba cursor;                       // the replay cursor
  Rgba pool_event;                   // cleaner passes, tunes, state changes
  std::span<const Rgba> mechanisms;  // reap markers, one colour per reaping rule (cleaner pass, purge tick ...)

  Rgba pool(std::size_t i) const { return pools[i % pools.size()]; }
  Rgba mechanism(std::size_t i) const { return mechanisms[i % mechanisms.size()]; }
};

enum class PaletteKind { standard, colour_blind_safe };
const Palette& palette(PaletteKind kind);

}  // namespace poolscope::plot
