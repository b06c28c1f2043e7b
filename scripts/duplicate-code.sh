#!/usr/bin/env bash
# Duplicated-code pairs across the workspace, as a report (exit 0 whatever the count).
#
# Usage: scripts/duplicate-code.sh [MIN_LINES]    (MIN_LINES: default 6)
#        DUPLICATE_CODE_MAX=N scripts/duplicate-code.sh   (fail, exit 1, when more than N pairs)
#
# Runs the copy/paste detector jscpd (pinned version, through npx) over the tracked Rust, TOML,
# shell and Python sources, leaving out build output and recorded data. Prints each pair as
# `file:first-last <-> file:first-last (N lines)`, then the count of pairs. Exit 2 when the
# detector cannot run (no npx, or it failed).
set -euo pipefail
cd "$(dirname "$0")/.."

JSCPD_VERSION=5.3.2
min_lines="${1:-6}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

command -v npx >/dev/null 2>&1 || { echo "duplicate-code: npx not found (Node.js's npm)"; exit 2; }
if ! npx --yes "jscpd@$JSCPD_VERSION" --silent --min-lines "$min_lines" \
  --format rust,toml,bash,python --reporters json --output "$out" \
  --ignore '**/target/**,**/data/**,**/.git/**,**/node_modules/**,fuzz/corpus/**' . >"$out/log" 2>&1; then
  cat "$out/log"
  echo "duplicate-code: jscpd@$JSCPD_VERSION failed"
  exit 2
fi

python3 - "$out/jscpd-report.json" "${DUPLICATE_CODE_MAX:-}" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
pairs = sorted(
    (d["firstFile"]["name"], d["firstFile"]["start"], d["firstFile"]["end"],
     d["secondFile"]["name"], d["secondFile"]["start"], d["secondFile"]["end"], d["lines"])
    for d in report["duplicates"]
)
for a, a0, a1, b, b0, b1, n in pairs:
    print(f"{a}:{a0}-{a1} <-> {b}:{b0}-{b1} ({n} lines)")
total = report["statistics"]["total"]
print(f"duplicate-code: {len(pairs)} pair(s), {total['duplicatedLines']} duplicated of {total['lines']} lines")
limit = sys.argv[2]
if limit and len(pairs) > int(limit):
    print(f"duplicate-code: more than DUPLICATE_CODE_MAX={limit} pairs")
    sys.exit(1)
PY
