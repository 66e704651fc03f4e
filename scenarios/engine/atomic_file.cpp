#include "scenarios/engine/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "pools/core/params.h"

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

// The temporary file being written, for remove_temporary_file_now(): a
// fixed buffer a signal handler can read without allocating.
char g_tmp[4096];
std::atomic<bool> g_tmp_live{false};

struct TmpRegistration {
  explicit TmpRegistration(const std::filesystem::path& p) {
    const std::string& s = p.native();
    if (s.size() >= sizeof g_tmp) return;
    std::memcpy(g_tmp, s.c_str(), s.size() + 1);
    g_tmp_live.store(true);
  }
  ~TmpRegistration() { g_tmp_live.store(false); }
};

// "/dev/stdout" -> 1, "/proc/self/fd/7" -> 7, else -1.
int own_descriptor(const std::string& v) {
  if (v == "/dev/stdout") return 1;
  if (v == "/dev/stderr") return 2;
  for (std::string_view prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    if (!v.starts_with(prefix) || v.size() == prefix.size() || v.size() > prefix.size() + 6) continue;
    int fd = 0;
    for (char c : v.substr(prefix.size())) {
      if (c < '0' || c > '9') return -1;
      fd = fd * 10 + (c - '0');
    }
    return fd;
  }
  return -1;
}

void write_all(int fd, const std::string& text, const std::string& shown) {
  std::size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error(shown + ": write failed: " + std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

Destination plan_destination(const std::string& flag, const std::string& value) {
  namespace fs = std::filesystem;
  auto fail = [&](const std::string& why) { throw ConfigError(flag + " " + (value.empty() ? "\"\"" : value), why); };
  Destination d;
  d.shown = value;
  if (value.empty()) fail("expected a file name (or '-' for stdout), got an empty one");
  if (value == "-") return {Destination::Kind::descriptor, {}, 1, value};
  if (int fd = own_descriptor(value); fd >= 0) {
    int fl = ::fcntl(fd, F_GETFL);
    if (fl < 0) fail("descriptor " + std::to_string(fd) + " is not open");
    if ((fl & O_ACCMODE) == O_RDONLY) fail("descriptor " + std::to_string(fd) + " is not open for writing");
    return {Destination::Kind::descriptor, {}, fd, value};
  }
  struct stat st {};
  if (::lstat(value.c_str(), &st) != 0) {
    if (errno != ENOENT && errno != ENOTDIR) fail(std::string("cannot look at it: ") + std::strerror(errno));
    d.kind = Destination::Kind::replace;
    d.path = value;
  } else {
    fs::path target = value;
    if (S_ISLNK(st.st_mode)) {
      if (::stat(value.c_str(), &st) != 0) fail("is a symlink to nothing (" + std::string(std::strerror(errno)) + ")");
      std::error_code ec;
      target = fs::canonical(value, ec);
      if (ec) fail("cannot resolve the symlink: " + ec.message());
    }
    if (S_ISREG(st.st_mode)) {
      d.kind = Destination::Kind::replace;
      d.path = target;
    } else if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)) {
      if (::access(value.c_str(), W_OK) != 0) fail(std::string("cannot write to it: ") + std::strerror(errno));
      d.kind = Destination::Kind::write_through;
      d.path = value;
      return d;
    } else if (S_ISDIR(st.st_mode)) {
      fail("is a directory; expected a file name");
    } else {
      fail("is not a regular file, a FIFO or a terminal (a block device or a socket); refusing to replace it");
    }
  }
  // Replaced: the directory must exist and be writable.
  fs::path dir = d.path.has_parent_path() ? d.path.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::exists(dir, ec)) fail("the directory '" + dir.string() + "' does not exist");
  if (!fs::is_directory(dir, ec)) fail("'" + dir.string() + "' is not a directory");
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    fail("cannot write in the directory '" + dir.string() + "': " + std::strerror(errno));
  return d;
}

void write_destination(const Destination& d, const std::function<void(std::ostream&)>& write) {
  if (d.kind == Destination::Kind::replace) return write_atomically(d.path, write);
  std::ostringstream text;
  write(text);
  if (d.kind == Destination::Kind::descriptor) {
    std::fflush(stdout);
    return write_all(d.fd, text.str(), d.shown);
  }
  int fd = ::open(d.path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) throw std::runtime_error(d.shown + ": cannot open: " + std::strerror(errno));
  try {
    write_all(fd, text.str(), d.shown);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
}

void write_atomically(const std::filesystem::path& path, const std::function<void(std::ostream&)>& write) {
  std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : ".";
  if (!std::filesystem::is_directory(dir))
    throw std::runtime_error(path.string() + ": the directory '" + dir.string() + "' does not exist");
  // Appended, not "." + name: g++ 12 -O3 warns falsely on that (-Wrestrict, GCC PR 105651).
  std::string tmp_name = ".";
  tmp_name += path.filename().string() + ".tmp" + std::to_string(getpid());
  std::filesystem::path tmp = dir / tmp_name;
  TmpRegistration registered(tmp);
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

void remove_temporary_file_now() noexcept {
  if (g_tmp_live.load()) ::unlink(g_tmp);
}

}  // namespace poolscope::scenario
