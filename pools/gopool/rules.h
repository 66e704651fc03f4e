// The rules gopool's trace events name, each with the one-line "why" the GUI
// and `poolscope describe` show, and the package's one error text (gopool.go:
// RegisterPool's "name: %s already registered").
#pragma once

#include <system_error>

#include "pools/core/labels.h"

namespace poolscope::gopool {

// Go: fmt.Errorf("name: %s already registered", p.Name()). The name is not
// part of an error_code; RegisterPool's caller knows it.
enum Error { ErrAlreadyRegistered = 1 };
const std::error_category& error_category();
std::error_code make_error_code(Error e);

namespace rules {
// CtxGo
extern const Label kTaskList;        // queued: every task goes on the linked list first
extern const Label kScaleThreshold;  // spawn: taskCount >= ScaleThreshold and WorkerCount() < cap
extern const Label kNoWorker;        // spawn: WorkerCount() == 0, whatever the cap
// worker.run
extern const Label kListHead;   // handoff: the worker pops the head of the list
extern const Label kListEmpty;  // exit: the list was empty, so the worker exits at once (no idle time)
// C++: poolscope's shutdown (gopool has none)
extern const Label kDrainOnShutdown;  // spawn: shutdown found tasks and no worker (only after a refused thread)
extern const Label kShutdownNow;      // dropped: shutdown-now empties the list
// The live parameter
extern const Label kSetCap;
}  // namespace rules

}  // namespace poolscope::gopool

template <>
struct std::is_error_code_enum<poolscope::gopool::Error> : std::true_type {};
