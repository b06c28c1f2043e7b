//! The wire between a hook call and a resident `seamguard serve`, shared by the server, by
//! `seamguard hook` and by `seamguard-hook`, the small client binary of this crate.
//!
//! **Route.** A server answers the calls of one hook command line in one place: it listens on
//! `<state dir>/serve/r-<route>.sock`, where the route ([`route_key`]) is a stable hash of the
//! hook's arguments *as spelled* (`--policy policies`; the server's are its own arguments
//! without `--idle-secs`), the current folder and the environment a hook call reads
//! ([`ROUTE_ENV`]). A client computes the route of its own call without parsing anything, so
//! the small client needs neither the policy model nor JSON.
//!
//! **Key.** The route only finds a server; whether that server may answer is decided by the
//! server for each call: it computes the full key of the call (policy files found for the
//! payload, their content, the trust store, its own binary) and answers only when that is the
//! key of the table it loaded. Otherwise it says so, and the client evaluates the call itself.
//!
//! Protocol, one request per connection (integers little-endian):
//!
//! ```text
//! request:  "SGQ2" route:u64 length:u32 payload[length]      (then the client shuts writing)
//! reply:    "SGA2"                                          (taken: the request was read)
//!           0 code:u8 n:u32 stdout[n] m:u32 stderr[m]       (answered)
//!         | 1                                               (not this server's call)
//! status:   "SGS2" 0:u64 0:u32                              (`seamguard status` asks)
//! reply:    "SGA2" 0 0 n:u32 json[n] 0:u32                  (the server's own account)
//! ```
//!
//! **The mark.** A server writes `SGL1 <Unix ms>` into its lock file when it starts listening
//! and every half second after, while no call holds its accept loop up; it clears it when it
//! exits. A client that finds a fresh mark ([`MARK_FRESH`]) connects directly; otherwise it
//! connects on a thread given up on after the timeout (a stopped or hung server's full listen
//! queue would block `connect` without bound). The mark never decides whether a server is
//! asked or trusted (the socket and folder checks do) nor whether its answer is taken: a
//! stale, missing or forged mark only changes how the connection is made, and every failure
//! after it leaves the call to the client's own judgement.
//!
//! **Started on first use.** A client that finds no server for its route ([`Miss::NoServer`])
//! judges the call without one and starts a server in the background ([`start_server`]:
//! `seamguard serve --daemon` with the same arguments, folder and environment, so its route
//! is the client's). One server runs per route: the server holds `r-<route>.lock` while it
//! lives. `SEAMGUARD_SERVE` chooses ([`serve_mode`]): unset or `auto` asks and starts, `ask`
//! only asks a running server, `0` neither. Every call a client judges itself while the
//! socket folder exists is appended to `r-<route>.fallbacks` ([`record_fallback`]), which
//! `seamguard status` reads.
//!
//! # Examples
//!
//! ```
//! use std::ffi::OsString;
//!
//! let args = [OsString::from("--policy"), OsString::from("policies")];
//! let env = |name: &str| (name == "HOME").then(|| OsString::from("/home/user"));
//! let a = seamguard_client::route_key_with(&args, Some("/work".as_ref()), &env, None);
//! let b = seamguard_client::route_key_with(&args, Some("/tmp".as_ref()), &env, None);
//! assert_ne!(a, b); // another folder is another route
//!
//! let reply = seamguard_client::encode_reply(2, b"{}", b"denied");
//! let parsed = seamguard_client::parse_reply(&reply).unwrap();
//! assert_eq!((parsed.code, parsed.stdout.as_slice()), (2, b"{}".as_slice()));
//! ```

