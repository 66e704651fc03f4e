// Where results go, decided before a run starts (docs/result-format.md,
// "Output paths"):
//  - a regular file, or a name that does not exist yet, is replaced
//    atomically: written to a temporary file beside it and renamed over it
//    when complete, so a failed or interrupted run never leaves a
//    half-written result; a symlink to a regular file keeps being a symlink
//    (its target is replaced);
//  - what is not a regular file but can be written as a stream — a FIFO, a
//    terminal or other character device such as /dev/null, and the process's
//    own descriptors (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N)
//    — is written through, never replaced;
//  - anything else (a directory, a block device, a socket, a dangling
//    symlink, an empty name) is refused with a message, before the run.
#pragma once

#include <filesystem>
#include <functional>
#include <ostream>
#include <string>

namespace poolscope::scenario {

struct Destination {
  enum class Kind { replace, write_through, descriptor };
  Kind kind = Kind::replace;
  std::filesystem::path path;  // replace: the file to replace (symlinks resolved); write_through: to open
  int fd = -1;                 // descriptor: the process's own, written to directly
  std::string shown;           // as the user wrote it, for messages
};

// Decides how `value` (given to `flag`) will be written. Throws ConfigError
// ("FLAG VALUE: why") when it cannot be; nothing is created or opened for
// writing except to check a descriptor.
Destination plan_destination(const std::string& flag, const std::string& value);

// Writes through `d`. Replace: as write_atomically. Write-through and
// descriptors: the whole text is rendered first, then written in one go.
// Throws std::runtime_error naming the path on failure.
void write_destination(const Destination& d, const std::function<void(std::ostream&)>& write);

// Calls write(out) on a temporary file, then renames it to `path`. Throws
// std::runtime_error naming the path on any failure (the target is untouched).
void write_atomically(const std::filesystem::path& path, const std::function<void(std::ostream&)>& write);

// Async-signal-safe: removes the temporary file a write_atomically in
// progress is writing, if any (for a signal handler about to _exit).
void remove_temporary_file_now() noexcept;

}  // namespace poolscope::scenario
