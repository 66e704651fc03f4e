#include "pools/ants/pool.h"

#include "pools/ants/worker.h"

namespace poolscope::ants {

Made<Pool> new_pool(int size, Options options, const TraceTarget& target) {
  // Checked before the trace exists, so a refused config leaves no pool in the stream.
  if (std::error_code err = PoolCommon::newPool(size, options, clock_of(target))) return std::unexpected(err);
  return new_pool(size, std::move(options), std::make_shared<PoolTrace>(target, "ants"));
}

Made<Pool> new_pool(int size, Options options, std::shared_ptr<PoolTrace> trace) {
  auto pool = std::make_unique<Pool>(size, std::move(options), std::move(trace));
  if (std::error_code err = pool->start_()) return std::unexpected(err);
  return pool;
}

Pool::Pool(int size, Options options, std::shared_ptr<PoolTrace> trace)
    : PoolCommon(size, std::move(options), std::move(trace)) {
  workerCache.New = [this] { return std::make_unique<GoWorker>(*this); };
}

Pool::~Pool() { release_and_join(); }

std::error_code Pool::submit(Task task) {
  Job job{trace().submitted(), std::move(task)};
  std::error_code err = submit(job);
  if (err) trace().refused(job.id, refusal(err));
  return err;
}

std::error_code Pool::submit(Job& task) {
  if (is_closed()) return ErrPoolClosed;

  retrievingFor() = task.id;  // C++: for retrieveWorker's trace
  auto w = retrieveWorker();
  if (!w) return w.error();
  static_cast<GoWorker*>(*w)->inputFunc(std::move(task));
  return {};
}

}  // namespace poolscope::ants
