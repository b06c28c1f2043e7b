//! The client side of `seamguard serve` inside `seamguard hook`: ask a resident server of
//! the same route for the answer, and start one when none runs.
//!
//! In: whether the hook's arguments may be served (no `--hooks-config`), the payload's bytes,
//! this process's arguments and binary. Out: the server's answer written as the hook would
//! (its exit code), or `None` to judge the call in this process; a server started in the
//! background for the next calls.

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The server's own options, left out of the route (`--idle-secs` takes a value).
const OWN_FLAGS: &[&str] = &["--daemon", "--detached", "--verbose"];

/// The hook arguments of this process as spelled: the arguments after the subcommand
/// (`hook`, or `serve` without its own `--idle-secs`, `--daemon` and `--verbose`).
pub(super) fn hook_argv() -> Vec<OsString> {
    let mut out = Vec::new();
    let mut args = std::env::args_os().skip(2);
    while let Some(a) = args.next() {
        if a == "--idle-secs" {
            args.next();
        } else if !a.as_encoded_bytes().starts_with(b"--idle-secs=")
            && !OWN_FLAGS.iter().any(|f| a == *f)
        {
            out.push(a);
        }
    }
    out
}

/// What names this process's binary on disk: a rebuilt or reinstalled `seamguard` is another
/// one (another route, and the server stops answering).
pub(super) fn binary_identity() -> Option<seamguard_client::BinaryIdentity> {
    seamguard_client::binary_identity(&std::env::current_exe().ok()?)
}

/// Set by [`ask`] when no server runs for this call's route: [`start_if_missing`] starts one.
static NO_SERVER: AtomicBool = AtomicBool::new(false);
/// The route of this call (set by [`ask`]).
static ROUTE: AtomicU64 = AtomicU64::new(0);

/// The client of `seamguard hook`: the answer of a matching server, written out as the hook
/// would, or `None` to evaluate in this process (the reason is appended to the route's
/// fallbacks file).
pub(super) fn ask(servable: bool, bytes: &[u8]) -> Option<ExitCode> {
    if seamguard_client::client_off() || !servable {
        return None;
    }
    let route = seamguard_client::route_key(&hook_argv(), binary_identity());
    let reply = match seamguard_client::ask_server(route, bytes) {
        Ok(r) => r,
        Err(miss) => {
            seamguard_client::record_fallback(route, miss);
            NO_SERVER.store(miss == seamguard_client::Miss::NoServer, Ordering::Relaxed);
            ROUTE.store(route, Ordering::Relaxed);
            return None;
        }
    };
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

/// After a call judged in this process because no server runs for its route: start one in the
/// background (`seamguard serve --daemon` with this call's arguments), unless
/// `SEAMGUARD_SERVE` is `0` or `ask`. The call's answer is already written.
pub(super) fn start_if_missing(servable: bool) {
    if !NO_SERVER.load(Ordering::Relaxed)
        || !servable
        || seamguard_client::serve_mode() != seamguard_client::ServeMode::Auto
    {
        return;
    }
    if let Ok(me) = std::env::current_exe()
        && let Ok(Some(mut child)) =
            seamguard_client::start_server(ROUTE.load(Ordering::Relaxed), &me, &hook_argv())
    {
        // The first stage exits within milliseconds; reap it if it already has.
        let _ = child.try_wait();
    }
}
