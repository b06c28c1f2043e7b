//! Shell analysis benchmark (issue 3, see BENCHMARKS.md "Shell analysis").
//!
//! A typical 100-character Bash command is evaluated against the bundled balanced policy
//! library (`policies/*.toml`) by:
//!
//! * `analyze`: [`BrushAnalyzer::analyze`] alone (parse + flatten into simple commands);
//! * `effects`: [`effects_of`] on the payload (parse + the shell lens: the call's runs,
//!   reads, writes, deletes, requests);
//! * `library_fire`: [`DecisionTable::fire`] on the `PreToolUse` payload, i.e. parse + match
//!   of every shell-aware rule of the bundled policies (the issue's target: median ≤ 20 µs);
//! * `library_evaluate`: the full [`Engine::evaluate`] (fire + merge + reasons);
//! * `regex_policy_fire`: the same rules written as plain `regex` tests over the raw command
//!   string, compiled into a [`DecisionTable`] (what a regex-only engine would do);
//! * `regex_set`: a bare `regex::RegexSet` of those patterns over the command (the floor).
//!
//! and a 1 MB command line (`analyze_1mb`, `library_fire_1mb`; target ≤ 50 ms). All in the
//! same run. After criterion, an Instant-based summary (medians) is printed in Markdown.
//! Under `cargo test --benches` every benchmark runs once. (Before the policies were split
//! into a library, these were `baseline_*` against the single `policies/baseline.toml`.)
//!
//! ```text
//! cargo bench --bench shell
//! cargo bench --bench shell -- library_fire
//! ```

mod common;

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use criterion::Criterion;
use regex::RegexSet;
use serde_json::{Value, json};

use seamguard_engine::effects::effects_of;
use seamguard_engine::shell::{BrushAnalyzer, ShellAnalyzer};
use seamguard_engine::{
    DecisionTable, Dialect, Engine, LoadedPolicy, Scope, Seam, ShellEnv, load_dir, load_str,
};

/// A typical agent command of 100 characters: a `cd`, a chain, a pipe, a redirection, flags.
const TYPICAL: &str = "cd engine && cargo test -q --test shell_cases -- --nocapture 2>&1 | grep -iE 'FAIL|panic' | head -20";

/// Regex-only versions of the library's main shell rules (what a text-matching guard writes).
const REGEX_RULES: &[(&str, &str, &str)] = &[
    (
        "rm-rf",
        r"\brm\s+(-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)\b.*\s(/|~|\.\.)",
        "deny",
    ),
    (
        "disk",
        r"\b(mkfs(\.\w+)?|fdisk|wipefs|shred)\b|\bdd\b.*\bof=/dev/",
        "deny",
    ),
    (
        "force-push-main",
        r"\bgit\s+push\b.*(--force|-f\b|\s\+)\S*.*\b(main|master)\b",
        "deny",
    ),
    (
        "force-push",
        r"\bgit\s+push\b.*(--force|\s-f\b|\s\+\w)",
        "ask",
    ),
    (
        "push-delete",
        r"\bgit\s+push\b.*(--delete|\s-d\b|\s:\w)",
        "ask",
    ),
    (
        "git-discard",
        r"\bgit\s+(reset\s+--hard|checkout\s+(-f|--\s+\.|\.)|restore\s+\.|clean\s+-\w*f|stash\s+(drop|clear))",
        "ask",
    ),
    (
        "secrets",
        r"\b(cat|less|head|tail|grep|awk|sed|source)\b.*(\.env\b|\.pem\b|\.ssh/|\.aws/credentials|\.netrc)",
        "deny",
    ),
    ("env-dump", r"(^|[;&|]\s*)(env|printenv)\s*($|[;&|])", "ask"),
    (
        "network",
        r"\b(curl|wget|nc|ncat|ssh|scp|sftp|rsync|telnet|socat)\b",
        "ask",
    ),
    (
        "download-exec",
        r"\b(curl|wget)\b.*\|\s*(sh|bash|zsh|python3?|perl|ruby|node)\b",
        "deny",
    ),
];

