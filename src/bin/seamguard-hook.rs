//! `seamguard-hook [HOOK ARGS]`: `seamguard hook [HOOK ARGS]`, answered by a resident
//! `seamguard serve` when one runs for these arguments, here, in this environment.
//!
//! It reads the payload, asks the server of its route ([`seamguard_client::exchange`]) and
//! prints the server's answer with its exit code. Whenever no server answers — none runs, it
//! refuses the call, it is too slow, it dies, its reply is damaged, `SEAMGUARD_SERVE=0` — the
//! call goes to `seamguard hook` with the same arguments and the same payload on its stdin,
//! and that process's answer and exit code are this one's: a server can make a call faster,
//! never let it through unjudged. When no server runs for the route, this call is judged that
//! way and a server is then started in the background (`seamguard serve --daemon` with the
//! same arguments; `SEAMGUARD_SERVE=ask` never starts one), so the next calls are served. The full binary is `$SEAMGUARD_BIN`, else the `seamguard`
//! beside this program, else `seamguard` on `PATH`. When it cannot be started the call is
//! blocked (exit 2, the cause on stderr).
//!
//! Why a second binary: the whole `seamguard` (shell, Python and JavaScript parsers, the
//! policy engine) costs several times a small process just to start; this one has no
//! dependencies and can be linked statically (docs/src/server.md).

use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{ExitCode, Stdio};

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    // `seamguard status` asks which version a hook command runs.
    if args.len() == 1 && args.first().is_some_and(|a| a == "--version") {
        println!("seamguard-hook {}", env!("CARGO_PKG_VERSION"));
        return ExitCode::SUCCESS;
    }
    let mut payload = Vec::new();
    if let Err(e) = std::io::stdin().lock().read_to_end(&mut payload) {
        // The full hook reports and records an unreadable payload; it gets what was read.
        eprintln!("seamguard-hook: reading the payload failed ({e}); passing it to seamguard hook");
        return hand_over(&full_binary(), &args, &payload);
    }
    let bin = full_binary();
    let mode = seamguard_client::serve_mode();
    let mut start = None;
    if mode != seamguard_client::ServeMode::Off
        && payload.len() <= seamguard_client::MAX_PAYLOAD_BYTES
    {
        // The route names the binary the call would be handed to: a server of another build
        // (an upgrade installed beside the old one) does not answer.
        let route = seamguard_client::route_key(&args, seamguard_client::binary_identity(&bin));
        match seamguard_client::ask_server(route, &payload) {
            Ok(reply) => return print(&reply),
            Err(miss) => {
                seamguard_client::record_fallback(route, miss);
                if miss == seamguard_client::Miss::NoServer
                    && mode == seamguard_client::ServeMode::Auto
                {
                    start = Some(route);
                }
            }
        }
    }
    let code = hand_over(&bin, &args, &payload);
    if let Some(route) = start {
        // After the answer: the server loads while the host goes on. The first stage exits
        // within milliseconds; what is left of it when this process exits is reaped by init.
        if let Ok(Some(mut child)) = seamguard_client::start_server(route, &bin, &args) {
            let _ = child.try_wait();
        }
    }
    code
}

/// Write a served answer as the hook would; a failed write blocks the call (exit 2).
fn print(reply: &seamguard_client::Reply) -> ExitCode {
    let mut out = std::io::stdout().lock();
    let written = out
        .write_all(&reply.stdout)
        .and_then(|()| out.flush())
        .is_ok();
    if !reply.stderr.is_empty() {
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(&reply.stderr);
        let _ = err.write_all(b"\n");
    }
    if written {
        ExitCode::from(reply.code)
    } else {
        ExitCode::from(2)
    }
}

/// The full `seamguard` binary: `$SEAMGUARD_BIN`, else the one beside this program, else the
/// first `seamguard` file on `PATH` (else the bare name, which then fails to start).
fn full_binary() -> PathBuf {
    if let Some(p) = std::env::var_os("SEAMGUARD_BIN").filter(|v| !v.is_empty()) {
        return PathBuf::from(p);
    }
    if let Ok(me) = std::env::current_exe()
        && let Some(dir) = me.parent()
    {
        let beside = dir.join("seamguard");
        if beside.is_file() {
            return beside;
        }
    }
    std::env::var_os("PATH")
        .and_then(|path| {
            std::env::split_paths(&path)
                .map(|d| d.join("seamguard"))
                .find(|p| p.is_file())
        })
        .unwrap_or_else(|| PathBuf::from("seamguard"))
}

/// Judge the call with `bin hook ARGS` in a child process, the payload on its stdin, the
/// server not asked again (`SEAMGUARD_SERVE=0`: it did not answer). Exit 0 and 2 are the
/// child's answer; any other exit, a signal, or a child that cannot start blocks (2): the
/// hook never exits otherwise, and hosts let a call run on other codes.
fn hand_over(bin: &Path, args: &[OsString], payload: &[u8]) -> ExitCode {
    let child = std::process::Command::new(bin)
        .arg("hook")
        .args(args)
        .env("SEAMGUARD_SERVE", "0")
        .stdin(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => {
            eprintln!(
                "seamguard-hook: cannot run {} ({e}): the call is blocked; install seamguard beside seamguard-hook or set SEAMGUARD_BIN",
                bin.display()
            );
            return ExitCode::from(2);
        }
    };
    if let Some(mut stdin) = child.stdin.take() {
        // A hook that stops reading early has answered already: its exit code decides.
        let _ = stdin.write_all(payload);
    }
    match child.wait() {
        Ok(status) => match status.code() {
            Some(c @ (0 | 2)) => ExitCode::from(c as u8),
            Some(c) => {
                eprintln!(
                    "seamguard-hook: {} hook exited with {c}, not an answer: the call is blocked",
                    bin.display()
                );
                ExitCode::from(2)
            }
            None => {
                eprintln!(
                    "seamguard-hook: seamguard hook was killed ({status}): the call is blocked"
                );
                ExitCode::from(2)
            }
        },
        Err(e) => {
            eprintln!(
                "seamguard-hook: waiting for seamguard hook failed ({e}): the call is blocked"
            );
            ExitCode::from(2)
        }
    }
}