use std::ffi::{OsStr, OsString};
use std::io::{Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The first bytes of a request.
pub const REQUEST: &[u8; 4] = b"SGQ2";
/// The first bytes of a reply: the server has read the request (the call is taken).
pub const REPLY: &[u8; 4] = b"SGA2";
/// The first bytes of a status request (`seamguard status` asks a server for its account).
pub const STATUS: &[u8; 4] = b"SGS2";
/// The largest payload a hook reads, in bytes (16 MiB); a larger one is refused by the hook.
pub const MAX_PAYLOAD_BYTES: usize = 16 << 20;
/// The environment variables a hook call's judgement reads (besides the payload): part of the
/// route, so a server only answers calls made with the values it runs with. `PATH` is not
/// here: evaluation does not read it, and hosts and launchers (version managers, IDEs) change
/// it, which would leave the server unused. Command hooks of `run` rules answered by a server
/// run in the server's environment.
pub const ROUTE_ENV: &[&str] = &[
    "HOME",
    "XDG_CONFIG_HOME",
    "XDG_STATE_HOME",
    "CLAUDE_PROJECT_DIR",
    "SEAMGUARD_AUDIT_LOG",
    "SEAMGUARD_AUDIT_INPUT",
    "SEAMGUARD_CACHE",
    "SEAMGUARD_MANAGED_DIR",
];

/// seamguard's state folder: `$XDG_STATE_HOME/seamguard` (when set and not empty), else
/// `~/.local/state/seamguard`, else `<temp>/seamguard`.
pub fn state_dir() -> PathBuf {
    if let Some(x) = std::env::var_os("XDG_STATE_HOME").filter(|v| !v.is_empty()) {
        return PathBuf::from(x).join("seamguard");
    }
    match std::env::var_os("HOME") {
        Some(h) => PathBuf::from(h)
            .join(".local")
            .join("state")
            .join("seamguard"),
        None => std::env::temp_dir().join("seamguard"),
    }
}

/// The folder of the servers' sockets: `<state dir>/serve` (mode 0700, made by the server).
pub fn socket_dir() -> PathBuf {
    state_dir().join("serve")
}

/// The socket of the server for `route`.
pub fn socket_path(route: u64) -> PathBuf {
    socket_dir().join(format!("r-{route:016x}.sock"))
}

/// The lock file a server of `route` holds while it lives (one server per route).
pub fn lock_path(route: u64) -> PathBuf {
    socket_dir().join(format!("r-{route:016x}.lock"))
}

/// The first bytes of a server's mark in its lock file: `SGL1 <Unix time in ms, 20 digits>\n`.
pub const MARK: &[u8; 5] = b"SGL1 ";

/// How long a mark stays fresh. A server rewrites its mark every half second while it runs
/// and its accept loop is not held up by a call (a stopped, hung or dead server's mark goes
/// stale within this bound), and clears it when it exits.
pub const MARK_FRESH: Duration = Duration::from_millis(2000);

/// A server's mark at Unix time `now_ms` (in ms), as written into its lock file.
pub fn encode_mark(now_ms: u64) -> Vec<u8> {
    format!("SGL1 {now_ms:020}\n").into_bytes()
}

/// Whether the lock-file bytes `bytes` are a mark written less than [`MARK_FRESH`] before
/// `now_ms` (a mark from the future, after the clock went back, is not fresh).
pub fn mark_is_fresh(bytes: &[u8], now_ms: u64) -> bool {
    let Some(digits) = bytes
        .strip_prefix(MARK.as_slice())
        .and_then(|b| b.strip_suffix(b"\n"))
    else {
        return false;
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return false;
    }
    let Some(at) = std::str::from_utf8(digits)
        .ok()
        .and_then(|d| d.parse::<u64>().ok())
    else {
        return false;
    };
    at <= now_ms && now_ms - at < MARK_FRESH.as_millis() as u64
}

/// Unix time in ms (0 before 1970).
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// Whether the server of `route` marked its lock file lately: it runs and its accept loop
/// took calls within [`MARK_FRESH`], so `connect` (which blocks only on a listen queue that
/// is full, a server not taking calls) is made directly, without the thread that bounds it.
/// Read only after the folder was found to be the user's alone.
fn marked_live(route: u64) -> bool {
    let Ok(mut f) = std::fs::File::open(lock_path(route)) else {
        return false;
    };
    let mut buf = [0u8; 64];
    let mut n = 0;
    while let Some(rest) = buf.get_mut(n..) {
        match f.read(rest) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return false,
        }
        if n >= buf.len() {
            return false;
        }
    }
    buf.get(..n).is_some_and(|b| mark_is_fresh(b, now_ms()))
}

