//! A small agent loop over a recorded session, with seamguard embedded (issue 6).
//!
//! Three sources of policy, merged most-restrictively into one decision per event:
//!
//! * `policy!("policies")` — the bundled balanced library (`policies/*.toml`), validated and
//!   compiled into the binary;
//! * `examples/team.toml` — loaded at run time (`PolicyTable::load_file`);
//! * Rust handlers — `#[hook]` / `#[guard]` fns registered with `hooks![…]`.
//!
//! Every recorded event is replayed at its seam; tool calls go through the whole five-phase
//! pipeline with a simulated tool (nothing is executed), and each decision is printed.
//!
//! ```text
//! cargo run --example agent_loop [-- FILE.jsonl]
//! ```

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{Value, json};

use seamguard::harness::{
    BoxFuture, Harness, Metrics, PolicyTable, SeamEvent, Timeout, Tool, ToolCall, ToolExecution,
    ToolOutput,
};
use seamguard::readers::{EventReader, Item};
use seamguard::{
    GuardDeny, PostToolDecision, PreToolDecision, Scope, Seam, guard, hook, hooks, policy,
};

/// Reading outside the project needs a look from the user.
#[hook(seam = "pre-tool", tool = "Read|Grep|Glob")]
fn reads_outside_project(call: &ToolCall) -> Option<PreToolDecision> {
    let cwd = call.payload().get("cwd")?.as_str()?;
    let path = call
        .input()
        .get("file_path")
        .or_else(|| call.input().get("path"))?
        .as_str()?;
    (path.starts_with('/') && !path.starts_with(cwd)).then(|| PreToolDecision::Ask {
        reason: format!("{path} is outside the project"),
    })
}

/// No agent-side edits of CI configuration (async: a real check might ask a service).
#[guard(tool = "Edit|MultiEdit|Write")]
async fn no_ci_edits(call: &ToolCall) -> Option<GuardDeny> {
    let path = call.input().get("file_path")?.as_str()?;
    path.contains("/.github/workflows/").then(|| GuardDeny {
        reason: "CI workflows are changed by humans only".into(),
    })
}

/// After a failing test run, remind the model to read the failures first.
#[hook(seam = "post-tool", tool = "Bash")]
fn after_tests(out: &ToolOutput) -> Option<PostToolDecision> {
    let cmd = out.call.command()?;
    (cmd.contains("npm test") || cmd.contains("npm run test")).then(|| PostToolDecision::Accept {
        additional_contexts: vec!["Read the first failing test before changing code.".into()],
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
    fn call<'a>(&'a self, call: &'a ToolCall) -> BoxFuture<'a, Result<Value, String>> {
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

    let mut harness = Harness::new();
    harness
        .add_table(policy!("policies"))
        .add_table(PolicyTable::load_file(
            &root.join("examples/team.toml"),
            Scope::User,
        ));
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

    let mut verdicts: BTreeMap<String, usize> = BTreeMap::new();
    let mut batch = harness.batch();
    for item in EventReader::open(&file) {
        let ev = match item {
            Item::Event(ev) => ev,
            Item::Problem(p) => {
                eprintln!("skipped: {p}");
                continue;
            }
        };
        let at = ev.location();
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
            Seam::PromptSubmit => {
                let ev = SeamEvent::new(ev.seam, ev.payload);
                let r = harness.prompt_submit(&ev).await;
                format!("prompt   {:?}", r.outcome().verdict().name())
            }
            Seam::SessionStart | Seam::SubagentStart => {
                // A new step: settle the previous batch (results, then contexts).
                let settled = std::mem::replace(&mut batch, harness.batch()).settle();
                for c in &settled.contexts {
                    println!("  context from {}: {}", c.source, c.text);
                }
                let r = harness
                    .session_start(&SeamEvent::new(ev.seam, ev.payload))
                    .await;
                format!("session  contexts: {:?}", r.decision)
            }
            Seam::Stop | Seam::SubagentStop => {
                let r = harness.stop(&SeamEvent::new(ev.seam, ev.payload)).await;
                format!("{:<8} {:?}", ev.seam.name(), r.decision)
            }
            seam => {
                harness.notify(&SeamEvent::new(seam, ev.payload)).await;
                format!("{:<8} observed", seam.name())
            }
        };
        println!("{at}  {line}");
    }
    let settled = batch.settle();
    for c in &settled.contexts {
        println!("  context from {}: {}", c.source, c.text);
    }
    println!(
        "\npre-tool verdicts: {verdicts:?}; dispatched {} simulated calls",
        metrics.calls()
    );
    let failures = harness.take_failures();
    if !failures.is_empty() {
        println!("observer failures: {failures:?}");
    }
}
