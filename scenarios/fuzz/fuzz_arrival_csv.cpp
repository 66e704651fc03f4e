// libFuzzer target: see scripts/fuzz and docs/reliability.md.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "scenarios/engine/fuzz_entries.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  poolscope::scenario::fuzz::arrival_csv(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
