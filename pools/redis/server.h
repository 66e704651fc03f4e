// Redis' threaded I/O (redis/redis src/networking.c, section "Threaded I/O",
// and the parts of src/server.c that drive it, at tag 7.0.15; the scheme is
// the same from 6.0 to 7.2; Redis 8.0 replaced it, see docs/pools/redis.md).
//
// Redis runs commands on one main thread. With `io-threads N` (default 1:
// off) it adds N - 1 threads that only write replies, in lock-step with the
// main thread. Once per event-loop iteration (beforeSleep) the main thread
// takes the clients with pending writes and deals them round-robin into N
// lists, list 0 being its own; it publishes each list's length in an atomic
// pending count, writes its own slice, then BUSY-WAITS until every count is
// 0. There is no queue between batches and nothing grows. Idle I/O threads
// spin a while on their count, then park on a mutex the main thread holds
// whenever threaded I/O is off; it is off while fewer than 2 x io-threads
// clients are pending.
//
//   submit ─▶ clients_pending_write (at the head) ─▶ beforeSleep ─▶ < 2N pending? ── main thread writes all
//                                                                  └─ else: deal item_id % N ─▶ lists 0..N-1
//   main: write list 0, then spin until Σ pending == 0 (the barrier)     I/O thread j: spin on pending[j] /
//                                                                            park on io_threads_mutex[j]
//
// How the workload fits the Pool interface: a task is one client's reply,
// its write (writeToClient) the task's body. submit is what Redis' main
// thread does when a command has produced a reply: putClientInPendingWriteQueue.
// The main thread here is the design's own thread running aeMain; the
// submitted replies of one iteration are written as one batch by the next
// beforeSleep, so a batch is every reply queued while the loop was busy.
// serverCron runs every 1000/hz ms on the pool's clock.
//
// Read networking.cpp beside networking.c: the same functions in the same
// order (IOThreadMain, initThreadedIO, killIOThreads, startThreadedIO,
// stopThreadedIO, stopThreadedIOIfNeeded,
// handleClientsWithPendingWritesUsingThreads, postponeClientRead,
// handleClientsWithPendingReadsUsingThreads; then readQueryFromClient and
// processInputBuffer, which Redis defines earlier) and server.cpp beside
// server.c and ae.c (aeMain, beforeSleep, serverCron). Names are Redis';
// what C++ adds ends in an underscore; `// C++:` marks every difference:
// - Replies are queued by submitters, not by the main thread, so
//   clients_pending_write is guarded by a lock, and the replies queued while
//   the loop is busy wait in clients_arriving_ until its next "event
//   processing" step moves them over, as Redis' main thread would queue them
//   between two beforeSleeps.
// - A task is a reply's write. A client's read (read_) and its command's
//   execution (exec_) are CPU the design holds (burn_cpu): the read on the
//   main thread, or with io-threads-do-reads on the I/O threads while they
//   are active; the execution always on the main thread, between the fan-outs.
//   Replicas (always list 0) and CLIENT_CLOSE_ASAP have no counterpart.
// - The idle I/O thread's spin is spin_reads (bare reads, charged in a
//   simulation at their measured cost), the barriers spin_until and
//   this_thread::yield, the parking poolscope::Mutex: a simulation owns them.
// - Redis never stops its I/O threads (it exits); here shutdown ends them
//   and joins them, and shutdown-now drops the replies still pending.
#pragma once

#include <atomic>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "pools/core/clock.h"
#include "pools/core/pool_trace.h"
#include "pools/core/sync.h"
#include "pools/core/thread.h"
#include "pools/redis/rules.h"

namespace poolscope::redis {

// What Redis knows of a client here: the reply it has to write.
struct client {
  Job job_;  // C++: writeToClient(c) is the task
};

struct Config {
  int io_threads_num = kDefaultIOThreads;  // io-threads, 1..IO_THREADS_MAX_NUM
  int hz = CONFIG_DEFAULT_HZ;              // serverCron runs every 1000/hz ms
  std::int64_t spins_ = kIOThreadSpins;    // C++: IOThreadMain's 1000000, a parameter
  bool io_threads_do_reads = false;        // io-threads-do-reads (redis.conf: no)
  Nanos read_{0};  // C++: CPU to read one client's query (read(2), the copy into querybuf)
  Nanos exec_{0};  // C++: CPU to parse and execute one command, always on the main thread
};

// One Redis server: its main thread (the event loop) and its I/O threads.
class Server {
 public:
  // initServer: the main thread starts and runs initThreadedIO (the mutexes
  // must be locked by the thread that will unlock them), then aeMain.
  // Throws std::invalid_argument with Redis' text for io-threads > 128, and
  // std::system_error if the OS refuses a thread ("Fatal: Can't initialize
  // IO thread."; Redis exits).
  Server(Config config, const TraceTarget& target = {});
  ~Server();  // shutdown_(false) if not done yet
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // putClientInPendingWriteQueue: the client's reply will be written by the
  // next beforeSleep. C++: the engine's submit; with read_ or exec_ set it is
  // a client whose query arrived: the next event step reads it (or postpones
  // the read, io-threads-do-reads) and executes it on the main thread first.
  // next beforeSleep. Never refuses. The returned id names it in the trace.
  TaskId putClientInPendingWriteQueue(Task write);

