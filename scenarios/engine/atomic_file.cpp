#include "scenarios/engine/atomic_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace poolscope::scenario {

void write_atomically(const std::filesystem::path& path, const std::function<void(std::ostream&)>& write) {
  std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : ".";
  if (!std::filesystem::is_directory(dir))
    throw std::runtime_error(path.string() + ": the directory '" + dir.string() + "' does not exist");
  // Appended, not "." + name: g++ 12 -O3 warns falsely on that (-Wrestrict, GCC PR 105651).
  std::string tmp_name = ".";
  tmp_name += path.filename().string() + ".tmp" + std::to_string(getpid());
  std::filesystem::path tmp = dir / tmp_name;
  try {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error(path.string() + ": cannot write: " + std::strerror(errno));
    write(out);
    out.flush();
    if (!out) throw std::runtime_error(path.string() + ": write failed: " + std::strerror(errno));
    out.close();
    std::filesystem::rename(tmp, path);
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    throw;
  }
}

}  // namespace poolscope::scenario
