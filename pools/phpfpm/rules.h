// The rules php-fpm's trace events name, each with the one-line "why" the
// GUI and `poolscope describe` show; php-fpm's log lines are their texts.
#pragma once

#include "pools/core/labels.h"

namespace poolscope::phpfpm::rules {
// Connections
extern const Label kListenBacklog;  // queued: the connection waits in the listen backlog
extern const Label kBacklogFull;    // refused: the backlog is full, connect() fails
extern const Label kSynDropped;     // queued / state: TCP, the backlog is full: the SYN is dropped, sent again later
extern const Label kSynRetransmit;  // state: TCP, a retransmitted SYN found room: the connection is in the backlog
extern const Label kAccept;         // handoff: an idle child accept()ed it (children compete, FIFO)
extern const Label kAccepting;      // idle: the child waits in accept() (scoreboard "Idle")
// Forks
extern const Label kStartServers;     // spawn: dynamic's pm.start_servers at start
extern const Label kStaticChildren;   // spawn: static's pm.max_children at start
extern const Label kSpareSpawn;       // spawn: the maintenance tick, too few idle (at the doubling rate)
extern const Label kOndemandAccept;   // spawn: "got accept without idle child available .... I forked"
extern const Label kRespawn;          // spawn: a child exited (not killed by the PM): replaced at once
extern const Label kDrainOnShutdown;  // spawn: C++: graceful shutdown found connections and no child
// Stops
extern const Label kMaxSpare;      // reap: dynamic, idle > pm.max_spare_servers: the oldest idle child, one per tick
extern const Label kIdleTimeout;   // reap: ondemand, the oldest idle child idle past pm.process_idle_timeout
extern const Label kPmKill;        // exit: "has been killed by the process management"
extern const Label kMaxRequests;   // exit: served pm.max_requests requests
extern const Label kFinishing;     // exit: graceful shutdown (SIGQUIT), the backlog served
extern const Label kTerminating;   // exit: shutdown-now (SIGTERM), after its current request
extern const Label kBacklogReset;  // dropped: shutdown-now, the backlog's connections are reset
// The master
extern const Label kMaintenance;          // cleaner pass: the once-a-second maintenance (arg idle, arg2 stopped)
extern const Label kMaxChildrenReached;   // state: "server reached pm.max_children setting (%d), consider raising it"
extern const Label kOndemandMaxChildren;  // state: "server reached max_children setting (%d), consider raising it"
extern const Label kSeemsBusy;            // state: "seems busy ..." (arg the rate, arg2 the idle children)
extern const Label kSigkill;              // state: a child chosen to stop a second time: SIGKILL
extern const Label kStartServersNotSet;   // state: "pm.start_servers is not set. It's been set to %d."
extern const Label kBacklogTooLow;        // state: "listen.backlog(%d) was too low for the ondemand process manager..."
extern const Label kStateFinishing;
extern const Label kStateTerminating;
}  // namespace poolscope::phpfpm::rules
