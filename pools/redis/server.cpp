// The parts of server.c and ae.c that drive threaded I/O, on the design's
// own main thread. Index:
//   Server / ~Server       initServer (initThreadedIO on the main thread), and C++'s orderly end
//   putClientInPendingWriteQueue   a reply to write: the Pool's submit
//   aeMain                 beforeSleep, then poll and events, then time events, until stopped
//   beforeSleep            handleClientsWithPendingReadsUsingThreads, handleClientsWithPendingWritesUsingThreads
//   aeProcessEvents_       the poll: a readable client (read, execute), the next serverCron, or a stop
//   serverCron             every 1000/hz ms: stopThreadedIOIfNeeded
#include <chrono>
#include <stdexcept>
#include <utility>
#include <string>
#include <system_error>

#include "pools/redis/server.h"

namespace poolscope::redis {

using namespace rules;

namespace {
// server.hz follows config_hz within [CONFIG_MIN_HZ, CONFIG_MAX_HZ].
int clamp_hz(int hz) { return hz < CONFIG_MIN_HZ ? CONFIG_MIN_HZ : hz > CONFIG_MAX_HZ ? CONFIG_MAX_HZ : hz; }
}  // namespace

Server::Server(Config config, const TraceTarget& target)
    : config_{config.io_threads_num, clamp_hz(config.hz), config.spins_, config.io_threads_do_reads, config.read_,
              config.exec_},
      trace_(target, "redis-io") {
  if (config_.io_threads_num > IO_THREADS_MAX_NUM)
    throw std::invalid_argument("Fatal: too many I/O threads configured. The maximum number is " +
                                std::to_string(IO_THREADS_MAX_NUM) + ".");
  if (config_.io_threads_num < 1) throw std::invalid_argument("io-threads: argument must be between 1 and 128 inclusive");
  worker_.resize(static_cast<std::size_t>(config_.io_threads_num));
  worker_[0] = trace_.new_worker_id();
  alive_++;
  trace_.spawned(worker_[0], kMainThread);
  try {
    main_ = Thread("redis-main", [this] { aeMain(); });
  } catch (const std::system_error&) {
    alive_--;
    trace_.exited(worker_[0], poolscope::rules::thread_create_failed());
    throw;
  }
  std::unique_lock g(pending_mtx_);
  poll_.wait(g, [&] { return init_done_; });
  if (init_error_) {
    g.unlock();
    main_.join();
    std::rethrow_exception(init_error_);
  }
}

Server::~Server() { shutdown_(false); }

TaskId Server::putClientInPendingWriteQueue(Task write) {
  // C++: a client always has a reply to write in Redis; an empty one would
  // be called by an I/O thread. Refused here, before it is counted.
  if (!write) throw std::invalid_argument("redis: putClientInPendingWriteQueue needs a write");
  client c{Job{trace_.submitted(), std::move(write)}};
  const TaskId id = c.job_.id;
  std::lock_guard g(pending_mtx_);
  if (stop_) {  // C++: a stopped server writes nothing more
    trace_.refused(id, kShutdown);
    return 0;
  }
  clients_arriving_.push_back(std::move(c));
  trace_.queued(id, kPendingWrite, static_cast<std::int64_t>(clients_arriving_.size() + clients_pending_write.size()));
  poll_.notify_all();
  return id;
}

void Server::aeMain() {
  try {
    initThreadedIO();
  } catch (...) {
    std::lock_guard g(pending_mtx_);
    init_error_ = std::current_exception();
    init_done_ = true;
    alive_--;
    trace_.exited(worker_[0], poolscope::rules::thread_create_failed());
    poll_.notify_all();
    return;
  }
  {
    std::lock_guard g(pending_mtx_);
    next_cron_ = trace_.clock().now() + std::chrono::milliseconds(1000) / config_.hz;
    init_done_ = true;
    poll_.notify_all();
  }

  for (;;) {
    beforeSleep();
    if (!aeProcessEvents_()) break;
  }

  killIOThreads();
  alive_--;
  trace_.exited(worker_[0], kShutdown);
}

// This function gets called every time Redis is entering the main loop of
// the event driven library, that is, before to sleep for ready file
// descriptors. (Threaded reads come first in Redis; C++: not modelled.)
void Server::beforeSleep() {
  // We should handle pending reads clients ASAP after event loop.
  handleClientsWithPendingReadsUsingThreads();
  // Handle writes with pending output buffers.
  handleClientsWithPendingWritesUsingThreads();
}

bool Server::aeProcessEvents_() {
  std::unique_lock g(pending_mtx_);
  // aeApiPoll: sleep until a file event (a reply queued) or the nearest time
  // event (serverCron). C++: a stop wakes it too.
  poll_.wait_until(g, trace_.clock(), next_cron_, [&] { return !clients_arriving_.empty() || stop_; });
  // The file events: each readable client is read (readQueryFromClient) and
  // its command executed (processInputBuffer), which puts it at the head of
  // clients_pending_write (listAddNodeHead), so the newest comes first; or
  // its read is postponed to beforeSleep (io-threads-do-reads).
  std::deque<client> readable = std::exchange(clients_arriving_, {});
  g.unlock();
  for (client& c : readable) {
    if (postponeClientRead(c)) continue;
    readQueryFromClient(c);
    processInputBuffer(c);
  }
  g.lock();
  const bool ending = stop_ && clients_pending_write.empty() && clients_arriving_.empty() &&
                      clients_pending_read.empty();
  g.unlock();

  // processTimeEvents: serverCron returns 1000/hz, its next run that far from now.
  const Time now = trace_.clock().now();
  if (now >= next_cron_) {
    serverCron();
    next_cron_ = now + std::chrono::milliseconds(1000) / config_.hz;
  }
  return !ending;
}

void Server::serverCron() {
  // Stop the I/O threads if we don't have enough pending work.
  stopThreadedIOIfNeeded(kCronStop);
}

std::size_t Server::shutdown_(bool drop) {
  std::lock_guard s(shutdown_mtx_);
  {
    std::lock_guard g(pending_mtx_);
    if (!stop_) {
      if (drop) {
        for (client& c : clients_pending_write) trace_.dropped(c.job_.id, kShutdown);
        for (client& c : clients_arriving_) trace_.dropped(c.job_.id, kShutdown);
        dropped_ = clients_pending_write.size() + clients_arriving_.size();
        clients_pending_write.clear();
        clients_arriving_.clear();
      }
      stop_ = true;
      poll_.notify_all();
    }
  }
  if (main_.joinable()) main_.join();
  return dropped_;
}

Counters Server::state() const {
  std::lock_guard g(pending_mtx_);
  return Counters{.workers = alive_.load(),
                  .busy = running_.load(),
                  .queued = static_cast<std::uint32_t>(clients_pending_write.size() + clients_arriving_.size())};
}

}  // namespace poolscope::redis
