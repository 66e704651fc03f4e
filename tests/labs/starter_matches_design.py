#!/usr/bin/env python3
"""The lab 03 starter is pools/coremax/, copied: this test holds it there.

Compares each file of labs/03-keepalive/ with the file of the same name in
pools/coremax/, modulo what a copy must change: the namespace, the include
paths, the design's name (coremax / lab03-student / lab03 in thread names),
the opening comment (it says what the copy is), the lines between
`// lab 03 {` and `// } lab 03` (the parameters the lab adds, which the
design does not have), and spacing. Comments are compared like code: they
explain the design to the student, so an explanation fixed in one and not
the other is drift too.
registration.cpp is left out: it registers another name, with the lab's
parameters. A fix made to one and not the other fails here, with the diff.

  starter_matches_design.py REPO_ROOT [STARTER_DIR DESIGN_DIR]
"""
import difflib
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "."
starter = os.path.join(root, sys.argv[2] if len(sys.argv) > 2 else "labs/03-keepalive")
design = os.path.join(root, sys.argv[3] if len(sys.argv) > 3 else "pools/coremax")
SKIP = {"registration.cpp"}


def normalise(text):
    lines = text.splitlines()
    while lines and lines[0].startswith("//"):  # the opening comment
        lines.pop(0)
    out, lab_only = [], False
    for line in lines:
        s = line.strip()
        if s == "// lab 03 {":
            lab_only = True
            continue
        if s == "// } lab 03":
            lab_only = False
            continue
        if lab_only:
            continue
        line = line.replace("pools/coremax/", "DIR/").replace("labs/03-keepalive/", "DIR/")
        line = re.sub(r"\b(lab03-student|lab03|coremax)\b", "DESIGN", line)
        out.append(" ".join(line.split()))  # the formatter aligns trailing comments by the longest line near them
    return [l for l in out if l]


def split(lines):
    """The includes as a set (the formatter orders them by path, and the
    copy's own folder sorts elsewhere), and the rest in order."""
    return {l for l in lines if l.startswith("#include")}, [l for l in lines if not l.startswith("#include")]


problems = []
names = sorted(set(os.listdir(starter)) | set(os.listdir(design)))
for name in names:
    if name in SKIP or not name.endswith((".h", ".cpp")):
        continue
    a, b = os.path.join(design, name), os.path.join(starter, name)
    if not os.path.exists(a) or not os.path.exists(b):
        problems.append(f"{name}: only in {'the starter' if os.path.exists(b) else 'pools/coremax'}")
        continue
    da, db = normalise(open(a, encoding="utf-8").read()), normalise(open(b, encoding="utf-8").read())
    (ia, ba), (ib, bb) = split(da), split(db)
    if not ia <= ib:  # the copy may include more than the design (for its own additions), never less
        problems.append(f"{name}: the starter lacks {sorted(ia - ib)}")
    elif ba != bb:
        da, db = ba, bb
        diff = "\n".join(difflib.unified_diff(da, db, f"pools/coremax/{name}", f"labs/03-keepalive/{name}", lineterm="", n=1))
        problems.append(f"{name} differs:\n{diff}")

if problems:
    print("The lab 03 starter (labs/03-keepalive/) has drifted from pools/coremax/, of which it is a copy.")
    print("Make the same change in both (or mark a lab-only block with `// lab 03 {` ... `// } lab 03`):\n")
    print("\n\n".join(problems))
    sys.exit(1)
print(f"labs/03-keepalive/ matches pools/coremax/ ({len(names) - len(SKIP)} files, modulo names)")
