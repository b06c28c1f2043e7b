//! `seamguard serve` and the hook as its client: a served answer is the in-process answer, an
//! edited policy is never answered from the server's table, a server that dies mid-call
//! leaves the call to the hook's own process, and the socket is the user's alone. The small
//! client `seamguard-hook` is answered by the same server and hands every call no server
//! answers to `seamguard hook`.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::{BIN, Run, fresh_dir, output_with_stdin};

/// The small client.
pub(crate) const CLIENT: &str = env!("CARGO_BIN_EXE_seamguard-hook");

pub(crate) const RULE: &str = "[[rule]]\nid = \"no-frobnicate\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nwhen.command = { contains = \"frobnicate\" }\ndecision = \"deny\"\nreason = \"no frobnicating\"\n";

/// The arguments a test's server starts with, before its policy file.
const SERVE_ARGS: &[&str] = &["serve", "--verbose", "--idle-secs", "60", "--policy"];

pub(crate) struct Setup {
    pub(crate) dir: PathBuf,
    pub(crate) policy: PathBuf,
}

/// The test's folder (its policy, state, sockets and any copied binary) is removed with it.
impl Drop for Setup {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl Setup {
    pub(crate) fn new(name: &str) -> Setup {
        let dir = fresh_dir("serve", name);
        let policy = dir.join("p.toml");
        std::fs::write(&policy, RULE).unwrap();
        Setup { dir, policy }
    }

    pub(crate) fn env(&self, c: &mut Command) {
        c.env("XDG_STATE_HOME", self.dir.join("state"))
            .env("XDG_CONFIG_HOME", self.dir.join("config"))
            .env("HOME", &self.dir)
            .env("SEAMGUARD_AUDIT_LOG", "off")
            .env_remove("CLAUDE_PROJECT_DIR")
            // The servers of these tests are started by the tests (`ask`: never by a
            // client); the tests of servers started on first use set it back.
            .env("SEAMGUARD_SERVE", "ask")
            .env("SEAMGUARD_SERVE_IDLE_SECS", "60")
            .env_remove("SEAMGUARD_SERVE_FAULT");
    }

    pub(crate) fn log(&self) -> PathBuf {
        self.dir.join("serve.log")
    }

    pub(crate) fn serve(&self, fault: Option<&str>) -> Child {
        self.serve_as(Path::new(BIN), SERVE_ARGS, &[], fault)
    }

    /// `bin BEFORE POLICY AFTER` started as a server (with `fault` as `SEAMGUARD_SERVE_FAULT`),
    /// once its socket is there.
    pub(crate) fn serve_as(
        &self,
        bin: &Path,
        before: &[&str],
        after: &[&str],
        fault: Option<&str>,
    ) -> Child {
        let mut c = Command::new(bin);
        c.args(before)
            .arg(&self.policy)
            .args(after)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(self.log()).unwrap());
        self.env(&mut c);
        if let Some(f) = fault {
            c.env("SEAMGUARD_SERVE_FAULT", f);
        }
        let child = crate::support::spawn(&mut c);
        let started = Instant::now();
        // Listening, not only bound: the socket file appears at `bind`, before `listen` and
        // the server's mark (a test that stops the server right then would see no server).
        while self.socket().is_none()
            || !std::fs::read_to_string(self.log())
                .unwrap_or_default()
                .contains("listening on")
        {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "no socket; log: {}",
                std::fs::read_to_string(self.log()).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        child
    }

    pub(crate) fn socket_dir(&self) -> PathBuf {
        self.dir.join("state").join("seamguard").join("serve")
    }

