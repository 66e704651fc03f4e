// A lesson step's text (docs/lessons.md: a small markdown subset), read into
// what the Lesson panel lays out: blocks (paragraphs, list items) of spans
// (plain, *emphasis*, `code`, [links](docs/x.md)). Plain C++, so it is
// tested without a window; view_lesson.cpp draws it.
//
// The subset, and only it: a blank line ends a paragraph; a line starting
// "- ", "* " or "N. " is a list item (continued by the indented lines after
// it); *x* or _x_ emphasis, **x** strong (drawn as emphasis), `x` code, and
// [text](target) a link. Anything else is text as written: an unmatched *
// or ` stays a character, so a typo shows instead of swallowing the rest.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace poolscope::gui {

struct TextSpan {
  enum class Style { plain, emphasis, code, link };
  Style style = Style::plain;
  std::string text;
  std::string target;  // a link's
  bool operator==(const TextSpan&) const = default;
};

struct TextBlock {
  enum class Kind { paragraph, bullet, numbered };
  Kind kind = Kind::paragraph;
  int number = 0;  // a numbered item's
  std::vector<TextSpan> spans;
};

std::vector<TextBlock> parse_lesson_text(std::string_view markdown);

// The spans of one line of inline markup (emphasis, code, links).
std::vector<TextSpan> parse_inline(std::string_view text);

// The text without its markup, blocks on lines of their own: what a screen
// reader is told, and what a test compares.
std::string plain_text(const std::vector<TextBlock>& blocks);

}  // namespace poolscope::gui
