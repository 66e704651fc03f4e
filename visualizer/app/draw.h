// Small drawing helpers shared by the views: palette colours as ImGui
// colours, the marker glyphs, colour swatches beside text, wrapped tooltips.
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

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
// The same, cut at its start ("…directory/file.json: 3931 events"): for a
// line whose end matters most.
bool elided_text_left(const std::string& text, float width);
// A name (a pool's) broken into lines after its hyphens, as many parts on a
// line as fit `width` px, never cut: "phpfpm-ondemand" in 60 px is "phpfpm-"
// over "ondemand". A part wider than `width` has a line of its own.
std::vector<std::string> break_after_hyphens(const std::string& name, float width);
// The same after any separator, a new line's leading spaces dropped: a
// sweep point's "a=1, b=2" after its commas.
std::vector<std::string> break_after(const std::string& text, char separator, float width);
// The width of the widest part of a name between hyphens (with its hyphen):
// the narrowest that break_after_hyphens() shows it whole in.
float widest_part(const std::string& name);
// A polyline drawn in dashes of `dash` px with gaps as long, the pattern
// carried around its corners (a step line stays dashed through its steps).
void dashed_polyline(ImDrawList* dl, const ImVec2* points, std::size_t count, ImU32 colour, float thickness,
                     float dash);
// A row of widgets that wraps (the toolbar on a 1024-px window: issue 39's
// "paus"): call before each widget but the first of the row, with its
// width; it goes on this line where the rest of the line holds it, else at
// the start of the next. Text there is aligned to the buttons either way.
void same_line_or_wrap(float width);
// The width of a button labelled `label`, and of a widget `width` px wide
// with its label (up to any "##") on its right, for same_line_or_wrap().
float button_width(const char* label);
float labelled_width(float width, const char* label);
// A "(?)" that shows `help` on hover.
void help_marker(const char* help, float width);

}  // namespace poolscope::gui
