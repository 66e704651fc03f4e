// The engine streams a scenario's arrivals (ArrivalStream) instead of
// listing them all before the run: the streamed arrivals must be exactly the
// ones the eager list of every earlier version gave, for every shipped
// scenario and several seeds. tests/data/workload-digests.tsv holds a digest
// of each list, written by the eager generator (before streaming existed);
// POOLSCOPE_WRITE_DIGESTS=FILE writes the current ones to FILE instead.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "scenarios/engine/workload.h"

using namespace poolscope;
using namespace poolscope::scenario;
namespace fs = std::filesystem;

namespace {

// FNV-1a over every field of every arrival, children included.
struct Digest {
  std::uint64_t h = 14695981039346656037ull;
  void add(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) h = (h ^ ((v >> (8 * i)) & 0xff)) * 1099511628211ull;
  }
  void add(const TaskInstance& t) {
    add(static_cast<std::uint64_t>(t.kind));
    add(static_cast<std::uint64_t>(t.duration.count()));
    add(t.throws);
    add(static_cast<std::uint64_t>(static_cast<std::int64_t>(t.priority)));
    add(t.wait_children);
    add(t.children.size());
    for (const TaskInstance& c : t.children) add(c);
  }
  void add(const ScheduledTask& a) {
    add(static_cast<std::uint64_t>(a.at.count()));
    add(a.phase);
    add(a.task);
  }
};

std::vector<fs::path> shipped_scenarios() {
  std::vector<fs::path> files;
  for (const char* dir : {"scenarios/library", "tests/data"})
    for (const auto& e : fs::directory_iterator(fs::path(POOLSCOPE_SOURCE_DIR) / dir))
      if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string digest_line(const fs::path& file, const Scenario& s) {
  Digest d;
  std::uint64_t n = 0;
  for (ArrivalStream arrivals(s); std::optional<ScheduledTask> a = arrivals.next();) {
    d.add(*a);
    ++n;
  }
  std::ostringstream line;
  line << file.filename().string() << '\t' << s.seed << '\t' << n << '\t' << std::hex << d.h;
  return line.str();
}

}  // namespace

TEST_CASE("workload: the streamed arrivals equal the eager list of earlier versions, every shipped scenario, 4 seeds") {
  const fs::path expected_file = fs::path(POOLSCOPE_SOURCE_DIR) / "tests" / "data" / "workload-digests.tsv";
  std::vector<std::string> lines;
  for (const fs::path& file : shipped_scenarios()) {
    Scenario s;
    try {
      s = load_scenario(file);
    } catch (const ConfigError&) {
      continue;  // tests/data holds a few deliberately bad files
    }
    const std::uint64_t own = s.seed;
    for (std::uint64_t seed : {own, std::uint64_t{0}, std::uint64_t{7}, std::uint64_t{2026}}) {
      s.seed = seed;
      lines.push_back(digest_line(file, s));
    }
  }
  REQUIRE(lines.size() >= 4 * 18);  // at least the 18 library scenarios
  if (const char* out = std::getenv("POOLSCOPE_WRITE_DIGESTS")) {
    std::ofstream f(out);
    for (const std::string& l : lines) f << l << '\n';
    return;
  }
  std::ifstream f(expected_file);
  REQUIRE(f);
  std::vector<std::string> expected;
  for (std::string l; std::getline(f, l);) expected.push_back(l);
  CHECK(lines == expected);
}

TEST_CASE("workload: submitters sharing the stream take arrivals k, k + n, ... as from the list, in any interleaving") {
  const Scenario s = load_scenario(fs::path(POOLSCOPE_SOURCE_DIR) / "tests" / "data" / "every-arrival-kind.json");
  const std::vector<ScheduledTask> list = list_arrivals(s);
  REQUIRE(list.size() > 100);
  constexpr std::uint64_t n = 3;
  SharedArrivals shared(s);
  // Submitter 2 runs far ahead, then 0, then 1: each still gets its own share.
  std::vector<std::optional<ScheduledTask>> got(list.size() + n);
  for (std::uint64_t k : {std::uint64_t{2}, std::uint64_t{0}, std::uint64_t{1}})
    for (std::uint64_t i = k; i < got.size(); i += n) got[i] = shared.take(i);
  for (std::size_t i = 0; i < list.size(); ++i) {
    CAPTURE(i);
    REQUIRE(got[i]);
    CHECK(got[i]->at == list[i].at);
    CHECK(got[i]->task.duration == list[i].task.duration);
    CHECK(got[i]->task.children.size() == list[i].task.children.size());
  }
  for (std::size_t i = list.size(); i < got.size(); ++i) CHECK_FALSE(got[i]);  // past the last
}
