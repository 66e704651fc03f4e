#!/usr/bin/env python3
"""Prints the benchmark results as ratios (docs/performance.md explains them).

Reads the Google Benchmark JSON files that scripts/bench writes into one
directory and takes, for every benchmark, the median of its repetitions.

    bench/report.py build-release/bench            plain-text tables
    bench/report.py build-release/bench --markdown the same, for docs/performance.md
    bench/report.py build-release/bench --trace    tracing's tables only
"""
import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path

# What the originals do on a 2-vCPU machine (issue 10), ns per no-op task
# with 1 / 2 workers and 1 submitter.
ORIGINALS = {
    "ants": ("ants", 875, 1081),
    "ants-multi": ("ants", 875, 1081),
    "gammazero": ("gammazero", 1025, 995),
    "fasthttp": ("fasthttp, yielding", 980, 866),
    "java": ("ThreadPoolExecutor", 455, 441),
    "spawn": ("goroutine per task", 820, 820),
}
REFERENCES = ["plain", "asio", "tbb"]


def load(directory):
    """name -> {field: median over repetitions}; also the context of one file."""
    runs = defaultdict(list)
    context = {}
    for f in sorted(Path(directory).glob("*.json")):
        doc = json.loads(f.read_text())
        context = context or doc.get("context", {})
        for b in doc["benchmarks"]:
            if b.get("run_type") == "aggregate" or b.get("error_occurred"):
                continue
            runs[b.get("run_name", b["name"])].append(b)
    medians = {}
    for name, rs in runs.items():
        fields = {}
        for key in rs[0]:
            values = [r[key] for r in rs if isinstance(r.get(key), (int, float)) and not isinstance(r.get(key), bool)]
            if values and len(values) == len(rs):
                fields[key] = statistics.median(values)
        fields["repetitions"] = len(rs)
        medians[name] = fields
    return medians, context


def base(name):
    """'dispatch/ants/w:1/s:1/trace:off/iterations:1/real_time' -> 'dispatch/ants/w:1/s:1/trace:off'; also
    the 'repeats:1' of a benchmark that sets its own repetitions (wakeup/, machine/handoff, BM_TickOrder)."""
    return "/".join(p for p in name.split("/")
                    if p != "real_time" and not p.startswith(("iterations:", "repeats:")))


