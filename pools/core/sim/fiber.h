// A fiber: a stack of its own and a body that runs on it, switched to and
// from explicitly. The simulation (world.h) runs every virtual thread as one,
// all on the one OS thread that runs the simulation, so exactly one runs at a
// time and nothing but the simulator decides which.
//
// Built on Boost.Context's fcontext (make_fcontext/jump_fcontext: a switch is
// a few register saves, about 10 ns). What a switch must carry besides the
// registers is done here: the C++ runtime's per-thread exception state (a
// fiber may switch out inside a catch block while another throws), and the
// sanitizers' view of which stack is live (AddressSanitizer and
// ThreadSanitizer are told of every switch).
#pragma once

#include <cstddef>
#include <exception>
#include <functional>

namespace poolscope::sim {

class Fiber {
 public:
  // A fiber that will run `body` on a fresh stack of `stack_bytes` (rounded
  // up to pages, plus a guard page below it) once resumed.
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
  // it stood): its stack stays mapped, and what it points to stays
  // reachable, as a thread that never ends would keep it.
  void abandon();
  // What escaped the body, if anything.
  std::exception_ptr error() const { return error_; }

 private:
  static void entry(void* transfer);  // the fiber's first frame
  void switch_back();                 // from the fiber to its resumer

  void* stack_ = nullptr;  // the mapping, guard page included
  std::size_t mapped_ = 0;
  void* context_ = nullptr;  // the fiber's saved context while it is suspended
  void* caller_ = nullptr;   // the resumer's saved context while the fiber runs
  std::move_only_function<void()> body_;
  std::exception_ptr error_;
  bool finished_ = false;
  bool abandoned_ = false;
  // The C++ runtime's exception state while this fiber is switched out.
  void* caught_exceptions_ = nullptr;
  unsigned int uncaught_exceptions_ = 0;
  // Sanitizer bookkeeping (unused in plain builds).
  void* tsan_fiber_ = nullptr;
  void* tsan_caller_ = nullptr;
  void* asan_fake_stack_ = nullptr;
  const void* caller_stack_bottom_ = nullptr;
  std::size_t caller_stack_size_ = 0;
};

}  // namespace poolscope::sim