    pub(crate) fn socket(&self) -> Option<PathBuf> {
        std::fs::read_dir(self.socket_dir())
            .ok()?
            .flatten()
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|e| e == "sock"))
    }

    pub(crate) fn hook(&self, payload: &str, serve: bool) -> Run {
        self.hook_with(payload, serve, "30000")
    }

    pub(crate) fn hook_with(&self, payload: &str, serve: bool, answer_ms: &str) -> Run {
        let mut c = Command::new(BIN);
        c.args(["hook", "--policy"]).arg(&self.policy);
        self.env(&mut c);
        c.env("SEAMGUARD_SERVE_TIMEOUT_MS", "20000")
            .env("SEAMGUARD_SERVE_ANSWER_MS", answer_ms);
        if !serve {
            c.env("SEAMGUARD_SERVE", "0");
        }
        Run::utf8(output_with_stdin(&mut c, payload.as_bytes()))
    }

    /// `seamguard-hook --policy P` (the small client) in folder `cwd`, with `extra` variables.
    pub(crate) fn client(&self, payload: &str, cwd: &Path, extra: &[(&str, &str)]) -> Run {
        let mut c = Command::new(CLIENT);
        c.arg("--policy").arg(&self.policy).current_dir(cwd);
        self.env(&mut c);
        c.env("SEAMGUARD_SERVE_TIMEOUT_MS", "20000")
            .env_remove("SEAMGUARD_BIN");
        for (k, v) in extra {
            c.env(k, v);
        }
        Run::utf8(output_with_stdin(&mut c, payload.as_bytes()))
    }

    pub(crate) fn answered(&self) -> usize {
        std::fs::read_to_string(self.log())
            .unwrap_or_default()
            .matches("answered a call")
            .count()
    }
}

pub(crate) fn bash(cmd: &str, cwd: &Path) -> String {
    serde_json::json!({
        "session_id": "serve-test",
        "cwd": cwd,
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": { "command": cmd }
    })
    .to_string()
}

#[test]
fn a_served_answer_is_the_in_process_answer_and_an_edit_is_never_served_stale() {
    let s = Setup::new("stale");
    let mut server = s.serve(None);
    let payloads = [
        bash("frobnicate --all", &s.dir),
        bash("ls -la", &s.dir),
        serde_json::json!({
            "session_id": "serve-test",
            "cwd": s.dir,
            "hook_event_name": "UserPromptSubmit",
            "prompt": "hello"
        })
        .to_string(),
    ];
    for (i, p) in payloads.iter().enumerate() {
        let served = s.hook(p, true);
        assert_eq!(s.answered(), i + 1, "the server answered call {i}");
        let local = s.hook(p, false);
        assert_eq!(
            (served.stdout.as_str(), served.code),
            (local.stdout.as_str(), local.code)
        );
    }
    let denied = s.hook(&payloads[0], true);
    assert!(denied.stdout.contains("\"permissionDecision\":\"deny\""));
    assert!(denied.stdout.contains("no frobnicating"));
    assert_eq!(s.answered(), 4);
    // Edit the policy: the server's key no longer matches, the hook evaluates the edit itself.
    std::fs::write(
        &s.policy,
        RULE.replace("\"deny\"", "\"ask\"")
            .replace("no frobnicating", "frobnicating needs a yes"),
    )
    .unwrap();
    let edited = s.hook(&payloads[0], true);
    assert!(
        edited.stdout.contains("\"permissionDecision\":\"ask\""),
        "{}",
        edited.stdout
    );
    assert!(edited.stdout.contains("frobnicating needs a yes"));
    assert_eq!(s.answered(), 4, "the stale server did not answer");
    server.kill().unwrap();
    server.wait().unwrap();
}

