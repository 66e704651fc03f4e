// coremax's errors and the rules its trace events name, each label with the
// one-line "why" the GUI shows on hover. C++: the seed names no error values
// (Submit returns `error`, the reject handler decides it); these are the two
// a pool must be able to return.
#pragma once

#include <system_error>

#include "pools/core/labels.h"

namespace poolscope::lab03 {

// Go's `error` values become std::error_code, as in ants and gammazero: a
// default-constructed code is Go's nil, err.message() the text, and
// `err == ErrPoolFull` reads as it does in Go.
enum class Error {
  ErrPoolClosed = 1,  // "pool is closed"
  ErrPoolFull,        // "pool is full" (the default reject handler's answer)
};
using enum Error;

const std::error_category& error_category();
std::error_code make_error_code(Error e);
// C++: the label a refusal with `err` carries in the trace: ErrPoolClosed
// the core's pool-closed, ErrPoolFull pool-full, any other error (the reject
// handler's own) reject-handler.
Label refusal(std::error_code err);

// Why a worker started: getWorker below core or with the task queue full
// (the seed's §7), NewPool pre-allocating.
extern const Label kBelowCore;
extern const Label kTaskQueueFull;
extern const Label kPreAllocation;
// getWorker: which worker took the task.
extern const Label kNewWorker;
extern const Label kWorkersQueue;
// enTaskQueue: where a task waits.
extern const Label kTaskQueue;
// Refusals: ErrPoolFull, and a reject handler's own error.
extern const Label kPoolFull;
extern const Label kRejectHandler;
// Why a worker ends, and the pool's states.
extern const Label kPoolClose;
extern const Label kClose;
extern const Label kCloseNow;
// C++: the seed strands these tasks (see Pool::close).
extern const Label kCloseNoWorker;

}  // namespace poolscope::lab03

template <>
struct std::is_error_code_enum<poolscope::lab03::Error> : std::true_type {};
