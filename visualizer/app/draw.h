// Small drawing helpers shared by the views: palette colours as ImGui
// colours, the marker glyphs, colour swatches beside text, wrapped tooltips.
#pragma once

#include <imgui.h>

#include <string>

#include "visualizer/plot/palette.h"

namespace poolscope::gui {

inline ImU32 col(plot::Rgba c) { return IM_COL32(c.r, c.g, c.b, c.a); }
inline ImU32 col(plot::Rgba c, float alpha) { return IM_COL32(c.r, c.g, c.b, static_cast<int>(alpha * 255)); }
inline ImVec4 col4(plot::Rgba c) { return ImVec4(c.r / 255.f, c.g / 255.f, c.b / 255.f, c.a / 255.f); }

enum class Glyph { up, down, cross, dot, diamond };
// A marker glyph centred on `at`, `r` px from centre to tip.
void glyph(ImDrawList* dl, Glyph g, ImVec2 at, float r, ImU32 colour);

// A square of colour `c` at the cursor, on the text line, then SameLine.
void swatch(plot::Rgba c);
// Text wrapped at a readable width, for tooltips.
void wrapped(const std::string& text, float width);
// A dimmer line of text (rules' reasons under an event).
void dim(const std::string& text, float width);
// `text` on one line, cut with "…" to fit `width` px (at a UTF-8 character
// boundary). Returns whether it was cut (the caller's tooltip can show it whole).
bool elided_text(const std::string& text, float width);
// A polyline drawn in dashes of `dash` px with gaps as long, the pattern
// carried around its corners (a step line stays dashed through its steps).
void dashed_polyline(ImDrawList* dl, const ImVec2* points, std::size_t count, ImU32 colour, float thickness,
                     float dash);
// A "(?)" that shows `help` on hover.
void help_marker(const char* help, float width);

}  // namespace poolscope::gui