fn regex_policy() -> String {
    let mut s = String::from("[policy]\nname = \"regex-only\"\n");
    for (id, re, decision) in REGEX_RULES {
        s.push_str(&format!(
            "\n[[rule]]\nid = \"{id}\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nwhen.command = {{ regex = '{re}' }}\ndecision = \"{decision}\"\nreason = \"{id}\"\n"
        ));
    }
    s
}

fn die(msg: &str) -> ! {
    eprintln!("shell bench: {msg}");
    std::process::exit(1)
}

/// The bundled balanced library: `policies/*.toml` in name order.
fn load_library() -> Vec<LoadedPolicy> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("policies");
    let policies = load_dir(&dir, Scope::User, 0);
    if policies.is_empty() {
        die(&format!("no policy in {}", dir.display()));
    }
    policies
}

fn table(policies: Vec<LoadedPolicy>) -> DecisionTable {
    for p in &policies {
        if p.has_errors() {
            die(&format!("{}: {:?}", p.meta.file, p.diagnostics));
        }
    }
    DecisionTable::new(policies).with_env(ShellEnv::new(
        Some("/home/user/project".into()),
        "/home/user",
    ))
}

fn payload(command: &str) -> Value {
    json!({
        "session_id": "bench", "cwd": "/home/user/project", "permission_mode": "default",
        "transcript_path": "/home/user/.claude/projects/p/bench.jsonl",
        "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": { "command": command }, "tool_use_id": "toolu_bench"
    })
}

/// A 1 MB command line: a long chain of ordinary commands with quoting, pipes and flags.
/// (No repeated `cd`: a chain of thousands of `cd`s is quadratic in the analyser today, see
/// BENCHMARKS.md.)
fn one_mb_line() -> String {
    let unit = "grep -rn 'TODO' --include='*.rs' src | sort | uniq -c; ";
    let mut s = String::with_capacity(1 << 20);
    while s.len() + unit.len() < (1 << 20) - 32 {
        s.push_str(unit);
    }
    s.push_str("rm -rf ~/other");
    s
}

struct Fixture {
    library: DecisionTable,
    engine: Engine,
    regex_table: DecisionTable,
    regex_set: RegexSet,
    typical: Value,
    big_line: String,
    big: Value,
}

impl Fixture {
    fn new() -> Fixture {
        let library = table(load_library());
        let engine = Engine::new(table(load_library()));
        let regex_table = table(vec![load_str(
            &regex_policy(),
            "regex-only.toml",
            Scope::User,
            0,
        )]);
        let regex_set = RegexSet::new(REGEX_RULES.iter().map(|(_, r, _)| *r))
            .unwrap_or_else(|e| die(&e.to_string()));
        let big_line = one_mb_line();
        Fixture {
            library,
            engine,
            regex_table,
            regex_set,
            typical: payload(TYPICAL),
            big: payload(&big_line),
            big_line,
        }
    }

    fn check(&self) {
        if TYPICAL.len() != 100 {
            die(&format!(
                "typical command is {} bytes, not 100",
                TYPICAL.len()
            ));
        }
        if !self
            .library
            .fire(Seam::PreTool, &self.typical, Dialect::ClaudeCode, None)
            .is_empty()
        {
            die("the typical command should fire no library rule");
        }
        let t = Instant::now();
        let big = self
            .library
            .fire(Seam::PreTool, &self.big, Dialect::ClaudeCode, None);
        eprintln!("shell bench: 1 MB line fired in {:.1?}", t.elapsed());
        if big.is_empty() {
            die("the 1 MB line ends in a recursive delete outside the project: it must fire");
        }
    }
}

