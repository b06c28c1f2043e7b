//! `seamguard serve`: an optional resident server that keeps the policies loaded and their
//! seams compiled, so a hook call does not pay for loading and compiling in a new process.
//!
//! **Opt-in.** Nothing starts it: a user runs `seamguard serve` with the same arguments, spelled
//! the same, as the hook command (`seamguard serve --policy policies` for `seamguard hook
//! --policy policies`), in the same folder and environment, in a session's background or from a
//! session-start hook. The agent runs `seamguard hook` or the small `seamguard-hook`: both ask
//! the server first ([`ask`]) and evaluate in a process of their own whenever no matching
//! server answers.
//!
//! **Routed, then keyed.** The server listens on `<state dir>/serve/r-<route>.sock`; the route
//! (`seamguard_client::route_key`) hashes the hook arguments as spelled, the current folder,
//! the environment a hook call reads and the `seamguard` binary that would judge the call, so
//! a client finds its server without parsing anything, and a server of another build is never
//! found. Clients only ask a socket and folder owned by their user, the folder closed to others.
//! Whether the server may answer a call is decided per call, here: the key of the call
//! ([`key`]: the policy files the payload's project finds, their content through the
//! snapshot's content key, the parsed arguments, the trust store's metadata, the binary) must
//! be the key of the table the server loaded. An edited policy file, a new trust decision,
//! another project or a rebuilt `seamguard` is another key: the server says the call is not
//! its own and the client judges it, so a stale table never answers. The server never
//! reloads; it exits after `--idle-secs` without a request, or when its binary is replaced.
//! A call it turns away is logged on its stderr.
//!
//! **Never fails open.** The socket is created in a folder of mode 0700 and is itself 0600.
//! Whatever goes wrong on the way — no server, a refused connection, a server that does not
//! take the call within `SEAMGUARD_SERVE_TIMEOUT_MS` (default 1000), a server that dies
//! mid-call, a short or malformed reply, another key — the client evaluates the call
//! itself, exactly as without a server. A server that has taken a call says so at once, and
//! the client then waits up to `SEAMGUARD_SERVE_ANSWER_MS` (default 30,000: a command hook of
//! a `run` rule may take seconds) for its answer, so a slow call is not judged twice (its
//! command hooks would run twice); past that bound, a hung server would otherwise let the
//! host's own hook timeout end the hook and the call run unchecked, so the client judges the
//! call itself. The server answers with the same code path as the hook (`hook::respond`): the
//! same answer, audit record and session memory. `SEAMGUARD_SERVE=0` turns the client off.
//!
//! **Not the default**, and why Claude Code's `http` hook type is only a further opt-in: a
//! command hook whose process cannot reach the server still answers (in-process), while an
//! `http` hook whose server is down or refuses the connection is a *non-blocking error* in
//! Claude Code: the tool call runs unchecked. Pointing an `http` hook at a resident server
//! would make every crash, restart or idle exit of that server a silent fail-open, so it is
//! only for setups that supervise the server (and keep a command hook as the guard).
//!
//! The protocol, the route (which socket a call goes to) and the small client binary
//! `seamguard-hook` are in the `seamguard-client` crate.

use std::ffi::OsString;
use std::hash::{Hash, Hasher};
use std::io::Write;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::net::{UnixListener, UnixStream};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use seamguard_engine::{Encoded, LoadOptions, audit};

use super::hook;
use crate::discover;

/// Run a resident server for the hook's policies.
#[derive(clap::Args, Debug)]
pub(crate) struct ServeArgs {
    /// The hook's arguments: the server answers calls of a hook run with the same ones.
    #[command(flatten)]
    hook: hook::Args,
    /// Exit after this many seconds without a request.
    #[arg(long, default_value_t = 900, value_name = "SECONDS")]
    idle_secs: u64,
}

/// A server's loaded policies and engine.
pub(crate) struct Resident {
    built: hook::Built,
}

impl Resident {
    /// The engine and what loading it reported.
    pub(super) fn built(&self) -> &hook::Built {
        &self.built
    }
}

/// The hook arguments of this process as spelled: the arguments after the subcommand
/// (`hook`, or `serve` without its own `--idle-secs`).
fn hook_argv() -> Vec<OsString> {
    let mut out = Vec::new();
    let mut args = std::env::args_os().skip(2);
    while let Some(a) = args.next() {
        if a == "--idle-secs" {
            args.next();
        } else if !a.as_encoded_bytes().starts_with(b"--idle-secs=") {
            out.push(a);
        }
    }
    out
}

