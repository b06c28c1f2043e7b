#!/usr/bin/env bash
# Whole-process benchmark of `seamguard hook` (see BENCHMARKS.md).
#
# Measures wall time (median, p90) and peak RSS of one hook invocation on a real
# PreToolUse payload, for:
#   baseline      the 20-rule policy benches/data/baseline-20.toml (stand-in for policies/)
#   +post1000     the same plus a file of 1,000 post-tool rules (a seam the call never
#                 touches): the load overhead the issue bounds at 2 ms
#   +pre1000      the same plus 1,000 pre-tool rules (the call compiles them): for scale
#   floor         `seamguard --version` (process spawn + runtime start, no policy)
#   library       the bundled balanced library (`--policy policies`, 8 files, 61 rules),
#                 lowered-policy cache warm (the state of every call after the first)
#   strict        balanced + `policies/strict` (17 files)
#
# Two timers: hyperfine (if installed; runs through a shell with `<` redirection and
# subtracts the shell's own start-up) and a small Python harness that posix_spawn()s the
# binary directly with stdin from the payload file and times spawn..wait4(). Peak RSS comes
# from /usr/bin/time -v (20 runs per scenario). (The harness does not report ru_maxrss: a
# child spawned from Python inherits Python's pre-exec RSS into its high-water mark.)
#
# Usage: scripts/bench-hook.sh [RUNS]     (default 200; SKIP_BUILD=1 to reuse the binary)
set -euo pipefail

cd "$(dirname "$0")/.."
RUNS="${1:-200}"
BIN="${SEAMGUARD:-target/release/seamguard}"
OUT="${OUT:-target/bench-hook}"
DATA=benches/data
mkdir -p "$OUT"

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    cargo build --release --quiet
fi

# --- generated policy files ------------------------------------------------------------
gen_rules() { # NAME SEAM BODY: a policy NAME of 1,000 SEAM rules, `BODY i` writing the rest of rule i
    echo '[policy]'
    echo "name = \"$1\""
    echo
    for ((i = 0; i < 1000; i++)); do
        echo '[[rule]]'
        echo "id = \"${2%-tool}-$i\""
        echo "seam = \"$2\""
        "$3" "$i"
        echo
    done
}
post_rule() { # contexts, redactions and feedback on distinct literals
    local i=$1
    case $((i % 4)) in
    0)
        echo 'tool = "Bash"'
        echo "when.command = { regex = '\\bdeploy-$i\\s+--env\\s+prod' }"
        echo "context = \"Deployment $i finished; check the dashboard.\""
        ;;
    1)
        echo 'tool = "Edit|Write"'
        echo "when.file_path = { glob = \"**/module_$i/**/*.rs\" }"
        echo "context = \"Run the tests of module $i.\""
        ;;
    2)
        echo 'tool = "Read|Bash"'
        echo "redact = [{ regex = 'tok_${i}_[A-Za-z0-9]{24}' }]"
        ;;
    3)
        echo 'tool = "Bash"'
        echo "when.command = { contains = \"migrate-$i\" }"
        echo "feedback = \"Migration $i ran; verify the schema.\""
        ;;
    esac
}
pre_rule() { # denies on distinct literals (none fires on the payloads)
    local i=$1
    case $((i % 4)) in
    0)
        echo 'tool = "Bash"'
        echo "when.command = { regex = '\\bdeploy\\s+svc-$i\\b' }"
        ;;
    1)
        echo 'tool = "Bash"'
        echo "when.command = { contains = \"kubectl delete ns team-$i\" }"
        ;;
    2)
        echo 'tool = "Edit|Write"'
        echo "when.file_path = { prefix = \"/srv/app-$i/\" }"
        ;;
    3)
        echo 'tool = "Read"'
        echo "when.file_path = { glob = \"**/vault-$i/**\" }"
        ;;
    esac
    echo 'decision = "deny"'
    echo "reason = \"generated rule $i\""
}
gen_post() { gen_rules post-tool-1000 post-tool post_rule; }
gen_pre() { gen_rules pre-tool-1000 pre-tool pre_rule; }
gen_post >"$OUT/post-tool-1000.toml"
gen_pre >"$OUT/pre-tool-1000.toml"
for f in "$DATA/baseline-20.toml" "$OUT/post-tool-1000.toml" "$OUT/pre-tool-1000.toml"; do
    "$BIN" check "$f" >/dev/null
done

GIT="$DATA/pre-tool-bash-git-status.json"
EDIT="$DATA/pre-tool-edit-source.json"
BASE="--policy $DATA/baseline-20.toml"
POST="$BASE --policy $OUT/post-tool-1000.toml"
PRE="$BASE --policy $OUT/pre-tool-1000.toml"
LIB="--policy policies"
STRICT="--policy policies --policy policies/strict"
# The lowered-policy cache lives in the state folder: keep it to this run.
export XDG_STATE_HOME="$OUT/state"
rm -rf "$XDG_STATE_HOME"
"$BIN" hook $LIB <"$GIT" >/dev/null 2>&1 || true
"$BIN" hook $STRICT <"$GIT" >/dev/null 2>&1 || true

