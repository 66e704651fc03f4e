#!/usr/bin/env python3
"""Simulation against real mode: on each shipped scenario, a simulated run and
a real one must agree on what each design does by its rules, within a stated
tolerance: the same tasks completed and refused (by reason), peak workers,
reaps by mechanism and the workers left at the end. Timing figures (latencies, lateness) are the
model's and are not compared.

usage: agreement.py RUNNER SCENARIO...   (exit 1 on a disagreement)
Tolerance: counts within max(3, 10 %); peaks within max(2, 25 %)."""
import json, subprocess, sys, tempfile, os

def run(runner, scenario, extra):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        subprocess.run([runner, "run", scenario, "-q", "--json", out] + extra, check=False)
        with open(out) as f:
            return json.load(f)

def close(a, b, abs_tol, rel_tol):
    return abs(a - b) <= max(abs_tol, rel_tol * max(abs(a), abs(b)))

def main():
    runner, scenarios = sys.argv[1], sys.argv[2:]
    bad = 0
    for sc in scenarios:
        real, sim = run(runner, sc, ["--real"]), run(runner, sc, ["--sim"])
        for pr, ps in zip(real["pools"], sim["pools"]):
            sr, ss = pr["summary"], ps["summary"]
            checks = [
                ("completed", sr["tasks"]["completed"], ss["tasks"]["completed"], 3, 0.10),
                ("refused", sr["tasks"]["refused"], ss["tasks"]["refused"], 3, 0.10),
                ("peak workers", sr["workers"]["peak"], ss["workers"]["peak"], 2, 0.25),
                ("final workers", sr["workers"]["final"], ss["workers"]["final"], 2, 0.25),
            ]
            for reason in set(sr["refused_by_reason"]) | set(ss["refused_by_reason"]):
                checks.append(("refused " + reason, sr["refused_by_reason"].get(reason, 0),
                               ss["refused_by_reason"].get(reason, 0), 3, 0.10))
            wr, ws = sr["workers"].get("reaped_by_rule", {}), ss["workers"].get("reaped_by_rule", {})
            for rule in set(wr) | set(ws):
                checks.append(("reaped " + rule, wr.get(rule, 0), ws.get(rule, 0), 2, 0.25))
            for name, a, b, at, rt in checks:
                ok = close(a, b, at, rt)
                bad += not ok
                print(f"{'ok  ' if ok else 'DIFF'} {sc:16} {pr['name']:18} {name:24} real {a:6} sim {b:6}")
    return 1 if bad else 0

if __name__ == "__main__":
    sys.exit(main())
