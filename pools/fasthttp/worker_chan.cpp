#include "pools/fasthttp/worker_chan.h"

#include <sched.h>

#include "pools/core/spin.h"

namespace poolscope::fasthttp {

int workerChanCap(int cpus) { return cpus == 1 ? 0 : 1; }

int usable_cpus() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return 1;
  return CPU_COUNT(&set);
}

// --- Chan -------------------------------------------------------------------

void Chan::send(Job job) {
  std::unique_lock lock(m_);
  cv_.wait(lock, [&] { return sent_ == received_; });  // the slot is free
  slot_ = std::move(job);
  const std::uint64_t mine = ++sent_;
  cv_.notify_all();
  if (cap_ == 0) cv_.wait(lock, [&] { return received_ >= mine; });
}

Job Chan::recv() {
  spin_until([&] { return sent_.load(std::memory_order_acquire) > received_.load(std::memory_order_relaxed); });
  std::unique_lock lock(m_);
  cv_.wait(lock, [&] { return sent_ > received_; });
  Job job = std::move(slot_);
  slot_ = Job{};
  ++received_;
  cv_.notify_all();
  return job;
}

// --- WorkerChanPool ---------------------------------------------------------

workerChan* WorkerChanPool::get() {
  std::lock_guard g(m_);
  if (free_.empty()) return &all_.emplace_back(cap_);
  workerChan* ch = free_.back();
  free_.pop_back();
  return ch;
}

void WorkerChanPool::put(workerChan* ch) {
  std::lock_guard g(m_);
  free_.push_back(ch);
}

void WorkerChanPool::join_threads() {
  std::vector<workerChan*> all;
  {
    std::lock_guard g(m_);
    for (workerChan& ch : all_) all.push_back(&ch);
  }
  // Not under m_: a worker's last step is put(), which takes it.
  for (workerChan* ch : all) ch->thread.join();
}

std::size_t WorkerChanPool::allocated() const {
  std::lock_guard g(m_);
  return all_.size();
}

}  // namespace poolscope::fasthttp
