#!/usr/bin/env python3
"""The mutant suite: the lab grader must fail every wrong variant of the
reference solutions (the LAB_MUTANT_* blocks, built as lab_mutant_NN_name by
labs/CMakeLists.txt), and pass the reference solutions themselves.

  mutants.py BIN_DIR [--only NAME...] [--lab-only] [--repeat N] [--jobs N]

Prints, for each mutant, the checks that failed and the mechanism that
caught it: a deterministic check, an [explore] check (simulated schedules,
deterministic too), a [stress] check (real threads, probabilistic), the
watchdog (TIMED OUT), a crash, or the conformance suite. Exit 1 if a mutant passed, was
caught only by the stress checks (luck: it may pass the next grade), or a
reference solution failed. --jobs grades that many at once: a grade mostly
waits (for its watchdog, for stress checks' sleeps), so the whole suite
takes a few seconds of CPU a mutant.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LAB = os.path.join(ROOT, "scripts", "lab")
REFERENCE = {"01": "lab01-fixed", "02": "lab02-reaping", "03": "lab03-keepalive", "04": "lab04-overload"}


def grade(lab, args, extra):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        out = f.name
    r = subprocess.run([sys.executable, LAB, lab, *args, "--json", out, *extra], capture_output=True, text=True,
                       timeout=900)
    try:
        doc = json.load(open(out))
    except (OSError, ValueError):
        doc = {"score": 0, "max_score": 0, "tests": [], "output": r.stdout + r.stderr}
    os.unlink(out)
    return r.returncode, doc


def mechanism(test, tagged):
    status = test["output"].splitlines()[0] if test["output"] else ""
    if status == "TIMED OUT":
        return "watchdog"
    if status == "CRASHED":
        return "crash"
    if status == "DID NOT RUN":
        return None  # skipped after a hang, not a catch of its own
    if test["name"].startswith("conformance:"):
        return "conformance"
    if test["name"] in tagged["explore"]:
        return "simulated"
    return "stress" if test["name"] in tagged["stress"] else "check"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("bin_dir")
    p.add_argument("--only", nargs="*")
    p.add_argument("--lab-only", action="store_true")
    p.add_argument("--repeat", type=int, default=20)
    p.add_argument("--jobs", type=int, default=1)
    a = p.parse_args()
    extra = ["--repeat", str(a.repeat)] + (["--lab-only"] if a.lab_only else [])
    bad = []
    mutants = sorted(f for f in os.listdir(a.bin_dir) if f.startswith("lab_mutant_"))
    if a.only:
        mutants = [m for m in mutants if any(m.endswith(o) or o in m for o in a.only)]
    labs = sorted({m.split("_")[2] for m in mutants})
    # Every grade started at once (up to --jobs), their verdicts printed in order.
    jobs = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs))
    references = {lab: jobs.submit(grade, lab, ["--grader", os.path.join(a.bin_dir, "lab_grade"), "--pool",
                                                REFERENCE[lab]], extra) for lab in labs}
    grades = {m: jobs.submit(grade, m.split("_")[2], ["--grader", os.path.join(a.bin_dir, m)], extra)
              for m in mutants}
    for lab in labs:  # the reference must pass, with the same options
        code, doc = references[lab].result()
        ok = code == 0 and doc["score"] == doc["max_score"] > 0
        print(f"{'ok  ' if ok else 'BAD '} reference {REFERENCE[lab]}: {doc['score']}/{doc['max_score']}", flush=True)
        if not ok:
            bad.append(REFERENCE[lab])
    for m in mutants:
        grader = os.path.join(a.bin_dir, m)
        tagged = {tag: set(subprocess.run([grader, "--list-test-names-only", f"[{tag}]"], capture_output=True,
                                          text=True).stdout.split("\n")) for tag in ("stress", "explore")}
        code, doc = grades[m].result()
        failed = [t for t in doc["tests"] if t["score"] < t["max_score"]]
        how = sorted({mechanism(t, tagged) for t in failed} - {None})
        caught = code != 0 and failed and set(how) - {"stress"}
        names = ", ".join(dict.fromkeys(
            t["name"].split(" ")[0] if not t["name"].startswith("conformance:") else "conformance"
            for t in failed if mechanism(t, tagged)))
        print(f"{'ok  ' if caught else 'BAD '} {m[len('lab_mutant_'):]}: "
              + (f"caught by {'+'.join(how)} ({names})" if caught
                 else f"caught only by luck: the stress checks ({names})" if failed else "PASSED the grader"),
              flush=True)
        if not caught:
            bad.append(m)
    if bad:
        print("not as expected: " + ", ".join(bad))
        return 1
    print(f"every mutant ({len(mutants)}) fails the grader; the references pass")
    return 0


if __name__ == "__main__":
    sys.exit(main())