/// The file a server of `route` leaves when it could not load its policies: for a minute
/// after, clients do not start another one (it would fail the same way at every call).
pub fn failed_path(route: u64) -> PathBuf {
    socket_dir().join(format!("r-{route:016x}.failed"))
}

/// How long after a failed start clients leave a route without a server.
pub const FAILED_START_PAUSE: Duration = Duration::from_secs(60);

/// The file the clients of `route` append a line to for each call they judge without a
/// server: `<Unix time in ms> <reason>` ([`Miss::name`]).
pub fn fallbacks_path(route: u64) -> PathBuf {
    socket_dir().join(format!("r-{route:016x}.fallbacks"))
}

/// 64-bit FNV-1a: stable across builds and toolchains (the small client and the server may be
/// built apart), unlike the standard library's hasher.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn bytes(&mut self, b: &[u8]) {
        for &x in b {
            self.0 ^= u64::from(x);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    /// A field: its length first, so `["ab", "c"]` and `["a", "bc"]` differ.
    fn field(&mut self, b: &[u8]) {
        self.bytes(&(b.len() as u64).to_le_bytes());
        self.bytes(b);
    }
}

/// What names a `seamguard` binary on disk: device, inode, size and modification time. A
/// rebuilt or reinstalled binary is another one. `None` when it cannot be read.
pub type BinaryIdentity = (u64, u64, u64, i64, i64);

/// The [`BinaryIdentity`] of the file at `path`.
pub fn binary_identity(path: &Path) -> Option<BinaryIdentity> {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::metadata(path).ok()?;
    Some((m.dev(), m.ino(), m.len(), m.mtime(), m.mtime_nsec()))
}

/// The route of a hook call with arguments `hook_args` (as spelled, without the program and
/// subcommand names), made in this process's current folder and environment, to be judged
/// by the `seamguard` binary `binary` (a server answers only for the binary it runs: an
/// upgrade installed beside the old one is another route).
pub fn route_key(hook_args: &[OsString], binary: Option<BinaryIdentity>) -> u64 {
    let cwd = std::env::current_dir().ok();
    route_key_with(
        hook_args,
        cwd.as_deref(),
        &|name| std::env::var_os(name),
        binary,
    )
}

/// [`route_key`] with the current folder and the environment given: `env(name)` is the value
/// of variable `name`, `None` when unset.
pub fn route_key_with(
    hook_args: &[OsString],
    cwd: Option<&Path>,
    env: &dyn Fn(&str) -> Option<OsString>,
    binary: Option<BinaryIdentity>,
) -> u64 {
    let mut h = Fnv::new();
    h.field(b"seamguard route 3");
    match binary {
        Some((dev, ino, len, secs, nanos)) => {
            for v in [dev, ino, len, secs as u64, nanos as u64] {
                h.field(&v.to_le_bytes());
            }
        }
        None => h.field(b"\0unknown binary"),
    }
    h.field(&(hook_args.len() as u64).to_le_bytes());
    for a in hook_args {
        h.field(a.as_bytes());
    }
    match cwd {
        Some(c) => h.field(c.as_os_str().as_bytes()),
        None => h.field(b"\0no current folder"),
    }
    for name in ROUTE_ENV {
        h.field(name.as_bytes());
        match env(name) {
            Some(v) => h.field(OsStr::as_bytes(&v)),
            None => h.field(b"\0unset"),
        }
    }
    h.0
}