/// The hook arguments alone, parsed as `seamguard hook` parses them.
#[derive(clap::Parser, Debug)]
#[command(name = "seamguard hook", no_binary_name = true)]
struct HookOnly {
    #[command(flatten)]
    hook: hook::Args,
}

/// The key of a hook call with arguments `o` and `payload` (`None`: the server's own, from
/// its environment), or `None` when no server may answer (no snapshot yet, `--hooks-config`).
/// Computed by the server only, in its own environment: the environment a call reads is in
/// the route (`seamguard_client::ROUTE_ENV`), so a call made in another one never reaches it.
fn key(o: &hook::Args, payload: Option<&serde_json::Value>) -> Option<u64> {
    if !o.servable() {
        return None;
    }
    let args = o.policy_args();
    let paths = discover::policy_paths(args, payload);
    let snap = if paths.is_empty() {
        0
    } else {
        seamguard_engine::snapshot_key(
            &paths,
            LoadOptions::hook(),
            &discover::state_dir().join("cache"),
        )?
    };
    let mut h = std::hash::DefaultHasher::new();
    snap.hash(&mut h);
    paths.hash(&mut h);
    o.identity().hash(&mut h);
    seamguard_engine::build_id().hash(&mut h);
    for a in args {
        a.is_dir().hash(&mut h);
    }
    if args.iter().any(|a| a.is_relative()) {
        std::env::current_dir().ok().hash(&mut h);
    }
    if let Ok(m) = std::fs::metadata(discover::trust_store().path()) {
        (
            m.len(),
            m.mtime(),
            m.mtime_nsec(),
            m.ctime(),
            m.ctime_nsec(),
            m.ino(),
        )
            .hash(&mut h);
    }
    Some(h.finish())
}

/// The client of `seamguard hook`: the answer of a matching server, written out as the hook
/// would, or `None` to evaluate in this process.
pub(super) fn ask(o: &hook::Args, bytes: &[u8]) -> Option<ExitCode> {
    if seamguard_client::client_off() || !o.servable() {
        return None;
    }
    let route = seamguard_client::route_key(&hook_argv(), binary_identity());
    let reply = seamguard_client::exchange(route, bytes)?;
    let mut out = std::io::stdout().lock();
    let write_ok = out
        .write_all(&reply.stdout)
        .and_then(|_| out.flush())
        .is_ok();
    if !reply.stderr.is_empty() {
        eprintln!("{}", String::from_utf8_lossy(&reply.stderr));
    }
    Some(if write_ok {
        ExitCode::from(reply.code)
    } else {
        ExitCode::from(2)
    })
}

fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// What names this process's binary on disk: a rebuilt or reinstalled `seamguard` is another
/// one (another route, and the server stops answering).
fn binary_identity() -> Option<seamguard_client::BinaryIdentity> {
    seamguard_client::binary_identity(&std::env::current_exe().ok()?)
}

/// Build the resident engine and the key it answers for; rebuilt while the policy files
/// change under it, so the key always names what was loaded.
fn resident(o: &hook::Args) -> Option<(Resident, u64)> {
    for _ in 0..5 {
        let before = key(o, None);
        let built = hook::build(o, None, Instant::now());
        let after = key(o, None);
        if let (Some(a), Some(b)) = (before, after)
            && a == b
        {
            return Some((Resident { built }, a));
        }
    }
    None
}

