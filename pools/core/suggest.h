// "Did you mean ...?" for unknown keys and parameter names in configs and
// scenario files.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace poolscope {

// Levenshtein distance, ignoring case.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The name among `items` (each read through `name_of`) nearest to the
// mistyped `typo`, if one is within three edits.
template <class Items, class NameOf = std::identity>
std::optional<std::string> nearest_name(std::string_view typo, const Items& items, NameOf name_of = {}) {
  std::optional<std::string> nearest;
  std::size_t best = 4;
  for (const auto& item : items) {
    std::string_view name = std::invoke(name_of, item);
    if (std::size_t d = edit_distance(typo, name); d < best) best = d, nearest = std::string(name);
  }
  return nearest;
}

}  // namespace poolscope