/// A request: `REQUEST`, the route, the payload's length and the payload; `None` when the
/// payload is over [`MAX_PAYLOAD_BYTES`].
pub fn encode_request(route: u64, payload: &[u8]) -> Option<Vec<u8>> {
    if payload.len() > MAX_PAYLOAD_BYTES {
        return None;
    }
    let len = u32::try_from(payload.len()).ok()?;
    let mut req = Vec::with_capacity(16 + payload.len());
    req.extend_from_slice(REQUEST);
    req.extend_from_slice(&route.to_le_bytes());
    req.extend_from_slice(&len.to_le_bytes());
    req.extend_from_slice(payload);
    Some(req)
}

/// A request as the server reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The route the client computed.
    pub route: u64,
    /// The hook payload, as the client read it from its stdin.
    pub payload: Vec<u8>,
}

/// The status request: [`STATUS`] with a zero route and no payload.
pub fn encode_status_request() -> Vec<u8> {
    let mut req = STATUS.to_vec();
    req.extend_from_slice(&[0u8; 12]);
    req
}

/// What a client asks a server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ask {
    /// Judge a hook call.
    Call(Request),
    /// Say who it is (pid, uptime, counts, key): `seamguard status`.
    Status,
}

/// Read one request or status request from `r`.
///
/// # Errors
///
/// As [`read_request`].
pub fn read_ask(r: &mut impl Read) -> std::io::Result<Ask> {
    let mut head = [0u8; 16];
    r.read_exact(&mut head)?;
    if head.starts_with(STATUS) {
        return Ok(Ask::Status);
    }
    request_after(head, r).map(Ask::Call)
}

/// Read one request from `r`.
///
/// # Errors
///
/// `InvalidData` for a request that does not start with [`REQUEST`] or announces a payload
/// over [`MAX_PAYLOAD_BYTES`]; any error of `r` (a short request is `UnexpectedEof`).
pub fn read_request(r: &mut impl Read) -> std::io::Result<Request> {
    let mut head = [0u8; 16];
    r.read_exact(&mut head)?;
    request_after(head, r)
}

/// The rest of a request whose first 16 bytes are `head`.
fn request_after(head: [u8; 16], r: &mut impl Read) -> std::io::Result<Request> {
    let bad = |why: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, why.to_string());
    let (magic, rest) = head.split_at(4);
    let (route, len) = rest.split_at(8);
    let route = u64::from_le_bytes(route.try_into().map_err(|_| bad("short route"))?);
    let len = u32::from_le_bytes(len.try_into().map_err(|_| bad("short length"))?) as usize;
    if magic != REQUEST {
        return Err(bad("not a seamguard request"));
    }
    if len > MAX_PAYLOAD_BYTES {
        return Err(bad("payload over the limit"));
    }
    let mut payload = vec![0u8; len];
    r.read_exact(&mut payload)?;
    Ok(Request { route, payload })
}

/// A server's answer: what the hook would have printed and its exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// The hook's exit code.
    pub code: u8,
    /// What the hook writes to stdout.
    pub stdout: Vec<u8>,
    /// What the hook writes to stderr.
    pub stderr: Vec<u8>,
}

/// The whole reply of an answered call (the `REPLY` bytes included). A part over 4 GiB is cut
/// at 4 GiB (a hook answer is a few kilobytes).
pub fn encode_reply(code: u8, stdout: &[u8], stderr: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(14 + stdout.len() + stderr.len());
    out.extend_from_slice(REPLY);
    out.push(0);
    out.push(code);
    for part in [stdout, stderr] {
        let n = u32::try_from(part.len()).unwrap_or(u32::MAX);
        out.extend_from_slice(&n.to_le_bytes());
        out.extend_from_slice(part.get(..n as usize).unwrap_or(part));
    }
    out
}

