// workers (seed 001, §6): the queue of idle workers. A worker puts itself at
// the tail when it finds no task; Submit polls the head, so the worker idle
// longest gets the next task (fasthttp's ready stack does the opposite). The
// seed gives it a lock and producer/consumer conditions for blocking Put and
// Take; the pool's lock guards it here, and nothing blocks on it: it holds
// at most maxSize workers, so Put never waits, and blocked submitters wait
// on the pool's cond instead.
#pragma once

#include <vector>

namespace poolscope::coremax {

class Worker;

class Workers {
 public:
  explicit Workers(int cap) : workers(static_cast<std::size_t>(cap)) {}

  void put(Worker* w) {
    workers[(head + len_) % cap()] = w;
    len_++;
  }
  // The worker idle longest, or nullptr.
  Worker* poll() {
    if (len_ == 0) return nullptr;
    Worker* w = workers[head];
    head = (head + 1) % cap();
    len_--;
    return w;
  }
  // Reset: empties the queue; returns who was in it.
  std::vector<Worker*> reset() {
    std::vector<Worker*> all;
    while (Worker* w = poll()) all.push_back(w);
    return all;
  }
  int len() const { return static_cast<int>(len_); }  // C++: for the Pool adapter's state()

 private:
  std::size_t cap() const { return workers.size(); }

  std::vector<Worker*> workers;
  std::size_t head = 0;
  std::size_t len_ = 0;  // Go's `len` (len() has the name)
};

}  // namespace poolscope::coremax
