#!/usr/bin/env bash
# Compare two seamguard binaries on the work every user pays for: one `seamguard hook` call
# (whole process) and a replay of the bundled recorded sessions.
#
# Two figures per scenario, each as a ratio NEW / OLD:
#   instructions  counted by valgrind's callgrind (repeatable: the same binary, input and
#                 environment give the same count, however busy the machine is)
#   wall ms       median of RUNS whole-process runs, the two binaries alternating pair by
#                 pair (noisy on a shared machine; read it beside the instruction count)
#
# Usage: scripts/bench-compare.sh OLD_BIN NEW_BIN [RUNS]   (default 30 runs)
# Build the old binary from another checkout, e.g.
#   git worktree add /tmp/old <rev> && (cd /tmp/old && cargo build --release)
# When the policy library changed too, give the old binary its own library:
#   OLD_POLICIES=/tmp/old/policies scripts/bench-compare.sh …
set -euo pipefail
cd "$(dirname "$0")/.."
OLD="$1"
NEW="$2"
RUNS="${3:-30}"
DATA=benches/data
OUT=target/bench-compare
mkdir -p "$OUT"
command -v valgrind >/dev/null || { echo "valgrind is needed (apt-get install -y valgrind)"; exit 1; }

PROMPT="$OUT/prompt.json"
printf '%s\n' '{"session_id":"s","transcript_path":"/tmp/t.jsonl","cwd":"/home/user/project","hook_event_name":"UserPromptSubmit","prompt":"Run the tests and fix what fails"}' >"$PROMPT"

# name | args | stdin
SCENARIOS=(
    "floor (--version)|--version|/dev/null"
    "hook: Bash git status, library|hook --policy policies|$DATA/pre-tool-bash-git-status.json"
    "hook: Edit, library|hook --policy policies|$DATA/pre-tool-edit-source.json"
    "hook: prompt, library|hook --policy policies|$PROMPT"
    "hook: Bash git status, strict|hook --policy policies --policy policies/strict|$DATA/pre-tool-bash-git-status.json"
    "replay: 19 sessions, library|replay data/recorded --policy policies|/dev/null"
)

# The arguments for one binary: the old one reads OLD_POLICIES (default: this checkout's).
args_for() { # which args
    if [[ $1 == old && -n ${OLD_POLICIES:-} ]]; then
        echo "${2//policies/$OLD_POLICIES}"
    else
        echo "$2"
    fi
}

# Each binary keeps its own lowered-policy cache, warmed once (the state of every call after
# the first).
state() { echo "$OUT/state-$1"; }
for which in old new; do
    bin=$OLD; [[ $which == new ]] && bin=$NEW
    rm -rf "$(state $which)"
    XDG_STATE_HOME="$(state $which)" "$bin" $(args_for $which "hook --policy policies") <"$DATA/pre-tool-bash-git-status.json" >/dev/null 2>&1 || true
    XDG_STATE_HOME="$(state $which)" "$bin" $(args_for $which "hook --policy policies --policy policies/strict") <"$DATA/pre-tool-bash-git-status.json" >/dev/null 2>&1 || true
done

instructions() { # which bin args stdin
    XDG_STATE_HOME="$(state "$1")" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        "$2" $(args_for "$1" "$3") <"$4" 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

wall_ms() { # which bin args stdin -> one run in ms
    local t0 t1
    t0=$(date +%s%N)
    XDG_STATE_HOME="$(state "$1")" "$2" $(args_for "$1" "$3") <"$4" >/dev/null 2>&1 || true
    t1=$(date +%s%N)
    echo $(((t1 - t0) / 1000))
}

median() { sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.2f", m/1000}'; }

echo "# seamguard: $NEW vs $OLD"
echo "nproc $(nproc), load average $(cut -d' ' -f1-3 /proc/loadavg), $RUNS wall-time runs per binary"
echo
echo "| scenario | instructions old | instructions new | new/old | wall ms old | wall ms new | new/old |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for s in "${SCENARIOS[@]}"; do
    IFS='|' read -r name args stdin <<<"$s"
    io=$(instructions old "$OLD" "$args" "$stdin")
    in=$(instructions new "$NEW" "$args" "$stdin")
    : >"$OUT/old.t"
    : >"$OUT/new.t"
    for ((i = 0; i < RUNS; i++)); do
        wall_ms old "$OLD" "$args" "$stdin" >>"$OUT/old.t"
        wall_ms new "$NEW" "$args" "$stdin" >>"$OUT/new.t"
    done
    wo=$(median <"$OUT/old.t")
    wn=$(median <"$OUT/new.t")
    printf '| %s | %s | %s | %.3f | %s | %s | %.3f |\n' "$name" \
        "$(printf "%'d" "$io")" "$(printf "%'d" "$in")" "$(echo "$in / $io" | bc -l)" \
        "$wo" "$wn" "$(echo "$wn / $wo" | bc -l)"
done

# The replay on several cores: callgrind counts every thread's instructions into the total
# above (the files' session scan included). Per thread, the longest is what the wall time
# follows when every core is free: the critical path of the replay.
echo
echo "| replay, per thread | old: main + longest other | new: main + longest other | threads new |"
echo "|---|---:|---:|---:|"
per_thread() { # which bin -> "critical-path threads"
    local dir="$OUT/threads-$1"
    rm -rf "$dir"
    mkdir -p "$dir"
    XDG_STATE_HOME="$(state "$1")" valgrind --tool=callgrind --separate-threads=yes \
        --callgrind-out-file="$dir/cg.out" "$2" $(args_for "$1" "replay data/recorded --policy policies") \
        >/dev/null 2>&1 || true
    # cg.out-01 is the main thread; the others are the workers.
    awk '/^summary:/ {print FILENAME, $2}' "$dir"/cg.out-* | sort |
        awk '{n++; if ($1 ~ /-01$/) main = $2; else if ($2 > w) w = $2} END {printf "%.0f %d", main + w, n}'
}
read -r po _ <<<"$(per_thread old "$OLD")"
read -r pn tn <<<"$(per_thread new "$NEW")"
printf '| replay: 19 sessions, library | %s | %s | %s |\n' "$(printf "%'d" "$po")" "$(printf "%'d" "$pn")" "$tn"
