#!/usr/bin/env python3
"""The team report (scripts/team-report.sql) run with DuckDB's Python package.

    python3 scripts/team-report.py TEAM_DIR
        Print the report of a folder of audit logs and replay outputs, one folder per person
        (see the head of team-report.sql).

    python3 scripts/team-report.py --bundled --bin target/debug/seamguard [--rewrite]
        Build a team folder from the bundled data (below) in a temporary folder, print its
        report, and compare it with the one shown in docs/src/team-report.md: exit 1 when they
        differ (--rewrite writes the new one into the page instead).

The bundled team, judged by the bundled library's strict profile (policies/ and
policies/strict/):
  ana, ben  audit logs written by `seamguard hook` on the Claude Code hook inputs of
            data/fresh/hooklog-5/-9 (ana) and -11 (ben); after each call the hook asks
            about, the person is taken to say yes: the PostToolUse of that call is sent too
            (the call ran), so later asks of the same concerns in the session are approved;
  cleo, dev the output of `seamguard replay --format jsonl` on the recorded Codex (cleo) and
            Claude Code (dev) sessions of data/recorded/.

Needs the `duckdb` Python package (`pip install duckdb`).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SQL = ROOT / "scripts" / "team-report.sql"
PAGE = ROOT / "docs" / "src" / "team-report.md"
BEGIN = "<!-- team-report: begin (scripts/team-report.py --bundled --rewrite) -->"
END = "<!-- team-report: end -->"
# The strict profile: the bundled library and policies/strict/.
POLICIES = ["--policy", str(ROOT / "policies"), "--policy", str(ROOT / "policies" / "strict")]


def statements(sql):
    """The statements of the SQL file, each with the title of the `-- ## ` comment before it."""
    out, title, current = [], None, []
    for line in sql.splitlines():
        if line.startswith("-- ## "):
            title = line[len("-- ## "):].strip()
        if line.startswith("--") and not current:
            continue
        current.append(line)
        if line.rstrip().endswith(";"):
            out.append((title, "\n".join(current)))
            title, current = None, []
    return out


def table(columns, rows):
    """A plain text table: a header, a rule, the rows; numbers right-aligned."""
    def cell(v):
        if v is None:
            return ""
        if isinstance(v, float):
            return f"{v:.1f}"
        return str(v)

    text = [[cell(v) for v in r] for r in rows]
    widths = [max([len(c)] + [len(r[i]) for r in text]) for i, c in enumerate(columns)]
    numeric = [all(isinstance(r[i], (int, float)) for r in rows) and rows for i in range(len(columns))]

    def line(cells):
        parts = [c.rjust(w) if n else c.ljust(w) for c, w, n in zip(cells, widths, numeric)]
        return "  ".join(parts).rstrip()

    return "\n".join([line(columns), line(["-" * w for w in widths])] + [line(r) for r in text])


def report(team):
    """The report of the folder `team`, as text."""
    import duckdb

    con = duckdb.connect()
    cwd = os.getcwd()
    os.chdir(team)
    try:
        parts = []
        for title, stmt in statements(SQL.read_text()):
            cur = con.execute(stmt)
            if title is None:
                continue
            columns = [d[0] for d in cur.description]
            parts.append(f"{title}\n\n{table(columns, cur.fetchall())}\n")
        return "\n".join(parts)
    finally:
        os.chdir(cwd)


def run(args, stdin=None, env=None, cwd=None):
    """Run a command; its stdout. Exit 1 and 2 are answers (replay found something, a hook
    denied); anything else stops the script."""
    p = subprocess.run(args, input=stdin, capture_output=True, env=env, cwd=cwd)
    if p.returncode not in (0, 1, 2):
        sys.exit(f"{' '.join(map(str, args))}: exit {p.returncode}: {p.stderr.decode(errors='replace')}")
    return p.stdout


def audit_person(bin_path, team, person, hooklogs):
    """`seamguard hook` on every hook input of `hooklogs`, the person saying yes to each ask."""
    home = team.parent / f"home-{person}"
    env = dict(os.environ)
    env.update({
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_STATE_HOME": str(home / "state"),
        "SEAMGUARD_SERVE": "0",
        "SEAMGUARD_AUDIT_LOG": str(team / person / "audit.jsonl"),
    })
    env.pop("CLAUDE_PROJECT_DIR", None)
    (team / person).mkdir(parents=True)
    hook = [str(bin_path), "hook", "--dialect", "claude-code", *POLICIES]
    for log in hooklogs:
        path = ROOT / "data" / "fresh" / log
        for n, line in enumerate(path.read_text().splitlines(), 1):
            payload = json.loads(line)
            payload.setdefault("tool_use_id", f"toolu_{path.stem}_{n}")
            out = run(hook, json.dumps(payload).encode(), env)
            if b'"permissionDecision":"ask"' in out:
                ran = dict(payload, hook_event_name="PostToolUse", tool_response={})
                run(hook, json.dumps(ran).encode(), env)


def replay_person(bin_path, team, person, pattern):
    """`seamguard replay --format jsonl` of the recorded sessions matching `pattern`."""
    (team / person).mkdir(parents=True)
    files = sorted(str(p) for p in (ROOT / "data" / "recorded").glob(pattern))
    out = run([str(bin_path), "replay", *files, *POLICIES, "--format", "jsonl"], cwd=ROOT)
    # File names relative to the repository, so the report is the same on every machine.
    text = out.decode().replace(str(ROOT) + "/", "")
    (team / person / "replay.jsonl").write_text(text)


def bundled(bin_path):
    """The report of the bundled team (see the module doc)."""
    with tempfile.TemporaryDirectory() as tmp:
        team = Path(tmp) / "team"
        audit_person(bin_path, team, "ana", ["hooklog-5.jsonl", "hooklog-9.jsonl"])
        audit_person(bin_path, team, "ben", ["hooklog-11.jsonl"])
        replay_person(bin_path, team, "cleo", "codex-*.jsonl")
        replay_person(bin_path, team, "dev", "claude-*.jsonl")
        return report(team)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("team", nargs="?", help="folder of audit logs and replay outputs")
    ap.add_argument("--bundled", action="store_true", help="build the team from the bundled data")
    ap.add_argument("--bin", default=str(ROOT / "target" / "debug" / "seamguard"))
    ap.add_argument("--rewrite", action="store_true", help="write the report into the book page")
    a = ap.parse_args()
    try:
        import duckdb  # noqa: F401
    except ImportError:
        sys.exit("team-report: the duckdb Python package is missing (pip install duckdb)")
    if not a.bundled:
        if not a.team or not Path(a.team).is_dir():
            ap.error("give a team folder, or --bundled")
        print(report(Path(a.team)), end="")
        return 0
    text = bundled(Path(a.bin))
    print(text, end="")
    page = PAGE.read_text()
    head, sep, rest = page.partition(BEGIN + "\n")
    shown, sep2, tail = rest.partition(END)
    if not sep or not sep2:
        sys.exit(f"team-report: {PAGE} has no {BEGIN} … {END} section")
    block = "```text\n" + text + "```\n"
    if a.rewrite:
        PAGE.write_text(head + sep + block + sep2 + tail)
        return 0
    if shown != block:
        print(f"team-report: the report differs from the one in {PAGE.relative_to(ROOT)} "
              "(if the new one is right: python3 scripts/team-report.py --bundled --rewrite)",
              file=sys.stderr)
        return 1
    print(f"team-report: matches {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