/// The reply of a call this server does not answer (another key): the client evaluates it.
pub fn encode_not_mine() -> Vec<u8> {
    [REPLY.as_slice(), &[1]].concat()
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

/// The answer in a whole reply; `None` for a reply that is short, damaged, longer than it
/// says, or says the call is not the server's.
pub fn parse_reply(buf: &[u8]) -> Option<Reply> {
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

fn env_ms(name: &str, default: u64) -> Duration {
    let ms = std::env::var(name)
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(default);
    Duration::from_millis(ms.max(1))
}

/// Whether the client is turned off (`SEAMGUARD_SERVE=0`).
pub fn client_off() -> bool {
    serve_mode() == ServeMode::Off
}

/// How a client uses the servers: `SEAMGUARD_SERVE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServeMode {
    /// `0`: never ask a server; every call is judged in its own process.
    Off,
    /// `ask`: ask a running server, never start one (servers are supervised elsewhere).
    Ask,
    /// Unset, empty or any other value: ask, and start a server when none runs.
    Auto,
}

/// The client's [`ServeMode`], from `SEAMGUARD_SERVE`.
pub fn serve_mode() -> ServeMode {
    match std::env::var_os("SEAMGUARD_SERVE") {
        Some(v) if v == "0" => ServeMode::Off,
        Some(v) if v == "ask" => ServeMode::Ask,
        _ => ServeMode::Auto,
    }
}

/// Why a server did not answer a call (the client then judges it itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Miss {
    /// No server runs for the route: no socket folder, no socket, or a socket nobody listens
    /// on (a server that died or exited). Only then does a client start one.
    NoServer,
    /// The socket or its folder is not this user's, or the folder is open to others: never
    /// asked.
    NotTrusted,
    /// The server said the call is not its own (policies edited, another project, a trust
    /// decision since it loaded).
    NotMine,
    /// Too slow, died mid-call, or a short or damaged reply.
    Failed,
    /// The payload is over [`MAX_PAYLOAD_BYTES`].
    TooLarge,
}

impl Miss {
    /// The reason's word in the fallbacks file and in `seamguard status`.
    pub fn name(self) -> &'static str {
        match self {
            Miss::NoServer => "no-server",
            Miss::NotTrusted => "not-trusted",
            Miss::NotMine => "not-mine",
            Miss::Failed => "failed",
            Miss::TooLarge => "too-large",
        }
    }
}

/// Ask the server of `route` to answer `payload`; `None` on any failure, and then the caller
/// evaluates the call itself ([`ask_server`] says why).
pub fn exchange(route: u64, payload: &[u8]) -> Option<Reply> {
    ask_server(route, payload).ok()
}

/// Ask the server of `route` to answer `payload`, or say why it did not ([`Miss`]), and then
/// the caller evaluates the call itself: no socket, a refused connection, a request not taken
/// within `SEAMGUARD_SERVE_TIMEOUT_MS` (default 1,000 ms), a taken call not answered within
/// `SEAMGUARD_SERVE_ANSWER_MS` (default 30,000 ms: a command hook may take seconds, and a
/// call judged twice would run its command hooks twice), a short or damaged reply, a call the
/// server says is not its own.
///
/// Only a socket of this user is asked: the socket and its folder must be owned by the
/// process's user and the folder closed to others (mode 0700), else another user who made
/// the folder first (a shared temp folder when `HOME` is unset) could answer in its place.
/// Connecting is bounded by the same timeout (a server whose queue is full would otherwise
/// block the connect).
///
/// # Errors
///
/// The [`Miss`] that left the call to the caller.
pub fn ask_server(route: u64, payload: &[u8]) -> Result<Reply, Miss> {
    let req = encode_request(route, payload).ok_or(Miss::TooLarge)?;
    let path = socket_path(route);
    trusted_socket(&path)?;
    let t = env_ms("SEAMGUARD_SERVE_TIMEOUT_MS", 1000);
    let mut s = if marked_live(route) {
        connect_direct(&path)?
    } else {
        connect_within(&path, t)?
    };
    let failed = |_| Miss::Failed;
    s.set_read_timeout(Some(t)).map_err(failed)?;
    s.set_write_timeout(Some(t)).map_err(failed)?;
    s.write_all(&req).map_err(failed)?;
    s.shutdown(std::net::Shutdown::Write).map_err(failed)?;
    let mut buf = vec![0u8; REPLY.len()];
    s.read_exact(&mut buf).map_err(failed)?;
    if buf != REPLY {
        return Err(Miss::Failed);
    }
    let deadline = Instant::now() + env_ms("SEAMGUARD_SERVE_ANSWER_MS", 30_000);
    let mut chunk = [0u8; 8192];
    loop {
        let left = deadline
            .checked_duration_since(Instant::now())
            .ok_or(Miss::Failed)?;
        s.set_read_timeout(Some(left.max(Duration::from_millis(1))))
            .map_err(failed)?;
        match s.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => buf.extend_from_slice(chunk.get(..n).ok_or(Miss::Failed)?),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return Err(Miss::Failed),
        }
    }
    if buf == encode_not_mine() {
        return Err(Miss::NotMine);
    }
    parse_reply(&buf).ok_or(Miss::Failed)
}

