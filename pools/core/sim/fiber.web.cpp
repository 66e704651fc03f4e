// The browser's fiber backend: emscripten's fibers, which switch by
// unwinding the wasm call stack into a buffer and rewinding another's
// (Asyncify: the program is linked with -sASYNCIFY). Each fiber has a C
// stack (locals whose address is taken) and an Asyncify buffer (the wasm
// frames of a suspended fiber). The exception state is JavaScript's here
// (emscripten's JavaScript-based exceptions: Asyncify cannot unwind wasm's
// own), swapped per fiber by fiber.web.js.
#include <emscripten/fiber.h>

#include <cstdint>
#include <new>
#include <vector>

#include "pools/core/sim/fiber.h"

extern "C" {
// fiber.web.js: keeps the running context's exception state under
// `save_key` and puts back the state kept under `load_key` (empty if none).
void poolscope_eh_exchange(std::uintptr_t save_key, std::uintptr_t load_key);
void poolscope_eh_forget(std::uintptr_t key);
}

namespace poolscope::sim {

namespace {

// A suspended fiber's wasm frames: its scheduling point's call chain, a few
// hundred bytes a frame (the C stack holds the rest).
constexpr std::size_t kAsyncifyBytes = 32 * 1024;

// The context that resumed a fiber, saved while the fiber runs. Resumes nest
// (a fiber may resume another), so one per depth, reused.
struct Caller {
  emscripten_fiber_t context;
  alignas(16) unsigned char asyncify[kAsyncifyBytes];
};
std::vector<std::unique_ptr<Caller>> g_callers;
std::size_t g_depth = 0;
Fiber* g_running = nullptr;  // one OS thread: no thread_local needed, none exists

}  // namespace

struct Fiber::Backend {
  Fiber& fiber;
  std::unique_ptr<unsigned char[]> stack;
  std::unique_ptr<unsigned char[]> asyncify;
  emscripten_fiber_t context{};
  Caller* caller = nullptr;  // while it runs

  static void entry(void* self);  // the fiber's first frame
  std::uintptr_t key() const { return reinterpret_cast<std::uintptr_t>(this); }
  std::uintptr_t caller_key() const { return reinterpret_cast<std::uintptr_t>(caller); }
};

Fiber::Fiber(std::size_t stack_bytes, std::move_only_function<void()> body)
    : backend_(std::make_unique<Backend>(Backend{.fiber = *this})), body_(std::move(body)) {
  Backend& b = *backend_;
  stack_bytes = (stack_bytes + 15) / 16 * 16;
  b.stack.reset(new unsigned char[stack_bytes]);
  b.asyncify.reset(new unsigned char[kAsyncifyBytes]);
  emscripten_fiber_init(&b.context, &Backend::entry, &b, b.stack.get(), stack_bytes, b.asyncify.get(),
                        kAsyncifyBytes);
}

Fiber::~Fiber() { poolscope_eh_forget(backend_->key()); }

// Its memory is simply never freed: the World keeps abandoned fibers for
// the life of the process.
void Fiber::abandon() { abandoned_ = true; }

bool Fiber::resume() {
  Backend& b = *backend_;
  if (g_depth == g_callers.size()) g_callers.push_back(std::make_unique<Caller>());
  b.caller = g_callers[g_depth++].get();
  emscripten_fiber_init_from_current_context(&b.caller->context, b.caller->asyncify, kAsyncifyBytes);
  Fiber* outer = g_running;
  g_running = this;
  poolscope_eh_exchange(b.caller_key(), b.key());
  emscripten_fiber_swap(&b.caller->context, &b.context);
  poolscope_eh_exchange(b.key(), b.caller_key());
  g_running = outer;
  b.caller = nullptr;
  --g_depth;
  return finished_;
}

void Fiber::suspend() {
  Backend& b = *g_running->backend_;
  emscripten_fiber_swap(&b.context, &b.caller->context);
}

void Fiber::Backend::entry(void* self) {
  auto& b = *static_cast<Backend*>(self);
  b.fiber.run_body();
  emscripten_fiber_swap(&b.context, &b.caller->context);  // never resumed again
  __builtin_unreachable();
}

}  // namespace poolscope::sim