  // C++: the server stops. Graceful: every pending reply is written first;
  // drop: the pending replies are dropped (task_dropped each). Then the
  // main thread ends the I/O threads and every thread is joined. Returns the
  // number dropped. Idempotent.
  std::size_t shutdown_(bool drop);

  // C++: poolscope's counters: threads (main + I/O), threads writing, replies
  // pending (not yet dealt).
  Counters state() const;
  bool io_threads_active() const { return io_threads_active_.load(); }
  // C++: INFO's io_threaded_writes_processed, and the main thread's time
  // spent at the barrier (ns, on the pool's clock).
  std::uint64_t stat_io_writes_processed() const { return stat_io_writes_processed_.load(); }
  std::uint64_t stat_io_reads_processed() const { return stat_io_reads_processed_.load(); }
  std::int64_t barrier_spin_ns_() const { return barrier_spin_ns_total_.load(); }

  const Config& config() const { return config_; }
  PoolTrace& trace() { return trace_; }
  const PoolTrace& trace() const { return trace_; }

 private:
  struct alignas(64) threads_pending {  // CACHE_LINE_SIZE
    std::atomic<unsigned long> value{0};
  };

  // networking.c, in its order.
  unsigned long getIOPendingCount(int i) const { return io_threads_pending[i].value.load(); }
  void setIOPendingCount(int i, unsigned long count) { io_threads_pending[i].value.store(count); }
  void IOThreadMain(int id);
  void initThreadedIO();
  void killIOThreads();
  void startThreadedIO();
  void stopThreadedIO(Label why);
  int stopThreadedIOIfNeeded(Label why);
  int handleClientsWithPendingWritesUsingThreads();
  int handleClientsWithPendingWrites(Label why);
  int postponeClientRead(client& c);
  int handleClientsWithPendingReadsUsingThreads();
  void readQueryFromClient(client& c);
  void processInputBuffer(client& c);
  void writeToClient(client& c, WorkerId w);
  // server.c / ae.c
  void aeMain();
  void beforeSleep();
  bool aeProcessEvents_();  // C++: the poll and the events; false once the loop should end
  void serverCron();

  const Config config_;
  PoolTrace trace_;

  // server.*
  std::atomic<int> io_threads_active_{0};  // C++: atomic, so that state() may read it
  std::deque<client> clients_pending_write;  // under pending_mtx_; the main thread's alone in Redis
  std::deque<client> clients_arriving_;      // C++: queries arrived since the last event-processing step
  std::deque<client> clients_pending_read;   // the main thread's: reads postponed to beforeSleep
  mutable Mutex pending_mtx_;
  CondVar poll_;  // C++: aeApiPoll's wait: a reply queued, the next cron, or a stop
  std::atomic<std::uint64_t> stat_io_writes_processed_{0};
  std::atomic<std::uint64_t> stat_io_reads_processed_{0};

  // networking.c's statics, sized io-threads.
  std::unique_ptr<threads_pending[]> io_threads_pending;
  std::unique_ptr<Mutex[]> io_threads_mutex;
  std::vector<std::vector<client>> io_threads_list;
  // C++: Redis' io_threads_list holds client pointers for both operations.
  // Here a write list owns its clients (shutdown-now must not find them
  // pending), and a read list points into clients_pending_read, which keeps
  // them until their commands are executed.
  std::vector<std::vector<client*>> io_threads_read_list_;
  int io_threads_op = IO_THREADS_OP_IDLE;  // published to the I/O threads by setIOPendingCount
  std::vector<Thread> io_threads;

  // C++: the state poolscope reports, and what a joinable server needs.
  std::vector<WorkerId> worker_;  // slot -> worker id in the trace; slot 0 is the main thread; sized at construction
  std::atomic<std::uint32_t> alive_{0}, running_{0};
  std::atomic<bool> io_threads_exit_{false};
  std::atomic<std::int64_t> barrier_spin_ns_total_{0};
  Time next_cron_{0};
  bool stop_ = false;       // under pending_mtx_
  bool init_done_ = false;  // under pending_mtx_: initThreadedIO has run on the main thread
  std::exception_ptr init_error_;
  Mutex shutdown_mtx_;
  std::size_t dropped_ = 0;
  Thread main_;
};

}  // namespace poolscope::redis
