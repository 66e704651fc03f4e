// Output is written to a temporary file beside the target and renamed over
// it only when complete: a failed or interrupted run never leaves a
// half-written result behind.
#pragma once

#include <filesystem>
#include <functional>
#include <ostream>

namespace poolscope::scenario {

// Calls write(out) on a temporary file, then renames it to `path`. Throws
// std::runtime_error naming the path on any failure (the target is untouched).
void write_atomically(const std::filesystem::path& path, const std::function<void(std::ostream&)>& write);

}  // namespace poolscope::scenario
