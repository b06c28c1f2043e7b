//! A small agent loop over a recorded session, with seamguard embedded (issue 6).
//!
//! Three sources of policy, merged most-restrictively into one decision per event:
//!
//! * `policy!("policies")` — the bundled balanced library (`policies/*.toml`), validated and
//!   compiled into the binary;
//! * `examples/team.toml` — loaded at run time (`PolicyTable::load_file`);
//! * Rust handlers — `#[hook]` / `#[guard]` fns registered with `hooks![…]`, and closures
//!   with their own state registered with `harness.on(at::…, closure, options)`.
//!
//! Every recorded event is replayed at its seam as a typed event (`SeamEvent::try_new`;
//! the raw payload is the fallback); prompts open turns (`submit_prompt`, a blocked prompt is
//! a rejected turn) and stops close them. Tool calls go through the whole five-phase
//! pipeline with a simulated tool (nothing is executed) under one cancellation token with a
//! time budget, and each decision is printed. At the end the turn records are checked.
//!
//! ```text
//! cargo run --example agent_loop [-- FILE.jsonl]
//! ```

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

use seamguard::harness::ToolError;
use seamguard::harness::{SessionStartSource, Turn, TurnEnd, check_records};
use seamguard::prelude::*;
use seamguard::readers::{EventReader, Item};

/// Reading outside the project needs a look from the user.
#[hook(seam = "pre-tool", tool = "Read|Grep|Glob")]
fn reads_outside_project(call: &ToolCall) -> Option<PreToolDecision> {
    let cwd = call.payload().get("cwd")?.as_str()?;
    let path = call
        .input()
        .get("file_path")
        .or_else(|| call.input().get("path"))?
        .as_str()?;
    (path.starts_with('/') && !path.starts_with(cwd))
        .then(|| PreToolDecision::ask(format!("{path} is outside the project")))
}

/// No agent-side edits of CI configuration (async: a real check might ask a service).
#[guard(tool = "Edit|MultiEdit|Write")]
async fn no_ci_edits(call: &ToolCall) -> Option<GuardDeny> {
    let path = call.input().get("file_path")?.as_str()?;
    path.contains("/.github/workflows/")
        .then(|| GuardDeny::new("CI workflows are changed by humans only"))
}

/// After a failing test run, remind the model to read the failures first.
#[hook(seam = "post-tool", tool = "Bash")]
fn after_tests(out: &ToolOutput) -> Option<PostToolDecision> {
    let cmd = out.call.command()?;
    (cmd.contains("npm test") || cmd.contains("npm run test")).then(|| {
        PostToolDecision::accept().with_context("Read the first failing test before changing code.")
    })
}

/// An audit observer: sees an immutable snapshot of every result.
#[hook(seam = "tool-result")]
fn audit(exec: &ToolExecution) {
    let _ = (exec.call.id(), exec.result.is_error, exec.elapsed);
}

/// The simulated tool: answers with what the recording says, runs nothing.
struct Simulated;

impl Tool for Simulated {
    fn call<'a>(&'a self, call: &'a ToolCall) -> BoxFuture<'a, Result<Value, ToolError>> {
        Box::pin(async move { Ok(json!({ "simulated": call.name() })) })
    }
}

