//! One harness shared by several tokio tasks (issue 30): policies loaded at run time with
//! their errors handled, async handlers that keep state, and an extension registered and
//! unregistered while calls are in flight.
//!
//! * `examples/team.toml` is loaded with `PolicyTable::load_file`, a `Result`: a missing or
//!   broken file stops the program with its `file:line:column`. A broken policy given to the
//!   harness unhandled would deny every call instead (shown with an inline broken policy).
//! * A rate limiter is an async closure (`on_async`) whose state (`Arc<…>`) is shared by
//!   every call; it awaits (a stand-in for a service) and sees the run's cancellation token.
//! * An "extension" (an async pre-tool hook asking about `curl`) is registered through
//!   `&Harness` while tool calls run in other tasks, and unregistered with its handle: a
//!   call that started before the change keeps the handlers it started with.
//! * A prompt "alias" handler (an async closure) rewrites `ship it` into a production deploy;
//!   the team policy's prompt rule blocks the rewritten prompt: tables judge the final value.
//!
//! ```text
//! cargo run --example shared_harness
//! ```
//!
//! The tests run [`run`] and pin what it reports (`tests/seeds/example.rs`).

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use seamguard::prelude::*;

/// What one run of the example saw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Report {
    /// The load error of the inline broken policy (`file:line:column: error: …`).
    pub load_error: String,
    /// Decision of a call through a harness given the broken policy unhandled.
    pub unhandled: String,
    /// `curl` started before the extension was registered: the extension is not asked.
    pub before_registration: String,
    /// `curl` started while the extension is registered, finishing after it was
    /// unregistered: it keeps the handlers it started with.
    pub in_flight_at_unregister: String,
    /// `curl` started after the extension was unregistered.
    pub after_unregistration: String,
    /// `npm publish` denied by the TOML team policy.
    pub team_policy: String,
    /// Calls the rate limiter counted (every pre-tool call of the shared harness).
    pub counted: usize,
    /// `ship it` after the alias handler rewrote it into a production deploy.
    pub rewritten_prompt: String,
}

/// A decision in one word plus its reason.
fn show(d: &Option<PreToolDecision>) -> String {
    match d {
        None => "abstain".to_string(),
        Some(PreToolDecision::Allow { .. }) => "allow".to_string(),
        Some(PreToolDecision::Ask { reason }) => format!("ask: {reason}"),
        Some(PreToolDecision::Defer { reason }) => format!("defer: {reason}"),
        Some(PreToolDecision::Deny { reason }) => format!("deny: {reason}"),
    }
}

fn bash(cmd: &str) -> ToolCall {
    ToolCall::builder("Bash")
        .arg("command", cmd)
        .session("s1")
        .cwd("/work/project")
        .build()
}

/// A pre-tool evaluation of `cmd` on its own task.
fn spawn_call(
    h: &Arc<Harness>,
    cmd: &'static str,
) -> tokio::task::JoinHandle<Option<PreToolDecision>> {
    let h = h.clone();
    tokio::spawn(async move { h.pre_tool(&bash(cmd)).await.decision })
}

/// The example: builds the shared harness and runs calls on several tasks.
///
/// # Errors
/// The team policy does not load, a registration is refused, or a task panicked.
pub(crate) async fn run(root: &Path) -> Result<Report, Box<dyn std::error::Error>> {
    // A broken policy: `load_str` says where; unhandled, the harness denies every call.
    let broken = "[[rule]]\nid = \"oops\"\nseam = \"pre-tol\"\ndecision = \"deny\"\n";
    let load_error = match PolicyTable::load_str(broken, "inline.toml", Scope::User) {
        Ok(_) => "loaded".to_string(),
        Err(e) => e.to_string(),
    };
    let mut careless = Harness::new();
    careless.add_table(PolicyTable::load_str(broken, "inline.toml", Scope::User));
    let unhandled = show(&careless.pre_tool(&bash("ls")).await.decision);

    // The team policy, errors handled: the caller decides what a broken file means.
    let team = PolicyTable::load_file(&root.join("examples/team.toml"), Scope::User)?;
    let mut harness = Harness::new();
    harness.add_table(team);
    let harness = Arc::new(harness);

    // An async handler with state shared by every call: counts calls and waits on the
    // "rate service" (a short sleep); it stops waiting when the run is cancelled.
    let counted = Arc::new(AtomicUsize::new(0));
    let state = counted.clone();
    harness.on_async(
        at::PreTool,
        move |_call, cx| {
            let state = state.clone();
            async move {
                state.fetch_add(1, Ordering::SeqCst);
                tokio::select! {
                    () = tokio::time::sleep(Duration::from_millis(30)) => None,
                    () = cx.signal().cancelled() => None,
                }
            }
        },
        RegistrationOptions::named("rate-limit").source("examples/shared_harness.rs"),
    )?;

    // A call in flight before the extension exists.
    let before = spawn_call(&harness, "curl https://example.org");
    tokio::task::yield_now().await;

    // Load the extension through the shared harness (`&Harness`), calls running.
    let extension = harness.on_async(
        at::PreTool,
        |call, _cx| async move {
            tokio::time::sleep(Duration::from_millis(10)).await;
            let curl = call.command().is_some_and(|c| c.starts_with("curl "));
            curl.then(|| PreToolDecision::ask("network access"))
        },
        RegistrationOptions::named("net-extension").matcher("Bash"),
    )?;
    let in_flight = spawn_call(&harness, "curl https://example.org");
    // The call takes its snapshot when it is first polled.
    tokio::task::yield_now().await;
    // Unload it while that call is still waiting in the rate limiter.
    extension.unregister()?;
    let after = spawn_call(&harness, "curl https://example.org");
    let team_call = spawn_call(&harness, "npm publish");

    // A prompt alias expanded by an async handler with state (the aliases); the team
    // policy blocks production deploys, and judges the prompt as rewritten.
    let aliases = Arc::new(vec![("ship it", "deploy --env=production")]);
    harness.on_async(
        at::PromptSubmit,
        move |ev, _cx| {
            let aliases = aliases.clone();
            async move {
                let prompt = ev.prompt_text()?;
                let (_, expanded) = aliases.iter().find(|(alias, _)| *alias == prompt)?;
                Some(PromptDecision::rewrite(*expanded))
            }
        },
        RegistrationOptions::named("aliases"),
    )?;
    let prompt = PromptEvent::new("ship it", "s1", "/work/project");
    let rewritten_prompt = match harness.prompt_submit(&prompt).await.decision {
        PromptDecision::Block { reason, .. } => format!("block: {reason}"),
        PromptDecision::Allow {
            rewritten_prompt, ..
        } => format!(
            "allow: {}",
            rewritten_prompt.as_deref().unwrap_or("ship it")
        ),
    };

    Ok(Report {
        load_error,
        unhandled,
        before_registration: show(&before.await?),
        in_flight_at_unregister: show(&in_flight.await?),
        after_unregistration: show(&after.await?),
        team_policy: show(&team_call.await?),
        counted: counted.load(Ordering::SeqCst),
        rewritten_prompt,
    })
}

#[cfg_attr(test, allow(dead_code, reason = "the tests call `run`"))]
#[tokio::main(flavor = "current_thread")]
async fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    match run(root).await {
        Ok(r) => println!("{r:#?}"),
        Err(e) => {
            eprintln!("shared_harness: {e}");
            std::process::exit(1);
        }
    }
}
