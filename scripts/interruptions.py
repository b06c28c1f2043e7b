#!/usr/bin/env python3
"""Interruptions a person would see, per recorded session, from `seamguard replay` reports.

Usage:
    seamguard replay DIR --policy policies --format json --no-approvals > before.json
    seamguard replay DIR --policy policies --format json > after.json
    python3 scripts/interruptions.py before.json after.json

Each argument is a replay JSON report (schema `seamguard.replay/1`). For each recorded file it
prints the pre-tool events and the interruptions (asks shown plus denies: pre-tool decisions
`ask`, `deny` or `defer`; a decision an earlier approval covered has verdict `allow` and
`approved_by`, so it is no interruption), then the totals per 1,000 pre-tool events. Reports
of older versions (no `files[].pre_tool`) are counted from their `decisions` and `files`,
with the pre-tool events of the newest report given for the same file.

Standard library only; exit 2 on an unreadable report.
"""

import json
import sys

STOPS = {"ask", "deny", "defer"}


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            report = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"interruptions.py: {path}: {e}")
    per_file = {}
    pre_tool = {}
    for f in report.get("files", []):
        per_file[f["path"]] = 0
        if "pre_tool" in f:
            pre_tool[f["path"]] = f["pre_tool"]
    for d in report.get("decisions", []):
        if d.get("seam") == "pre-tool" and d.get("verdict") in STOPS:
            per_file[d["file"]] = per_file.get(d["file"], 0) + 1
    return per_file, pre_tool


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    reports = [load(p) for p in argv[1:]]
    pre_tool = {}
    for _, p in reports:
        pre_tool.update(p)
    files = sorted(set().union(*(r for r, _ in reports)))
    head = "file".ljust(44) + "pre-tool" + "".join(f"  {'#' + str(i + 1):>6}" for i in range(len(reports)))
    print(head)
    totals = [0] * len(reports)
    events = 0
    for f in files:
        n = pre_tool.get(f)
        events += n or 0
        counts = [r.get(f, 0) for r, _ in reports]
        for i, c in enumerate(counts):
            totals[i] += c
        shown = "?" if n is None else str(n)
        print(f.ljust(44) + shown.rjust(8) + "".join(f"  {c:>6}" for c in counts))
    print("total".ljust(44) + str(events).rjust(8) + "".join(f"  {c:>6}" for c in totals))
    if events:
        rates = "".join(f"  {c * 1000 / events:>6.1f}" for c in totals)
        print("per 1,000 pre-tool events".ljust(52) + rates)


if __name__ == "__main__":
    main(sys.argv)
