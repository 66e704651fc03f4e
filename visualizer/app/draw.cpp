#include "visualizer/app/draw.h"

#include <algorithm>
#include <cmath>

namespace poolscope::gui {

void glyph(ImDrawList* dl, Glyph g, ImVec2 at, float r, ImU32 colour) {
  const float x = at.x, y = at.y;
  switch (g) {
    case Glyph::up:
      dl->AddTriangleFilled({x, y - r}, {x + r, y + r * 0.8f}, {x - r, y + r * 0.8f}, colour);
      break;
    case Glyph::down:
      dl->AddTriangleFilled({x - r, y - r * 0.8f}, {x + r, y - r * 0.8f}, {x, y + r}, colour);
      break;
    case Glyph::cross:
      dl->AddLine({x - r, y - r}, {x + r, y + r}, colour, 2);
      dl->AddLine({x - r, y + r}, {x + r, y - r}, colour, 2);
      break;
    case Glyph::dot:
      dl->AddCircleFilled(at, r * 0.8f, colour, 10);
      break;
    case Glyph::diamond:
      dl->AddQuadFilled({x, y - r}, {x + r, y}, {x, y + r}, {x - r, y}, colour);
      break;
  }
}

void swatch(plot::Rgba c) {
  const float h = ImGui::GetTextLineHeight();
  ImVec2 p = ImGui::GetCursorScreenPos();
  const float pad = h * 0.2f;
  ImGui::GetWindowDrawList()->AddRectFilled({p.x, p.y + pad}, {p.x + h - 2 * pad, p.y + h - pad}, col(c), 2);
  ImGui::Dummy({h - pad, h});
  ImGui::SameLine();
}

void wrapped(const std::string& text, float width) {
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
}

void dim(const std::string& text, float width) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  wrapped(text, width);
  ImGui::PopStyleColor();
}

bool elided_text(const std::string& text, float width) {
  if (ImGui::CalcTextSize(text.c_str()).x <= width) {
    ImGui::TextUnformatted(text.c_str());
    return false;
  }
  static const std::string kEllipsis = "\u2026";
  // The longest prefix that fits with the ellipsis, by bisection over bytes.
  std::size_t lo = 0, hi = text.size();
  while (lo < hi) {
    const std::size_t mid = (lo + hi + 1) / 2;
    if (ImGui::CalcTextSize((text.substr(0, mid) + kEllipsis).c_str()).x <= width)
      lo = mid;
    else
      hi = mid - 1;
  }
  // Not inside a character: back up over UTF-8 continuation bytes.
  while (lo > 0 && lo < text.size() && (static_cast<unsigned char>(text[lo]) & 0xC0) == 0x80) --lo;
  ImGui::TextUnformatted((text.substr(0, lo) + kEllipsis).c_str());
  return true;
}

bool elided_text_left(const std::string& text, float width) {
  if (ImGui::CalcTextSize(text.c_str()).x <= width) {
    ImGui::TextUnformatted(text.c_str());
    return false;
  }
  static const std::string kEllipsis = "\u2026";
  // The longest suffix that fits after the ellipsis, by bisection over its start.
  std::size_t lo = 0, hi = text.size();
  while (lo < hi) {
    const std::size_t mid = (lo + hi) / 2;
    if (ImGui::CalcTextSize((kEllipsis + text.substr(mid)).c_str()).x <= width)
      hi = mid;
    else
      lo = mid + 1;
  }
  // Not inside a character: move on over UTF-8 continuation bytes.
  while (lo < text.size() && (static_cast<unsigned char>(text[lo]) & 0xC0) == 0x80) ++lo;
  ImGui::TextUnformatted((kEllipsis + text.substr(lo)).c_str());
  return true;
}

namespace {

// "phpfpm-ondemand", '-': "phpfpm-", "ondemand".
std::vector<std::string> parts_after(const std::string& text, char separator) {
  std::vector<std::string> parts;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find(separator, at), text.size() - 1) + 1;
    parts.push_back(text.substr(at, end - at));
    at = end;
  }
  return parts;
}

}  // namespace

std::vector<std::string> break_after(const std::string& text, char separator, float width) {
  std::vector<std::string> lines;
  for (const std::string& part : parts_after(text, separator))
    if (!lines.empty() && ImGui::CalcTextSize((lines.back() + part).c_str()).x <= width)
      lines.back() += part;
    else
      lines.push_back(lines.empty() ? part : part.substr(std::min(part.find_first_not_of(' '), part.size())));
  if (lines.empty()) lines.emplace_back();
  return lines;
}

std::vector<std::string> break_after_hyphens(const std::string& name, float width) {
  return break_after(name, '-', width);
}

float widest_part(const std::string& name) {
  float w = 0;
  for (const std::string& part : parts_after(name, '-')) w = std::max(w, ImGui::CalcTextSize(part.c_str()).x);
  return w;
}

void same_line_or_wrap(float width) {
  ImGui::SameLine();
  if (ImGui::GetContentRegionAvail().x >= width) return;
  ImGui::NewLine();
  ImGui::AlignTextToFramePadding();
}

float button_width(const char* label) {
  return ImGui::CalcTextSize(label, nullptr, true).x + 2 * ImGui::GetStyle().FramePadding.x;
}

float labelled_width(float width, const char* label) {
  const float text = ImGui::CalcTextSize(label, nullptr, true).x;
  return text > 0 ? width + ImGui::GetStyle().ItemInnerSpacing.x + text : width;
}

void help_marker(const char* help, float width) {
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    wrapped(help, width);
    ImGui::EndTooltip();
  }
}

void dashed_polyline(ImDrawList* dl, const ImVec2* points, std::size_t count, ImU32 colour, float thickness,
                     float dash) {
  float phase = 0;  // how far into the current dash and gap, px
  for (std::size_t i = 1; i < count; ++i) {
    const ImVec2 a = points[i - 1], b = points[i];
    const float length = std::hypot(b.x - a.x, b.y - a.y);
    auto at = [&](float d) { return ImVec2{a.x + (b.x - a.x) * d / length, a.y + (b.y - a.y) * d / length}; };
    for (float d = 0; d < length;) {
      const bool on = phase < dash;
      const float step = std::min((on ? dash : 2 * dash) - phase, length - d);
      if (on) dl->AddLine(at(d), at(d + step), colour, thickness);
      d += step;
      phase += step;
      if (phase >= 2 * dash) phase -= 2 * dash;
    }
  }
}

}  // namespace poolscope::gui
