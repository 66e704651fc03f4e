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

namespace {

thread_local Fiber* t_running = nullptr;  // the fiber running on this OS thread

// libstdc++'s per-thread exception state (__cxa_eh_globals): the exceptions
// being handled and the count of those in flight. A fiber switched out inside
// a catch block keeps its own, or another fiber's throw would corrupt it.
struct EhGlobals {
  void* caught;
  unsigned int uncaught;
};
EhGlobals& eh_globals() { return *reinterpret_cast<EhGlobals*>(abi::__cxa_get_globals()); }

std::size_t page_size() {
  static const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return page;
}

}  // namespace

Fiber::Fiber(std::size_t stack_bytes, std::move_only_function<void()> body) : body_(std::move(body)) {
  const std::size_t page = page_size();
  const std::size_t usable = (stack_bytes + page - 1) / page * page;
  mapped_ = usable + page;
  // Reserved, not committed: pages are touched (and paid for) as the stack grows.
  stack_ = mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (stack_ == MAP_FAILED) throw std::bad_alloc();
  mprotect(stack_, page, PROT_NONE);  // the guard: an overflow faults here instead of corrupting memory
  void* top = static_cast<char*>(stack_) + mapped_;
  context_ = ctx::make_fcontext(top, usable, [](ctx::transfer_t t) { entry(&t); });
#ifdef POOLSCOPE_FIBER_TSAN
  tsan_fiber_ = __tsan_create_fiber(0);
#endif
}

Fiber::~Fiber() {
#ifdef POOLSCOPE_FIBER_TSAN
  if (tsan_fiber_) __tsan_destroy_fiber(tsan_fiber_);
#endif
  munmap(stack_, mapped_);
}

void Fiber::abandon() {
  if (finished_ || abandoned_) return;
  abandoned_ = true;
#ifdef POOLSCOPE_FIBER_ASAN
  // LeakSanitizer scans it as it scans a live thread's stack.
  __lsan_register_root_region(static_cast<char*>(stack_) + page_size(), mapped_ - page_size());
#endif
}

bool Fiber::resume() {
  Fiber* outer = t_running;
  t_running = this;
  EhGlobals mine = eh_globals();
  eh_globals() = EhGlobals{caught_exceptions_, uncaught_exceptions_};
#ifdef POOLSCOPE_FIBER_ASAN
  void* fake = nullptr;
  __sanitizer_start_switch_fiber(&fake, static_cast<char*>(stack_) + page_size(), mapped_ - page_size());
#endif
#ifdef POOLSCOPE_FIBER_TSAN
  tsan_caller_ = __tsan_get_current_fiber();
  __tsan_switch_to_fiber(tsan_fiber_, 0);
#endif
  ctx::transfer_t back = ctx::jump_fcontext(context_, this);
#ifdef POOLSCOPE_FIBER_ASAN
  __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#endif
  context_ = back.fctx;
  caught_exceptions_ = eh_globals().caught;
  uncaught_exceptions_ = eh_globals().uncaught;
  eh_globals() = mine;
  t_running = outer;
  return finished_;
}

void Fiber::suspend() { t_running->switch_back(); }

void Fiber::switch_back() {
#ifdef POOLSCOPE_FIBER_ASAN
  __sanitizer_start_switch_fiber(finished_ ? nullptr : &asan_fake_stack_, caller_stack_bottom_, caller_stack_size_);
#endif
#ifdef POOLSCOPE_FIBER_TSAN
  __tsan_switch_to_fiber(tsan_caller_, 0);
#endif
  ctx::transfer_t t = ctx::jump_fcontext(caller_, nullptr);
  // Resumed: t.fctx is the resumer's context, to go back to next time.
  caller_ = t.fctx;
#ifdef POOLSCOPE_FIBER_ASAN
  __sanitizer_finish_switch_fiber(asan_fake_stack_, &caller_stack_bottom_, &caller_stack_size_);
#endif
}

void Fiber::entry(void* transfer) {
  auto& t = *static_cast<ctx::transfer_t*>(transfer);
  auto* self = static_cast<Fiber*>(t.data);
  self->caller_ = t.fctx;
#ifdef POOLSCOPE_FIBER_ASAN
  __sanitizer_finish_switch_fiber(nullptr, &self->caller_stack_bottom_, &self->caller_stack_size_);
#endif
  try {
    self->body_();
  } catch (...) {
    self->error_ = std::current_exception();
  }
  self->body_ = nullptr;  // its captures are destroyed on this stack, while it is still live
  self->finished_ = true;
  self->switch_back();  // never resumed again
  __builtin_unreachable();
}

}  // namespace poolscope::sim
