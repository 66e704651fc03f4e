#!/usr/bin/env python3
"""A change to how the trace is recorded must not change what a run means.

A simulated run is the same every time (virtual time, a seeded schedule), so
the runner's result with every event, and its Chrome trace, can be compared
byte for byte with what the runner wrote before the change: every event's
time, kind, ids, rule, args and counters, every figure of every summary, and
every slice, marker and counter sample of the Chrome trace.

    compare_simulated.py RUNNER SOURCE_DIR WORK             the test
    compare_simulated.py RUNNER SOURCE_DIR WORK --record    rewrites the reference

The reference (tests/data/trace-before/simulated.json) keeps, per shipped
scenario, a SHA-256 of the result (host measurements left out, as the
determinism test does) and of the Chrome trace, and each pool's summary, so a
mismatch names the figures that moved. A scenario shipped after the
reference was written is reported and skipped. A design whose behaviour
changes on purpose changes its scenarios' bytes: rewrite the reference with
--record from a runner that has the design's change (and the trace's last
known-good recording).
"""
import hashlib
import json
import subprocess
import sys
from pathlib import Path

HOST_FIELDS = ("wall_s", "cpu_s", "peak_rss_bytes")


def run_simulated(runner, name, work):
    """The scenario simulated with its own seeds: (result without host fields, Chrome trace bytes)."""
    out, chrome = work / f"{name}.json", work / f"{name}.chrome.json"
    # Exit 1 is a run that stalled or broke the invariant, as some scenarios
    # show on purpose: compared like any other. Exit 2 is a bad command.
    code = subprocess.run([runner, "run", name, "--sim", "--events", "-q", "--json", str(out),
                           "--chrome-trace", str(chrome)]).returncode
    if code not in (0, 1):
        raise SystemExit(f"compare_simulated: {runner} run {name} exited {code}")
    result = json.loads(out.read_text())
    result["exit_code"] = code
    result.pop("environment", None)
    for field in HOST_FIELDS:
        result["run"].pop(field, None)
    # What each design declares of its original (the runtime it runs on), not
    # what the run did: left out, so declaring one does not move the reference.
    for pool in result["pools"]:
        pool.pop("runtime", None)
        pool.pop("ran_on", None)  # "simulation", in every one of them
    return result, chrome.read_bytes()


def digest(result, chrome):
    canonical = json.dumps(result, sort_keys=True, separators=(",", ":")).encode()
    return {
        "result_sha256": hashlib.sha256(canonical).hexdigest(),
        "chrome_sha256": hashlib.sha256(chrome).hexdigest(),
        "events": sum(len(p.get("events") or []) for p in result["pools"]),
        "summaries": {p["name"]: p.get("summary") for p in result["pools"]},
    }


def differences(path, was, now):
    """The leaves of two JSON values that differ, as 'path: was -> now'."""
    if isinstance(was, dict) and isinstance(now, dict):
        out = []
        for k in sorted(set(was) | set(now)):
            out += differences(f"{path}.{k}", was.get(k), now.get(k))
        return out
    if isinstance(was, list) and isinstance(now, list) and len(was) == len(now):
        out = []
        for i, (a, b) in enumerate(zip(was, now)):
            out += differences(f"{path}[{i}]", a, b)
        return out
    return [] if was == now else [f"{path}: {was!r} -> {now!r}"]


def main():
    if len(sys.argv) not in (4, 5) or (len(sys.argv) == 5 and sys.argv[4] != "--record"):
        print(__doc__, file=sys.stderr)
        return 2
    runner, source, work = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    record = len(sys.argv) == 5
    work.mkdir(parents=True, exist_ok=True)
    reference_path = source / "tests/data/trace-before/simulated.json"
    reference = {} if record else json.loads(reference_path.read_text())
    scenarios = sorted(p.stem for p in (source / "scenarios/library").glob("*.json"))
    written, failures = {}, []
    for name in scenarios:
        now = digest(*run_simulated(runner, name, work))
        if record:
            written[name] = now
            print(f"{name}: {now['events']} events")
            continue
        was = reference.get(name)
        if was is None:
            print(f"{name}: not in the reference (shipped after it was written): skipped")
            continue
        same = all(was[k] == now[k] for k in ("result_sha256", "chrome_sha256"))
        print(f"{name}: {now['events']} events, " + ("the same" if same else "DIFFERENT"))
        if not same:
            moved = differences("summaries", was["summaries"], now["summaries"])
            failures.append(f"{name}: result {'same' if was['result_sha256'] == now['result_sha256'] else 'differs'}, "
                            f"Chrome trace {'same' if was['chrome_sha256'] == now['chrome_sha256'] else 'differs'}, "
                            f"events {was['events']} -> {now['events']}" +
                            ("".join(f"\n    {d}" for d in moved[:20]) if moved else
                             "\n    (every summary figure is the same: the events differ)"))
    if record:
        reference_path.write_text(json.dumps(written, indent=1, sort_keys=True) + "\n")
        print(f"wrote {reference_path}")
        return 0
    for f in failures:
        print(f"FAILED {f}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