# name | args | stdin
SCENARIOS=(
    "floor|--version|/dev/null"
    "baseline git-status|hook $BASE|$GIT"
    "baseline edit|hook $BASE|$EDIT"
    "+post1000 git-status|hook $POST|$GIT"
    "+pre1000 git-status|hook $PRE|$GIT"
    "library git-status|hook $LIB|$GIT"
    "library edit|hook $LIB|$EDIT"
    "strict git-status|hook $STRICT|$GIT"
)

echo "# seamguard hook whole-process benchmark"
echo "binary: $BIN ($(stat -c %s "$BIN") bytes), runs: $RUNS, nproc: $(nproc), cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "loadavg before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo

section() { # TITLE COLUMNS: a Markdown section and the head of its table (a scenario, then
    # the `|`-separated numeric COLUMNS)
    local rule="|---|"
    local n
    n=$(tr -cd '|' <<<"$2")
    for ((k = 0; k <= ${#n}; k++)); do rule+="---:|"; done
    echo "## $1"
    echo
    echo "| scenario | $2 |"
    echo "$rule"
}

# --- Python harness: posix_spawn + wait4 ---------------------------------------------------
section "posix_spawn harness (wall = spawn..wait4)" "median ms | p90 ms | min ms"
for s in "${SCENARIOS[@]}"; do
    IFS='|' read -r name args input <<<"$s"
    # shellcheck disable=SC2086
    python3 - "$RUNS" "$input" "$name" "$BIN" $args <<'PY'
import os, sys, time
runs, stdin_path, name, argv = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
devnull = os.open(os.devnull, os.O_WRONLY)
def once():
    fd = os.open(stdin_path, os.O_RDONLY)
    t = time.perf_counter_ns()
    pid = os.posix_spawn(argv[0], argv, os.environ,
        file_actions=[(os.POSIX_SPAWN_DUP2, fd, 0), (os.POSIX_SPAWN_DUP2, devnull, 1),
                      (os.POSIX_SPAWN_DUP2, devnull, 2)])
    os.waitpid(pid, 0)
    dt = time.perf_counter_ns() - t
    os.close(fd)
    return dt / 1e6
for _ in range(max(5, runs // 10)):
    once()
ts = sorted(once() for _ in range(runs))
q = lambda p: ts[min(len(ts) - 1, int(p * len(ts)))]
print(f"| {name} | {q(0.5):.3f} | {q(0.9):.3f} | {ts[0]:.3f} |")
PY
done
echo

# --- hyperfine --------------------------------------------------------------------------------
if command -v hyperfine >/dev/null; then
    section "hyperfine $(hyperfine --version | cut -d' ' -f2) (shell start-up subtracted)" \
        "median ms | p90 ms | mean ± σ ms"
    for s in "${SCENARIOS[@]}"; do
        IFS='|' read -r name args input <<<"$s"
        json="$OUT/hyperfine-${name//[^a-z0-9+]/_}.json"
        hyperfine --style none -w 20 -r "$RUNS" --export-json "$json" \
            "$BIN $args < $input > /dev/null 2>&1" >/dev/null 2>&1
        python3 - "$json" "$name" <<'PY'
import json, statistics, sys
r = json.load(open(sys.argv[1]))["results"][0]
ts = sorted(t * 1e3 for t in r["times"])
q = lambda p: ts[min(len(ts) - 1, int(p * len(ts)))]
print(f"| {sys.argv[2]} | {q(0.5):.3f} | {q(0.9):.3f} | {r['mean']*1e3:.3f} ± {r['stddev']*1e3:.3f} |")
PY
    done
    echo
else
    echo "(hyperfine not installed: only the harness above)"
    echo
fi

# --- /usr/bin/time -v cross-check -------------------------------------------------------------
if [[ -x /usr/bin/time ]]; then
    section "peak RSS, /usr/bin/time -v (20 runs each)" "median MiB | max MiB"
    for s in "${SCENARIOS[@]}"; do
        IFS='|' read -r name args input <<<"$s"
        for _ in $(seq 20); do
            # shellcheck disable=SC2086
            /usr/bin/time -v -o "$OUT/time.txt" "$BIN" $args <"$input" >/dev/null 2>&1 || true
            awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}' "$OUT/time.txt"
        done | sort -n | awk -v n="$name" '{a[NR]=$1} END {printf "| %s | %.2f | %.2f |\n", n, a[int((NR+1)/2)]/1024, a[NR]/1024}'
    done
    echo
fi
echo "loadavg after: $(cut -d' ' -f1-3 /proc/loadavg)"
