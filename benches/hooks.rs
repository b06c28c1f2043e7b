//! Command-hook benchmarks (issue 4; see BENCHMARKS.md, "Command hooks").
//!
//! In the same run, for a trivial hook command (`true`, and `cat >/dev/null`, which reads the
//! payload):
//!
//! * `direct`: the command spawned directly with `std::process` (`/bin/sh -c CMD`, payload on
//!   stdin, stdout/stderr captured) — the floor;
//! * `run_all`: the same command through [`seamguard_engine::runner::run_all`] (tokio
//!   runtime, process group, capped capture);
//! * `engine`: a `run` rule through [`Engine::evaluate`] with the [`ProcessRunner`] (fire,
//!   run, decode, merge);
//! * `binary`: the whole `seamguard hook --policy P` process with that rule, next to the same
//!   binary with a policy without `run` (the process itself) .
//!
//! And `concurrent_8x100ms`: 8 matching hooks that each sleep 100 ms through `run_all`
//! (target: ≤ 150 ms wall, i.e. concurrent, not serial).
//!
//! After criterion, a Markdown summary with Instant-based medians and the per-call overhead
//! over `direct` is printed. Under `cargo test --benches` every benchmark runs once.
//!
//! ```text
//! cargo bench --bench hooks
//! cargo bench --bench hooks -- --quick
//! ```
// A benchmark aborts when its setup fails.
#![allow(clippy::panic)]

mod common;

use std::hint::black_box;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use criterion::Criterion;
use serde_json::json;

use seamguard_engine::runner::{CommandHook, ProcessRunner, RunContext, run_all};
use seamguard_engine::{DecisionTable, Dialect, Engine, Scope, Seam, load_str};

const COMMANDS: [&str; 2] = ["true", "cat >/dev/null"];

fn payload() -> serde_json::Value {
    json!({
        "session_id": "bench", "transcript_path": "/tmp/t.jsonl", "cwd": "/tmp",
        "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "cargo test -q"}, "tool_use_id": "toolu_bench",
    })
}

fn cx() -> RunContext {
    RunContext {
        dialect: Dialect::ClaudeCode,
        cwd: Some("/tmp".into()),
        project_dir: None,
    }
}

fn hook(id: &str, cmd: &str) -> CommandHook {
    CommandHook::new(id, cmd, 30_000)
}

/// `/bin/sh -c CMD` with the payload on stdin, as a caller would do it without seamguard.
fn direct(cmd: &str, input: &[u8]) {
    let mut sh = Command::new("/bin/sh");
    sh.arg("-c").arg(cmd).current_dir("/tmp");
    black_box(feed(&mut sh, "/bin/sh", input));
}

/// Runs `cmd` (named `what` in a failure) with `input` on stdin and its output captured.
fn feed(cmd: &mut Command, what: &str, input: &[u8]) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("spawn {what}: {e}"));
    if let Some(mut s) = child.stdin.take() {
        let _ = s.write_all(input);
    }
    child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("wait: {e}"))
}

fn rule_policy(cmd: &str) -> String {
    format!(
        "[[rule]]\nid = \"bench-hook\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nrun = {{ command = {} }}\n",
        serde_json::to_string(cmd).unwrap_or_default()
    )
}

fn engine(cmd: &str) -> Engine {
    let p = load_str(&rule_policy(cmd), "bench.toml", Scope::User, 0);
    assert!(!p.has_errors(), "{:?}", p.diagnostics);
    Engine::new(DecisionTable::new(vec![p])).with_runner(Box::new(ProcessRunner))
}

struct Bin {
    dir: PathBuf,
}

