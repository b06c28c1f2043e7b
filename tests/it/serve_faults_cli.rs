//! A resident server that fails never lets a call pass unjudged: a server that dies while it
//! holds a call, a stopped server, a socket that answers garbage. And a policy file added to a
//! served folder is seen on the next call. (The setup is `serve_cli`'s.)

use std::io::{Read, Write};
use std::os::unix::net::UnixListener;
use std::path::Path;

use crate::serve_cli::{RULE, Setup, bash};
use crate::support::Run;

/// The reasons recorded in the fallbacks file of the setup's route, in order.
fn fallback_reasons(s: &Setup) -> Vec<String> {
    let Ok(rd) = std::fs::read_dir(s.socket_dir()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in rd.flatten() {
        if e.path().extension().is_some_and(|x| x == "fallbacks") {
            let text = std::fs::read_to_string(e.path()).unwrap_or_default();
            out.extend(
                text.lines()
                    .filter_map(|l| l.split_once(' ').map(|(_, r)| r.to_string())),
            );
        }
    }
    out
}

fn denied(run: &Run) -> bool {
    run.code == 0
        && run.stdout.contains("\"permissionDecision\":\"deny\"")
        && run.stdout.contains("no frobnicating")
}

#[test]
fn the_small_client_judges_a_call_its_server_died_on() {
    let s = Setup::new("faults-died");
    let here = std::env::current_dir().unwrap();
    let mut server = s.serve(Some("exit"));
    // The server has just started (its mark, once written, is fresh: a direct connect).
    let run = s.client(&bash("frobnicate now", &s.dir), &here, &[]);
    assert!(denied(&run), "{run:?}");
    // The server took the request and died before answering.
    assert_eq!(server.wait().unwrap().code(), Some(9));
    assert_eq!(s.answered(), 0);
    assert_eq!(fallback_reasons(&s), ["failed"]);
    // Its socket and its mark are left behind, nobody listens: judged again.
    let again = s.client(&bash("frobnicate again", &s.dir), &here, &[]);
    assert!(denied(&again), "{again:?}");
    assert_eq!(fallback_reasons(&s), ["failed", "no-server"]);
}

#[test]
fn a_stopped_server_is_given_up_on_and_the_call_judged() {
    use nix::sys::signal::{Signal, kill};
    let s = Setup::new("faults-stopped");
    let here = std::env::current_dir().unwrap();
    let mut server = s.serve(None);
    let pid = nix::unistd::Pid::from_raw(server.id() as i32);
    kill(pid, Signal::SIGSTOP).unwrap();
    let short = [("SEAMGUARD_SERVE_TIMEOUT_MS", "300")];
    // While its mark is fresh (the client connects directly), and once it is stale (the
    // client connects on a thread bounded by the timeout): both judged by `seamguard hook`.
    let first = s.client(&bash("frobnicate", &s.dir), &here, &short);
    std::thread::sleep(std::time::Duration::from_millis(2500));
    let second = s.client(&bash("frobnicate", &s.dir), &here, &short);
    kill(pid, Signal::SIGCONT).unwrap();
    server.kill().unwrap();
    server.wait().unwrap();
    assert!(denied(&first), "{first:?}");
    assert!(denied(&second), "{second:?}");
    assert_eq!(fallback_reasons(&s), ["failed", "failed"]);
    assert_eq!(s.answered(), 0);
}

#[test]
fn a_new_policy_file_in_a_served_folder_is_seen_on_the_next_call() {
    let base = Setup::new("faults-new-file");
    let folder = base.dir.join("policies");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::rename(&base.policy, folder.join("p.toml")).unwrap();
    let s = Setup {
        dir: base.dir.clone(),
        policy: folder.clone(),
    };
    let here = std::env::current_dir().unwrap();
    let mut server = s.serve(None);
    let zap = bash("zap --everything", &s.dir);
    let before = s.client(&zap, &here, &[]);
    assert_eq!(before.code, 0);
    assert!(!before.stdout.contains("deny"), "{}", before.stdout);
    assert_eq!(s.answered(), 1);
    std::fs::write(
        folder.join("q.toml"),
        RULE.replace("no-frobnicate", "no-zap")
            .replace("frobnicate", "zap")
            .replace("no frobnicating", "no zapping"),
    )
    .unwrap();
    // Another set of files is another key: the next call is judged with the new file.
    let after = s.client(&zap, &here, &[]);
    assert!(
        after.stdout.contains("\"permissionDecision\":\"deny\"")
            && after.stdout.contains("no zapping"),
        "{after:?}"
    );
    // The server reloads, and serves the new file from then on.
    let served = s.client(&zap, &here, &[]);
    assert_eq!(served.stdout, after.stdout);
    assert_eq!(s.answered(), 2);
    server.kill().unwrap();
    server.wait().unwrap();
}

/// Replies a server could send that are not an answer: each must leave the call to the
/// client's own judgement.
fn garbage() -> Vec<Vec<u8>> {
    let whole = seamguard_client::encode_reply(0, b"", b"");
    let mut out = vec![
        Vec::new(),
        b"SGA2".to_vec(),
        b"SGA1\0\0\0\0\0\0\0\0\0\0".to_vec(),
        b"HTTP/1.1 200 OK\r\n\r\n{}".to_vec(),
        [whole.as_slice(), b"x"].concat(),
        [b"SGA2\0\0".as_slice(), &u32::MAX.to_le_bytes(), b"{}"].concat(),
        [b"SGA2\0\0".as_slice(), &2u32.to_le_bytes(), b"{}"].concat(),
        b"SGA2\x02".to_vec(),
    ];
    for cut in 1..whole.len() {
        out.push(whole[..cut].to_vec());
    }
    // Bytes that look like nothing (a fixed pseudo-random sequence).
    let mut x = 0x2545_f491_4f6c_dd1du64;
    for len in [5usize, 14, 64, 4096] {
        let mut g = b"SGA2".to_vec();
        for _ in 0..len {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            g.push(x as u8);
        }
        out.push(g);
    }
    out
}

/// Answer the next connection on `listener` with `reply` once the request is read.
fn answer_once(listener: &UnixListener, reply: &[u8]) {
    let (mut c, _) = listener.accept().unwrap();
    let mut req = Vec::new();
    let _ = c.read_to_end(&mut req);
    let _ = c.write_all(reply);
}

#[test]
fn garbage_from_a_server_never_lets_a_call_pass() {
    let s = Setup::new("faults-garbage");
    let here = std::env::current_dir().unwrap();
    // A real server makes the route's socket; a fake one takes its place on the same path.
    let mut server = s.serve(None);
    let sock = s.socket().unwrap();
    server.kill().unwrap();
    server.wait().unwrap();
    std::fs::remove_file(&sock).unwrap();
    let listener = UnixListener::bind(&sock).unwrap();
    let deny = bash("frobnicate --all", &s.dir);
    for (i, g) in garbage().iter().enumerate() {
        for via_client in [true, false] {
            let run = std::thread::scope(|sc| {
                sc.spawn(|| answer_once(&listener, g));
                if via_client {
                    s.client(&deny, &here, &[])
                } else {
                    // `seamguard hook` asks from the test's folder, as the fake's route.
                    let mut c = std::process::Command::new(crate::support::BIN);
                    c.args(["hook", "--policy"])
                        .arg(&s.policy)
                        .current_dir(&here);
                    s.env(&mut c);
                    c.env("SEAMGUARD_SERVE_TIMEOUT_MS", "20000");
                    Run::utf8(crate::support::output_with_stdin(&mut c, deny.as_bytes()))
                }
            });
            assert!(
                denied(&run),
                "garbage {i} ({} bytes), client {via_client}: {run:?}",
                g.len()
            );
        }
    }
    assert!(Path::new(&sock).exists());
}