/// The account of the server listening on the socket `path` (a JSON object, as the server
/// writes it: pid, start time, calls answered and refused, the key of its table, its
/// arguments and folder); `None` when the socket is not this user's or nobody answers
/// within `SEAMGUARD_SERVE_TIMEOUT_MS`.
pub fn server_status(path: &Path) -> Option<Vec<u8>> {
    trusted_socket(path).ok()?;
    let t = env_ms("SEAMGUARD_SERVE_TIMEOUT_MS", 1000);
    let mut s = connect_within(path, t).ok()?;
    s.set_read_timeout(Some(t)).ok()?;
    s.set_write_timeout(Some(t)).ok()?;
    s.write_all(&encode_status_request()).ok()?;
    s.shutdown(std::net::Shutdown::Write).ok()?;
    let mut buf = Vec::new();
    s.take(1 << 20).read_to_end(&mut buf).ok()?;
    parse_reply(&buf).map(|r| r.stdout)
}

/// Append `<Unix time in ms> <reason>` to the fallbacks file of `route`, when the socket folder
/// exists and is this user's (a server ran or runs for it) and the file is under 1 MiB.
/// Failures are ignored: the call is judged either way.
pub fn record_fallback(route: u64, miss: Miss) {
    let dir = socket_dir();
    if !trusted_dir(&dir) {
        return;
    }
    let path = fallbacks_path(route);
    if std::fs::metadata(&path).is_ok_and(|m| m.len() >= 1 << 20) {
        return;
    }
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    let line = format!("{ms} {}\n", miss.name());
    let _ = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut f| f.write_all(line.as_bytes()));
}

/// Start a server for this call's route in the background: `bin serve --daemon HOOK_ARGS`,
/// in this process's folder and environment (the route's), its standard streams closed, in
/// a process group of its own (the host's kill of the hook's group does not reach it). The
/// server detaches itself into a session of its own and exits at once when another one
/// holds the route's lock. The returned child is the first stage, which exits within
/// milliseconds; reap it with `try_wait` (or let it be reaped when this process exits).
/// `Ok(None)`: not started, a server of this route failed to load its policies less than
/// [`FAILED_START_PAUSE`] ago.
///
/// # Errors
///
/// The error of starting `bin`.
pub fn start_server(
    route: u64,
    bin: &Path,
    hook_args: &[OsString],
) -> std::io::Result<Option<std::process::Child>> {
    use std::os::unix::process::CommandExt;
    let failed_lately = std::fs::metadata(failed_path(route))
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .is_some_and(|age| age < FAILED_START_PAUSE);
    if failed_lately {
        return Ok(None);
    }
    std::process::Command::new(bin)
        .arg("serve")
        .arg("--daemon")
        .args(hook_args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .process_group(0)
        .spawn()
        .map(Some)
}

/// This process's user: the owner of `/proc/self` (no `getuid` in `std`).
fn my_uid() -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").map(|m| m.uid()).ok()
}

