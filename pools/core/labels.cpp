#include "pools/core/labels.h"

#include <array>
#include <atomic>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace poolscope {

namespace {

struct Entry {
  std::string code;
  std::string text;
};

// Append-only: entries never move (deque) and are published through `count`,
// so lookups by id need no lock.
struct Table {
  std::mutex m;
  std::deque<Entry> entries{Entry{}};  // id 0 = no label
  std::array<const Entry*, 65536> by_id{};
  std::atomic<std::size_t> count{1};
  std::unordered_map<std::string, Label> by_key;        // code + '\n' + text
  std::unordered_map<std::string_view, Label> by_code;  // the first label with each code
  Table() { by_id[0] = &entries[0]; }
};

Table& table() {
  static Table t;
  return t;
}

}  // namespace

Label intern_label(std::string_view code, std::string_view text) {
  Table& t = table();
  std::lock_guard g(t.m);
  std::string key = std::string(code) + '\n' + std::string(text);
  if (auto it = t.by_key.find(key); it != t.by_key.end()) return it->second;
  std::size_t id = t.count.load(std::memory_order_relaxed);
  if (id >= t.by_id.size()) throw std::length_error("poolscope: too many trace labels");
  const Entry& e = t.entries.emplace_back(Entry{std::string(code), std::string(text)});
  t.by_id[id] = &e;
  t.by_key.emplace(std::move(key), static_cast<Label>(id));
  t.by_code.emplace(e.code, static_cast<Label>(id));
  t.count.store(id + 1, std::memory_order_release);
  return static_cast<Label>(id);
}

Label find_label(std::string_view code) {
  Table& t = table();
  std::lock_guard g(t.m);
  auto it = t.by_code.find(code);
  return it == t.by_code.end() ? kNoLabel : it->second;
}

std::string_view label_code(Label id) {
  Table& t = table();
  if (id >= t.count.load(std::memory_order_acquire)) return {};
  return t.by_id[id]->code;
}

std::string_view label_text(Label id) {
  Table& t = table();
  if (id >= t.count.load(std::memory_order_acquire)) return {};
  const Entry* e = t.by_id[id];
  return e->text.empty() ? std::string_view(e->code) : std::string_view(e->text);
}

std::vector<Label> all_labels() {
  std::vector<Label> out;
  std::size_t n = table().count.load(std::memory_order_acquire);
  for (std::size_t i = 1; i < n; ++i) out.push_back(static_cast<Label>(i));
  return out;
}

}  // namespace poolscope