/// A policy folder the server has listed and kept (unchanged for over a second, the
/// server's bound for trusting a folder's times): a file added to it is judged on the very
/// next call, and so is a file removed; the calls after each are served with the change.
#[test]
fn a_file_added_to_or_removed_from_a_kept_folder_is_seen_on_the_next_call() {
    let mut s = Setup::new("folder");
    let lib = s.dir.join("lib");
    std::fs::create_dir_all(&lib).unwrap();
    std::fs::write(lib.join("p.toml"), RULE).unwrap();
    s.policy = lib.clone();
    std::thread::sleep(Duration::from_millis(1300));
    let mut server = s.serve(None);
    let wibble = bash("wibble --now", &s.dir);
    assert!(!s.hook(&wibble, true).stdout.contains("deny"));
    assert_eq!(s.answered(), 1);
    assert!(!s.hook(&wibble, true).stdout.contains("deny"));
    assert_eq!(s.answered(), 2);
    std::fs::write(
        lib.join("q.toml"),
        RULE.replace("no-frobnicate", "no-wibble")
            .replace("frobnicate", "wibble")
            .replace("no frobnicating", "no wibbling"),
    )
    .unwrap();
    // Another key: the hook judges the call itself, with the new file; the server reloads.
    let added = s.hook(&wibble, true);
    assert!(
        added.stdout.contains("\"permissionDecision\":\"deny\"")
            && added.stdout.contains("no wibbling"),
        "{}",
        added.stdout
    );
    assert_eq!(s.answered(), 2, "the server's table lacked the new file");
    assert_eq!(s.hook(&wibble, true).stdout, added.stdout);
    assert_eq!(s.answered(), 3);
    std::fs::remove_file(lib.join("q.toml")).unwrap();
    let removed = s.hook(&wibble, true);
    assert!(!removed.stdout.contains("deny"), "{}", removed.stdout);
    assert_eq!(
        s.answered(),
        3,
        "the server's table still had the removed file"
    );
    assert_eq!(s.hook(&wibble, true).stdout, removed.stdout);
    assert_eq!(s.answered(), 4);
    server.kill().unwrap();
    server.wait().unwrap();
}

#[test]
fn a_server_that_dies_mid_call_leaves_the_call_to_the_hook() {
    let s = Setup::new("killed");
    let mut server = s.serve(Some("exit"));
    let run = s.hook(&bash("frobnicate now", &s.dir), true);
    assert!(
        run.stdout.contains("\"permissionDecision\":\"deny\""),
        "{}",
        run.stdout
    );
    assert_eq!(run.code, 0);
    // The request reached the server, which died before answering.
    assert_eq!(server.wait().unwrap().code(), Some(9));
    assert_eq!(s.answered(), 0);
    // A socket left behind by a dead server: refused, evaluated in process.
    let again = s.hook(&bash("frobnicate again", &s.dir), true);
    assert!(again.stdout.contains("\"permissionDecision\":\"deny\""));
}

#[test]
fn a_server_that_takes_a_call_and_hangs_is_given_up_on() {
    let s = Setup::new("hung");
    let mut server = s.serve(Some("hang"));
    let started = Instant::now();
    let run = s.hook_with(&bash("frobnicate slowly", &s.dir), true, "300");
    assert!(
        run.stdout.contains("\"permissionDecision\":\"deny\""),
        "{}",
        run.stdout
    );
    assert!(started.elapsed() >= Duration::from_millis(300));
    assert_eq!(s.answered(), 0);
    server.kill().unwrap();
    server.wait().unwrap();
}

#[test]
fn the_socket_is_the_users_alone() {
    let s = Setup::new("perms");
    let mut server = s.serve(None);
    let sock = s.socket().unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&sock), 0o600);
    assert_eq!(mode(&s.socket_dir()), 0o700);
    server.kill().unwrap();
    server.wait().unwrap();
}

