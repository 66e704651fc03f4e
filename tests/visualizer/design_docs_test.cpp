// The explain panel's text comes from each design's docs page.
#include "visualizer/model/design_docs.h"

#include <catch2/catch.hpp>

#include "pools/core/registry.h"
#include "visualizer/model/describe.h"

using namespace poolscope;
using namespace poolscope::gui;

TEST_CASE("design docs: a section is the text under its heading, up to the next one as high") {
  const std::string page =
      "# Title\n\nintro\n\n## Parameters\n\nnone\n\n## What to watch\n\n- **Lanes:** one\n  "
      "continued\n- `code` and [a link](x.md)\n\n### Detail\n\nkept\n\n```\n## not a heading\n```"
      "\n\n## Next\n\nnot kept\n";
  std::string s = markdown_section(page, "What to watch");
  CHECK_THAT(s, Catch::StartsWith("- **Lanes:** one"));
  CHECK_THAT(s, Catch::Contains("### Detail"));
  CHECK_THAT(s, Catch::Contains("## not a heading"));
  CHECK_THAT(s, !Catch::Contains("not kept"));
  CHECK(markdown_section(page, "Missing").empty());

  CHECK(plain_text("- **Lanes:** one\n  continued\n- `code` and [a link](x.md)\n\nA para\ngraph.") ==
        "- Lanes: one continued\n- code and a link\n\nA para graph.");
}

TEST_CASE("design docs: every registered design's page has the section the explain panel shows") {
  for (const std::string& name : Registry::global().names()) {
    const Design& d = Registry::global().get(name);
    if (d.origin == "lab") continue;  // lab pools may come without a page
    INFO(name << ": " << d.docs);
    CHECK(std::filesystem::is_regular_file(docs_path(d.docs)));
    CHECK_FALSE(what_to_watch(d.docs).empty());
  }
  CHECK_THAT(what_to_watch("docs/pools/fasthttp.md"), Catch::Contains("LIFO"));
  CHECK(what_to_watch("docs/pools/none.md").empty());
}

TEST_CASE("describe: events and rules in words") {
  CHECK(describe(EventKind::task_started, 3, 17, 0, 0) == "task 17 started on worker 3");
  CHECK(describe(EventKind::task_started, 0, 17, 0, 0) == "task 17 started on the submitting thread");
  CHECK(describe(EventKind::worker_reaped, 7, 0, 1'020'000'000, 0) == "worker 7 reaped after 1.020 s idle");
  CHECK(describe(EventKind::cleaner_pass, 0, 0, 12, 3) == "cleaner pass: 3 of 12 workers reaped");
  // A state's values, which its rule's text explains (nginx's pass: completions, µs the oldest waited).
  CHECK(describe(EventKind::pool_state, 0, 0, 3, 120) == "pool state changed: arg = 3, arg2 = 120");
  CHECK(describe(EventKind::pool_state, 0, 0, 0, 0) == "pool state changed");
  CHECK(describe(EventKind::task_completed, 0, 9, 2'500'000, 0) ==
        "task 9's completion ran on the event loop, 2.500 ms after its thread finished it");
  Label l = intern_label("describe-test", "a rule, in words");
  CHECK(describe_rule(l) == "describe-test: a rule, in words");
  CHECK(describe_rule(intern_label("describe-bare")) == "describe-bare");
  CHECK(describe_rule(kNoLabel).empty());
}
