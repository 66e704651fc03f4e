// networking.c's "Threaded I/O" section, in its order. Index:
//   IOThreadMain                  an I/O thread: spin on its pending count, park on its mutex, write its list
//   initThreadedIO                on the main thread: lists, mutexes locked, threads started (parked)
//   killIOThreads                 C++: ends and joins them (Redis only cancels them when it crashes)
//   startThreadedIO               unlock every mutex
//   stopThreadedIO                lock every mutex
//   stopThreadedIOIfNeeded        fewer than 2 x io-threads pending: stop, and say "do it synchronously"
//   handleClientsWithPendingWritesUsingThreads   deal, write slice 0, busy-wait, post-process
//   handleClientsWithPendingWrites               the synchronous path: the main thread writes every client
//   postponeClientRead            threads active and io-threads-do-reads: the read waits for beforeSleep
//   handleClientsWithPendingReadsUsingThreads    deal, read slice 0, busy-wait, execute every command on the main thread
//   readQueryFromClient, processInputBuffer      a client's read (any thread) and its command (the main thread)
#include <stdexcept>
#include <string>
#include <system_error>

#include "pools/core/spin.h"
#include "pools/redis/server.h"

namespace poolscope::redis {

using namespace rules;

void Server::IOThreadMain(int id) {
  // The ID is the thread number (from 0 to io_threads_num-1), and is used by
  // the thread to just manipulate a single sub-array of clients.
  const WorkerId w = worker_[static_cast<std::size_t>(id)];

  for (;;) {
    // Wait for start: up to 1,000,000 bare reads of the pending count
    // (spins_), about 0.23 ms. C++: through spin_reads, so a simulation can
    // charge them.
    spin_reads(config_.spins_, [&] {
      return getIOPendingCount(id) != 0 || io_threads_exit_.load(std::memory_order_relaxed);
    });
    if (io_threads_exit_.load()) break;  // C++: Redis' I/O threads never end

    // Give the main thread a chance to stop this thread.
    if (getIOPendingCount(id) == 0) {
      Mutex& m = io_threads_mutex[id];
      if (!m.try_lock()) {  // C++: try first, only to trace a park when the main thread holds it
        trace_.idle(w, kIOThreadPark);
        m.lock();
      }
      m.unlock();
      continue;
    }

    // Process: note that the main thread will never touch our list before
    // we drop the pending count to 0.
    if (io_threads_op == IO_THREADS_OP_WRITE) {
      for (client& c : io_threads_list[static_cast<std::size_t>(id)]) writeToClient(c, w);
    } else if (io_threads_op == IO_THREADS_OP_READ) {
      for (client* c : io_threads_read_list_[static_cast<std::size_t>(id)]) readQueryFromClient(*c);
    } else {
      throw std::logic_error("io_threads_op value is unknown");
    }
    io_threads_list[static_cast<std::size_t>(id)].clear();
    io_threads_read_list_[static_cast<std::size_t>(id)].clear();
    trace_.idle(w, kIOThreadSpin);  // C++: before the count drops, so it precedes the barrier in the trace
    setIOPendingCount(id, 0);
  }

  alive_--;
  trace_.exited(w, kShutdown);
}

void Server::initThreadedIO() {
  io_threads_active_ = 0;  // We start with threads not active.

  // Indicate that io-threads are currently idle
  io_threads_op = IO_THREADS_OP_IDLE;

  const int n = config_.io_threads_num;
  io_threads_pending = std::make_unique<threads_pending[]>(static_cast<std::size_t>(n));
  io_threads_mutex = std::make_unique<Mutex[]>(static_cast<std::size_t>(n));
  io_threads_list.resize(static_cast<std::size_t>(n));
  io_threads_read_list_.resize(static_cast<std::size_t>(n));

  // Don't spawn any thread if the user selected a single thread: we'll
  // handle I/O directly from the main thread.
  if (n == 1) return;

  // (io-threads > IO_THREADS_MAX_NUM is refused by the constructor.)

  // Spawn and initialize the I/O threads.
  for (int i = 0; i < n; i++) {
    // Things we do for all the threads including the main thread: the list.
    if (i == 0) continue;  // Thread 0 is the main thread.

    // Things we do only for the additional threads.
    setIOPendingCount(i, 0);
    io_threads_mutex[i].lock();  // Thread will be stopped.
    const WorkerId w = trace_.new_worker_id();
    worker_[static_cast<std::size_t>(i)] = w;
    alive_++;
    trace_.spawned(w, kIOThread);
    try {
      io_threads.emplace_back("io_thd_" + std::to_string(i), [this, i] { IOThreadMain(i); });
    } catch (const std::system_error&) {
      // "Fatal: Can't initialize IO thread." and Redis exits. C++: the
      // threads already started are ended, and the constructor throws.
      alive_--;
      trace_.exited(w, poolscope::rules::thread_create_failed());
      io_threads_mutex[i].unlock();
      killIOThreads();
      throw;
    }
  }
}

// C++: Redis calls this only when it crashes (pthread_cancel, then join:
// "IO thread(tid:%lu) terminated"). Here it is the orderly end: the threads
// see io_threads_exit_, parked ones once their mutex is unlocked. Runs on
// the main thread, which holds the mutexes while threaded I/O is off.
void Server::killIOThreads() {
  io_threads_exit_ = true;
  if (!io_threads_active_) {
    for (std::size_t j = 1; j <= io_threads.size(); j++) io_threads_mutex[j].unlock();
    io_threads_active_ = 1;  // the mutexes are unlocked now, as after startThreadedIO
  }
  for (Thread& t : io_threads) t.join();
}

void Server::startThreadedIO() {
  for (int j = 1; j < config_.io_threads_num; j++) io_threads_mutex[j].unlock();
  io_threads_active_ = 1;
  trace_.state(kStartThreadedIO);
}

void Server::stopThreadedIO(Label why) {
  // We may have still clients with pending reads when this function is
  // called: handle them before stopping the threads.
  handleClientsWithPendingReadsUsingThreads();
  trace_.state(why);  // C++: before the locks, so that every park it causes comes after it in the trace
  for (int j = 1; j < config_.io_threads_num; j++) io_threads_mutex[j].lock();
  io_threads_active_ = 0;
}

// This function checks if there are not enough pending clients to justify
// taking the I/O threads active: in that case I/O threads are stopped if
// currently active. Returns 0 if the I/O threading should be used, 1 if
// the writes should be done synchronously. C++: `why` names the caller
// (beforeSleep or serverCron) in the trace.
int Server::stopThreadedIOIfNeeded(Label why) {
  int pending = 0;
  {
    std::lock_guard g(pending_mtx_);
    pending = static_cast<int>(clients_pending_write.size());
  }

  // Return ASAP if IO threads are disabled (single threaded mode).
  if (config_.io_threads_num == 1) return 1;

  if (pending < config_.io_threads_num * 2) {
    if (io_threads_active_) stopThreadedIO(why);
    return 1;
  }
  return 0;
}

// Fan out: the main thread deals the clients to the io-threads, which wait
// until setIOPendingCount() gives them a count above 0. Fan in: the main
// thread waits until every getIOPendingCount() returns 0.
int Server::handleClientsWithPendingWritesUsingThreads() {
  int processed = 0;
  {
    std::lock_guard g(pending_mtx_);
    processed = static_cast<int>(clients_pending_write.size());
  }
  if (processed == 0) return 0;  // Return ASAP if there are no clients.

  // If I/O threads are disabled or we have few clients to serve, don't use
  // I/O threads, but the boring synchronous code.
  if (config_.io_threads_num == 1) return handleClientsWithPendingWrites(kSingleThreaded);
  if (stopThreadedIOIfNeeded(kStopThreadedIO)) return handleClientsWithPendingWrites(kBelowThreshold);

  // Start threads if needed.
  if (!io_threads_active_) startThreadedIO();

  // Distribute the clients across N different lists, from the head.
  {
    std::lock_guard g(pending_mtx_);
    int item_id = 0;
    for (client& c : clients_pending_write) {
      const int target_id = item_id % config_.io_threads_num;
      trace_.handoff(c.job_.id, worker_[static_cast<std::size_t>(target_id)], kRoundRobin, true);
      io_threads_list[static_cast<std::size_t>(target_id)].push_back(std::move(c));
      item_id++;
    }
    // C++: emptied here, not after the post-processing: the clients are in
    // the threads' lists now, and shutdown-now must not find them pending.
    clients_pending_write.clear();
  }

  // Give the start condition to the waiting threads, by setting the start
  // condition atomic var.
  io_threads_op = IO_THREADS_OP_WRITE;
  for (int j = 1; j < config_.io_threads_num; j++)
    setIOPendingCount(j, io_threads_list[static_cast<std::size_t>(j)].size());

  // Also use the main thread to process a slice of clients.
  for (client& c : io_threads_list[0]) writeToClient(c, worker_[0]);
  io_threads_list[0].clear();

  // Wait for all the other threads to end their work. Redis spins with no
  // pause at all; C++: spin_until and this_thread::yield.
  const Time spin_from = trace_.clock().now();
  auto all_done = [&] {
    unsigned long pending = 0;
    for (int j = 1; j < config_.io_threads_num; j++) pending += getIOPendingCount(j);
    return pending == 0;
  };
  while (!spin_until(all_done)) poolscope::this_thread::yield();
  const std::int64_t spun = (trace_.clock().now() - spin_from).count();
  barrier_spin_ns_total_ += spun;
  trace_.emit(EventKind::pool_state, kBarrier, worker_[0], 0, spun, processed);

  io_threads_op = IO_THREADS_OP_IDLE;

  // Run the list of clients again to install the write handler where
  // needed. C++: a task is written whole, so none needs one.
  stat_io_writes_processed_ += static_cast<std::uint64_t>(processed);
  return processed;
}

// The synchronous path (handleClientsWithPendingWrites): the main thread
// writes every pending client, from the head. C++: one client at a time
// off the locked list, so that shutdown-now can drop the rest meanwhile.
int Server::handleClientsWithPendingWrites(Label why) {
  int processed = 0;
  for (;;) {
    client c;
    {
      std::lock_guard g(pending_mtx_);
      if (clients_pending_write.empty()) break;
      c = std::move(clients_pending_write.front());
      clients_pending_write.pop_front();
      trace_.handoff(c.job_.id, worker_[0], why, true);
    }
    writeToClient(c, worker_[0]);
    processed++;
  }
  return processed;
}

// Return 1 if we want to handle the client read later using threaded I/O.
// This is called by the readable handler of the event loop. (Replicas,
// masters and blocked clients are never postponed; C++: there are none.)
int Server::postponeClientRead(client& c) {
  if (io_threads_active_ && config_.io_threads_do_reads && io_threads_op == IO_THREADS_OP_IDLE) {
    clients_pending_read.push_front(std::move(c));  // listAddNodeHead
    return 1;
  }
  return 0;
}

// Threaded reads: the same fan-out / fan-in as the writes. The I/O threads
// read (and parse) their slices; the main thread reads its own, busy-waits,
// then executes every client's command itself, from the head.
int Server::handleClientsWithPendingReadsUsingThreads() {
  if (!io_threads_active_ || !config_.io_threads_do_reads) return 0;
  const int processed = static_cast<int>(clients_pending_read.size());
  if (processed == 0) return 0;

  // Distribute the clients across N different lists.
  int item_id = 0;
  for (client& c : clients_pending_read) {
    const int target_id = item_id % config_.io_threads_num;
    io_threads_read_list_[static_cast<std::size_t>(target_id)].push_back(&c);
    item_id++;
  }

  // Give the start condition to the waiting threads.
  io_threads_op = IO_THREADS_OP_READ;
  for (int j = 1; j < config_.io_threads_num; j++)
    setIOPendingCount(j, io_threads_read_list_[static_cast<std::size_t>(j)].size());

  // Also use the main thread to process a slice of clients.
  for (client* c : io_threads_read_list_[0]) readQueryFromClient(*c);
  io_threads_read_list_[0].clear();

  // Wait for all the other threads to end their work. C++: as the writes' barrier.
  const Time spin_from = trace_.clock().now();
  auto all_done = [&] {
    unsigned long pending = 0;
    for (int j = 1; j < config_.io_threads_num; j++) pending += getIOPendingCount(j);
    return pending == 0;
  };
  while (!spin_until(all_done)) poolscope::this_thread::yield();
  const std::int64_t spun = (trace_.clock().now() - spin_from).count();
  barrier_spin_ns_total_ += spun;
  trace_.emit(EventKind::pool_state, kReadBarrier, worker_[0], 0, spun, processed);

  io_threads_op = IO_THREADS_OP_IDLE;

  // Run the list of clients again to process the new buffers: the main
  // thread executes each command, and the reply joins clients_pending_write.
  while (!clients_pending_read.empty()) {
    client c = std::move(clients_pending_read.front());
    clients_pending_read.pop_front();
    processInputBuffer(c);
  }
  stat_io_reads_processed_ += static_cast<std::uint64_t>(processed);
  return processed;
}

// readQueryFromClient: read(2) the query into the client's buffer. C++: the
// read is `read_` of CPU on the thread that does it; the scenario's task is
// the reply's write, not the read.
void Server::readQueryFromClient(client&) { burn_cpu(config_.read_); }

// processInputBuffer: parse and execute the command, on the main thread
// (`exec_` of CPU); its reply makes the client one with a pending write
// (putClientInPendingWriteQueue: at the head of clients_pending_write).
void Server::processInputBuffer(client& c) {
  burn_cpu(config_.exec_);
  std::lock_guard g(pending_mtx_);
  clients_pending_write.push_front(std::move(c));
}

// writeToClient(c, 0): here, the reply is the task.
void Server::writeToClient(client& c, WorkerId w) {
  running_++;
  trace_.run(w, c.job_);  // C++: a task that throws is traced as threw; the thread goes on
  c.job_.fn = nullptr;
  running_--;
}

}  // namespace poolscope::redis
