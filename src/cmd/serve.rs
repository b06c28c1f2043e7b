//! `seamguard serve`: an optional resident server that keeps the policies loaded and their
//! seams compiled, so a hook call does not pay for loading and compiling in a new process.
//!
//! **Opt-in.** Nothing starts it: a user runs `seamguard serve` (with the same `--policy`
//! arguments and environment as the hook command) in a session's background, or from a
//! session-start hook. `seamguard hook` stays the command the agent runs: it is the thin
//! client ([`ask`]) and evaluates in its own process whenever no matching server answers.
//!
//! **Keyed.** The server listens on `<state dir>/serve/<key>.sock`, where the key is a hash of
//! the compiled policy snapshot's content key (`seamguard_engine::snapshot_key`: the policy
//! files' content), the hook arguments, the environment a hook call reads (home, config and
//! state folders, project folder, audit-log and cache switches, the trust store's metadata)
//! and the binary. A client computes the key of *its* call and connects to that name only, and
//! sends the key again in the request, which the server compares with its own: an edited
//! policy file, a new trust decision or another project is another key, so a stale table never
//! answers. The server never reloads; it exits after `--idle-secs` without a request.
//!
//! **Never fails open.** The socket is created in a folder of mode 0700 and is itself 0600.
//! Whatever goes wrong on the way — no server, a refused connection, a server that does not
//! take the call within `SEAMGUARD_SERVE_TIMEOUT_MS` (default 1000), a server that dies
//! mid-call, a short or malformed reply, a key mismatch — the client evaluates the call
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
//! Protocol (one request per connection): `SGQ1`, the key (u64 LE), the payload length (u32
//! LE) and the payload; the client then shuts its write side. Reply: `SGA1` as soon as the
//! request is read (the call is taken), then a status byte (0 answered, 1 key mismatch), and
//! when answered the exit code byte, the stdout length (u32 LE) and bytes, the stderr length
//! and bytes.

use std::hash::{Hash, Hasher};
use std::io::{Read, Write};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
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

const REQUEST: &[u8; 4] = b"SGQ1";
const REPLY: &[u8; 4] = b"SGA1";

/// The folder of the sockets.
fn socket_dir() -> PathBuf {
    discover::state_dir().join("serve")
}

fn socket_path(key: u64) -> PathBuf {
    socket_dir().join(format!("{key:016x}.sock"))
}