class Table:
    def __init__(self, title, header, markdown):
        self.title, self.header, self.rows, self.markdown = title, header, [], markdown

    def add(self, *cells):
        self.rows.append(["" if c is None else c for c in cells])

    def print(self):
        cells = [self.header] + [[str(c) for c in r] for r in self.rows]
        if self.markdown:
            print(f"\n#### {self.title}\n")
            print("| " + " | ".join(self.header) + " |")
            print("|" + "|".join("---" for _ in self.header) + "|")
            for r in cells[1:]:
                print("| " + " | ".join(r) + " |")
            return
        widths = [max(len(r[i]) for r in cells) for i in range(len(self.header))]
        print(f"\n{self.title}")
        for j, r in enumerate(cells):
            print("  " + "  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))))
            if j == 0:
                print("  " + "  ".join("-" * w for w in widths))


def fmt(v, digits=0):
    if v is None:
        return "-"
    return f"{v:,.{digits}f}"


def ratio(a, b):
    return f"{a / b:.2f}x" if a is not None and b else "-"


def simulation_tables(get, markdown):
    """bench_sim: the primitives' real-mode cost beside std, and the World's speed."""
    t = Table("Simulation hooks in a real run: poolscope's primitive ÷ the standard one it wraps (same run)",
              ["primitive", "std (ns)", "poolscope (ns)", "ratio"], markdown)
    for what, suffix in [("mutex", ""), ("mutex_contended", "/threads:2"), ("notify_nobody", ""),
                         ("ping_pong", ""), ("thread_start_join", "")]:
        s = get(f"primitive/{what}/std{suffix}", "real_time")
        p = get(f"primitive/{what}/poolscope{suffix}", "real_time")
        t.add(what + suffix.replace("/", " "), fmt(s, 1), fmt(p, 1), ratio(p, s))
    t.print()
    t = Table("The simulator's speed (wall time; points = scheduling points)",
              ["run", "wall (ms)", "points/s (M)", "arrivals/s (k)", "virtual s per wall s"], markdown)
    for what in ["yield", "mutex", "channel", "scenario/tour", "scenario/steady-poisson", "scenario/survey"]:
        k = f"sim/{what}"
        pts, arr, speed = get(k, "points/s"), get(k, "arrivals/s"), get(k, "speed-up")
        t.add(what, fmt(get(k, "real_time"), 1), fmt(pts / 1e6 if pts else None, 1),
              fmt(arr / 1e3 if arr else None, 1), fmt(speed))
    t.print()


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    markdown = "--markdown" in argv
    trace_only = "--trace" in argv
    m, context = load(argv[1])
    by = {base(k): v for k, v in m.items()}

    def get(name, field):
        return by.get(name, {}).get(field)

    designs = sorted({k.split("/")[1] for k in by if k.startswith(("dispatch/", "trace_cost/"))} - set(REFERENCES))
    refs = [r for r in REFERENCES if f"dispatch/{r}/w:1/s:1/trace:off" in by]
    print(f"machine: {context.get('num_cpus', '?')} CPUs at {context.get('mhz_per_cpu', '?')} MHz; "
          f"load average at start {', '.join(f'{x:.2f}' for x in context.get('load_avg', []))}; "
          f"medians of {max((v['repetitions'] for v in by.values()), default=0)} repetitions")

    def tracing_tables():
        # 5. tracing
        clock = get("BM_ClockRead", "real_time") or get("BM_ClockRead", "cpu_time")
        t = Table("Tracing: what a time stamp and an event cost, against one clock read (SteadyClock::now)",
                  ["what", "ns", "÷ clock read", "note"], markdown)

        def order_note(k):
            inv = get(k, "inversions_per_M")
            if inv is None:
                return ""
            return "ordered across cores" if inv == 0 else \
                f"NOT ordered: {fmt(inv)} inversions per million hand-offs, up to {fmt(get(k, 'worst_inversion_ns'), 1)} ns"

        res = get("BM_CoarseClock", "resolution_ns")
        tsc = get("BM_TickOrdered", "tsc")
        for label, k, note in (
                ("clock read (SteadyClock::now)", "BM_ClockRead", order_note("BM_TickOrder<steady_ns>")),
                ("the stream's tick (lfence; rdtsc)" if tsc else "the stream's tick (steady_clock: no trusted TSC)",
                 "BM_TickOrdered", order_note("BM_TickOrder<rdtsc_fenced>") + ("; the one used" if tsc else "")),
                ("rdtsc alone", "BM_TickUnordered", order_note("BM_TickOrder<rdtsc_plain>")),
                ("rdtscp", "BM_TickRdtscp", order_note("BM_TickOrder<rdtscp>")),
                ("CLOCK_MONOTONIC_COARSE", "BM_CoarseClock", f"resolution {fmt(res / 1e6 if res else None, 1)} ms"),
                ("record one event, 1 thread", "BM_RecordEvent/threads:1", ""),
                ("record one event, 2 threads into one stream (per thread)", "BM_RecordEvent/threads:2", ""),
                ("the engine's clock read (AdjustableClock::now), 2 threads (per thread)",
                 "BM_EngineClockRead/threads:2", "every pool of a scenario run reads it"),
                ("record one event on the engine's clock, 1 thread", "BM_RecordEventEngineClock/threads:1", ""),
                ("record one event on the engine's clock, 2 threads (per thread)",
                 "BM_RecordEventEngineClock/threads:2", ""),
                ("untraced pool (no stream)", "BM_RecordEventUntraced", "")):
            t.add(label, fmt(get(k, "real_time"), 1), ratio(get(k, "real_time"), clock), note)
        task_on, task_off = get("BM_RecordTask", "real_time"), get("BM_TaskUntraced", "real_time")
        if task_on and task_off:
            t.add("a task's 5 events through PoolTrace, traced − untraced", fmt(task_on - task_off, 1),
                  ratio(task_on - task_off, clock), "handoff + start share one stamp: 4 stamps")
        spe = get("BM_Drain", "seconds_per_event")
        t.add("drain one event (merge, counters, time), consumer side", fmt(spe * 1e9 if spe else None, 1),
              ratio(spe * 1e9 if spe else None, clock), "2 producer threads")
        t.add("1,000,000 tasks/s (5 events each) from 2 threads for 1 s, drained every 2 ms",
              f"{fmt(get('BM_Sustained', 'dropped'))} dropped", "",
              f"{fmt(get('BM_Sustained', 'drained'))} of {fmt(get('BM_Sustained', 'recorded'))} recorded drained")
        t.print()
        t = Table("Tracing on ÷ tracing off, saturated dispatch, 1 submitter: throughput ratio, median of "
                  "alternating rounds (range) (>= 0.95 is the goal)",
                  ["design", "1 worker", "2 workers", "1 worker, the engine's clock",
                   "refusals a task, off / on (1w / 2w)", "events a task (1w / 2w)", "events dropped (1w / 2w)"],
                  markdown)
        for name in designs:
            cells = [name]
            for k in (f"trace_cost/{name}/w:1", f"trace_cost/{name}/w:2", f"trace_cost/{name}/w:1/clock:engine"):
                r, lo, hi = get(k, "ratio"), get(k, "ratio_min"), get(k, "ratio_max")
                # A run that dropped events recorded less work than it did: its ratio says nothing.
                if r is None:
                    cells.append("-")
                else:
                    cell = f"{r:.2f} ({lo:.2f}–{hi:.2f})"
                    cells.append(f"{cell}: dropped" if get(k, "events_dropped") else cell)
            # A design refused while its workers are busy (fasthttp) is refused less often when tracing slows its
            # submitter: where off and on differ, the ratio measures the refusals as much as tracing.
            cells.append(", ".join(" / ".join(fmt(get(f"trace_cost/{name}/w:{w}", f"refused_per_task_{m}"), 1)
                                             for m in ("off", "on")) for w in (1, 2)))
            cells.append(" / ".join(fmt(get(f"trace_cost/{name}/w:{w}", "events_per_task"), 1) for w in (1, 2)))
            cells.append(" / ".join(fmt(get(f"trace_cost/{name}/w:{w}", "events_dropped")) for w in (1, 2)))
            t.add(*cells)
        t.print()
        # The designs refused while every worker is busy, their submitter retrying at once: refusals alike off
        # and on, so the ratio is tracing's cost to the design's loop (refusal events included).
        spin = [n for n in designs if f"trace_cost/{n}/w:1/retry:spin" in by]
        if spin:
            t = Table("Tracing on ÷ tracing off for the designs that refuse while every worker is busy, 1 worker, "
                      "the submitter retrying at once (no yield): median of alternating rounds (range)",
                      ["design", "ratio (range)", "refusals a task, off / on", "events a task", "events dropped"],
                      markdown)
            for name in spin:
                k = f"trace_cost/{name}/w:1/retry:spin"
                r, lo, hi = get(k, "ratio"), get(k, "ratio_min"), get(k, "ratio_max")
                t.add(name, f"{r:.2f} ({lo:.2f}–{hi:.2f})" if r is not None else "-",
                      f"{fmt(get(k, 'refused_per_task_off'), 1)} / {fmt(get(k, 'refused_per_task_on'), 1)}",
                      fmt(get(k, "events_per_task"), 1), fmt(get(k, "events_dropped")))
            t.print()


    if trace_only:
        tracing_tables()
        return 0

    # 0. the machine's limits, the floors the designs are read against
    clock_read = get("machine/clock_read", "real_time")
    create = get("machine/thread_create_join", "real_time")
    h50, h99 = get("machine/handoff", "p50_us"), get("machine/handoff", "p99_us")
    t = Table("Machine limits, measured in the same run", ["limit", "time"], markdown)
    t.add("clock read (std::chrono::steady_clock::now)", f"{fmt(clock_read, 1)} ns" if clock_read else "-")
    t.add("cross-core hand-off (atomic::wait woken by notify_one), p50 / p99",
          f"{fmt(h50, 1)} / {fmt(h99, 1)} µs" if h50 else "-")
    t.add("thread create + join (poolscope::Thread)", f"{fmt(create / 1e3, 1)} µs" if create else "-")
    t.print()

    # 1. saturated dispatch
    for s in (1, 2):
        t = Table(f"Saturated dispatch, {s} submitter{'s' if s > 1 else ''}: ns per no-op task "
                  f"(ratios: design / reference; <1 is faster)",
                  ["pool", "1 worker", "2 workers", "tasks run", "context switches per task (1w / 2w)",
                   "refusals per task (1w / 2w)"] +
                  [f"÷{r} (1w / 2w)" for r in refs] + (["÷Go/Java original (1w / 2w)"] if s == 1 else []),
                  markdown)
        for name in refs + designs:
            k1, k2 = f"dispatch/{name}/w:1/s:{s}/trace:off", f"dispatch/{name}/w:2/s:{s}/trace:off"
            n1, n2 = get(k1, "ns_per_task"), get(k2, "ns_per_task")
            row = [name, fmt(n1), fmt(n2), fmt(min(x for x in (get(k1, "tasks"), get(k2, "tasks")) if x) if n1 else None),
                   f"{fmt(get(k1, 'switches_per_task'), 2)} / {fmt(get(k2, 'switches_per_task'), 2)}",
                   f"{fmt(get(k1, 'refused_per_task'), 1)} / {fmt(get(k2, 'refused_per_task'), 1)}"]
            for r in refs:
                row.append(f"{ratio(n1, get(f'dispatch/{r}/w:1/s:{s}/trace:off', 'ns_per_task'))} / "
                           f"{ratio(n2, get(f'dispatch/{r}/w:2/s:{s}/trace:off', 'ns_per_task'))}")
            if s == 1:
                o = ORIGINALS.get(name)
                row.append(f"{ratio(n1, o[1])} / {ratio(n2, o[2])} ({o[0]})" if o else "")
            t.add(*row)
        t.print()

    # 2. wake-up latency
    t = Table("Wake-up latency, idle pool of 1 worker, submit -> start (µs)",
              ["pool", "p50", "p99", "p50 ÷ plain", "p99 ÷ plain", "p50 ÷ hand-off"], markdown)
    t.add("futex hand-off (machine)", fmt(h50, 1), fmt(h99, 1), "", "", "1.00x")
    pp50, pp99 = get("wakeup/plain", "p50_us"), get("wakeup/plain", "p99_us")
    for name in refs + designs:
        p50, p99 = get(f"wakeup/{name}", "p50_us"), get(f"wakeup/{name}", "p99_us")
        t.add(name, fmt(p50, 1), fmt(p99, 1), ratio(p50, pp50), ratio(p99, pp99), ratio(p50, h50))
    t.print()

    # 3. sleep-bound
    t = Table("Sleep-bound: 100,000 tasks x 10 ms, at most 5,000 workers (floor 200 ms: tasks x 10 ms ÷ workers; "
              "a design with fewer workers runs 20 tasks a worker)",
              ["pool", "time (ms)", "tasks", "workers (floor ms)", "÷ floor", "CPU (s, all threads)",
               "peak RSS above start (MB)", "peak threads (sampled)", "threads created (poolscope::Thread)"],
              markdown)
    for name in refs + designs:
        k = f"sleep/{name}"
        if k not in by:
            continue
        ms = get(k, "real_time")
        workers = get(k, "workers")
        # asio and TBB start their threads themselves: poolscope::Thread never sees them.
        created = "-" if name in ("asio", "tbb") else fmt(get(k, "threads_created"))
        t.add(name, fmt(ms), fmt(get(k, "tasks")),
              f"{fmt(workers)} ({fmt(get(k, 'floor_ms'))})" if workers else fmt(get(k, "floor_ms")),
              ratio(ms, get(k, "floor_ms")), fmt(get(k, "cpu_s"), 2), fmt(get(k, "peak_rss_mb"), 1),
              fmt(get(k, "peak_threads")), created)
    t.print()

    # 4. churn
    t = Table(f"Churn: 5 bursts of 64 tasks x 1 ms on up to 8 workers, idle limits passed in between. "
              f"A cold burst (after the idle gap) is followed at once by a warm one (same design, workers still "
              f"there); cost per thread = (cold - warm burst time) ÷ (threads the cold burst started beyond the "
              f"warm one), measured per design: the time a thread start adds to the burst, not its CPU cost "
              f"(bare thread create + join on this machine: {fmt(create / 1e3 if create else None, 1)} µs)",
              ["design", "threads per 1,000 tasks", "cold burst (ms; floor 8)", "warm burst (ms)",
               "threads started per burst (cold / warm)", "cost per thread (µs of burst time)"], markdown)
    for name in designs:
        k = f"churn/{name}"
        t.add(name, fmt(get(k, "threads_per_1k_tasks"), 1), fmt(get(k, "burst_ms"), 1),
              fmt(get(k, "warm_burst_ms"), 1),
              f"{fmt(get(k, 'threads_per_burst'), 1)} / {fmt(get(k, 'threads_per_warm_burst'), 1)}",
              fmt(get(k, "us_per_spawn"), 1))
    t.print()

    tracing_tables()
    simulation_tables(get, markdown)

    # 6. pipeline
    t = Table("Pipeline: what the GUI and the runner consume", ["what", "result"], markdown)
    ips = get("BM_Metrics", "items_per_second")
    t.add("metrics (feed + summary), events per second", fmt(ips / 1e6, 1) + " M/s" if ips else "-")
    j = get("BM_ResultJson", "real_time")
    t.add("write a result JSON with 1,000,000 events",
          f"{fmt(j)} ms ({fmt(get('BM_ResultJson', 'mb'))} MB)" if j else "-")
    t.print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
