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
//! ```
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

/// Read one request from `r`.
///
/// # Errors
///
/// `InvalidData` for a request that does not start with [`REQUEST`] or announces a payload
/// over [`MAX_PAYLOAD_BYTES`]; any error of `r` (a short request is `UnexpectedEof`).
pub fn read_request(r: &mut impl Read) -> std::io::Result<Request> {
    let mut head = [0u8; 16];
    r.read_exact(&mut head)?;
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
    std::env::var_os("SEAMGUARD_SERVE").is_some_and(|v| v == "0")
}

/// Ask the server of `route` to answer `payload`; `None` on any failure, and then the caller
/// evaluates the call itself: no socket, a refused connection, a request not taken within
/// `SEAMGUARD_SERVE_TIMEOUT_MS` (default 1,000 ms), a taken call not answered within
/// `SEAMGUARD_SERVE_ANSWER_MS` (default 30,000 ms: a command hook may take seconds, and a
/// call judged twice would run its command hooks twice), a short or damaged reply, a call the
/// server says is not its own.
///
/// Only a socket of this user is asked: the socket and its folder must be owned by the
/// process's user and the folder closed to others (mode 0700), else another user who made
/// the folder first (a shared temp folder when `HOME` is unset) could answer in its place.
/// Connecting is bounded by the same timeout (a server whose queue is full would otherwise
/// block the connect).
pub fn exchange(route: u64, payload: &[u8]) -> Option<Reply> {
    let req = encode_request(route, payload)?;
    let path = socket_path(route);
    if !owned_by_me(&path) {
        return None;
    }
    let t = env_ms("SEAMGUARD_SERVE_TIMEOUT_MS", 1000);
    let mut s = connect_within(&path, t)?;
    s.set_read_timeout(Some(t)).ok()?;
    s.set_write_timeout(Some(t)).ok()?;
    s.write_all(&req).ok()?;
    s.shutdown(std::net::Shutdown::Write).ok()?;
    let mut buf = vec![0u8; REPLY.len()];
    s.read_exact(&mut buf).ok()?;
    if buf != REPLY {
        return None;
    }
    let deadline = Instant::now() + env_ms("SEAMGUARD_SERVE_ANSWER_MS", 30_000);
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

/// Whether the socket at `path` and its folder belong to this process's user and the folder
/// is closed to others. The user is the owner of `/proc/self` (no `getuid` in `std`); where
/// that cannot be read, no socket is trusted.
fn owned_by_me(path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let Ok(me) = std::fs::metadata("/proc/self").map(|m| m.uid()) else {
        return false;
    };
    let Some(dir) = path.parent() else {
        return false;
    };
    let (Ok(d), Ok(s)) = (
        std::fs::symlink_metadata(dir),
        std::fs::symlink_metadata(path),
    ) else {
        return false;
    };
    d.is_dir() && d.uid() == me && d.mode() & 0o077 == 0 && s.uid() == me
}

/// Connect to `path` within `t`: on a thread, given up on when late (a full listen queue
/// blocks `connect` with no bound of its own).
fn connect_within(path: &Path, t: Duration) -> Option<UnixStream> {
    let (tx, rx) = std::sync::mpsc::channel();
    let path = path.to_path_buf();
    std::thread::Builder::new()
        .spawn(move || {
            let _ = tx.send(UnixStream::connect(path));
        })
        .ok()?;
    rx.recv_timeout(t).ok()?.ok()
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
