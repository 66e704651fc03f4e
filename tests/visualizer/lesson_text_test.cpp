// A lesson step's text: the markdown subset the Lesson panel draws
// (paragraphs, lists, emphasis, code, links), and nothing more.
#include "visualizer/model/lesson_text.h"

#include <catch2/catch.hpp>

using namespace poolscope::gui;
using Style = TextSpan::Style;
using Kind = TextBlock::Kind;

TEST_CASE("lesson text: emphasis, code and links are spans of their own, the rest is plain") {
  const auto spans = parse_inline("A *ready* stack, `MaxWorkersCount` and [the design](docs/fasthttp.md).");
  REQUIRE(spans == std::vector<TextSpan>{{Style::plain, "A ", ""},
                                         {Style::emphasis, "ready", ""},
                                         {Style::plain, " stack, ", ""},
                                         {Style::code, "MaxWorkersCount", ""},
                                         {Style::plain, " and ", ""},
                                         {Style::link, "the design", "docs/fasthttp.md"},
                                         {Style::plain, ".", ""}});
  REQUIRE(parse_inline("**strong** and _under_") ==
          std::vector<TextSpan>{{Style::emphasis, "strong", ""}, {Style::plain, " and ", ""}, {Style::emphasis, "under", ""}});
}

TEST_CASE("lesson text: what is not markup stays as written (snake_case, a lone star, an open backtick)") {
  REQUIRE(plain_text(parse_lesson_text("max_idle_time is 2 * 3 s, `unclosed")) == "max_idle_time is 2 * 3 s, `unclosed");
  REQUIRE(parse_inline("a [bracket] (aside)").size() == 1);
}

TEST_CASE("lesson text: blank lines part paragraphs, and list items carry on over their following lines") {
  const auto blocks = parse_lesson_text(
      "First paragraph,\nstill the first.\n\n- one\n  more of one\n* two\n\n3. three\n10. ten\n\nLast.");
  REQUIRE(blocks.size() == 6);
  CHECK(blocks[0].kind == Kind::paragraph);
  CHECK(plain_text({blocks[0]}) == "First paragraph, still the first.");
  CHECK(blocks[1].kind == Kind::bullet);
  CHECK(plain_text({blocks[1]}) == "- one more of one");
  CHECK(blocks[2].kind == Kind::bullet);
  CHECK(blocks[3].kind == Kind::numbered);
  CHECK(blocks[3].number == 3);
  CHECK(blocks[4].number == 10);
  CHECK(plain_text({blocks[5]}) == "Last.");
  CHECK(parse_lesson_text("\n\n  \n").empty());
}

TEST_CASE("lesson text: a line starting with emphasis is a paragraph, not a list item") {
  const auto blocks = parse_lesson_text("*Before* the burst.");
  REQUIRE(blocks.size() == 1);
  CHECK(blocks[0].kind == Kind::paragraph);
  CHECK(blocks[0].spans.front().style == Style::emphasis);
}
