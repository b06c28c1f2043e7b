//! Replay throughput on the bundled real recorded sessions, beside a bare `serde_json` parse
//! of the same lines in the same run, and peak RSS while replaying a large synthetic Claude
//! Code transcript.
//!
//! ```sh
//! cargo bench --bench replay
//! SEAMGUARD_BENCH_BIG_MB=1024 cargo bench --bench replay   # size of the synthetic transcript (default 1024; 0 skips)
//! ```
//!
//! Per input, three measurements over the same bytes:
//! * `parse`: split lines, `serde_json::from_slice::<Value>` each (the floor);
//! * `read`: [`EventReader`] (parse + reconstruct hook payloads);
//! * `replay`: `read` + [`Engine::evaluate`] with the balanced library (`policies/*.toml`).

#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::hint::black_box;
use std::io::{BufWriter, Cursor, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use criterion::{Criterion, Throughput, criterion_group};
use serde_json::Value;

use seamguard_engine::readers::{EventReader, Item};
use seamguard_engine::{DecisionTable, Engine, MemoryLedger, Scope, ShellEnv, load_dir};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn engine() -> Engine {
    let policies = load_dir(&root().join("policies"), Scope::Cli, 0);
    assert!(!policies.is_empty() && policies.iter().all(|p| !p.has_errors()));
    let env = ShellEnv::new(None, "/home/user");
    Engine::new(DecisionTable::new(policies).with_env(env))
        .with_ledger(Box::new(MemoryLedger::default()))
}

fn parse_lines(bytes: &[u8]) -> usize {
    let mut n = 0;
    for line in bytes.split(|b| *b == b'\n') {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        if let Ok(v) = serde_json::from_slice::<Value>(line) {
            black_box(&v);
            n += 1;
        }
    }
    n
}

fn read_events(name: &str, bytes: &[u8]) -> usize {
    EventReader::from_reader(name, Cursor::new(bytes.to_vec()))
        .filter(|i| matches!(i, Item::Event(_)))
        .count()
}

fn replay(engine: &Engine, name: &str, bytes: &[u8]) -> usize {
    let mut n = 0;
    for i in EventReader::from_reader(name, Cursor::new(bytes.to_vec())) {
        if let Item::Event(e) = i {
            black_box(engine.evaluate(e.seam, &e.payload, e.dialect));
            n += 1;
        }
    }
    n
}

fn inputs() -> Vec<(&'static str, Vec<u8>)> {
    let d = root().join("data/recorded");
    let cat = |names: &[&str]| {
        let mut v = Vec::new();
        for n in names {
            v.extend(std::fs::read(d.join(n)).unwrap_or_default());
        }
        v
    };
    vec![
        ("hook-log", cat(&["hooklog-3.jsonl", "hooklog-4.jsonl"])),
        ("claude-transcript", cat(&["claude-2.jsonl"])),
        ("codex-rollout", cat(&["codex-4.jsonl", "codex-6.jsonl"])),
    ]
}

/// One timed pass of each stage per input, printed as a table (events/s, MB/s, ratio).
fn summary(engine: &Engine) {
    println!("\nreplay summary (best of 5 passes, one thread):");
    println!(
        "{:<18} {:>7} {:>9} {:>12} {:>12} {:>12} {:>8}",
        "input", "events", "MB", "parse MB/s", "read MB/s", "replay MB/s", "ev/s"
    );
    for (name, bytes) in inputs() {
        let best = |f: &dyn Fn() -> usize| {
            let mut best = f64::MAX;
            let mut n = 0;
            for _ in 0..5 {
                let t = Instant::now();
                n = f();
                best = best.min(t.elapsed().as_secs_f64());
            }
            (n, best)
        };
        let mb = bytes.len() as f64 / 1e6;
        let (_, tp) = best(&|| parse_lines(&bytes));
        let (_, tr) = best(&|| read_events(name, &bytes));
        let (n, te) = best(&|| replay(engine, name, &bytes));
        println!(
            "{name:<18} {n:>7} {mb:>9.2} {:>12.1} {:>12.1} {:>12.1} {:>8.0}   replay = {:.0}% of parse",
            mb / tp,
            mb / tr,
            mb / te,
            n as f64 / te,
            100.0 * tp / te
        );
    }
}

fn peak_rss_kib() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    s.lines()
        .find(|l| l.starts_with("VmHWM:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// Write a synthetic Claude Code transcript of about `mb` MiB: prompt, tool call, tool
/// result (with a large output), assistant text, repeated.
fn synthetic_transcript(path: &Path, mb: u64) -> std::io::Result<u64> {
    let mut w = BufWriter::new(std::fs::File::create(path)?);
    let target = mb * 1024 * 1024;
    let filler = "x".repeat(3000);
    let mut written = 0u64;
    let mut i = 0u64;
    while written < target {
        let lines = [
            format!(
                r#"{{"parentUuid":null,"cwd":"/home/user/app","sessionId":"s","type":"user","message":{{"role":"user","content":"step {i}: run the tests"}},"uuid":"u{i}","timestamp":"t"}}"#
            ),
            format!(
                r#"{{"parentUuid":"u{i}","cwd":"/home/user/app","sessionId":"s","type":"assistant","message":{{"role":"assistant","content":[{{"type":"tool_use","id":"toolu_{i}","name":"Bash","input":{{"command":"cd /home/user/app && cargo test --workspace 2>&1 | tail -n 50 && rm -rf target/tmp-{i}"}}}}]}},"uuid":"a{i}","timestamp":"t"}}"#
            ),
            format!(
                r#"{{"parentUuid":"a{i}","cwd":"/home/user/app","sessionId":"s","type":"user","message":{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"toolu_{i}","content":"{filler}"}}]}},"toolUseResult":{{"stdout":"{filler}","stderr":"","interrupted":false,"isImage":false}},"uuid":"r{i}","timestamp":"t"}}"#
            ),
            format!(
                r#"{{"parentUuid":"r{i}","cwd":"/home/user/app","sessionId":"s","type":"assistant","message":{{"role":"assistant","content":[{{"type":"text","text":"All tests pass."}}]}},"uuid":"b{i}","timestamp":"t"}}"#
            ),
        ];
        for l in &lines {
            w.write_all(l.as_bytes())?;
            w.write_all(b"\n")?;
            written += l.len() as u64 + 1;
        }
        i += 1;
    }
    w.flush()?;
    Ok(written)
}

fn big_transcript(engine: &Engine) {
    let mb: u64 = std::env::var("SEAMGUARD_BENCH_BIG_MB")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1024);
    if mb == 0 {
        return;
    }
    let path = std::env::temp_dir().join(format!("seamguard-bench-{}.jsonl", std::process::id()));
    let before = peak_rss_kib();
    let bytes = match synthetic_transcript(&path, mb) {
        Ok(b) => b,
        Err(e) => {
            println!("synthetic transcript: cannot write {}: {e}", path.display());
            return;
        }
    };
    let t = Instant::now();
    let mut n = 0usize;
    for i in EventReader::open(&path) {
        if let Item::Event(e) = i {
            black_box(engine.evaluate(e.seam, &e.payload, e.dialect));
            n += 1;
        }
    }
    let secs = t.elapsed().as_secs_f64();
    let after = peak_rss_kib();
    let _ = std::fs::remove_file(&path);
    println!(
        "synthetic transcript: {:.0} MiB, {n} events replayed in {secs:.1} s ({:.1} MB/s, {:.0} events/s); peak RSS {} MiB (before: {} MiB)",
        bytes as f64 / 1048576.0,
        bytes as f64 / 1e6 / secs,
        n as f64 / secs,
        after.map_or("?".into(), |k| (k / 1024).to_string()),
        before.map_or("?".into(), |k| (k / 1024).to_string()),
    );
}

fn bench(c: &mut Criterion) {
    let engine = engine();
    for (name, bytes) in inputs() {
        let mut g = c.benchmark_group(format!("replay/{name}"));
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.sample_size(10);
        g.bench_function("parse", |b| b.iter(|| parse_lines(&bytes)));
        g.bench_function("read", |b| b.iter(|| read_events(name, &bytes)));
        g.bench_function("replay", |b| b.iter(|| replay(&engine, name, &bytes)));
        g.finish();
    }
}

criterion_group!(benches, bench);

fn main() {
    let engine = engine();
    // Memory first, so the peak is not the benchmarks' own.
    big_transcript(&engine);
    summary(&engine);
    let _ = std::io::stdout().lock().flush();
    if std::env::args().any(|a| a == "--summary-only") {
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
