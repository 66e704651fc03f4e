// The desktop's fiber backend: Boost.Context's fcontext
// (make_fcontext/jump_fcontext), stacks from mmap with a guard page,
// libstdc++'s exception state swapped per fiber, and the sanitizers told of
// every switch.
#include "pools/core/sim/fiber.h"

#include <sys/mman.h>
#include <unistd.h>

#include <boost/context/detail/fcontext.hpp>
#include <cxxabi.h>
#include <new>

#if defined(__SANITIZE_ADDRESS__)
#define POOLSCOPE_FIBER_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__)
#define POOLSCOPE_FIBER_TSAN 1
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define POOLSCOPE_FIBER_ASAN 1
#endif
#if __has_feature(thread_sanitizer)
#define POOLSCOPE_FIBER_TSAN 1
#endif
#endif

#ifdef POOLSCOPE_FIBER_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/lsan_interface.h>
#endif
#ifdef POOLSCOPE_FIBER_TSAN
#include <sanitizer/tsan_interface.h>
#endif

namespace poolscope::sim {

namespace ctx = boost::context::detail;

// libstdc++'s per-thread exception state (__cxa_eh_globals): the exceptions
// being handled and the count of those in flight. A fiber switched out inside
// a catch block keeps its own, or another fiber's throw would corrupt it.
struct EhGlobals {
  void* caught;
  unsigned int uncaught;
};

namespace {

thread_local Fiber* t_running = nullptr;  // the fiber running on this OS thread

EhGlobals& eh_globals() { return *reinterpret_cast<EhGlobals*>(abi::__cxa_get_globals()); }

std::size_t page_size() {
  static const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return page;
}

}  // namespace

struct Fiber::Backend {
  Fiber& fiber;
  void* stack = nullptr;  // the mapping, guard page included
  std::size_t mapped = 0;
  void* context = nullptr;  // the fiber's saved context while it is suspended
  void* caller = nullptr;   // the resumer's saved context while the fiber runs
  // The C++ runtime's exception state while this fiber is switched out.
  EhGlobals eh{nullptr, 0};
  // Sanitizer bookkeeping (unused in plain builds).
  void* tsan_fiber = nullptr;
  void* tsan_caller = nullptr;
  void* asan_fake_stack = nullptr;
  const void* caller_stack_bottom = nullptr;
  std::size_t caller_stack_size = 0;

  static void entry(ctx::transfer_t t);  // the fiber's first frame
  void switch_back();                    // from the fiber to its resumer
};

Fiber::Fiber(std::size_t stack_bytes, std::move_only_function<void()> body)
    : backend_(std::make_unique<Backend>(Backend{.fiber = *this})), body_(std::move(body)) {
  Backend& b = *backend_;
  const std::size_t page = page_size();
  const std::size_t usable = (stack_bytes + page - 1) / page * page;
  b.mapped = usable + page;
  // Reserved, not committed: pages are touched (and paid for) as the stack grows.
  b.stack = mmap(nullptr, b.mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (b.stack == MAP_FAILED) throw std::bad_alloc();
  mprotect(b.stack, page, PROT_NONE);  // the guard: an overflow faults here instead of corrupting memory
  void* top = static_cast<char*>(b.stack) + b.mapped;
  b.context = ctx::make_fcontext(top, usable, &Backend::entry);
#ifdef POOLSCOPE_FIBER_TSAN
  b.tsan_fiber = __tsan_create_fiber(0);
#endif
}

Fiber::~Fiber() {
#ifdef POOLSCOPE_FIBER_TSAN
  if (backend_->tsan_fiber) __tsan_destroy_fiber(backend_->tsan_fiber);
#endif
  munmap(backend_->stack, backend_->mapped);
}

void Fiber::abandon() {
  if (finished_ || abandoned_) return;
  abandoned_ = true;
#ifdef POOLSCOPE_FIBER_ASAN
  // LeakSanitizer scans it as it scans a live thread's stack.
  __lsan_register_root_region(static_cast<char*>(backend_->stack) + page_size(), backend_->mapped - page_size());
#endif
}

bool Fiber::resume() {
  Backend& b = *backend_;
  Fiber* outer = t_running;
  t_running = this;
  EhGlobals mine = eh_globals();
  eh_globals() = b.eh;
#ifdef POOLSCOPE_FIBER_ASAN
  void* fake = nullptr;
  __sanitizer_start_switch_fiber(&fake, static_cast<char*>(b.stack) + page_size(), b.mapped - page_size());
#endif
#ifdef POOLSCOPE_FIBER_TSAN
  b.tsan_caller = __tsan_get_current_fiber();
  __tsan_switch_to_fiber(b.tsan_fiber, 0);
#endif
  ctx::transfer_t back = ctx::jump_fcontext(b.context, &b);
#ifdef POOLSCOPE_FIBER_ASAN
  __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#endif
  b.context = back.fctx;
  b.eh = eh_globals();
  eh_globals() = mine;
  t_running = outer;
  return finished_;
}

void Fiber::suspend() { t_running->backend_->switch_back(); }

void Fiber::Backend::switch_back() {
#ifdef POOLSCOPE_FIBER_ASAN
  __sanitizer_start_switch_fiber(fiber.finished_ ? nullptr : &asan_fake_stack, caller_stack_bottom,
                                 caller_stack_size);
#endif
#ifdef POOLSCOPE_FIBER_TSAN
  __tsan_switch_to_fiber(tsan_caller, 0);
#endif
  ctx::transfer_t t = ctx::jump_fcontext(caller, nullptr);
  // Resumed: t.fctx is the resumer's context, to go back to next time.
  caller = t.fctx;
#ifdef POOLSCOPE_FIBER_ASAN
  __sanitizer_finish_switch_fiber(asan_fake_stack, &caller_stack_bottom, &caller_stack_size);
#endif
}

void Fiber::Backend::entry(ctx::transfer_t t) {
  auto* self = static_cast<Backend*>(t.data);
  self->caller = t.fctx;
#ifdef POOLSCOPE_FIBER_ASAN
  __sanitizer_finish_switch_fiber(nullptr, &self->caller_stack_bottom, &self->caller_stack_size);
#endif
  self->fiber.run_body();
  self->switch_back();  // never resumed again
  __builtin_unreachable();
}

}  // namespace poolscope::sim