#[test]
fn the_small_client_is_served_and_hands_every_other_call_to_the_hook() {
    let s = Setup::new("client");
    let here = std::env::current_dir().unwrap();
    let deny = bash("frobnicate --all", &s.dir);
    let allow = bash("ls -la", &s.dir);
    let local_deny = s.hook(&deny, false);
    let local_allow = s.hook(&allow, false);
    assert!(local_deny.stdout.contains("no frobnicating"));
    // No server yet: the call goes to `seamguard hook`, same answer, same exit code.
    for (p, local) in [(&deny, &local_deny), (&allow, &local_allow)] {
        let run = s.client(p, &here, &[]);
        assert_eq!(
            (run.stdout.as_str(), run.code),
            (local.stdout.as_str(), local.code)
        );
    }
    let mut server = s.serve(None);
    for (i, (p, local)) in [(&deny, &local_deny), (&allow, &local_allow)]
        .into_iter()
        .enumerate()
    {
        let run = s.client(p, &here, &[]);
        assert_eq!(s.answered(), i + 1, "the server answered call {i}");
        assert_eq!(
            (run.stdout.as_str(), run.code),
            (local.stdout.as_str(), local.code)
        );
    }
    // Another folder is another route: judged by `seamguard hook`, not by this server.
    let elsewhere = s.client(&deny, &s.dir, &[]);
    assert_eq!(
        (elsewhere.stdout.as_str(), elsewhere.code),
        (local_deny.stdout.as_str(), local_deny.code)
    );
    // So are other arguments and another environment.
    let audit = s.client(&deny, &here, &[("SEAMGUARD_AUDIT_INPUT", "off")]);
    assert_eq!(audit.stdout, local_deny.stdout);
    // `SEAMGUARD_SERVE=0` turns the client off.
    let off = s.client(&deny, &here, &[("SEAMGUARD_SERVE", "0")]);
    assert_eq!(off.stdout, local_deny.stdout);
    assert_eq!(s.answered(), 2);
    server.kill().unwrap();
    server.wait().unwrap();
}

#[test]
fn the_small_client_blocks_when_it_cannot_judge() {
    let s = Setup::new("client-alone");
    let here = std::env::current_dir().unwrap();
    let missing = s.dir.join("no-such-seamguard");
    let run = s.client(
        &bash("ls", &s.dir),
        &here,
        &[("SEAMGUARD_BIN", missing.to_str().unwrap())],
    );
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr.starts_with(&format!(
            "seamguard-hook: cannot run {} (",
            missing.display()
        )),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("the call is blocked"), "{}", run.stderr);
    // A full binary that exits with anything but 0 or 2 has not answered: blocked.
    let run = s.client(
        &bash("ls", &s.dir),
        &here,
        &[("SEAMGUARD_BIN", "/bin/false")],
    );
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "seamguard-hook: /bin/false hook exited with 1, not an answer: the call is blocked\n"
    );
}

#[test]
fn a_socket_folder_open_to_others_is_not_trusted() {
    let s = Setup::new("open-folder");
    let mut server = s.serve(None);
    let here = std::env::current_dir().unwrap();
    let deny = bash("frobnicate", &s.dir);
    assert!(
        s.client(&deny, &here, &[])
            .stdout
            .contains("no frobnicating")
    );
    assert_eq!(s.answered(), 1);
    // Another user could have made this folder: its sockets are not asked.
    std::fs::set_permissions(s.socket_dir(), std::fs::Permissions::from_mode(0o777)).unwrap();
    assert!(
        s.client(&deny, &here, &[])
            .stdout
            .contains("no frobnicating")
    );
    assert!(s.hook(&deny, true).stdout.contains("no frobnicating"));
    assert_eq!(s.answered(), 1);
    server.kill().unwrap();
    server.wait().unwrap();
}

#[test]
fn a_server_takes_its_own_option_after_the_hook_arguments() {
    let s = Setup::new("argv");
    // `--idle-secs` after the hook arguments: the route is still the hook's.
    let mut server = s.serve_as(
        Path::new(BIN),
        &["serve", "--policy"],
        &["--idle-secs=60", "--verbose"],
        None,
    );
    let run = s.hook(&bash("frobnicate", &s.dir), true);
    assert!(run.stdout.contains("no frobnicating"));
    assert_eq!(s.answered(), 1);
    server.kill().unwrap();
    server.wait().unwrap();
}

