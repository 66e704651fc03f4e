// The teaching text the explain panel shows for a design, taken from its page
// in docs/ (Design::docs) so it is written once: the section "What to watch
// for in the GUI", as plain text.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace poolscope::gui {

// The text under the "## `heading`" line of a Markdown page, up to the next
// heading of the same or a higher level; "" if there is none.
std::string markdown_section(std::string_view page, std::string_view heading);
// Markdown made readable as plain text: no emphasis marks or backticks, links
// reduced to their text, list items starting with "- ".
std::string plain_text(std::string_view markdown);

// A design's docs page (relative to the source tree, as Design::docs is),
// resolved in the installation or the source tree (scenario::data_path).
std::filesystem::path docs_path(const std::string& relative);
// Its "What to watch for in the GUI" section as plain text, read once per page ("" if missing).
const std::string& what_to_watch(const std::string& relative);

}  // namespace poolscope::gui
