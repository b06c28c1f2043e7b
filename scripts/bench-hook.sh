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
#   lib bash/read/mcp/prompt/stop
#                 the balanced library on a Bash, Read, MCP, prompt and Stop payload, snapshot
#                 warm (issue 15's five payloads)
#   served …      the same calls answered by a resident `seamguard serve`, asked by
#                 `seamguard hook`
#   client …      the same calls answered by the same server, asked by the small client
#                 `seamguard-hook` (statically linked when the static build is available)
#   edited-one    the Bash call right after one policy file of the library was edited (the
#                 edit is made before each timed run, outside the timing)
#   cold          the Bash call with an empty cache folder (emptied before each run)
#   process floor a static Rust program built in the same run (`rustc -O`, crt-static) that
#                 reads stdin and prints a fixed JSON answer: what any per-event process costs
#   python hook   a 3-line Python hook (json + re) answering the same payload: what a hand-written
#                 hook costs
#
# Every `seamguard hook` scenario runs with `SEAMGUARD_SERVE=0` (cold: judged in its own
# process, no server started); the `served` and `client` ones with `SEAMGUARD_SERVE=ask`,
# against the server the small client started on its first call (as a host's first call does).
#
# The harness table ends with the ratio of each scenario's median to the process floor's
# median (same run). With valgrind installed, a last table counts each scenario's
# instructions with callgrind (repeatable whatever the load), beside the floor's.
#
# Two timers: hyperfine (if installed; runs through a shell with `<` redirection and
# subtracts the shell's own start-up) and a small Python harness that posix_spawn()s the
# binary directly with stdin from the payload file and times spawn..wait4(). Peak RSS comes
# from /usr/bin/time -v (20 runs per scenario). (The harness does not report ru_maxrss: a
# child spawned from Python inherits Python's pre-exec RSS into its high-water mark.)
#
# Usage: scripts/bench-hook.sh [RUNS]     (default 200; SKIP_BUILD=1 to reuse the binary;
#        SEAMGUARD=path/to/seamguard to measure another binary; CLIENT=path/to/seamguard-hook
#        for the small client, default: the static build below if present, else the one beside
#        SEAMGUARD; STATIC=1 to build both statically first (`-C target-feature=+crt-static`,
#        target x86_64-unknown-linux-gnu); ONLY_ISSUE15=1 for the issue-15 scenarios and the
#        floor only; ONLY_SUMMARY=1 for the floor, cold, served and Python side by side: issue 29)
#
# ONLY_SUMMARY=1 runs its scenarios interleaved: RUNS rounds, each round one call of every
# scenario (in a shuffled order), so a change in the machine's load falls on all of them alike;
# the table gives each scenario's median and its ratio to the floor's median of the same
# rounds. BEFORE=DIR adds the same cold and served scenarios for the `seamguard` and
# `seamguard-hook` binaries in DIR (an earlier build: `cargo build --release` on the earlier
# commit, its static client built as below; OLD_POLICIES=DIR for the library it was built
# with, when the current one uses keys it cannot read), each with a state folder and server of its own,
# in the same rounds, and a last table of the ratios to the floor before and after.
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
STATIC_DIR=target/x86_64-unknown-linux-gnu/release
if [[ "${STATIC:-0}" == 1 ]]; then
    RUSTFLAGS="-C target-feature=+crt-static" cargo build --release --quiet --target x86_64-unknown-linux-gnu