/// `seamguard serve`.
pub(super) fn run(a: ServeArgs) -> ExitCode {
    let o = a.hook;
    if !o.servable() {
        eprintln!("seamguard serve: --hooks-config is loaded per call; no server for it");
        return ExitCode::from(2);
    }
    // The route is computed from the arguments as spelled; they must be the ones parsed.
    let argv = hook_argv();
    match <HookOnly as clap::Parser>::try_parse_from(&argv) {
        Ok(h) if h.hook.identity() == o.identity() => {}
        _ => {
            eprintln!(
                "seamguard serve: cannot tell the hook arguments from the server's own; put --idle-secs first"
            );
            return ExitCode::from(2);
        }
    }
    let binary = binary_identity();
    let route = seamguard_client::route_key(&argv, binary);
    let Some((res, k)) = resident(&o) else {
        eprintln!(
            "seamguard serve: the policies could not be loaded into a snapshot (a missing path, an error, or files that kept changing while they were read); `seamguard check` with the same --policy arguments says which"
        );
        return ExitCode::from(2);
    };
    let dir = seamguard_client::socket_dir();
    if let Err(e) = std::fs::create_dir_all(&dir)
        .and_then(|_| std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)))
    {
        eprintln!("seamguard serve: cannot create {}: {e}", dir.display());
        return ExitCode::from(2);
    }
    // A folder another user made first (a shared temp folder when HOME is unset) is not used:
    // the clients would not trust it either.
    let mine = std::fs::metadata("/proc/self").map(|m| m.uid()).ok();
    if std::fs::symlink_metadata(&dir).map(|m| m.uid()).ok() != mine || mine.is_none() {
        eprintln!(
            "seamguard serve: {} is not owned by this user; not serving from it",
            dir.display()
        );
        return ExitCode::from(2);
    }
    let path = seamguard_client::socket_path(route);
    if UnixStream::connect(&path).is_ok() {
        eprintln!(
            "seamguard serve: a server already answers on {}",
            path.display()
        );
        return ExitCode::SUCCESS;
    }
    let _ = std::fs::remove_file(&path);
    let listener = match UnixListener::bind(&path) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("seamguard serve: cannot listen on {}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    if let Err(e) = std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)) {
        let _ = std::fs::remove_file(&path);
        eprintln!("seamguard serve: cannot restrict {}: {e}", path.display());
        return ExitCode::from(2);
    }
    eprintln!("seamguard serve: listening on {}", path.display());
    static LAST: AtomicU64 = AtomicU64::new(0);
    LAST.store(now_secs(), Ordering::Relaxed);
    let idle = a.idle_secs.max(1);
    let watched = path.clone();
    std::thread::spawn(move || {
        loop {
            std::thread::sleep(Duration::from_millis(500));
            if now_secs().saturating_sub(LAST.load(Ordering::Relaxed)) >= idle {
                let _ = std::fs::remove_file(&watched);
                eprintln!("seamguard serve: idle for {idle} s, exiting");
                std::process::exit(0);
            }
            // Clients of a new build have another route: nothing would ever ask this one.
            if binary_identity() != binary {
                let _ = std::fs::remove_file(&watched);
                eprintln!("seamguard serve: the seamguard binary was replaced, exiting");
                std::process::exit(0);
            }
        }
    });
    let me = Server {
        o: &o,
        res: &res,
        key: k,
        route,
        binary,
    };
    for stream in listener.incoming() {
        let Ok(mut s) = stream else { continue };
        LAST.store(now_secs(), Ordering::Relaxed);
        if me.serve_one(&mut s) == Served::BinaryReplaced {
            eprintln!("seamguard serve: the seamguard binary was replaced, exiting");
            break;
        }
        LAST.store(now_secs(), Ordering::Relaxed);
    }
    let _ = std::fs::remove_file(&path);
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
    res: &'a Resident,
    /// The key of the loaded table.
    key: u64,
    /// The route of the socket.
    route: u64,
    /// The binary at start (`None`: unknown; then every call is answered by the client).
    binary: Option<(u64, u64, u64, i64, i64)>,
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
    /// Read one request and answer it, or say that it is not this server's call.
    fn serve_one(&self, s: &mut UnixStream) -> Served {
        let started = Instant::now();
        let started_ms = audit::now_ms();
        let t = Duration::from_secs(5);
        if s.set_read_timeout(Some(t)).is_err() || s.set_write_timeout(Some(t)).is_err() {
            return Served::Done;
        }
        let Ok(req) = seamguard_client::read_request(s) else {
            return Served::Done;
        };
        if self.binary.is_none() || binary_identity() != self.binary {
            let _ = s.write_all(&seamguard_client::encode_not_mine());
            return Served::BinaryReplaced;
        }
        // The route found this server; the key of the call decides whether it may answer.
        let mine = req.route == self.route
            && seamguard_engine::event::parse_json(&req.payload)
                .ok()
                .and_then(|p| key(self.o, Some(&p)))
                == Some(self.key);
        if !mine {
            eprintln!(
                "seamguard serve: a call for other policies (edited, another project, a trust decision) was left to the hook; restart the server to serve them"
            );
            let _ = s.write_all(&seamguard_client::encode_not_mine());
            return Served::Done;
        }
        if s.write_all(seamguard_client::REPLY).is_err() {
            return Served::Done;
        }
        injected_exit();
        let bytes = req.payload;
        // Refusals and decisions are recorded as the hook records them.
        let mut refusals = super::hook_input::Refusals {
            audit_log: super::log::audit_path(self.o.audit_log.as_deref()),
            started_ms,
            started,
            digest: Some(seamguard_engine::audit::payload_digest(&bytes)),
        };
        hook::respond(
            self.o,
            &bytes,
            bytes.len() as u64,
            &mut refusals,
            Some(self.res),
            &mut |enc: &Encoded| {
                let code = enc.exit_code.clamp(0, 255) as u8;
                eprintln!("seamguard serve: answered a call (exit {code})");
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
        Served::Done
    }
}