fn short(s: &str, n: usize) -> String {
    let one_line = s.replace('\n', " ");
    if one_line.chars().count() > n {
        format!("{}…", one_line.chars().take(n - 1).collect::<String>())
    } else {
        one_line
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let file = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("data/recorded/hooklog-3.jsonl"));

    // A policy loaded at run time is a `Result`: a missing or broken file is reported with
    // its `file:line:column` and the loop does not start.
    let team = match PolicyTable::load_file(&root.join("examples/team.toml"), Scope::User) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("agent_loop: {e}");
            std::process::exit(1);
        }
    };
    let mut harness = Harness::new();
    harness.add_table(policy!("policies")).add_table(team);
    let metrics = Arc::new(Metrics::default());
    harness
        .wrap(metrics.clone())
        .wrap(Timeout(std::time::Duration::from_secs(30)));
    if let Err(e) = harness.register_all(hooks![
        reads_outside_project,
        no_ci_edits,
        after_tests,
        audit
    ]) {
        eprintln!("agent_loop: {e}");
        std::process::exit(1);
    }
    // A closure with its own state: calls per tool (read at the end).
    let per_tool: Arc<Mutex<BTreeMap<String, usize>>> = Arc::default();
    let counts = per_tool.clone();
    let counted = harness.on(
        at::PreTool,
        move |call, _cx| {
            if let Ok(mut m) = counts.lock() {
                *m.entry(call.name().to_string()).or_default() += 1;
            }
            None
        },
        RegistrationOptions::named("count-tools").source("examples/agent_loop.rs"),
    );
    // A typed event: a resumed session gets a reminder.
    let resumed = harness.on(
        at::SessionStart,
        |ev, _cx| {
            (ev.session_start_source()? == SessionStartSource::Resume)
                .then(|| "Resumed: re-read the plan before continuing.".to_string())
        },
        RegistrationOptions::named("on-resume"),
    );
    if let Err(e) = counted.and(resumed) {
        eprintln!("agent_loop: {e}");
        std::process::exit(1);
    }

    // One cancellation token for the whole run, cancelled when the time budget is spent.
    let token = CancellationToken::new();
    let budget = token.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_secs(120)).await;
        budget.cancel();
    });
    let run = harness.with_signal(token.clone());

    let mut verdicts: BTreeMap<String, usize> = BTreeMap::new();
    let mut turns: BTreeMap<String, Turn> = BTreeMap::new();
    let mut batch = run.batch();
    for item in EventReader::open(&file) {
        let ev = match item {
            Item::Event(ev) => ev,
            Item::Problem(p) => {
                eprintln!("skipped: {p}");
                continue;
            }
        };
        let at = ev.location();
        // The typed event; the raw payload when it does not decode (the escape hatch).
        let seam_event = SeamEvent::try_new(ev.seam, ev.payload.clone())
            .unwrap_or_else(|_| SeamEvent::new(ev.seam, ev.payload.clone()));
        let line = match ev.seam {
            Seam::PreTool => {
                let Some(call) = ToolCall::from_payload(ev.payload) else {
                    continue;
                };
                let what = short(
                    call.command()
                        .map_or_else(|| call.name().to_string(), str::to_string)
                        .as_str(),
                    60,
                );
                let tool = call.name().to_string();
                let exec = batch.execute(call, &Simulated).await;
                let verdict = exec.pre.verdict().name();
                *verdicts.entry(verdict.to_string()).or_default() += 1;
                let why = match &exec.result.error {
                    Some(e) => format!(" — {}", short(&e.to_string(), 90)),
                    None => String::new(),
                };
                format!("pre-tool {tool:<10} {verdict:<5} {what}{why}")
            }
            Seam::PromptSubmit => match run.submit_prompt(&seam_event).await {
                Submitted::Open { turn, evaluated } => {
                    turns.insert(turn.session_id().to_string(), turn);
                    format!("prompt   {:?}", evaluated.outcome().verdict().name())
                }
                Submitted::Rejected { turn, reason, .. } => {
                    format!("prompt   rejected ({turn}): {}", short(&reason, 80))
                }
            },
            Seam::SessionStart | Seam::SubagentStart => {
                // A new step: settle the previous batch (results, then contexts).
                let settled = std::mem::replace(&mut batch, run.batch()).settle();
                for c in &settled.contexts {
                    println!("  context from {}: {}", c.source, c.text);
                }
                let r = run.session_start(&seam_event).await;
                format!("session  contexts: {:?}", r.decision)
            }
            Seam::Stop | Seam::SubagentStop => {
                let r = run.stop(&seam_event).await;
                if ev.seam == Seam::Stop
                    && let Some(turn) = seam_event.field("session_id").and_then(|s| turns.remove(s))
                {
                    harness.end_turn(turn, TurnEnd::Completed { steps: 1 });
                }
                format!("{:<8} {:?}", ev.seam.name(), r.decision)
            }
            seam => {
                run.notify(&seam_event).await;
                format!("{:<8} observed", seam.name())
            }
        };
        println!("{at}  {line}");
    }
    let settled = batch.settle();
    for turn in std::mem::take(&mut turns).into_values() {
        harness.end_turn(turn, TurnEnd::Interrupted { steps: 1 });
    }
    for c in &settled.contexts {
        println!("  context from {}: {}", c.source, c.text);
    }
    println!(
        "\npre-tool verdicts: {verdicts:?}; dispatched {} simulated calls",
        metrics.calls()
    );
    if let Ok(m) = per_tool.lock() {
        println!("calls per tool: {m:?}");
    }
    match check_records(&harness.records()) {
        Ok(n) => println!("{n} turn and hook records, all well formed"),
        Err(errors) => println!("record problems: {errors:?}"),
    }
    if token.is_cancelled() {
        println!("stopped: the time budget was spent");
    }
    let failures = harness.take_failures();
    if !failures.is_empty() {
        println!("observer failures: {failures:?}");
    }
}