fi
if [[ -z "${CLIENT:-}" ]]; then
    if [[ -x "$STATIC_DIR/seamguard-hook" ]]; then
        CLIENT="$STATIC_DIR/seamguard-hook"
    else
        # The small client has no dependencies: a static build of its two source files with
        # rustc takes seconds (a static cargo build rebuilds the whole workspace), else the
        # dynamic one beside $BIN.
        CLIENT="$OUT/seamguard-hook-static"
        VERSION=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
        RS=(rustc --edition 2024 -O -C target-feature=+crt-static -C codegen-units=1)
        "${RS[@]}" --crate-type rlib --crate-name seamguard_client client/src/lib.rs \
            -o "$OUT/libseamguard_client.rlib" 2>/dev/null &&
            CARGO_PKG_VERSION="$VERSION" "${RS[@]}" -C lto=fat --crate-name seamguard_hook \
                src/bin/seamguard-hook.rs --extern seamguard_client="$OUT/libseamguard_client.rlib" \
                -o "$CLIENT" 2>/dev/null ||
            CLIENT="$(dirname "$BIN")/seamguard-hook"
    fi
fi
# The small client hands unserved calls to this binary.
export SEAMGUARD_BIN="$BIN"
# Cold unless a scenario says otherwise: no server is asked or started.
export SEAMGUARD_SERVE=0

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

# --- the process floor: a static program that reads stdin and answers -----------------------
FLOOR="$OUT/process-floor"
cat >"$OUT/process-floor.rs" <<'RS'
use std::io::{Read, Write};
fn main() {
    let mut input = Vec::new();
    let _ = std::io::stdin().read_to_end(&mut input);
    let _ = std::io::stdout().write_all(b"{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\"}}\n");
}
RS
rustc -O -C target-feature=+crt-static -C panic=abort -o "$FLOOR" "$OUT/process-floor.rs" 2>/dev/null ||
    rustc -O -o "$FLOOR" "$OUT/process-floor.rs"

# --- issue 15 payloads and states ---------------------------------------------------------------
READ="$OUT/read.json"
MCP="$OUT/mcp.json"
PROMPT="$OUT/prompt.json"
STOP="$OUT/stop.json"
P='"session_id":"bench-15","transcript_path":"/tmp/t.jsonl","cwd":"/home/user/project"'
printf '{%s,"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/home/user/project/src/main.rs"}}\n' "$P" >"$READ"
printf '{%s,"hook_event_name":"PreToolUse","tool_name":"mcp__github__create_issue","tool_input":{"owner":"o","repo":"r","title":"Flaky test","body":"The replay test fails on CI"}}\n' "$P" >"$MCP"
printf '{%s,"hook_event_name":"UserPromptSubmit","prompt":"Run the tests and fix what fails"}\n' "$P" >"$PROMPT"
printf '{%s,"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"All tests pass."}\n' "$P" >"$STOP"
# A copy of the library whose first file is edited before each run of `edited-one` (with a
# state folder of its own, so its new snapshots do not push the others' out of the bounded
# cache), and a state folder emptied before each run of `cold`.
EDITLIB="$OUT/lib-edit"
rm -rf "$EDITLIB"
cp -r policies "$EDITLIB"
EDITED="$(ls "$EDITLIB"/*.toml | head -1)"
EDITARGS="--policy $EDITLIB"
COLDSTATE="$OUT/state-cold"
# The resident server of the `served` and `client` scenarios: started by the small client's
# first call, as a host's first call starts it (same arguments, folder and environment).
SERVESTATE="$OUT/state-served"
rm -rf "$SERVESTATE"
XDG_STATE_HOME="$SERVESTATE" SEAMGUARD_SERVE=auto SEAMGUARD_SERVE_IDLE_SECS=3600 \
    "$CLIENT" $LIB <"$GIT" >/dev/null 2>&1 || true