#[test]
fn a_server_whose_binary_is_replaced_stops_answering() {
    let s = Setup::new("replaced");
    let copy = s.dir.join("seamguard");
    std::fs::copy(BIN, &copy).unwrap();
    let mut server = s.serve_as(&copy, SERVE_ARGS, &[], None);
    let deny = bash("frobnicate", &s.dir);
    let hook_of = |bin: &Path| {
        let mut c = Command::new(bin);
        c.args(["hook", "--policy"]).arg(&s.policy);
        s.env(&mut c);
        c.env("SEAMGUARD_SERVE_TIMEOUT_MS", "20000");
        Run::utf8(output_with_stdin(&mut c, deny.as_bytes()))
    };
    // Another build (here: the one the tests run) is another route: not this server's.
    assert!(hook_of(Path::new(BIN)).stdout.contains("no frobnicating"));
    assert_eq!(s.answered(), 0, "a server of another binary did not answer");
    assert!(hook_of(&copy).stdout.contains("no frobnicating"));
    assert_eq!(s.answered(), 1);
    // A new build installed over it (a new file at the same path).
    std::fs::remove_file(&copy).unwrap();
    std::fs::copy(BIN, &copy).unwrap();
    let run = hook_of(&copy);
    assert!(run.stdout.contains("no frobnicating"));
    assert_eq!(s.answered(), 1, "the old server did not answer");
    assert_eq!(server.wait().unwrap().code(), Some(0));
    assert!(
        std::fs::read_to_string(s.log())
            .unwrap()
            .contains("the seamguard binary was replaced, exiting")
    );
    assert!(s.socket().is_none());
}

// ---------------------------------------------------------------------------------------------
// Servers started on first use (`SEAMGUARD_SERVE` unset): every one of them is found by its
// lock's route in the test's own state folder and killed by the test.

/// The client in auto mode (a server is started when none runs), in the setup's folder.
fn auto(s: &Setup, payload: &str) -> Run {
    s.client(payload, &s.dir, &[("SEAMGUARD_SERVE", "auto")])
}

/// The pids of the live `seamguard serve --daemon` processes of this setup's policy (by
/// their command lines), zombies left out.
fn daemons(s: &Setup) -> Vec<u32> {
    let policy = s.policy.to_string_lossy().into_owned();
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(cmd) = std::fs::read(e.path().join("cmdline")) else {
            continue;
        };
        let args: Vec<String> = cmd
            .split(|b| *b == 0)
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect();
        let stat = std::fs::read_to_string(e.path().join("stat")).unwrap_or_default();
        let zombie = stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with('Z'));
        if !zombie && args.iter().any(|a| a == "--daemon") && args.contains(&policy) {
            out.push(pid);
        }
    }
    out
}

/// Kills every daemon of the setup when dropped (also when an assertion fails).
struct Reaper<'a>(&'a Setup);

impl Drop for Reaper<'_> {
    fn drop(&mut self) {
        for pid in daemons(self.0) {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(pid as i32),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
    }
}

