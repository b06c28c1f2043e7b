//! `seamguard serve`: a resident server that keeps the policies loaded and their seams
//! compiled, so a hook call does not pay for loading and compiling in a new process.
//!
//! **Started on first use.** The hook command (`seamguard-hook`, or `seamguard hook`) asks the
//! server of its route first ([`super::serve_client::ask`]); when none runs, it judges the call
//! in its own process and starts one in the background: `seamguard serve --daemon` with the
//! same hook arguments, in the same folder and environment, so the server's route is the
//! caller's by construction.
//! `--daemon` leaves the host's process group and session (the hook's group may be killed by
//! the host; the server is not in it), writes nothing to the standard streams, and exits at
//! once when another server holds the route's lock (`r-<route>.lock`: one server per route).
//! A server exits after `--idle-secs` without a request (default `SEAMGUARD_SERVE_IDLE_SECS`,
//! else 600), or when its binary is replaced; it reloads its table when its policy files or
//! the trust store change. It never writes a line per call: `--verbose` does, and the audit
//! log records every call as the hook does. `SEAMGUARD_SERVE=0` turns the client off,
//! `SEAMGUARD_SERVE=ask` asks a running server but never starts one (a supervised server).
//! A user may still run `seamguard serve` in a terminal with the hook's arguments.
//!
//! **Routed, then keyed.** The server listens on `<state dir>/serve/r-<route>.sock`; the route
//! (`seamguard_client::route_key`) hashes the hook arguments as spelled, the current folder,
//! the environment a hook call reads and the `seamguard` binary that would judge the call, so
//! a client finds its server without parsing anything, and a server of another build is never
//! found. Clients only ask a socket and folder owned by their user, the folder closed to others.
//! Whether the server may answer a call is decided per call, here: the key of the call
//! ([`KeyMemo::key`]: the policy files the payload's project finds, their metadata — size,
//! modification and change times, inode, device: one `stat` each, nothing read — the parsed
//! arguments, the trust store's metadata, the binary) must
//! be the key of the table the server loaded. An edited policy file, a new trust decision,
//! another project or a rebuilt `seamguard` is another key: the server says the call is not
//! its own and the client judges it, so a stale table never answers. When the server's own key
//! moved (its files or the trust store changed), it then reloads, and the next call is served.
//!
//! **What the route and key cover, and why.** A judgement reads: the payload (sent each call),
//! the policy files (found from the arguments, `CLAUDE_PROJECT_DIR`, the payload's `cwd` or the
//! current folder, `XDG_CONFIG_HOME`/`HOME`, `SEAMGUARD_MANAGED_DIR`), their content, the trust
//! store, the state folder (snapshots, session memory, continuations: `XDG_STATE_HOME`,
//! `SEAMGUARD_CACHE`), the audit settings (`SEAMGUARD_AUDIT_LOG`, `SEAMGUARD_AUDIT_INPUT`) and
//! the binary. The route holds what the client can see without parsing (arguments, folder,
//! those variables, the binary); the per-call key holds what needs the payload and the disk
//! (files found for the payload, their content, the trust store). `PATH` is in neither:
//! judging does not read it, and launchers change it. Since the client starts the server
//! itself, in its own folder and environment, a host that sets `CLAUDE_PROJECT_DIR` gets a
//! server that has it too: one server per project and host setup, used from the second call.
//!
//! **Never fails open.** The socket is created in a folder of mode 0700 and is itself 0600.
//! Whatever goes wrong on the way — no server, a refused connection, a server that does not
//! take the call within `SEAMGUARD_SERVE_TIMEOUT_MS` (default 1000), a server that dies
//! mid-call, a short or malformed reply, another key — the client evaluates the call
//! itself, exactly as without a server, and appends the reason to `r-<route>.fallbacks`
//! (`seamguard status` counts them). A server that has taken a call says so at once, and
//! the client then waits up to `SEAMGUARD_SERVE_ANSWER_MS` (default 30,000: a command hook of
//! a `run` rule may take seconds) for its answer, so a slow call is not judged twice (its
//! command hooks would run twice); past that bound, a hung server would otherwise let the
//! host's own hook timeout end the hook and the call run unchecked, so the client judges the
//! call itself. The server answers with the same code path as the hook (`hook::respond`): the
//! same answer, audit record and session memory.
//!
//! **Why Claude Code's `http` hook type is only a further opt-in**: a command hook whose
//! process cannot reach the server still answers (in-process), while an `http` hook whose
//! server is down or refuses the connection is a *non-blocking error* in Claude Code: the
//! tool call runs unchecked. Pointing an `http` hook at a resident server would make every
//! crash, restart or idle exit of that server a silent fail-open, so it is only for setups
//! that supervise the server (and keep a command hook as the guard).
//!
//! The protocol, the route (which socket a call goes to) and the small client binary
//! `seamguard-hook` are in the `seamguard-client` crate. docs/serve.md is the user's guide.

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::{UnixListener, UnixStream};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use seamguard_engine::{Encoded, audit};

