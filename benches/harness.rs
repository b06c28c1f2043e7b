//! Embedding API benchmarks (issue 6; see BENCHMARKS.md, "Embedding API").
//!
//! * `pre_tool/handler_direct`: the handler fn called directly (its own work);
//! * `pre_tool/harness`: the same handler through `Harness::pre_tool` (matcher, panic
//!   containment, contribution, most-restrictive merge, typed decision) — target ≤ 200 ns
//!   over `handler_direct`;
//! * `policy/compiled` vs `policy/runtime`: the balanced library (`policies/*.toml`) as a
//!   `policy!("policies")` table and loaded at run time, evaluated on every pre-tool event of
//!   `hooklog-3.jsonl`.
//!
//! After criterion, a summary with Instant-based medians is printed.
//!
//! ```text
//! cargo bench --bench harness
//! ```
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::future::Future;
use std::hint::black_box;
use std::path::Path;
use std::pin::pin;
use std::task::{Context, Poll, Waker};
use std::time::Instant;

use criterion::Criterion;
use serde_json::{Value, json};

use seamguard::harness::{Harness, PolicyTable, ToolCall};
use seamguard::readers::{EventReader, Item};
use seamguard::{Scope, Seam, hooks, load_dir, policy};

/// A sync future never waits: poll once with a no-op waker (no runtime needed).
fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

#[path = "../tests/it/sample_hooks.rs"]
mod sample_hooks;

use sample_hooks::deny_rm;

fn tables() -> (&'static PolicyTable, PolicyTable, Vec<(Seam, Value)>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let runtime = PolicyTable::from_policies(load_dir(&root.join("policies"), Scope::Embedded, 0));
    let compiled = policy!("policies");
    let events: Vec<(Seam, Value)> = EventReader::open(&root.join("data/recorded/hooklog-3.jsonl"))
        .filter_map(|i| match i {
            Item::Event(e) if e.seam == Seam::PreTool => Some((e.seam, e.payload)),
            _ => None,
        })
        .collect();
    // Compile every seam up front so both sides measure evaluation only.
    compiled.compile_all();
    runtime.compile_all();
    (compiled, runtime, events)
}

fn median_ns(mut f: impl FnMut(), iters: u32) -> f64 {
    let mut samples: Vec<f64> = (0..31)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..iters {
                f();
            }
            t.elapsed().as_nanos() as f64 / f64::from(iters)
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn main() {
    let h = Harness::new();
    h.register_all(hooks![deny_rm]).unwrap();
    let allow_call = ToolCall::new("Bash", json!({"command": "cargo test -q"}), "s", "/p");
    let deny_call = ToolCall::new("Bash", json!({"command": "rm -rf build"}), "s", "/p");
    let (compiled, runtime, events) = tables();

    let mut c = Criterion::default().configure_from_args();
    for (name, call) in [("abstain", &allow_call), ("deny", &deny_call)] {
        c.bench_function(&format!("pre_tool/{name}/handler_direct"), |b| {
            b.iter(|| black_box(deny_rm(black_box(call))))
        });
        c.bench_function(&format!("pre_tool/{name}/harness"), |b| {
            b.iter(|| black_box(block_on(h.pre_tool(black_box(call)))))
        });
    }
    c.bench_function("policy/compiled", |b| {
        b.iter(|| {
            for (s, p) in &events {
                black_box(compiled.evaluate(*s, p, seamguard::Dialect::ClaudeCode));
            }
        })
    });
    c.bench_function("policy/runtime", |b| {
        b.iter(|| {
            for (s, p) in &events {
                black_box(runtime.evaluate(*s, p, seamguard::Dialect::ClaudeCode));
            }
        })
    });
    c.final_summary();

    if std::env::args().any(|a| a == "--bench") {
        println!(
            "\n| pre-tool, 1 handler | handler direct | through Harness::pre_tool | overhead |"
        );
        println!("|---|---:|---:|---:|");
        for (name, call) in [("abstain", &allow_call), ("deny", &deny_call)] {
            let d = median_ns(|| drop(black_box(deny_rm(black_box(call)))), 20_000);
            let w = median_ns(
                || drop(black_box(block_on(h.pre_tool(black_box(call))))),
                20_000,
            );
            println!("| {name} | {d:.0} ns | {w:.0} ns | {:.0} ns |", w - d);
        }
        let n = events.len() as u32;
        let per = |t: &PolicyTable| {
            median_ns(
                || {
                    for (s, p) in &events {
                        black_box(t.evaluate(*s, p, seamguard::Dialect::ClaudeCode));
                    }
                },
                5,
            ) / f64::from(n)
        };
        // Interleave to share the machine's noise.
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for i in 0..11 {
            if i % 2 == 0 {
                a.push(per(compiled));
                b.push(per(&runtime));
            } else {
                b.push(per(&runtime));
                a.push(per(compiled));
            }
        }
        a.sort_by(f64::total_cmp);
        b.sort_by(f64::total_cmp);
        println!(
            "\n| `policies/` on {n} pre-tool events | policy! (compiled) | loaded at run time |\n|---|---:|---:|\n| per event, median | {:.0} ns | {:.0} ns |",
            a[5], b[5]
        );
    }
}
