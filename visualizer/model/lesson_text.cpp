#include "visualizer/model/lesson_text.h"

#include <cctype>

namespace poolscope::gui {

namespace {

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

void add(std::vector<TextSpan>& out, TextSpan::Style style, std::string text, std::string target = {}) {
  if (text.empty()) return;
  if (style == TextSpan::Style::plain && !out.empty() && out.back().style == TextSpan::Style::plain) {
    out.back().text += text;
    return;
  }
  out.push_back({style, std::move(text), std::move(target)});
}

// Where the emphasis opened by `mark` at `at` closes: the next `mark` after
// a non-space, not followed (for "_") by a word character; npos if none.
std::size_t emphasis_end(std::string_view s, std::size_t at, std::string_view mark) {
  const std::size_t from = at + mark.size();
  if (from >= s.size() || s[from] == ' ') return std::string_view::npos;
  for (std::size_t end = s.find(mark, from + 1); end != std::string_view::npos; end = s.find(mark, end + 1)) {
    if (s[end - 1] == ' ') continue;
    if (mark == "_" && end + 1 < s.size() && word_char(s[end + 1])) continue;
    return end;
  }
  return std::string_view::npos;
}

// A list item's marker at the start of `line` (after its indentation):
// its kind, its number, and where its text begins; paragraph if none.
TextBlock::Kind item(std::string_view line, int& number, std::size_t& text_at) {
  std::size_t i = line.find_first_not_of(' ');
  if (i == std::string_view::npos) return TextBlock::Kind::paragraph;
  if ((line[i] == '-' || line[i] == '*') && i + 1 < line.size() && line[i + 1] == ' ') {
    text_at = i + 2;
    return TextBlock::Kind::bullet;
  }
  std::size_t d = i;
  while (d < line.size() && std::isdigit(static_cast<unsigned char>(line[d]))) ++d;
  if (d > i && d - i <= 3 && d + 1 < line.size() && line[d] == '.' && line[d + 1] == ' ') {
    number = std::stoi(std::string(line.substr(i, d - i)));
    text_at = d + 2;
    return TextBlock::Kind::numbered;
  }
  return TextBlock::Kind::paragraph;
}

std::string_view trimmed(std::string_view s) {
  const std::size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

}  // namespace

std::vector<TextSpan> parse_inline(std::string_view s) {
  std::vector<TextSpan> out;
  std::string plain;
  auto flush = [&] {
    add(out, TextSpan::Style::plain, std::move(plain));
    plain.clear();
  };
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    if (c == '`') {
      if (const std::size_t end = s.find('`', i + 1); end != std::string_view::npos && end > i + 1) {
        flush();
        add(out, TextSpan::Style::code, std::string(s.substr(i + 1, end - i - 1)));
        i = end + 1;
        continue;
      }
    } else if (c == '*' || (c == '_' && (i == 0 || !word_char(s[i - 1])))) {
      const std::string_view mark = c == '*' && i + 1 < s.size() && s[i + 1] == '*' ? s.substr(i, 2) : s.substr(i, 1);
      if (const std::size_t end = emphasis_end(s, i, mark); end != std::string_view::npos) {
        flush();
        // Code or a link inside emphasis is read as emphasis: the subset does not nest.
        for (TextSpan& span : parse_inline(s.substr(i + mark.size(), end - i - mark.size())))
          add(out, span.style == TextSpan::Style::plain ? TextSpan::Style::emphasis : span.style, std::move(span.text),
              std::move(span.target));
        i = end + mark.size();
        continue;
      }
    } else if (c == '[') {
      const std::size_t close = s.find(']', i + 1);
      if (close != std::string_view::npos && close + 1 < s.size() && s[close + 1] == '(') {
        if (const std::size_t paren = s.find(')', close + 2); paren != std::string_view::npos) {
          flush();
          add(out, TextSpan::Style::link, std::string(s.substr(i + 1, close - i - 1)),
              std::string(s.substr(close + 2, paren - close - 2)));
          i = paren + 1;
          continue;
        }
      }
    }
    plain += c;
    ++i;
  }
  flush();
  return out;
}

std::vector<TextBlock> parse_lesson_text(std::string_view markdown) {
  struct Raw {
    TextBlock::Kind kind;
    int number;
    std::string text;
  };
  std::vector<Raw> raws;
  bool open = false;  // the last block takes the next line
  std::size_t at = 0;
  while (at <= markdown.size()) {
    std::size_t nl = markdown.find('\n', at);
    if (nl == std::string_view::npos) nl = markdown.size();
    const std::string_view line = markdown.substr(at, nl - at);
    at = nl + 1;
    const std::string_view text = trimmed(line);
    if (text.empty()) {
      open = false;
      continue;
    }
    int number = 0;
    std::size_t text_at = 0;
    const TextBlock::Kind kind = item(line, number, text_at);
    if (kind != TextBlock::Kind::paragraph) {
      raws.push_back({kind, number, std::string(trimmed(line.substr(text_at)))});
      open = true;
    } else if (open) {
      raws.back().text += ' ';
      raws.back().text += text;
    } else {
      raws.push_back({kind, 0, std::string(text)});
      open = true;
    }
  }
  std::vector<TextBlock> out;
  for (const Raw& r : raws) out.push_back({r.kind, r.number, parse_inline(r.text)});
  return out;
}

std::string plain_text(const std::vector<TextBlock>& blocks) {
  std::string out;
  for (const TextBlock& b : blocks) {
    if (!out.empty()) out += '\n';
    if (b.kind == TextBlock::Kind::bullet) out += "- ";
    if (b.kind == TextBlock::Kind::numbered) out += std::to_string(b.number) + ". ";
    for (const TextSpan& s : b.spans) out += s.text;
  }
  return out;
}

}  // namespace poolscope::gui