use super::hook;
use super::serve_client::{binary_identity, hook_argv};
use super::serve_key::KeyMemo;

/// Run a resident server for the hook's policies.
#[derive(clap::Args, Debug)]
pub(crate) struct ServeArgs {
    /// The hook's arguments: the server answers calls of a hook run with the same ones.
    #[command(flatten)]
    hook: hook::Args,
    /// Exit after this many seconds without a request (default: $SEAMGUARD_SERVE_IDLE_SECS,
    /// else 600).
    #[arg(long, value_name = "SECONDS")]
    idle_secs: Option<u64>,
    /// Detach (a session of its own, nothing on the standard streams) and exit quietly when a
    /// server already runs for these arguments: how the hook starts a server.
    #[arg(long)]
    daemon: bool,
    /// The second stage of `--daemon` (internal).
    #[arg(long, hide = true)]
    detached: bool,
    /// Write a line to stderr for every call (answered, or left to the hook).
    #[arg(long)]
    verbose: bool,
}

/// The idle time of a server without `--idle-secs`, in seconds.
const DEFAULT_IDLE_SECS: u64 = 600;

/// The hook arguments alone, parsed as `seamguard hook` parses them.
#[derive(clap::Parser, Debug)]
#[command(name = "seamguard hook", no_binary_name = true)]
struct HookOnly {
    #[command(flatten)]
    hook: hook::Args,
}

fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Build the resident engine and the key it answers for; rebuilt while the policy files
/// change under it, so the key always names what was loaded.
fn resident(o: &hook::Args, memo: &mut KeyMemo) -> Option<(hook::Built, u64)> {
    for _ in 0..5 {
        let before = memo.key(o, None);
        let built = hook::build(o, None, None, None, Instant::now());
        let after = memo.key(o, None);
        if let (Some(a), Some(b)) = (before, after)
            && a == b
        {
            return Some((built, a));
        }
    }
    None
}

/// How a server talks: in the foreground to its stderr, as a daemon not at all.
#[derive(Clone, Copy)]
struct Voice {
    /// Lines of start, exit and errors (not with `--daemon`).
    on: bool,
    /// A line per call (`--verbose`).
    verbose: bool,
}

impl Voice {
    fn say(self, line: std::fmt::Arguments<'_>) {
        if self.on {
            eprintln!("seamguard serve: {line}");
        }
    }

    fn call(self, line: std::fmt::Arguments<'_>) {
        if self.verbose {
            eprintln!("seamguard serve: {line}");
        }
    }
}

/// `--daemon`: leave the caller's session. The client starts the first stage in a process
/// group of its own, whose leader cannot call `setsid`; it starts the second stage
/// (`--detached`) and exits, and the second stage, not a group leader, makes its own session.
/// `Some(code)`: this process is done (the first stage, or a failure).
fn detach(a: &ServeArgs) -> Option<ExitCode> {
    if !a.daemon {
        return None;
    }
    if nix::unistd::setsid().is_ok() || a.detached {
        return None;
    }
    let me = std::env::current_exe().ok()?;
    let started = std::process::Command::new(me)
        .args(std::env::args_os().skip(1))
        .arg("--detached")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    Some(if started.is_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    })
}

/// When the call being served was taken (Unix ms; 0: none is).
static BUSY_SINCE: AtomicU64 = AtomicU64::new(0);

/// Write the server's mark into its lock file (`live`), or clear it (the server exits, or a
/// call holds its accept loop up). While the mark is fresh
/// (`seamguard_client::MARK_FRESH`) clients `connect` directly instead of on a thread that
/// bounds the wait: `connect` only blocks on a full listen queue, which a server that takes
/// its calls does not have. A stale or missing mark only costs the client that thread; it
/// never decides whether a call is answered.
fn mark(lock: Option<&std::fs::File>, live: bool) {
    use std::os::unix::fs::FileExt;
    let Some(f) = lock else { return };
    if live {
        let _ = f.write_at(
            &seamguard_client::encode_mark(seamguard_client::now_ms()),
            0,
        );
    } else {
        let _ = f.set_len(0);
    }
}