fn bench_all(c: &mut Criterion, f: &Fixture) {
    let mut g = c.benchmark_group("shell");
    g.bench_function("analyze", |b| {
        b.iter(|| BrushAnalyzer.analyze(black_box(TYPICAL), Some("/home/user/project")))
    });
    g.bench_function("effects", |b| {
        b.iter(|| effects_of(black_box(&f.typical), f.library.env()))
    });
    g.bench_function("library_fire", |b| b.iter(|| fire(&f.library, &f.typical)));
    g.bench_function("library_evaluate", |b| {
        b.iter(|| evaluate(&f.engine, &f.typical))
    });
    g.bench_function("regex_policy_fire", |b| {
        b.iter(|| fire(&f.regex_table, &f.typical))
    });
    g.bench_function("regex_set", |b| {
        b.iter(|| f.regex_set.matches(black_box(TYPICAL)))
    });
    g.finish();

    let mut g = c.benchmark_group("shell_1mb");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(5));
    g.bench_function("analyze_1mb", |b| {
        b.iter(|| BrushAnalyzer.analyze(black_box(&f.big_line), Some("/home/user/project")))
    });
    g.bench_function("library_fire_1mb", |b| b.iter(|| fire(&f.library, &f.big)));
    g.bench_function("regex_set_1mb", |b| {
        b.iter(|| f.regex_set.matches(black_box(&f.big_line)))
    });
    g.finish();
}

/// The rules of `table` that fire on a Claude Code pre-tool `payload` (the payload hidden
/// from the optimiser).
fn fire(table: &DecisionTable, payload: &Value) -> Vec<u32> {
    table.fire(Seam::PreTool, black_box(payload), Dialect::ClaudeCode, None)
}

/// `engine`'s outcome for a Claude Code pre-tool `payload` (hidden from the optimiser).
fn evaluate(engine: &Engine, payload: &Value) -> seamguard_engine::Outcome {
    engine.evaluate(Seam::PreTool, black_box(payload), Dialect::ClaudeCode)
}

fn measure(n: usize, f: impl FnMut()) -> Duration {
    common::measure(n, n.min(50), f)
}

fn summary(f: &Fixture) {
    let n = 5_000;
    let typical = [
        (
            "`BrushAnalyzer::analyze` (parse only)",
            measure(n, || {
                black_box(BrushAnalyzer.analyze(black_box(TYPICAL), Some("/home/user/project")));
            }),
        ),
        (
            "`effects_of` (parse + shell lens)",
            measure(n, || {
                black_box(effects_of(black_box(&f.typical), f.library.env()));
            }),
        ),
        (
            "`DecisionTable::fire`, bundled library (parse + effects + match)",
            measure(n, || {
                black_box(fire(&f.library, &f.typical));
            }),
        ),
        (
            "`Engine::evaluate`, bundled library",
            measure(n, || {
                black_box(evaluate(&f.engine, &f.typical));
            }),
        ),
        (
            "`DecisionTable::fire`, regex-only policy",
            measure(n, || {
                black_box(fire(&f.regex_table, &f.typical));
            }),
        ),
        (
            "`RegexSet::matches` (bare regex floor)",
            measure(n, || {
                black_box(f.regex_set.matches(black_box(TYPICAL)));
            }),
        ),
    ];
    let big = [
        (
            "`BrushAnalyzer::analyze`",
            measure(11, || {
                black_box(
                    BrushAnalyzer.analyze(black_box(&f.big_line), Some("/home/user/project")),
                );
            }),
        ),
        (
            "`DecisionTable::fire`, bundled library",
            measure(11, || {
                black_box(fire(&f.library, &f.big));
            }),
        ),
        (
            "`RegexSet::matches`",
            measure(11, || {
                black_box(f.regex_set.matches(black_box(&f.big_line)));
            }),
        ),
    ];
    println!("\n### Summary (Instant-based medians)\n");
    println!("Typical command ({} bytes): `{TYPICAL}`\n", TYPICAL.len());
    println!("| evaluator | median |\n|---|---|");
    for (what, d) in typical {
        println!("| {what} | {d:.2?} |");
    }
    println!(
        "\n1 MB line ({} bytes, {} simple commands):\n",
        f.big_line.len(),
        BrushAnalyzer
            .analyze(&f.big_line, Some("/home/user/project"))
            .commands
            .len()
    );
    println!("| evaluator | median |\n|---|---|");
    for (what, d) in big {
        println!("| {what} | {d:.2?} |");
    }
}

fn main() {
    let f = Fixture::new();
    f.check();
    let c = common::criterion(Duration::from_secs(2), 50);
    common::run(c, common::modes(), |c| bench_all(c, &f), || summary(&f));
}
