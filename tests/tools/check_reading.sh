#!/usr/bin/env bash
# The reading convention (docs/architecture.md, "Reading a design beside its
# original"), as far as a machine can check it:
#   - one divergence marker, `// C++:`, in pools/ and labs/;
#   - each design's main header names the upstream version it follows;
#   - no Go design or Go lab keeps a channel, a sync.Once or a thread-join
#     loop of its own: those live in pools/core/go/. A hand-made channel is
#     found by its shape (a CondVar member beside a queue or a flag member),
#     whatever its functions are called.
# Usage: check_reading.sh SOURCE_DIR
set -uo pipefail
cd "${1:?usage: check_reading.sh SOURCE_DIR}"
fail=0
complain() { echo "$1"; fail=1; }

# 1. One marker.
if hits=$(grep -rnE "Not in (Go|ants|Java|fasthttp|gammazero)\b|// poolscope:|C\+\+ only|C\+\+ forces|C\+\+ additions?\b|// Not in" pools labs); then
  complain "Another divergence marker than '// C++:' (write '// C++: why'):"
  echo "$hits"
fi

# 2. The upstream version in each design's main header.
pinned() {  # header, pattern, what
  grep -qE "$2" "$1" || complain "$1 does not name the upstream version it follows ($3)"
}
pinned pools/ants/pool.h '76ddb18' 'panjf2000/ants commit'
pinned pools/gammazero/workerpool.h '22a7e8d' 'gammazero/workerpool commit'
pinned pools/fasthttp/worker_pool.h 'b8ff6fb' 'valyala/fasthttp commit'
pinned pools/java/thread_pool_executor.h 'OpenJDK 17' 'the JDK release'
pinned pools/coremax/pool.h 'seed 001' 'the seed article'
pinned pools/nginx/thread_pool.h '3f6f782' 'nginx/nginx commit'
pinned pools/redis/server.h '7\.0\.15' 'the Redis release'
pinned pools/redis/bio.h '7\.0\.15' 'the Redis release'
pinned pools/gopool/pool.h 'c97c000' 'bytedance/gopkg commit'
pinned pools/weedge/workerpool.h 'a36dcc1' 'weedge/lib commit'
pinned pools/phpfpm/fpm_worker_pool.h '8daa1d9' 'php/php-src commit of fpm_process_ctl.c'

# 3. Go's vocabulary only in pools/core/go: no hand-made channel, Once or
#    thread-join loop in a Go design or Go lab.
go_folders=(pools/ants pools/fasthttp pools/gammazero pools/coremax pools/spawn pools/gopool pools/weedge
            labs/02-reaping labs/03-keepalive labs/solutions/02-reaping labs/solutions/03-keepalive)
# A channel by shape: a file that declares a CondVar member and, beside it, a
# flag (bool, atomic<bool>) or a queue (vector, deque, queue, list, Deque)
# member: a condition variable waiting for a flag or a queue is what a
# go::Chan is (a closed flag, a buffer) and what go::Once, go::Cond and
# go::WaitGroup are made of.
# Not yet rewritten (issue 37, item 1), each named so that it is not forgotten:
pending_hand_made=(pools/coremax/pool.h pools/weedge/workerpool.h
                   labs/02-reaping/worker_pool.h labs/solutions/02-reaping/worker_pool.h
                   labs/03-keepalive/pool.h labs/solutions/03-keepalive/pool.h)
member_flag='^\s*(bool|std::atomic<bool>)\s+[A-Za-z_]\w*\s*(=[^;]*|\{[^}]*\})?;'
member_queue='^\s*(std::(vector|deque|queue|list)|Deque)<.*>\s+[A-Za-z_]\w*\s*(=[^;]*|\{[^}]*\})?;'
for file in $(grep -rlE "^\s*(mutable\s+)?CondVar\s+\w+\s*;" "${go_folders[@]}"); do
  [[ " ${pending_hand_made[*]} " == *" $file "* ]] && continue
  if grep -qE "$member_flag|$member_queue" "$file"; then
    complain "A channel of its own in a Go design: a CondVar beside a flag or a queue (use go::Chan, go::Once, go::Cond, go::WaitGroup; pools/core/go/):"
    grep -nE "^\s*(mutable\s+)?CondVar\s+\w+\s*;|$member_flag|$member_queue" "$file" | sed "s|^|$file:|"
  fi
done
for file in "${pending_hand_made[@]}"; do
  [ -e "$file" ] && grep -qE "^\s*(mutable\s+)?CondVar\s+\w+\s*;" "$file" ||
    complain "$file no longer keeps a CondVar: take it off pending_hand_made in $0"
done
if hits=$(grep -rnE "^\s*[A-Za-z_:<>]+ (send|recv|receive)\([^)]*\) *(const)? *\{" "${go_folders[@]}"); then
  complain "A channel of its own in a Go design (use go::Chan, pools/core/go/chan.h):"
  echo "$hits"
fi
if hits=$(grep -rnE "for \(.*\).*\.join\(\)" "${go_folders[@]}"); then
  complain "A thread-join loop of its own in a Go design (use go::ThreadGroup, pools/core/go/thread_group.h):"
  echo "$hits"
fi

# 4. sync.Once is go::Once (pools/core/go/once.h), in every design.
if hits=$(grep -rnE "std::(call_once|once_flag)" pools labs | grep -v "^pools/core/"); then
  complain "std::call_once in a design (write Go's sync.Once as go::Once, pools/core/go/once.h):"
  echo "$hits"
fi

# 5. Designs and lab pools wait only through poolscope's primitives
#    (pools/core/sync.h, clock.h, thread.h, spin.h), which a simulation owns
#    (docs/simulation.md): no standard mutex, condition variable, thread,
#    latch, sleep, steady clock or atomic wait of their own.
sim_ready=($(ls -d pools/*/ | grep -v '^pools/core/$') labs/0*/ labs/solutions/)
if hits=$(grep -rnE "std::(mutex|recursive_mutex|condition_variable|thread\b|this_thread|latch|chrono::steady_clock)|\.wait\(.*memory_order" "${sim_ready[@]}" | grep -vE ":\s*//"); then
  complain "A wait that poolscope's core does not own (use poolscope::Mutex, CondVar, Thread, spin_until):"
  echo "$hits"
fi

[ "$fail" = 0 ] && echo "the reading convention holds in pools/ and labs/"
exit "$fail"