/// Take the route's lock (one server per route): `None` when another server holds it past
/// a short wait (a server that is exiting lets go within it).
fn take_lock(route: u64) -> Option<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    let f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .mode(0o600)
        .open(seamguard_client::lock_path(route))
        .ok()?;
    for _ in 0..40 {
        match f.try_lock() {
            Ok(()) => return Some(f),
            Err(std::fs::TryLockError::WouldBlock) => {
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(std::fs::TryLockError::Error(_)) => return None,
        }
    }
    None
}

/// `seamguard serve`.
pub(super) fn run(a: ServeArgs) -> ExitCode {
    if let Some(code) = detach(&a) {
        return code;
    }
    let voice = Voice {
        on: !a.daemon,
        verbose: a.verbose && !a.daemon,
    };
    let o = a.hook;
    if !o.servable() {
        voice.say(format_args!(
            "--hooks-config is loaded per call; no server for it"
        ));
        return ExitCode::from(2);
    }
    // The route is computed from the arguments as spelled; they must be the ones parsed.
    let argv = hook_argv();
    match <HookOnly as clap::Parser>::try_parse_from(&argv) {
        Ok(h) if h.hook.identity() == o.identity() => {}
        _ => {
            voice.say(format_args!(
                "cannot tell the hook arguments from the server's own; put --idle-secs first"
            ));
            return ExitCode::from(2);
        }
    }
    let binary = binary_identity();
    let route = seamguard_client::route_key(&argv, binary);
    let dir = seamguard_client::socket_dir();
    if let Err(e) = std::fs::create_dir_all(&dir)
        .and_then(|_| std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)))
    {
        voice.say(format_args!("cannot create {}: {e}", dir.display()));
        return ExitCode::from(2);
    }
    // A folder another user made first (a shared temp folder when HOME is unset) is not used:
    // the clients would not trust it either.
    if !seamguard_client::trusted_dir(&dir) {
        voice.say(format_args!(
            "{} is not owned by this user; not serving from it",
            dir.display()
        ));
        return ExitCode::from(2);
    }
    let path = seamguard_client::socket_path(route);
    let Some(lock) = take_lock(route) else {
        voice.say(format_args!(
            "a server already answers on {}",
            path.display()
        ));
        return ExitCode::SUCCESS;
    };
    let failed = seamguard_client::failed_path(route);
    let mut memo = KeyMemo::default();
    let Some((res, k)) = resident(&o, &mut memo) else {
        // The clients do not start another server for a while: it would fail the same way.
        let _ = std::fs::write(&failed, b"");
        voice.say(format_args!(
            "the policies could not be loaded into a snapshot (a missing path, an error, or files that kept changing while they were read); `seamguard check` with the same --policy arguments says which"
        ));
        return ExitCode::from(2);
    };
    let _ = std::fs::remove_file(&failed);
    // The lock is held: a socket file here is a dead server's.
    let _ = std::fs::remove_file(&path);
    let listener = match UnixListener::bind(&path) {
        Ok(l) => l,
        Err(e) => {
            voice.say(format_args!("cannot listen on {}: {e}", path.display()));
            return ExitCode::from(2);
        }
    };
    if let Err(e) = std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)) {
        let _ = std::fs::remove_file(&path);
        voice.say(format_args!("cannot restrict {}: {e}", path.display()));
        return ExitCode::from(2);
    }
    // The mark: clients connect directly while it is fresh (see `mark`).
    let marker = lock.try_clone().ok();
    mark(marker.as_ref(), true);
    voice.say(format_args!("listening on {}", path.display()));
    #[cfg(feature = "otel")]
    if let Some(line) = crate::otel::start_from_env() {
        voice.say(format_args!("{line}"));
    }
    static LAST: AtomicU64 = AtomicU64::new(0);
    LAST.store(now_secs(), Ordering::Relaxed);
    let idle = a
        .idle_secs
        .or_else(|| {
            std::env::var("SEAMGUARD_SERVE_IDLE_SECS")
                .ok()
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(DEFAULT_IDLE_SECS)
        .max(1);
    let watched = path.clone();
    std::thread::spawn(move || {
        loop {
            std::thread::sleep(Duration::from_millis(500));
            // Refreshed only while the accept loop is not held up by a call.
            let busy = BUSY_SINCE.load(Ordering::Relaxed);
            mark(
                marker.as_ref(),
                busy == 0 || seamguard_client::now_ms().saturating_sub(busy) < 1000,
            );
            if now_secs().saturating_sub(LAST.load(Ordering::Relaxed)) >= idle {
                mark(marker.as_ref(), false);
                let _ = std::fs::remove_file(&watched);
                voice.say(format_args!("idle for {idle} s, exiting"));
                #[cfg(feature = "otel")]
                crate::otel::shutdown(Duration::from_secs(2));
                std::process::exit(0);
            }
            // Clients of a new build have another route: nothing would ever ask this one.
            if binary_identity() != binary {
                mark(marker.as_ref(), false);
                let _ = std::fs::remove_file(&watched);
                voice.say(format_args!("the seamguard binary was replaced, exiting"));
                std::process::exit(0);
            }
        }
    });
    let mut me = Server {
        o: &o,
        res,
        key: k,
        memo,
        route,
        binary,
        voice,
        counts: Counts {
            started_ms: audit::now_ms(),
            idle_secs: idle,
            ..Counts::default()
        },
    };
    for stream in listener.incoming() {
        let Ok(mut s) = stream else { continue };
        LAST.store(now_secs(), Ordering::Relaxed);
        BUSY_SINCE.store(seamguard_client::now_ms().max(1), Ordering::Relaxed);
        let served = me.serve_one(&mut s);
        BUSY_SINCE.store(0, Ordering::Relaxed);
        if served == Served::BinaryReplaced {
            voice.say(format_args!("the seamguard binary was replaced, exiting"));
            break;
        }
        LAST.store(now_secs(), Ordering::Relaxed);
    }
    mark(Some(&lock), false);
    let _ = std::fs::remove_file(&path);
    #[cfg(feature = "otel")]
    crate::otel::shutdown(Duration::from_secs(2));
    ExitCode::SUCCESS
}

/// A fault switch for the tests (debug builds only): `SEAMGUARD_SERVE_FAULT=exit` makes the
/// server die after taking a request, before answering it; `hang` makes it never answer.
#[cfg(debug_assertions)]
fn injected_exit() {
    match std::env::var("SEAMGUARD_SERVE_FAULT").as_deref() {
        Ok("exit") => std::process::exit(9),
        Ok("hang") => loop {
            std::thread::sleep(Duration::from_secs(60));
        },
        _ => {}
    }
}

#[cfg(not(debug_assertions))]
fn injected_exit() {}

/// A running server: what it loaded and what it answers for.
struct Server<'a> {
    o: &'a hook::Args,
    /// The server's loaded policies and engine.
    res: hook::Built,
    /// The key of the loaded table.
    key: u64,
    /// What the key of a call reuses from the calls before it.
    memo: KeyMemo,
    /// The route of the socket.
    route: u64,
    /// The binary at start (`None`: unknown; then every call is answered by the client).
    binary: Option<(u64, u64, u64, i64, i64)>,
    voice: Voice,
    counts: Counts,
}

