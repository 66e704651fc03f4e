// pacer/pacer.go, in its order: NewPacer, Pace, Next, Stop, IsPaused (in the
// header), Pause, Resume, run.
#include "pools/gammazero/pacer.h"

#include "pools/core/go/select.h"

namespace poolscope::gammazero {

Pacer::Pacer(Nanos delay, Clock& clock) : clock_(clock), delay(delay), loop_("pacer", [this] { run(); }) {}

Pacer::~Pacer() {
  stop();
  loop_.join();
}

Task Pacer::pace(Task task) {
  return [this, task = std::move(task)]() mutable {
    next();
    task();
  };
}

void Pacer::next() {
  // Wait for item to be read from gate.
  gate.send(empty{});
}

void Pacer::stop() {
  stopOnce_.Do([&] {
    gate.close();
    stopped_.close();
  });
}

void Pacer::pause() {
  pause_.send(empty{});  // block this channel
  paused.send(empty{});  // set flag to indicate paused
}

void Pacer::resume() {
  paused.recv();  // clear flag to indicate paused
  pause_.recv();  // unblock this channel
}

// Read item from gate no faster than one per delay. Reading from the
// unbuffered channel serves as a "tick" and unblocks the writer.
void Pacer::run() {
  for (empty e; gate.recv(e);) {  // for range p.gate
    // time.Sleep(p.delay). C++: or until stop().
    if (go::select(go::recv(stopped_, e), go::after(clock_, clock_.now() + delay)) == 0) return;
    // p.pause <- struct{}{}: will wait here if channel blocked. C++: or until stop().
    empty token;
    if (go::select(go::send(pause_, token), go::recv(stopped_, e)) == 1) return;
    pause_.recv();  // clear channel
  }
}

}  // namespace poolscope::gammazero
