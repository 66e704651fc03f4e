// A fiber: a stack of its own and a body that runs on it, switched to and
// from explicitly. The simulation (world.h) runs every virtual thread as one,
// all on the one OS thread that runs the simulation, so exactly one runs at a
// time and nothing but the simulator decides which.
//
// Two backends, one per platform, chosen by the build (pools/CMakeLists.txt):
//   fiber.desktop.cpp  Boost.Context's fcontext: a switch is a few register
//                      saves, about 10 ns; the sanitizers are told of every
//                      switch.
//   fiber.web.cpp      emscripten's fibers (Asyncify: a switch unwinds and
//                      rewinds the wasm stack, about 0.5 µs).
// Both carry what a switch must carry besides the stack: the C++ runtime's
// per-thread exception state, since a fiber may switch out inside a catch
// block (or while a throw unwinds through a destructor) and another fiber
// may throw meanwhile.
#pragma once

#include <cstddef>
#include <exception>
#include <functional>
#include <memory>

namespace poolscope::sim {

class Fiber {
 public:
  // A fiber that will run `body` on a fresh stack of `stack_bytes` once
  // resumed (the desktop rounds it up to pages and adds a guard page).
  Fiber(std::size_t stack_bytes, std::move_only_function<void()> body);
  ~Fiber();
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;

  // From outside any fiber: runs this one until it suspends or its body
  // returns. Returns true once the body has returned.
  bool resume();
  // From inside the fiber that is running: back to the resume() that ran it.
  static void suspend();

  bool finished() const { return finished_; }
  // A fiber that will never be resumed (its World failed and left it where
  // it stood): its stack stays allocated, and what it points to stays
  // reachable, as a thread that never ends would keep it.
  void abandon();
  // What escaped the body, if anything.
  std::exception_ptr error() const { return error_; }

 private:
  struct Backend;  // the platform's: stacks, contexts, saved exception state
  // The body, run on the fiber's stack by the backend's first frame: what
  // escapes it is kept in error_.
  void run_body();

  std::unique_ptr<Backend> backend_;
  std::move_only_function<void()> body_;
  std::exception_ptr error_;
  bool finished_ = false;
  bool abandoned_ = false;
};

}  // namespace poolscope::sim