/// Whether `dir` is a folder of this process's user closed to others (mode `0o077` clear).
pub fn trusted_dir(dir: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let (Some(me), Ok(d)) = (my_uid(), std::fs::symlink_metadata(dir)) else {
        return false;
    };
    d.is_dir() && d.uid() == me && d.mode() & 0o077 == 0
}

/// Whether the socket at `path` and its folder belong to this process's user and the folder
/// is closed to others: `Err(NoServer)` when either is missing, `Err(NotTrusted)` when one is
/// another user's, the folder is open to others, or the user cannot be told (no
/// `/proc/self`: then no socket is trusted).
fn trusted_socket(path: &Path) -> Result<(), Miss> {
    use std::os::unix::fs::MetadataExt;
    let me = my_uid().ok_or(Miss::NotTrusted)?;
    let dir = path.parent().ok_or(Miss::NotTrusted)?;
    let missing = |e: std::io::Error| {
        if e.kind() == std::io::ErrorKind::NotFound {
            Miss::NoServer
        } else {
            Miss::NotTrusted
        }
    };
    let d = std::fs::symlink_metadata(dir).map_err(missing)?;
    if !(d.is_dir() && d.uid() == me && d.mode() & 0o077 == 0) {
        return Err(Miss::NotTrusted);
    }
    let s = std::fs::symlink_metadata(path).map_err(missing)?;
    if s.uid() != me {
        return Err(Miss::NotTrusted);
    }
    Ok(())
}

/// Connect to `path` on this thread: for a server whose mark is fresh ([`marked_live`]).
/// A socket nobody listens on or that is gone is [`Miss::NoServer`].
fn connect_direct(path: &Path) -> Result<UnixStream, Miss> {
    UnixStream::connect(path).map_err(|e| connect_miss(&e))
}

/// The [`Miss`] of a failed `connect`: nobody listens (`ECONNREFUSED`) or no socket is
/// [`Miss::NoServer`], anything else [`Miss::Failed`].
fn connect_miss(e: &std::io::Error) -> Miss {
    match e.kind() {
        std::io::ErrorKind::ConnectionRefused | std::io::ErrorKind::NotFound => Miss::NoServer,
        _ => Miss::Failed,
    }
}