impl Bin {
    fn new() -> Bin {
        let dir =
            std::env::temp_dir().join(format!("seamguard-bench-hooks-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        for (i, cmd) in COMMANDS.iter().enumerate() {
            let _ = std::fs::write(dir.join(format!("run-{i}.toml")), rule_policy(cmd));
        }
        let _ = std::fs::write(
            dir.join("static.toml"),
            "[[rule]]\nid = \"static\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nwhen.command = { program = \"rm\" }\ndecision = \"deny\"\n",
        );
        Bin { dir }
    }

    fn hook(&self, policy: &str, input: &[u8]) {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_seamguard"));
        cmd.args(["hook", "--policy"])
            .arg(self.dir.join(policy))
            .env("HOME", &self.dir)
            .env("XDG_CONFIG_HOME", self.dir.join("config"))
            .env("XDG_STATE_HOME", self.dir.join("state"))
            .env("SEAMGUARD_MANAGED_DIR", self.dir.join("managed"))
            // Every call judged in its own process, no resident server started.
            .env("SEAMGUARD_SERVE", "0")
            .env_remove("SEAMGUARD_AUDIT_LOG");
        let out = feed(&mut cmd, "seamguard", input);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        black_box(out);
    }
}

impl Drop for Bin {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn sleepers() -> Vec<CommandHook> {
    (0..8)
        .map(|i| hook(&format!("sleep-{i}"), "sleep 0.1"))
        .collect()
}

fn bench_all(c: &mut Criterion, bin: &Bin) {
    let input = serde_json::to_vec(&payload()).unwrap_or_default();
    let p = payload();
    for (i, cmd) in COMMANDS.iter().enumerate() {
        let mut g = c.benchmark_group(format!("hook `{cmd}`"));
        g.bench_function("direct", |b| b.iter(|| direct(cmd, &input)));
        let h = [hook("bench", cmd)];
        g.bench_function("run_all", |b| {
            b.iter(|| black_box(run_all(&h, &input, &cx())))
        });
        let e = engine(cmd);
        g.bench_function("engine", |b| {
            b.iter(|| black_box(e.evaluate(Seam::PreTool, &p, Dialect::ClaudeCode)))
        });
        let policy = format!("run-{i}.toml");
        g.bench_function("binary", |b| b.iter(|| bin.hook(&policy, &input)));
        g.finish();
    }
    let mut g = c.benchmark_group("binary without run");
    g.bench_function("static", |b| b.iter(|| bin.hook("static.toml", &input)));
    g.finish();
    let mut g = c.benchmark_group("concurrent");
    g.sample_size(10);
    let hs = sleepers();
    g.bench_function("8x100ms", |b| {
        b.iter(|| black_box(run_all(&hs, &input, &cx())))
    });
    g.finish();
}

fn time(n: usize, f: impl FnMut()) -> Duration {
    common::measure(n, n.min(20), f)
}

fn ms(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64() * 1000.0)
}

/// Interleaved Instant-based medians (the compared paths see the same machine load).
fn summary(bin: &Bin) {
    let input = serde_json::to_vec(&payload()).unwrap_or_default();
    let p = payload();
    const N: usize = 300;
    println!("\n### Command hooks (medians of {N} calls, same run)\n");
    println!(
        "| hook command | direct `std::process` | `runner::run_all` | `Engine::evaluate` | `seamguard hook` binary | run_all − direct | evaluate − direct |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for (i, cmd) in COMMANDS.iter().enumerate() {
        let h = [hook("bench", cmd)];
        let e = engine(cmd);
        let policy = format!("run-{i}.toml");
        let (mut d, mut r, mut ev, mut b) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for _ in 0..20 {
            direct(cmd, &input);
            black_box(run_all(&h, &input, &cx()));
        }
        for _ in 0..N {
            let t = Instant::now();
            direct(cmd, &input);
            d.push(t.elapsed());
            let t = Instant::now();
            black_box(run_all(&h, &input, &cx()));
            r.push(t.elapsed());
            let t = Instant::now();
            black_box(e.evaluate(Seam::PreTool, &p, Dialect::ClaudeCode));
            ev.push(t.elapsed());
            if b.len() < 100 {
                let t = Instant::now();
                bin.hook(&policy, &input);
                b.push(t.elapsed());
            }
        }
        let (d, r, ev, b) = (
            common::median(d),
            common::median(r),
            common::median(ev),
            common::median(b),
        );
        println!(
            "| `{cmd}` | {} ms | {} ms | {} ms | {} ms | {:+.3} ms | {:+.3} ms |",
            ms(d),
            ms(r),
            ms(ev),
            ms(b),
            (r.as_secs_f64() - d.as_secs_f64()) * 1000.0,
            (ev.as_secs_f64() - d.as_secs_f64()) * 1000.0,
        );
    }
    let stat = time(100, || bin.hook("static.toml", &input));
    println!(
        "\n`seamguard hook` with a static policy (no `run`): {} ms per process.",
        ms(stat)
    );
    let hs = sleepers();
    let mut walls = Vec::new();
    for _ in 0..15 {
        let t = Instant::now();
        black_box(run_all(&hs, &input, &cx()));
        walls.push(t.elapsed());
    }
    let max = walls.iter().max().copied().unwrap_or_default();
    println!(
        "8 matching hooks × `sleep 0.1` through `run_all`: median {} ms wall, max {} ms (15 runs; serial would be 800 ms).",
        ms(common::median(walls)),
        ms(max)
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let has = |f: &str| args.iter().any(|a| a == f);
    let bin = Bin::new();
    let c = common::criterion(Duration::from_secs(3), 30);
    let modes = (has("--test"), has("--list"));
    common::run(c, modes, |c| bench_all(c, &bin), || summary(&bin));
}