/// What a server has done since it started (`seamguard status` asks for it).
#[derive(Debug, Default)]
struct Counts {
    /// Unix time of the start, in ms.
    started_ms: u64,
    /// Calls answered.
    answered: u64,
    /// Calls left to the client: another key (edited policies, another project).
    refused: u64,
    /// Tables reloaded after the policy files or the trust store changed.
    reloads: u64,
    /// Unix time of the last call, in ms (0: none yet).
    last_call_ms: u64,
    /// The idle time before exiting, in seconds.
    idle_secs: u64,
}

/// How one connection ended.
#[derive(Debug, PartialEq, Eq)]
enum Served {
    /// Answered, refused as another key, or dropped (a bad request).
    Done,
    /// The binary on disk is not the one running: not answered, and the server exits.
    BinaryReplaced,
}

impl Server<'_> {
    /// The server's account, for `seamguard status`.
    fn status(&self) -> Vec<u8> {
        let c = &self.counts;
        let v = serde_json::json!({
            "pid": std::process::id(),
            "started_ms": c.started_ms,
            "answered": c.answered,
            "refused": c.refused,
            "reloads": c.reloads,
            "last_call_ms": (c.last_call_ms > 0).then_some(c.last_call_ms),
            "idle_secs": c.idle_secs,
            "key": format!("{:016x}", self.key),
            "route": format!("{:016x}", self.route),
            "args": hook_argv().iter().map(|a| a.to_string_lossy().into_owned()).collect::<Vec<_>>(),
            "cwd": std::env::current_dir().ok().map(|d| d.display().to_string()),
            "binary": std::env::current_exe().ok().map(|d| d.display().to_string()),
        });
        // The OpenTelemetry export's counts (records handed over, sent, dropped, failed).
        #[cfg(feature = "otel")]
        let v = {
            let mut v = v;
            v["otel"] = crate::otel::counts();
            v
        };
        seamguard_client::encode_reply(0, v.to_string().as_bytes(), b"")
    }

    /// After a call of another key: reload when the server's own key moved (its policy files
    /// or the trust store changed), so the next call is served from the new table.
    fn reload_if_stale(&mut self) {
        if self.memo.key(self.o, None) == Some(self.key) {
            return;
        }
        if let Some((res, k)) = resident(self.o, &mut self.memo) {
            self.res = res;
            self.key = k;
            self.counts.reloads += 1;
            self.voice.call(format_args!(
                "the policies or the trust store changed; reloaded"
            ));
        }
    }

    /// Read one request and answer it, or say that it is not this server's call.
    fn serve_one(&mut self, s: &mut UnixStream) -> Served {
        let started = Instant::now();
        let started_ms = audit::now_ms();
        let t = Duration::from_secs(5);
        if s.set_read_timeout(Some(t)).is_err() || s.set_write_timeout(Some(t)).is_err() {
            return Served::Done;
        }
        let req = match seamguard_client::read_ask(s) {
            Ok(seamguard_client::Ask::Call(req)) => req,
            Ok(seamguard_client::Ask::Status) => {
                let _ = s.write_all(&self.status());
                return Served::Done;
            }
            Err(_) => return Served::Done,
        };
        if self.binary.is_none() || binary_identity() != self.binary {
            let _ = s.write_all(&seamguard_client::encode_not_mine());
            return Served::BinaryReplaced;
        }
        self.counts.last_call_ms = started_ms;
        // The route found this server; the key of the call decides whether it may answer.
        // With `--policy` paths the payload plays no part in finding the files (its `cwd`
        // only matters to discovery without them): it is not parsed twice.
        let mine = req.route == self.route
            && if self.o.policy_args().is_empty() {
                seamguard_engine::event::parse_json(&req.payload)
                    .ok()
                    .and_then(|p| self.memo.key(self.o, Some(&p)))
            } else {
                self.memo.key(self.o, None)
            } == Some(self.key);
        if !mine {
            self.voice.call(format_args!(
                "a call for other policies (edited, another project, a trust decision) was left to the hook"
            ));
            let _ = s.write_all(&seamguard_client::encode_not_mine());
            let _ = s.shutdown(std::net::Shutdown::Both);
            self.counts.refused += 1;
            self.reload_if_stale();
            return Served::Done;
        }
        if s.write_all(seamguard_client::REPLY).is_err() {
            return Served::Done;
        }
        injected_exit();
        let bytes = std::rc::Rc::new(req.payload);
        // Refusals and decisions are recorded as the hook records them.
        let mut refusals = super::hook_input::Refusals {
            audit_log: super::log::audit_path(self.o.audit_log.as_deref()),
            started_ms,
            started,
            digest: super::hook_input::PayloadSha::Bytes(
                std::rc::Rc::clone(&bytes),
                Default::default(),
            ),
        };
        let voice = self.voice;
        hook::respond(
            self.o,
            &bytes,
            bytes.len() as u64,
            &mut refusals,
            Some(&self.res),
            &mut |enc: &Encoded| {
                let code = enc.exit_code.clamp(0, 255) as u8;
                voice.call(format_args!("answered a call (exit {code})"));
                let reply = seamguard_client::encode_reply(
                    code,
                    enc.stdout.as_bytes(),
                    enc.stderr.as_bytes(),
                );
                let _ = s.write_all(
                    reply
                        .get(seamguard_client::REPLY.len()..)
                        .unwrap_or_default(),
                );
                let _ = s.shutdown(std::net::Shutdown::Write);
                ExitCode::from(code)
            },
        );
        self.counts.answered += 1;
        Served::Done
    }
}