/// Connect to `path` within `t`: on a thread, given up on when late (a full listen queue
/// blocks `connect` with no bound of its own).
/// A socket nobody listens on (`ECONNREFUSED`) or that is gone is [`Miss::NoServer`].
fn connect_within(path: &Path, t: Duration) -> Result<UnixStream, Miss> {
    let (tx, rx) = std::sync::mpsc::channel();
    let path = path.to_path_buf();
    std::thread::Builder::new()
        .spawn(move || {
            let _ = tx.send(UnixStream::connect(path));
        })
        .map_err(|_| Miss::Failed)?;
    match rx.recv_timeout(t) {
        Ok(Ok(s)) => Ok(s),
        Ok(Err(e)) => Err(connect_miss(&e)),
        Err(_) => Err(Miss::Failed),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]
    use super::*;

    fn os(v: &[&str]) -> Vec<OsString> {
        v.iter().map(OsString::from).collect()
    }

    #[test]
    fn the_route_names_arguments_folder_and_environment() {
        let env = |name: &str| (name == "HOME").then(|| OsString::from("/home/u"));
        let base = route_key_with(&os(&["--policy", "p"]), Some(Path::new("/w")), &env, None);
        assert_eq!(
            base,
            route_key_with(&os(&["--policy", "p"]), Some(Path::new("/w")), &env, None)
        );
        let others = [
            route_key_with(&os(&["--policy", "q"]), Some(Path::new("/w")), &env, None),
            route_key_with(&os(&["--policy=p"]), Some(Path::new("/w")), &env, None),
            route_key_with(&os(&["--polic", "yp"]), Some(Path::new("/w")), &env, None),
            route_key_with(&os(&["--policy", "p"]), Some(Path::new("/v")), &env, None),
            route_key_with(&os(&["--policy", "p"]), None, &env, None),
            route_key_with(
                &os(&["--policy", "p"]),
                Some(Path::new("/w")),
                &|_| None,
                None,
            ),
            route_key_with(
                &os(&["--policy", "p"]),
                Some(Path::new("/w")),
                &env,
                Some((1, 2, 3, 4, 5)),
            ),
            route_key_with(
                &os(&["--policy", "p"]),
                Some(Path::new("/w")),
                &|n| (n == "HOME" || n == "SEAMGUARD_CACHE").then(|| OsString::from("/home/u")),
                None,
            ),
        ];
        for (i, o) in others.iter().enumerate() {
            assert_ne!(*o, base, "variant {i}");
        }
        // A launcher that changes `PATH` does not leave the server unused.
        let with_path = |n: &str| match n {
            "HOME" => Some(OsString::from("/home/u")),
            "PATH" => Some(OsString::from("/opt/python/bin:/usr/bin")),
            _ => None,
        };
        assert_eq!(
            route_key_with(
                &os(&["--policy", "p"]),
                Some(Path::new("/w")),
                &with_path,
                None
            ),
            base
        );
    }

    #[test]
    fn requests_round_trip_and_bad_ones_are_refused() {
        let req = encode_request(7, b"{\"a\":1}").unwrap();
        let got = read_request(&mut req.as_slice()).unwrap();
        assert_eq!(
            got,
            Request {
                route: 7,
                payload: b"{\"a\":1}".to_vec()
            }
        );
        for cut in 0..req.len() {
            assert!(read_request(&mut &req[..cut]).is_err(), "cut at {cut}");
        }
        let mut other = req.clone();
        other[3] = b'1';
        assert_eq!(
            read_request(&mut other.as_slice()).unwrap_err().kind(),
            std::io::ErrorKind::InvalidData
        );
        let mut huge = req[..12].to_vec();
        huge.extend_from_slice(&(MAX_PAYLOAD_BYTES as u32 + 1).to_le_bytes());
        assert!(read_request(&mut huge.as_slice()).is_err());
        assert!(encode_request(1, &vec![0u8; MAX_PAYLOAD_BYTES + 1]).is_none());
    }

    #[test]
    fn only_a_recent_well_formed_mark_is_fresh() {
        let now = 1_800_000_000_000u64;
        assert!(mark_is_fresh(&encode_mark(now), now));
        assert!(mark_is_fresh(&encode_mark(now - 1500), now));
        assert!(!mark_is_fresh(&encode_mark(now - 2000), now), "stale");
        assert!(
            !mark_is_fresh(&encode_mark(now + 1), now),
            "from the future"
        );
        assert!(!mark_is_fresh(b"", now), "cleared at exit");
        let m = encode_mark(now);
        for cut in 0..m.len() {
            assert!(!mark_is_fresh(&m[..cut], now), "cut at {cut}");
        }
        assert!(!mark_is_fresh(b"SGL1 -1800000000000\n", now));
        assert!(!mark_is_fresh(b"SGL2 00000001800000000000\n", now));
        assert!(!mark_is_fresh(b"SGL1 99999999999999999999999\n", now));
    }

    #[test]
    fn replies_round_trip_and_damaged_ones_are_refused() {
        let b = encode_reply(2, b"{\"decision\":\"deny\"}", b"no");
        let r = parse_reply(&b).unwrap();
        assert_eq!(
            (r.code, r.stdout.as_slice(), r.stderr.as_slice()),
            (2, b"{\"decision\":\"deny\"}".as_slice(), b"no".as_slice())
        );
        for cut in 0..b.len() {
            assert!(parse_reply(&b[..cut]).is_none(), "cut at {cut}");
        }
        let mut longer = b.clone();
        longer.push(0);
        assert!(parse_reply(&longer).is_none());
        assert!(parse_reply(&encode_not_mine()).is_none());
    }
}
