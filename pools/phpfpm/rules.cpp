#include "pools/phpfpm/rules.h"

namespace poolscope::phpfpm::rules {
const Label kListenBacklog =
    intern_label("listen-backlog",
                 "php-fpm: the connection waits in the listening socket's backlog, the only queue, until an "
                 "idle child accepts it");
const Label kBacklogFull =
    intern_label("backlog-full",
                 "php-fpm: the listen backlog (listen.backlog + 1 connections) is full: a non-blocking connect() "
                 "on the unix socket fails with EAGAIN (nginx answers 502)");
const Label kSynDropped =
    intern_label("syn-dropped",
                 "Linux, TCP: the listen backlog is full, the SYN is dropped; the client's kernel sends it again "
                 "after 1 s (then its half-open connection every 200 ms, doubling): late, not refused (arg: attempts)");
const Label kSynRetransmit =
    intern_label("syn-retransmit",
                 "Linux, TCP: a retransmission found room: the connection is in the backlog (arg: attempts)");
const Label kAccept =
    intern_label("accept", "php-fpm: an idle child accept()ed the oldest connection of the backlog (children compete)");
const Label kAccepting = intern_label(
    "accepting", "php-fpm: the child waits in accept(): its scoreboard stage is Idle (FPM_REQUEST_ACCEPTING)");
const Label kStartServers =
    intern_label("start-servers", "php-fpm dynamic: pm.start_servers children are forked at start");
const Label kStaticChildren =
    intern_label("static-children", "php-fpm static: pm.max_children children are forked at start, and kept");
const Label kSpareSpawn =
    intern_label("spare-spawn",
                 "php-fpm dynamic: the maintenance tick found fewer than pm.min_spare_servers idle: fork up to the "
                 "spawn rate, which doubles every tick while still short, up to pm.max_spawn_rate");
const Label kOndemandAccept =
    intern_label("ondemand-accept",
                 "php-fpm ondemand: the master woke for the listening socket's edge-triggered event and found no "
                 "idle child: one fork per wake-up, however many connections arrived: \"got accept without idle "
                 "child available .... I forked\"");
const Label kRespawn =
    intern_label("respawn", "php-fpm: a child exited on its own (pm.max_requests, a crash): another is forked at once");
const Label kDrainOnShutdown =
    intern_label("drain-on-shutdown",
                 "poolscope: graceful shutdown found connections in the backlog and no child (a refused "
                 "fork): one child is started to serve them");
const Label kMaxSpare =
    intern_label("max-spare",
                 "php-fpm dynamic: more than pm.max_spare_servers idle: the tick stops the oldest idle child "
                 "(SIGQUIT), one per second");
const Label kIdleTimeout =
    intern_label("idle-timeout",
                 "php-fpm ondemand: the oldest idle child has been idle past pm.process_idle_timeout: the tick "
                 "stops it, one per second");
const Label kPmKill = intern_label(
    "pm-kill", "php-fpm: \"child %d has been killed by the process management after %ld.%06d seconds from start\"");
const Label kMaxRequests = intern_label(
    "max-requests", "php-fpm: the child served pm.max_requests requests and exits; it is replaced at once");
const Label kFinishing = intern_label(
    "finishing", "php-fpm finishing (SIGQUIT): the child exits; poolscope lets it serve the backlog first");
const Label kTerminating =
    intern_label("terminating", "php-fpm terminating (SIGTERM): the child exits after its current request");
const Label kBacklogReset = intern_label(
    "backlog-reset", "php-fpm: the listening socket closed with connections in its backlog: they are reset");
const Label kMaintenance =
    intern_label("maintenance",
                 "php-fpm: the master's once-a-second maintenance reads every child's stage and forks or stops "
                 "(arg: idle children, arg2: stopped)");
const Label kMaxChildrenReached =
    intern_label("max-children-reached",
                 "php-fpm dynamic: \"server reached pm.max_children setting (%d), consider raising it\" "
                 "(once per episode)");
const Label kOndemandMaxChildren =
    intern_label("ondemand-max-children",
                 "php-fpm ondemand: \"server reached max_children setting (%d), consider raising it\" "
                 "(once per episode); the connection waits in the backlog");
const Label kSeemsBusy =
    intern_label("seems-busy",
                 "php-fpm dynamic: \"seems busy (you may need to increase pm.start_servers, or "
                 "pm.min/max_spare_servers), spawning %d children, there are %d idle, and %d total children\"");
const Label kSigkill =
    intern_label("sigkill",
                 "php-fpm: a child chosen to stop is still there at the next tick: SIGKILL (a thread cannot be "
                 "killed: it exits after its request)");
const Label kStartServersNotSet =
    intern_label("start-servers-not-set", "php-fpm: \"pm.start_servers is not set. It's been set to %d.\"");
const Label kBacklogTooLow =
    intern_label("backlog-too-low",
                 "php-fpm: \"listen.backlog(%d) was too low for the ondemand process manager. I updated it for "
                 "you to %d.\" (8.2: only below -1)");
const Label kStateFinishing =
    intern_label("FINISHING", "php-fpm: switching to 'finishing' state (SIGQUIT): no more forks, children finish");
const Label kStateTerminating =
    intern_label("TERMINATING", "php-fpm: switching to 'terminating' state (SIGTERM): no more forks, backlog reset");
}  // namespace poolscope::phpfpm::rules