/// The account of the setup's one server, once it listens and answers a status request.
fn server_account(s: &Setup) -> serde_json::Value {
    let started = Instant::now();
    loop {
        if let Some(b) = s.socket().and_then(|p| seamguard_client::server_status(&p)) {
            return serde_json::from_slice(&b).unwrap();
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no server started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits until exactly `n` daemons of the setup run (those that lost the lock exit within
/// two seconds).
fn wait_for_daemons(s: &Setup, n: usize) -> Vec<u32> {
    let started = Instant::now();
    loop {
        let d = daemons(s);
        if d.len() == n {
            return d;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "daemons: {d:?}, wanted {n}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn the_client_starts_a_server_and_the_next_call_is_answered_by_it() {
    let s = Setup::new("auto-start");
    let _reaper = Reaper(&s);
    let deny = bash("frobnicate --all", &s.dir);
    let local = s.hook(&deny, false);
    assert!(local.stdout.contains("no frobnicating"), "{}", local.stdout);
    // No server: judged by `seamguard hook`, and a server is started for the next calls.
    let first = auto(&s, &deny);
    assert_eq!(
        (first.stdout.as_str(), first.code),
        (local.stdout.as_str(), local.code)
    );
    let account = server_account(&s);
    assert_eq!(account["answered"], 0);
    let pid = account["pid"].as_u64().unwrap() as u32;
    assert_eq!(wait_for_daemons(&s, 1), vec![pid]);
    // The server left the client's session and process group.
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let fields: Vec<&str> = stat.rsplit_once(") ").unwrap().1.split(' ').collect();
    assert_eq!(
        fields[3],
        pid.to_string(),
        "session id is its own pid: {stat}"
    );
    let second = auto(&s, &deny);
    assert_eq!(
        (second.stdout.as_str(), second.code),
        (local.stdout.as_str(), local.code)
    );
    let account = server_account(&s);
    assert_eq!(
        (account["answered"].as_u64(), account["refused"].as_u64()),
        (Some(1), Some(0))
    );
    // Nothing of the server on the log it would have had in the foreground: the daemon's
    // streams are closed, and `status` shows it.
    let mut c = Command::new(BIN);
    c.args(["status", "--format", "json"]).current_dir(&s.dir);
    s.env(&mut c);
    let status: serde_json::Value =
        serde_json::from_str(&Run::utf8(c.output().unwrap()).stdout).unwrap();
    let servers = status["servers"].as_array().unwrap();
    assert_eq!(servers.len(), 1, "{status}");
    assert_eq!(servers[0]["server"]["pid"], pid);
    assert_eq!(servers[0]["server"]["answered"], 1);
    // The first call found no socket folder yet: fallbacks are counted once a server ran.
    assert_eq!(servers[0]["fallbacks"], 0);
    assert_eq!(servers[0]["fallback_reasons"], serde_json::json!({}));
}

#[test]
fn an_edited_policy_is_judged_on_the_next_call_and_then_served() {
    let s = Setup::new("auto-edit");
    let _reaper = Reaper(&s);
    let deny = bash("frobnicate --all", &s.dir);
    auto(&s, &deny);
    server_account(&s);
    assert!(auto(&s, &deny).stdout.contains("no frobnicating"));
    assert_eq!(server_account(&s)["answered"], 1);
    std::fs::write(
        &s.policy,
        RULE.replace("\"deny\"", "\"ask\"")
            .replace("no frobnicating", "frobnicating needs a yes"),
    )
    .unwrap();
    // The next call is another key: judged by the client's own process, with the edit.
    let edited = auto(&s, &deny);
    assert!(
        edited.stdout.contains("\"permissionDecision\":\"ask\"")
            && edited.stdout.contains("frobnicating needs a yes"),
        "{}",
        edited.stdout
    );
    let account = server_account(&s);
    assert_eq!(
        (
            account["answered"].as_u64(),
            account["refused"].as_u64(),
            account["reloads"].as_u64()
        ),
        (Some(1), Some(1), Some(1))
    );
    // The server reloaded: the call after is served, with the edit.
    let served = auto(&s, &deny);
    assert_eq!(served.stdout, edited.stdout);
    assert_eq!(server_account(&s)["answered"], 2);
}

#[test]
fn a_killed_server_leaves_the_call_to_the_client_and_is_started_again() {
    let s = Setup::new("auto-killed");
    let _reaper = Reaper(&s);
    let deny = bash("frobnicate --all", &s.dir);
    auto(&s, &deny);
    let pid = server_account(&s)["pid"].as_u64().unwrap() as i32;
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(pid),
        nix::sys::signal::Signal::SIGKILL,
    )
    .unwrap();
    wait_for_daemons(&s, 0);
    // Its socket is left behind, nobody listens: judged, and a new server started.
    assert!(s.socket().is_some());
    let run = auto(&s, &deny);
    assert_eq!(run.code, 0);
    assert!(
        run.stdout.contains("\"permissionDecision\":\"deny\""),
        "{}",
        run.stdout
    );
    let account = server_account(&s);
    assert_ne!(account["pid"].as_u64(), Some(pid as u64));
    assert_eq!(wait_for_daemons(&s, 1).len(), 1);
}

#[test]
fn clients_racing_to_start_a_server_leave_exactly_one() {
    let s = Setup::new("auto-race");
    let _reaper = Reaper(&s);
    let deny = bash("frobnicate --all", &s.dir);
    let runs: Vec<Run> = std::thread::scope(|sc| {
        let handles: Vec<_> = (0..4).map(|_| sc.spawn(|| auto(&s, &deny))).collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for r in &runs {
        assert!(r.stdout.contains("no frobnicating"), "{}", r.stdout);
    }
    let pid = server_account(&s)["pid"].as_u64().unwrap() as u32;
    assert_eq!(wait_for_daemons(&s, 1), vec![pid]);
    // Still one a moment later (no late starter took over).
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(daemons(&s), vec![pid]);
}

#[test]
fn an_idle_server_exits_and_leaves_no_socket() {
    let s = Setup::new("auto-idle");
    let _reaper = Reaper(&s);
    let deny = bash("frobnicate --all", &s.dir);
    s.client(
        &deny,
        &s.dir,
        &[
            ("SEAMGUARD_SERVE", "auto"),
            ("SEAMGUARD_SERVE_IDLE_SECS", "1"),
        ],
    );
    server_account(&s);
    wait_for_daemons(&s, 0);
    assert_eq!(s.socket(), None);
}

#[test]
fn a_socket_of_another_user_is_never_asked() {
    let s = Setup::new("other-user");
    let mut server = s.serve(None);
    let deny = bash("frobnicate", &s.dir);
    let here = std::env::current_dir().unwrap();
    assert!(
        s.client(&deny, &here, &[])
            .stdout
            .contains("no frobnicating")
    );
    assert_eq!(s.answered(), 1);
    let sock = s.socket().unwrap();
    // As root the socket is given to `nobody`; otherwise the folder is opened to others,
    // which the clients refuse the same way.
    let as_other = match std::os::unix::fs::chown(&sock, Some(65_534), Some(65_534)) {
        Ok(()) => "owner",
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
            std::fs::set_permissions(s.socket_dir(), std::fs::Permissions::from_mode(0o755))
                .unwrap();
            "folder"
        }
        Err(e) => panic!("chown: {e}"),
    };
    for extra in [&[][..], &[("SEAMGUARD_SERVE", "auto")][..]] {
        let run = s.client(&deny, &here, extra);
        assert!(
            run.stdout.contains("no frobnicating"),
            "{as_other}: {}",
            run.stdout
        );
        assert!(s.hook(&deny, true).stdout.contains("no frobnicating"));
    }
    assert_eq!(s.answered(), 1, "{as_other}: the server was not asked");
    // Not a missing server: none is started in its place.
    assert_eq!(daemons(&s), Vec::<u32>::new());
    let fallbacks = std::fs::read_to_string(
        s.socket_dir().join(
            sock.file_name()
                .unwrap()
                .to_string_lossy()
                .replace(".sock", ".fallbacks"),
        ),
    )
    .unwrap_or_default();
    if as_other == "owner" {
        assert_eq!(
            fallbacks.matches(" not-trusted\n").count(),
            4,
            "{fallbacks}"
        );
    }
    server.kill().unwrap();
    server.wait().unwrap();
}

#[test]
fn a_server_that_cannot_load_is_not_started_again_at_every_call() {
    let s = Setup::new("auto-failed");
    let _reaper = Reaper(&s);
    std::fs::remove_file(&s.policy).unwrap();
    let call = bash("ls", &s.dir);
    // A missing policy file: judged by `seamguard hook`; the server started after it
    // cannot load a snapshot and leaves a marker in the socket folder.
    let first = auto(&s, &call);
    let local = s.hook(&call, false);
    assert_eq!(
        (first.stdout.as_str(), first.code),
        (local.stdout.as_str(), local.code)
    );
    let started = Instant::now();
    let failed = loop {
        let found = std::fs::read_dir(s.socket_dir())
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|e| e == "failed"));
        if let Some(f) = found {
            break f;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no .failed marker"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    wait_for_daemons(&s, 0);
    let second = auto(&s, &call);
    assert_eq!(second.stdout, local.stdout);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(daemons(&s), Vec::<u32>::new(), "no server started again");
    assert!(failed.is_file());
    assert_eq!(s.socket(), None);
}
