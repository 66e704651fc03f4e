// Labels: short interned strings carried in trace events as 16-bit ids. They
// name the rule of a design that caused an event ("purge-tick",
// "cleaner-pass", "queue-full-grow"), a refusal reason ("no-idle-workers"), a
// tuned parameter or a state transition. Each has a code (stable, for JSON and
// scripts) and a one-line text (the "why", for the GUI and docs). Designs and
// lab pools intern their own labels once, at construction, never per event.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace poolscope {

using Label = std::uint16_t;
inline constexpr Label kNoLabel = 0;

// Returns the id of (code, text), interning it on first use. Thread-safe.
// Designs may share a code ("new-worker", "cleaner-pass") so their rules can
// be compared, each with its own text: the pair is the label's identity.
Label intern_label(std::string_view code, std::string_view text = {});
// Returns the id of the first label interned with `code`, else kNoLabel.
Label find_label(std::string_view code);

std::string_view label_code(Label id);  // "" for kNoLabel or unknown ids
std::string_view label_text(Label id);  // falls back to the code when no text was given

// Every label interned so far, in id order (for docs and the GUI legend).
std::vector<Label> all_labels();

}  // namespace poolscope
