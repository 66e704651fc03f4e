// The listening socket as Linux keeps it, and the client that connects to
// it (C++: neither is php-fpm's code; php-fpm's fpm_sockets.c only calls
// listen(sock, listen.backlog)). What a full backlog does is the client's:
//   non-blocking unix (nginx)  connect() fails with EAGAIN: refused (502)
//   blocking unix              connect() sleeps until a child accepts,
//                              first come first served
//   TCP                        the SYN is dropped; the client's kernel
//                              retransmits it after 1 s
#include <algorithm>
#include <chrono>
#include <limits>
#include <mutex>

#include "pools/phpfpm/fpm_worker_pool.h"

namespace poolscope::phpfpm {

using namespace rules;

namespace {
// TCP_TIMEOUT_INIT: a dropped SYN is retransmitted after 1 s. A
// retransmitted SYN whose handshake then finds the accept queue full stays
// half-open (its ACK dropped, ListenOverflows), and enters at a later
// retransmission of the client's, after TCP_RTO_MIN, doubling.
Nanos retransmit_after(int attempts) {
  using namespace std::chrono_literals;
  if (attempts == 0) return 1s;
  return 200ms * (1 << std::min(attempts - 1, 10));
}
}  // namespace

// listen(fd, backlog): a backlog above net.core.somaxconn, or negative (as
// an unsigned), is somaxconn; the queue is full past it
// (sk_acceptq_is_full, unix_recvq_full: `>`, not `>=`), so it holds one more.
int fpm_worker_pool_s::listen_queue_limit_() const {
  const auto backlog = static_cast<unsigned>(config.listen_backlog);
  const auto somaxconn = static_cast<unsigned>(std::max(config.somaxconn_, 0));
  return static_cast<int>(std::min(backlog, somaxconn)) + 1;
}

bool fpm_worker_pool_s::listen_queue_full_() const {
  return static_cast<int>(listening_socket.size()) >= listen_queue_limit_();
}

// Under m_. The connection waits for a child's accept(); on an ondemand
// pool it readies the socket's edge-triggered event for the master.
void fpm_worker_pool_s::listen_queue_push_(Job job) {
  const TaskId id = job.id;
  listening_socket.push_back(std::move(job));
  trace.queued(id, kListenBacklog, static_cast<std::int64_t>(listening_socket.size()));
  accept_.notify_all();
  if (config.pm == PM_STYLE_ONDEMAND && !ondemand_event_ready_) {
    ondemand_event_ready_ = true;
    master_.notify_all();
  }
}

Label fpm_worker_pool_s::connect_(Job job) {
  std::unique_lock lock(m_);
  const TaskId id = job.id;
  switch (config.client_) {
    case FPM_CLIENT_NONBLOCKING_UNIX_:
      if (listen_queue_full_()) {
        trace.refused(id, kBacklogFull);
        return kBacklogFull;
      }
      break;
    case FPM_CLIENT_BLOCKING_UNIX_:
      // unix_wait_for_peer: sleep until an accept() makes room, in turn.
      if (listen_queue_full_() || now_serving_ != next_ticket_) {
        const std::uint64_t ticket = next_ticket_++;
        trace.blocked(id);
        while (!listen_closed_ && (ticket != now_serving_ || listen_queue_full_())) room_.wait(lock);
        ++now_serving_;
        room_.notify_all();
        trace.unblocked(id);
        if (listen_closed_) {  // ECONNREFUSED: the pool's socket closed meanwhile
          trace.refused(id, poolscope::rules::pool_closed());
          return poolscope::rules::pool_closed();
        }
      }
      break;
    case FPM_CLIENT_TCP_:
      if (listen_queue_full_()) {
        // tcp_conn_request: the accept queue is full, the SYN is dropped.
        const Time at = trace.clock().now() + retransmit_after(0);
        syn_sent.push_back({std::move(job), at, 0});
        trace.queued(id, kSynDropped, static_cast<std::int64_t>(syn_sent.size()));
        tcp_client_.notify_all();
        return kNoLabel;
      }
      break;
  }
  listen_queue_push_(std::move(job));
  return kNoLabel;
}

void fpm_worker_pool_s::fpm_listen_close_() {
  std::lock_guard lock(m_);
  listen_closed_ = true;
  room_.notify_all();
}

// The TCP client's kernel: each dropped SYN is sent again when its timer
// fires, in the order they were dropped; one that finds room is in the
// backlog, one that finds none waits for its next retransmission.
void fpm_worker_pool_s::tcp_client_retransmit_() {
  std::unique_lock lock(m_);
  for (;;) {
    if (fpm_state != FPM_PCTL_STATE_NORMAL) {
      // C++: shutdown-now has reset them; a graceful one takes them into the
      // backlog at once (the Pool contract runs every accepted task).
      for (; !syn_sent.empty(); syn_sent.pop_front()) listening_socket.push_back(std::move(syn_sent.front().job));
      break;
    }
    if (syn_sent.empty()) {
      tcp_client_.wait(lock);
      continue;
    }
    Time next = Time::max();
    for (const syn_sent_& s : syn_sent) next = std::min(next, s.retransmit);
    const Time now = trace.clock().now();
    if (now < next) {
      tcp_client_.wait_until(lock, trace.clock(), next);
      continue;
    }
    for (auto it = syn_sent.begin(); it != syn_sent.end();) {
      if (it->retransmit > now) {
        ++it;
        continue;
      }
      const int attempts = ++it->attempts;
      if (listen_queue_full_()) {
        it->retransmit = now + retransmit_after(attempts);
        trace.emit(EventKind::pool_state, kSynDropped, 0, it->job.id, attempts);
        ++it;
        continue;
      }
      trace.emit(EventKind::pool_state, kSynRetransmit, 0, it->job.id, attempts);
      // C++: counted as queued since its SYN was dropped: not queued again.
      listening_socket.push_back(std::move(it->job));
      accept_.notify_all();
      if (config.pm == PM_STYLE_ONDEMAND && !ondemand_event_ready_) {
        ondemand_event_ready_ = true;
        master_.notify_all();
      }
      it = syn_sent.erase(it);
    }
  }
  accept_.notify_all();
}

}  // namespace poolscope::phpfpm