/// The key of a hook call with arguments `o` and `payload` (`None`: the server's own, from
/// its environment), or `None` when no server may answer (no snapshot yet, `--hooks-config`).
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
    for v in [
        "HOME",
        "XDG_CONFIG_HOME",
        "XDG_STATE_HOME",
        "CLAUDE_PROJECT_DIR",
        "SEAMGUARD_AUDIT_LOG",
        "SEAMGUARD_CACHE",
        "SEAMGUARD_MANAGED_DIR",
    ] {
        std::env::var_os(v).hash(&mut h);
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

/// The hook's client: the answer of a matching server, written out as the hook would, or
/// `None` to evaluate in this process.
pub(super) fn ask(o: &hook::Args, bytes: &[u8]) -> Option<ExitCode> {
    if std::env::var_os("SEAMGUARD_SERVE").is_some_and(|v| v == "0") || !o.servable() {
        return None;
    }
    // No server has run here: nothing to look up (one failing `open`).
    let any = std::fs::read_dir(socket_dir())
        .ok()?
        .flatten()
        .any(|e| e.file_name().to_string_lossy().ends_with(".sock"));
    if !any {
        return None;
    }
    let payload = seamguard_engine::event::parse_json(bytes).ok()?;
    let k = key(o, Some(&payload))?;
    let reply = exchange(&socket_path(k), k, bytes)?;
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

/// A server's answer.
struct Reply {
    code: u8,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

fn timeout() -> Duration {
    let ms = std::env::var("SEAMGUARD_SERVE_TIMEOUT_MS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(1000);
    Duration::from_millis(ms.max(1))
}

/// One request and its reply; `None` on any failure or mismatch.
fn exchange(path: &Path, key: u64, payload: &[u8]) -> Option<Reply> {
    let mut s = UnixStream::connect(path).ok()?;
    let t = timeout();
    s.set_read_timeout(Some(t)).ok()?;
    s.set_write_timeout(Some(t)).ok()?;
    let mut req = Vec::with_capacity(16 + payload.len());
    req.extend_from_slice(REQUEST);
    req.extend_from_slice(&key.to_le_bytes());
    req.extend_from_slice(&u32::try_from(payload.len()).ok()?.to_le_bytes());
    req.extend_from_slice(payload);
    s.write_all(&req).ok()?;
    s.shutdown(std::net::Shutdown::Write).ok()?;
    // Taken within the timeout, or not at all.
    let mut buf = vec![0u8; REPLY.len()];
    s.read_exact(&mut buf).ok()?;
    if buf != REPLY {
        return None;
    }
    // Then the answer, within the longer bound of a taken call.
    let bound = std::env::var("SEAMGUARD_SERVE_ANSWER_MS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .map_or(Duration::from_secs(30), Duration::from_millis);
    let deadline = Instant::now() + bound;
    let mut chunk = [0u8; 8192];
    loop {
        let left = deadline.checked_duration_since(Instant::now())?;
        s.set_read_timeout(Some(left.max(Duration::from_millis(1))))
            .ok()?;
        match s.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => buf.extend_from_slice(chunk.get(..n)?),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
    parse_reply(&buf)
}

fn take<'a>(b: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
    let (h, t) = b.split_at_checked(n)?;
    *b = t;
    Some(h)
}

fn take_u32(b: &mut &[u8]) -> Option<usize> {
    let v = take(b, 4)?;
    Some(u32::from_le_bytes(v.try_into().ok()?) as usize)
}

fn parse_reply(buf: &[u8]) -> Option<Reply> {
    let mut b = buf;
    if take(&mut b, 4)? != REPLY || take(&mut b, 1)? != [0] {
        return None;
    }
    let code = *take(&mut b, 1)?.first()?;
    let n = take_u32(&mut b)?;
    let stdout = take(&mut b, n)?.to_vec();
    let n = take_u32(&mut b)?;
    let stderr = take(&mut b, n)?.to_vec();
    b.is_empty().then_some(Reply {
        code,
        stdout,
        stderr,
    })
}

fn encode_reply(enc: &Encoded) -> Vec<u8> {
    let code = enc.exit_code.clamp(0, 255) as u8;
    let mut out = Vec::with_capacity(16 + enc.stdout.len() + enc.stderr.len());
    out.extend_from_slice(REPLY);
    out.push(0);
    out.push(code);
    for part in [enc.stdout.as_bytes(), enc.stderr.as_bytes()] {
        let n = u32::try_from(part.len()).unwrap_or(u32::MAX);
        out.extend_from_slice(&n.to_le_bytes());
        out.extend_from_slice(part.get(..n as usize).unwrap_or(part));
    }
    out
}

fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
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
    let Some((res, k)) = resident(&o) else {
        eprintln!("seamguard serve: the policies kept changing while they were loaded");
        return ExitCode::from(2);
    };
    let dir = socket_dir();
    if let Err(e) = std::fs::create_dir_all(&dir)
        .and_then(|_| std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)))
    {
        eprintln!("seamguard serve: cannot create {}: {e}", dir.display());
        return ExitCode::from(2);
    }
    let path = socket_path(k);
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
        }
    });
    for stream in listener.incoming() {
        let Ok(mut s) = stream else { continue };
        LAST.store(now_secs(), Ordering::Relaxed);
        serve_one(&o, &res, k, &mut s);
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

/// Read one request and answer it (or say that the key does not match).
fn serve_one(o: &hook::Args, res: &Resident, k: u64, s: &mut UnixStream) {
    let started = Instant::now();
    let started_ms = audit::now_ms();
    let t = Duration::from_secs(5);
    if s.set_read_timeout(Some(t)).is_err() || s.set_write_timeout(Some(t)).is_err() {
        return;
    }
    let mut head = [0u8; 16];
    if s.read_exact(&mut head).is_err() {
        return;
    }
    let (magic, rest) = head.split_at(4);
    let (kb, lb) = rest.split_at(8);
    let (Ok(kb), Ok(lb)) = (<[u8; 8]>::try_from(kb), <[u8; 4]>::try_from(lb)) else {
        return;
    };
    let len = u32::from_le_bytes(lb) as usize;
    if magic != REQUEST || len > super::hook_input::MAX_PAYLOAD_BYTES {
        return;
    }
    if u64::from_le_bytes(kb) != k {
        let _ = s.write_all(&[REPLY.as_slice(), &[1]].concat());
        return;
    }
    let mut bytes = vec![0u8; len];
    if s.read_exact(&mut bytes).is_err() || s.write_all(REPLY).is_err() {
        return;
    }
    injected_exit();
    // Refusals and decisions are recorded as the hook records them.
    let mut refusals = super::hook_input::Refusals {
        audit_log: super::log::audit_path(o.audit_log.as_deref()),
        started_ms,
        started,
        digest: Some(seamguard_engine::audit::payload_digest(&bytes)),
    };
    hook::respond(
        o,
        &bytes,
        len as u64,
        &mut refusals,
        Some(res),
        &mut |enc: &Encoded| {
            let code = enc.exit_code.clamp(0, 255) as u8;
            eprintln!("seamguard serve: answered a call (exit {code})");
            let _ = s.write_all(encode_reply(enc).get(REPLY.len()..).unwrap_or_default());
            let _ = s.shutdown(std::net::Shutdown::Write);
            ExitCode::from(code)
        },
    );
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]
    use super::*;

    #[test]
    fn replies_round_trip_and_damaged_ones_are_refused() {
        let enc = Encoded {
            stdout: "{\"decision\":\"deny\"}".to_string(),
            stderr: "no".to_string(),
            exit_code: 2,
        };
        let b = encode_reply(&enc);
        let r = parse_reply(&b).unwrap();
        assert_eq!(
            (r.code, r.stdout.as_slice(), r.stderr.as_slice()),
            (2, enc.stdout.as_bytes(), b"no".as_slice())
        );
        for cut in 0..b.len() {
            assert!(parse_reply(&b[..cut]).is_none(), "cut at {cut}");
        }
        let mut longer = b.clone();
        longer.push(0);
        assert!(parse_reply(&longer).is_none());
        assert!(parse_reply(&[REPLY.as_slice(), &[1]].concat()).is_none());
    }
}
