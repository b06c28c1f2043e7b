#!/usr/bin/env bash
# Replay of the recorded sessions against a Python pass that only parses them, side by side.
#
#   scripts/bench-replay.sh [RUNS]          # RUNS alternating rounds (default 11)
#
# Environment:
#   SEAMGUARD=path   the binary to measure (default: `cargo build --release` of this tree,
#                    ${CARGO_TARGET_DIR:-target}/release/seamguard)
#   BASE=path        a second binary (an earlier commit's), measured in the same rounds
#   INPUT=dir        the recordings (default data/recorded)
#   POLICY=dir       the policies (default policies, the balanced library)
#   VALGRIND=0       skip the instruction counts (callgrind, one thread; slow)
#
# Each round runs, one after the other: (a) `python3` parsing every file with `json.loads`
# (each line of a JSON Lines file, a `.json` file whole; nothing else), (b) `seamguard
# replay INPUT --policy POLICY > /dev/null`, (c) the same with BASE when given. Reported:
# the median wall time, its min–max, the median CPU time (user + system) of each, the ratio
# of the Python pass's median to each replay's, the load average before and after, and the
# instruction counts of each replay on one thread (RAYON_NUM_THREADS=1) when valgrind is
# installed. The replay output is compared between SEAMGUARD and BASE (text, JSON, JSONL).
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${1:-11}
INPUT=${INPUT:-data/recorded}
POLICY=${POLICY:-policies}
if [[ -z "${SEAMGUARD:-}" ]]; then
    cargo build --release --bin seamguard >&2
    SEAMGUARD="${CARGO_TARGET_DIR:-target}/release/seamguard"
fi
BASE=${BASE:-}

echo "machine: $(nproc) cores; $(uname -sr)"
echo "input: $INPUT ($(du -sh "$INPUT" | cut -f1)); policies: $POLICY"
echo "binary: $SEAMGUARD${BASE:+; base: $BASE}"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$RUNS" "$INPUT" "$POLICY" "$SEAMGUARD" "$BASE" <<'PY'
import os, statistics, sys, time

runs, inp, policy, binary, base = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
parse = r'''
import json, os, sys
def walk(d):
    for n in sorted(os.listdir(d)):
        p = os.path.join(d, n)
        if os.path.isdir(p):
            yield from walk(p)
        elif n.endswith((".jsonl", ".json")):
            yield p
n = 0
for p in walk(sys.argv[1]):
    with open(p, "rb") as f:
        if p.endswith(".json"):
            json.loads(f.read()); n += 1
        else:
            for line in f:
                if line.strip():
                    json.loads(line); n += 1
'''
commands = [("python parse only", ["python3", "-c", parse, inp])]
commands.append(("replay", [binary, "replay", inp, "--policy", policy]))
if base:
    commands.append(("replay (base)", [base, "replay", inp, "--policy", policy]))
devnull = os.open(os.devnull, os.O_WRONLY)

def once(argv):
    t = time.perf_counter()
    pid = os.posix_spawnp(argv[0], argv, os.environ,
                          file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1),
                                        (os.POSIX_SPAWN_DUP2, devnull, 2)])
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - t
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        sys.exit(f"{argv[0]} failed: {status}")
    return wall * 1e3, (ru.ru_utime + ru.ru_stime) * 1e3

for _, argv in commands:  # warm the page cache and the policy caches
    once(argv)
times = {name: [] for name, _ in commands}
for _ in range(runs):
    for name, argv in commands:
        times[name].append(once(argv))

print(f"\n{runs} alternating rounds (ms):\n")
print("| command | median wall | min–max wall | median CPU (user + sys) | Python ÷ this (median wall) |")
print("|---|---:|---:|---:|---:|")
py = statistics.median(w for w, _ in times["python parse only"])
for name, _ in commands:
    walls = [w for w, _ in times[name]]
    cpus = [c for _, c in times[name]]
    med = statistics.median(walls)
    print(f"| {name} | {med:.0f} | {min(walls):.0f}–{max(walls):.0f} | "
          f"{statistics.median(cpus):.0f} | {py / med:.2f} |")
PY

echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

if [[ -n "$BASE" ]]; then
    tmp=$(mktemp -d)
    same=yes
    for fmt in text json jsonl; do
        "$SEAMGUARD" replay "$INPUT" --policy "$POLICY" --format "$fmt" >"$tmp/new" 2>/dev/null || true
        "$BASE" replay "$INPUT" --policy "$POLICY" --format "$fmt" >"$tmp/old" 2>/dev/null || true
        cmp -s "$tmp/new" "$tmp/old" || { same=no; echo "output differs: --format $fmt"; }
    done
    rm -rf "$tmp"
    echo "output (text, json, jsonl) identical to the base: $same"
fi

if [[ "${VALGRIND:-1}" != 0 ]] && command -v valgrind >/dev/null; then
    echo
    echo "instructions, one thread (callgrind, RAYON_NUM_THREADS=1):"
    for b in "$SEAMGUARD" $BASE; do
        n=$(RAYON_NUM_THREADS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
            "$b" replay "$INPUT" --policy "$POLICY" 2>&1 >/dev/null |
            sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
        printf '  %s: %s\n' "$b" "$n"
    done
fi