for _ in $(seq 300); do
    ls "$SERVESTATE"/seamguard/serve/*.sock >/dev/null 2>&1 && break
    sleep 0.1
done
SERVER=$( (XDG_STATE_HOME="$SERVESTATE" "$BIN" status --format json 2>/dev/null || true) |
    python3 -c 'import json,sys; print(next(s["server"]["pid"] for s in json.load(sys.stdin)["servers"] if s["server"]))')
trap 'kill "$SERVER" 2>/dev/null || true' EXIT
# The 3-line Python hook.
PYHOOK="$OUT/python-hook.py"
cat >"$PYHOOK" <<'PY'
import json, re, sys
d = json.load(sys.stdin)
print(json.dumps({"hookSpecificOutput": {"hookEventName": d["hook_event_name"], "permissionDecision": "deny" if re.search(r"\brm\s+-rf\b", d.get("tool_input", {}).get("command", "")) else "allow"}}))
PY
PYTHON="$(command -v python3)"

# name | args | stdin | command run before each timed run (untimed) | extra environment
ISSUE15=(
    "process floor|$FLOOR|$GIT||"
    "lib bash|hook $LIB|$GIT||"
    "lib read|hook $LIB|$READ||"
    "lib mcp|hook $LIB|$MCP||"
    "lib prompt|hook $LIB|$PROMPT||"
    "lib stop|hook $LIB|$STOP||"
    "served bash|hook $LIB|$GIT||XDG_STATE_HOME=$SERVESTATE SEAMGUARD_SERVE=ask"
    "served read|hook $LIB|$READ||XDG_STATE_HOME=$SERVESTATE SEAMGUARD_SERVE=ask"
    "served mcp|hook $LIB|$MCP||XDG_STATE_HOME=$SERVESTATE SEAMGUARD_SERVE=ask"
    "served prompt|hook $LIB|$PROMPT||XDG_STATE_HOME=$SERVESTATE SEAMGUARD_SERVE=ask"
    "served stop|hook $LIB|$STOP||XDG_STATE_HOME=$SERVESTATE SEAMGUARD_SERVE=ask"
    "client bash|@client $LIB|$GIT||XDG_STATE_HOME=$SERVESTATE SEAMGUARD_SERVE=ask"
    "client read|@client $LIB|$READ||XDG_STATE_HOME=$SERVESTATE SEAMGUARD_SERVE=ask"
    "client mcp|@client $LIB|$MCP||XDG_STATE_HOME=$SERVESTATE SEAMGUARD_SERVE=ask"
    "client prompt|@client $LIB|$PROMPT||XDG_STATE_HOME=$SERVESTATE SEAMGUARD_SERVE=ask"
    "client stop|@client $LIB|$STOP||XDG_STATE_HOME=$SERVESTATE SEAMGUARD_SERVE=ask"
    "edited-one bash|hook $EDITARGS|$GIT|echo \"# edit \$RANDOM\$RANDOM\" >> $EDITED|XDG_STATE_HOME=$OUT/state-edit"
    "cold bash|hook $LIB|$GIT|rm -rf $COLDSTATE|XDG_STATE_HOME=$COLDSTATE"
)
OLDER=(
    "floor|--version|/dev/null||"
    "baseline git-status|hook $BASE|$GIT||"
    "baseline edit|hook $BASE|$EDIT||"
    "+post1000 git-status|hook $POST|$GIT||"
    "+pre1000 git-status|hook $PRE|$GIT||"
    "library git-status|hook $LIB|$GIT||"
    "library edit|hook $LIB|$EDIT||"
    "strict git-status|hook $STRICT|$GIT||"
)
# Issue 29: the process floor, the cold hook, the small client answered by the server it
# started, and a 3-line Python hook, on the Bash, Read and prompt payloads.
SUMMARY=(
    "process floor|$FLOOR|$GIT||"
    "cold bash|hook $LIB|$GIT||"
    "cold read|hook $LIB|$READ||"
    "cold prompt|hook $LIB|$PROMPT||"
    "served bash|@client $LIB|$GIT||XDG_STATE_HOME=$SERVESTATE SEAMGUARD_SERVE=ask"
    "served read|@client $LIB|$READ||XDG_STATE_HOME=$SERVESTATE SEAMGUARD_SERVE=ask"
    "served prompt|@client $LIB|$PROMPT||XDG_STATE_HOME=$SERVESTATE SEAMGUARD_SERVE=ask"
    "python hook|@python|$GIT||"
)
# BEFORE=DIR: the cold and served scenarios again with the binaries in DIR, their snapshots
# in a state folder of their own (the snapshot format may differ between the builds), their
# served calls answered by a server their own client started.
if [[ -n "${BEFORE:-}" ]]; then
    OLDBIN="$BEFORE/seamguard"
    OLDCLIENT="$BEFORE/seamguard-hook"
    [[ -x $OLDBIN && -x $OLDCLIENT ]] || {
        echo "BEFORE=$BEFORE must hold seamguard and seamguard-hook" >&2
        exit 2
    }
    # OLD_POLICIES=DIR: the earlier build reads its own library (one it can load); default
    # this checkout's.
    OLDLIB="--policy ${OLD_POLICIES:-policies}"
    OLDSTATE="$OUT/state-before"
    OLDSERVESTATE="$OUT/state-served-before"
    rm -rf "$OLDSTATE" "$OLDSERVESTATE"
    XDG_STATE_HOME="$OLDSERVESTATE" SEAMGUARD_BIN="$OLDBIN" SEAMGUARD_SERVE=auto \
        SEAMGUARD_SERVE_IDLE_SECS=3600 "$OLDCLIENT" $OLDLIB <"$GIT" >/dev/null 2>&1 || true
    for _ in $(seq 300); do
        ls "$OLDSERVESTATE"/seamguard/serve/*.sock >/dev/null 2>&1 && break
        sleep 0.1
    done
    OLDSERVER=$( (XDG_STATE_HOME="$OLDSERVESTATE" "$OLDBIN" status --format json 2>/dev/null || true) |
        python3 -c 'import json,sys; print(next(s["server"]["pid"] for s in json.load(sys.stdin)["servers"] if s["server"]))')
    trap 'kill "$SERVER" "$OLDSERVER" 2>/dev/null || true' EXIT
    for s in "cold bash|$GIT" "cold read|$READ" "cold prompt|$PROMPT"; do
        SUMMARY+=("${s%%|*} (before)|@old hook $OLDLIB|${s#*|}||XDG_STATE_HOME=$OLDSTATE")
    done
    for s in "served bash|$GIT" "served read|$READ" "served prompt|$PROMPT"; do
        SUMMARY+=("${s%%|*} (before)|@oldclient $OLDLIB|${s#*|}||XDG_STATE_HOME=$OLDSERVESTATE SEAMGUARD_BIN=$OLDBIN SEAMGUARD_SERVE=ask")
    done
fi
if [[ "${ONLY_SUMMARY:-0}" == 1 ]]; then
    SCENARIOS=("${SUMMARY[@]}")
elif [[ "${ONLY_ISSUE15:-0}" == 1 ]]; then
    SCENARIOS=("${ISSUE15[@]}")
else
    SCENARIOS=("${ISSUE15[@]}" "${OLDER[@]}")
fi
# The argv of a scenario: the floor program stands alone, `@client ARGS` runs the small
# client with ARGS, the others run the binary.
argv_of() { # args
    if [[ $1 == "$FLOOR" ]]; then
        echo "$FLOOR"
    elif [[ $1 == @client* ]]; then
        echo "$CLIENT ${1#@client }"
    elif [[ $1 == @python ]]; then
        echo "$PYTHON $PYHOOK"
    elif [[ $1 == @oldclient* ]]; then
        echo "$OLDCLIENT ${1#@oldclient }"
    elif [[ $1 == @old* ]]; then
        echo "$OLDBIN ${1#@old }"
    else
        echo "$BIN $1"
    fi
}

# Warm every cache the timed runs read.
for s in "${SCENARIOS[@]}"; do
    IFS='|' read -r name args input prep envs <<<"$s"
    # shellcheck disable=SC2046,SC2086
    env $envs $(argv_of "$args") <"$input" >/dev/null 2>&1 || true
done
echo "# seamguard hook whole-process benchmark"
echo "binary: $BIN ($(stat -c %s "$BIN") bytes), client: $CLIENT ($(stat -c %s "$CLIENT") bytes, $(file -b "$CLIENT" | grep -o 'statically linked\|static-pie linked\|dynamically linked')), runs: $RUNS, nproc: $(nproc), cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
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

# --- interleaved harness (ONLY_SUMMARY=1): rounds of one call of every scenario ----------------
if [[ "${ONLY_SUMMARY:-0}" == 1 ]]; then
    : >"$OUT/interleaved.tsv"
    for s in "${SCENARIOS[@]}"; do
        IFS='|' read -r name args input prep envs <<<"$s"
        # shellcheck disable=SC2046
        printf '%s\t%s\t%s\t%s\n' "$name" "$envs" "$input" "$(argv_of "$args")" >>"$OUT/interleaved.tsv"
    done
    section "interleaved rounds (posix_spawn harness, wall = spawn..wait4)" "median ms | p90 ms | min ms | median / process floor | min / floor's min"
    python3 - "$RUNS" "$OUT/interleaved.tsv" <<'PY'
import os, random, sys
sys.dont_write_bytecode = True
sys.path.insert(0, "scripts")
from spawn_timing import spawn_ms
runs, spec = int(sys.argv[1]), sys.argv[2]
scen = []
for line in open(spec):
    name, envs, stdin_path, argv = line.rstrip("\n").split("\t")
    env = dict(os.environ)
    for kv in envs.split():
        k, v = kv.split("=", 1)
        env[k] = v
    scen.append((name, env, stdin_path, argv.split()))
def once(s):
    name, env, stdin_path, argv = s
    return spawn_ms(argv, env, stdin_path)
for s in scen:  # warm-up
    for _ in range(3):
        once(s)
times = {s[0]: [] for s in scen}
rng = random.Random(29)
for _ in range(runs):
    order = list(scen)
    rng.shuffle(order)
    for s in order:
        times[s[0]].append(once(s))
med = {}
for n, ts in times.items():
    ts.sort()
    med[n] = ts[len(ts) // 2]
floor = med.get("process floor")
fmin = times["process floor"][0] if "process floor" in times else None
for n, ts in times.items():
    q = lambda p: ts[min(len(ts) - 1, int(p * len(ts)))]
    r = f"{med[n] / floor:.2f}×" if floor else "–"
    rm = f"{ts[0] / fmin:.2f}×" if fmin else "–"
    print(f"| {n} | {med[n]:.3f} | {q(0.9):.3f} | {ts[0]:.3f} | {r} | {rm} |")
pairs = [(n, n + " (before)") for n in times if n + " (before)" in times]
if pairs and floor:
    # The minimums are the least disturbed by the machine's load; the medians are what a
    # call met in these rounds.
    print()
    print("## before → after (ratio to the process floor, same rounds)")
    print()
    print("| scenario | median before | median after | min before | min after | median after / before |")
    print("|---|---:|---:|---:|---:|---:|")
    for a, b in pairs:
        mb, ma = times[b][0], times[a][0]
        print(f"| {a} | {med[b] / floor:.2f}× | {med[a] / floor:.2f}× | {mb / fmin:.2f}× | {ma / fmin:.2f}× | {med[a] / med[b]:.2f} |")
PY
    echo
fi

# --- Python harness: posix_spawn + wait4 ---------------------------------------------------
# (ONLY_SUMMARY=1: the interleaved rounds above take its place.)
if [[ "${ONLY_SUMMARY:-0}" != 1 ]]; then
section "posix_spawn harness (wall = spawn..wait4)" "median ms | p90 ms | min ms | max ms | median / process floor"
: >"$OUT/medians.txt"
for s in "${SCENARIOS[@]}"; do
    IFS='|' read -r name args input prep envs <<<"$s"
    # shellcheck disable=SC2046,SC2086
    env $envs python3 - "$RUNS" "$input" "$name" "$prep" "$OUT/medians.txt" $(argv_of "$args") <<'PY'
import os, subprocess, sys
sys.dont_write_bytecode = True
sys.path.insert(0, "scripts")
from spawn_timing import spawn_ms
runs, stdin_path, name, prep, medians, argv = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6:]
def once():
    if prep:
        subprocess.run(prep, shell=True, check=False)
    return spawn_ms(argv, os.environ, stdin_path)
for _ in range(max(5, runs // 10)):
    once()
ts = sorted(once() for _ in range(runs))
q = lambda p: ts[min(len(ts) - 1, int(p * len(ts)))]
floor = None
with open(medians) as f:
    for line in f:
        n, m = line.rsplit(" ", 1)
        if n == "process floor":
            floor = float(m)
with open(medians, "a") as f:
    f.write(f"{name} {q(0.5)}\n")
ratio = f"{q(0.5) / floor:.2f}×" if floor else "–"
print(f"| {name} | {q(0.5):.3f} | {q(0.9):.3f} | {ts[0]:.3f} | {ts[-1]:.3f} | {ratio} |")
PY
done
echo
fi

# --- callgrind: instructions per call ---------------------------------------------------------
if command -v valgrind >/dev/null; then
    section "instructions per call (callgrind; the server's own work is not counted)" "instructions | / process floor"
    floor_ins=""
    for s in "${SCENARIOS[@]}"; do
        IFS='|' read -r name args input prep envs <<<"$s"
        [[ -n $prep ]] && bash -c "$prep"
        # shellcheck disable=SC2046,SC2086
        ins=$(env $envs valgrind --tool=callgrind --callgrind-out-file=/dev/null $(argv_of "$args") <"$input" 2>&1 >/dev/null |
            sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
        if [[ -z $ins || $ins == 0 ]]; then
            printf '| %s | – | – |\n' "$name"
            continue
        fi
        [[ $name == "process floor" ]] && floor_ins=$ins
        ratio="–"
        [[ -n $floor_ins && -n $ins ]] && ratio="$(printf '%.1f' "$(echo "$ins / $floor_ins" | bc -l)")×"
        printf '| %s | %s | %s |\n' "$name" "$(printf "%'d" "$ins")" "$ratio"
    done
    echo
fi

# --- hyperfine --------------------------------------------------------------------------------
if command -v hyperfine >/dev/null; then
    section "hyperfine $(hyperfine --version | cut -d' ' -f2) (shell start-up subtracted)" \
        "median ms | p90 ms | mean ± σ ms"
    for s in "${SCENARIOS[@]}"; do
        IFS='|' read -r name args input prep envs <<<"$s"
        json="$OUT/hyperfine-${name//[^a-z0-9+]/_}.json"
        prepare=()
        [[ -n $prep ]] && prepare=(--prepare "$prep")
        env $envs hyperfine --style none -w 20 -r "$RUNS" "${prepare[@]}" --export-json "$json" \
            "$(argv_of "$args") < $input > /dev/null 2>&1" >/dev/null 2>&1
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
        IFS='|' read -r name args input prep envs <<<"$s"
        for _ in $(seq 20); do
            [[ -n $prep ]] && bash -c "$prep"
            # shellcheck disable=SC2046,SC2086
            env $envs /usr/bin/time -v -o "$OUT/time.txt" $(argv_of "$args") <"$input" >/dev/null 2>&1 || true
            awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}' "$OUT/time.txt"
        done | sort -n | awk -v n="$name" '{a[NR]=$1} END {printf "| %s | %.2f | %.2f |\n", n, a[int((NR+1)/2)]/1024, a[NR]/1024}'
    done
    echo
fi
echo "loadavg after: $(cut -d' ' -f1-3 /proc/loadavg)"
