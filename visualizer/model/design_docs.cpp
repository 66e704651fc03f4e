#include "visualizer/model/design_docs.h"

#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <vector>

#include "scenarios/engine/data_dir.h"

namespace poolscope::gui {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// The level of a "## Heading" line (0 if it is not one) and its text.
std::pair<int, std::string_view> heading(std::string_view line) {
  int level = 0;
  while (static_cast<std::size_t>(level) < line.size() && line[static_cast<std::size_t>(level)] == '#') ++level;
  if (level == 0 || static_cast<std::size_t>(level) >= line.size() || line[static_cast<std::size_t>(level)] != ' ')
    return {0, {}};
  return {level, trim(line.substr(static_cast<std::size_t>(level)))};
}

std::vector<std::string_view> lines(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    auto nl = text.find('\n');
    out.push_back(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return out;
}

bool is_list_item(std::string_view line) {
  if (line.starts_with("- ") || line.starts_with("* ")) return true;
  std::size_t i = 0;
  while (i < line.size() && line[i] >= '0' && line[i] <= '9') ++i;
  return i > 0 && line.substr(i).starts_with(". ");
}

// Inline Markdown to plain text: emphasis and code marks dropped, links to their text.
std::string inline_text(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '`') continue;
    if ((c == '*' || c == '_') && i + 1 < s.size() && s[i + 1] == c) {
      ++i;
      continue;
    }
    if (c == '[') {
      auto close = s.find("](", i);
      auto end = close == std::string_view::npos ? close : s.find(')', close);
      if (end != std::string_view::npos) {
        out += inline_text(s.substr(i + 1, close - i - 1));
        i = end;
        continue;
      }
    }
    out += c;
  }
  return out;
}

}  // namespace

std::string markdown_section(std::string_view page, std::string_view wanted) {
  std::string out;
  int level = 0;  // of the section being copied, 0 while looking for it
  bool fenced = false;
  for (std::string_view line : lines(page)) {
    if (trim(line).starts_with("```")) fenced = !fenced;
    auto [h, text] = fenced ? std::pair<int, std::string_view>{0, {}} : heading(line);
    if (level == 0) {
      if (h > 0 && text == wanted) level = h;
      continue;
    }
    if (h > 0 && h <= level) break;
    out += line;
    out += '\n';
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  auto start = out.find_first_not_of('\n');
  return start == std::string::npos ? "" : out.substr(start);
}

std::string plain_text(std::string_view markdown) {
  std::string out;
  bool fenced = false, in_paragraph = false;
  for (std::string_view raw : lines(markdown)) {
    std::string_view line = trim(raw);
    if (line.starts_with("```")) {
      fenced = !fenced;
      in_paragraph = false;
      continue;
    }
    if (fenced) {
      out += std::string(raw) + "\n";
      continue;
    }
    if (line.empty()) {
      if (in_paragraph) out += "\n\n";  // a blank line between paragraphs
      in_paragraph = false;
      continue;
    }
    if (is_list_item(line)) {
      if (in_paragraph) out += "\n";  // one item a line
      out += line[0] == '*' ? "- " + inline_text(line.substr(2)) : inline_text(line);
    } else {
      if (in_paragraph) out += " ";  // a wrapped line continues its paragraph (or list item)
      out += inline_text(line);
    }
    in_paragraph = true;
  }
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

std::filesystem::path docs_path(const std::string& relative) {
  return scenario::data_path(relative);
}

const std::string& what_to_watch(const std::string& relative) {
  static std::mutex m;
  static std::map<std::string, std::string> cache;
  std::lock_guard g(m);
  auto [it, fresh] = cache.try_emplace(relative);
  if (fresh && !relative.empty()) {
    std::ifstream in(docs_path(relative));
    std::stringstream page;
    page << in.rdbuf();
    it->second = plain_text(markdown_section(page.str(), "What to watch for in the GUI"));
  }
  return it->second;
}

}  // namespace poolscope::gui
