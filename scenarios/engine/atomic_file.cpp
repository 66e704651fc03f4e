#include "scenarios/engine/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace poolscope::scenario {

namespace {

// fsync(2) on `path` (a file, or a directory to make a rename durable).
// An ofstream cannot give its descriptor, so the file is opened again.
bool sync_path(const std::filesystem::path& path, bool directory) {
  int fd = ::open(path.c_str(), (directory ? O_RDONLY | O_DIRECTORY : O_RDONLY) | O_CLOEXEC);
  if (fd < 0) return false;
  bool ok = ::fsync(fd) == 0;
  ::close(fd);
  return ok;
}

}  // namespace

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
    // On disk before it takes the target's name: after a crash the target is
    // the old file or the whole new one, never an empty or partial one.
    if (!sync_path(tmp, false)) throw std::runtime_error(path.string() + ": fsync failed: " + std::strerror(errno));
    std::filesystem::rename(tmp, path);
    sync_path(dir, true);  // the rename itself; best effort
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    throw;
  }
}

}  // namespace poolscope::scenario
