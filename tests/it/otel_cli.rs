//! Feature `otel`: the resident server exports every audit record it writes as an OTLP/HTTP
//! log record. A loopback receiver started by the test decodes the requests with the official
//! `opentelemetry-proto` types and gets every record of a session; with the receiver down, the
//! hook calls take no longer than without an export (5 % plus a millisecond of noise) and the
//! local audit log has every record.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use opentelemetry_proto::tonic::collector::logs::v1::ExportLogsServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value as Any;
use opentelemetry_proto::tonic::logs::v1::LogRecord;
use prost::Message;
use serde_json::{Value, json};

use crate::support::{BIN, Run, fresh_dir, output_with_stdin};

const RULE: &str = "[[rule]]\nid = \"no-rm\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nwhen.command = { program = \"rm\" }\ndecision = \"deny\"\nreason = \"no rm\"\n";

/// Every log record a loopback OTLP/HTTP receiver was sent, with the resource attributes.
#[derive(Default)]
struct Received {
    records: Vec<LogRecord>,
    resource: Vec<(String, String)>,
    requests: usize,
}

/// A receiver on 127.0.0.1: its port, what it got, and its stop switch.
fn receiver() -> (u16, Arc<Mutex<Received>>, Arc<AtomicBool>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let got = Arc::new(Mutex::new(Received::default()));
    let stop = Arc::new(AtomicBool::new(false));
    let (g, s) = (got.clone(), stop.clone());
    std::thread::spawn(move || {
        let started = Instant::now();
        while !s.load(Ordering::Relaxed) && started.elapsed() < Duration::from_secs(120) {
            let Ok((mut conn, _)) = listener.accept() else {
                std::thread::sleep(Duration::from_millis(5));
                continue;
            };
            conn.set_nonblocking(false).unwrap();
            conn.set_read_timeout(Some(Duration::from_secs(10)))
                .unwrap();
            let mut buf = Vec::new();
            let mut chunk = [0u8; 8192];
            let (head_end, length) = loop {
                let n = conn.read(&mut chunk).unwrap();
                assert!(n > 0, "the request ended before its head");
                buf.extend_from_slice(&chunk[..n]);
                if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                    let head = String::from_utf8_lossy(&buf[..i]).to_lowercase();
                    assert!(head.starts_with("post /v1/logs http/1.1"), "{head}");
                    assert!(
                        head.contains("content-type: application/x-protobuf"),
                        "{head}"
                    );
                    let length: usize = head
                        .lines()
                        .find_map(|l| l.strip_prefix("content-length: "))
                        .unwrap()
                        .trim()
                        .parse()
                        .unwrap();
                    break (i + 4, length);
                }
            };
            while buf.len() < head_end + length {
                let n = conn.read(&mut chunk).unwrap();
                assert!(n > 0, "the request ended before its body");
                buf.extend_from_slice(&chunk[..n]);
            }
            let req = ExportLogsServiceRequest::decode(&buf[head_end..head_end + length]).unwrap();
            conn.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
                .unwrap();
            let mut g = g.lock().unwrap();
            g.requests += 1;
            for rl in req.resource_logs {
                g.resource = rl
                    .resource
                    .unwrap()
                    .attributes
                    .into_iter()
                    .map(|kv| match kv.value.and_then(|v| v.value) {
                        Some(Any::StringValue(s)) => (kv.key, s),
                        other => (kv.key, format!("{other:?}")),
                    })
                    .collect();
                for sl in rl.scope_logs {
                    assert_eq!(sl.scope.unwrap().name, "seamguard");
                    g.records.extend(sl.log_records);
                }
            }
        }
    });
    (port, got, stop)
}

struct Setup {
    dir: PathBuf,
    policy: PathBuf,
}

impl Setup {
    fn new(name: &str) -> Setup {
        let dir = fresh_dir("otel", name);
        let policy = dir.join("p.toml");
        std::fs::write(&policy, RULE).unwrap();
        Setup { dir, policy }
    }

    /// The environment of a server and its clients; `log`: the audit log's name.
    fn env(&self, c: &mut Command, log: &str) {
        c.env("XDG_STATE_HOME", self.dir.join("state"))
            .env("XDG_CONFIG_HOME", self.dir.join("config"))
            .env("HOME", &self.dir)
            .env("SEAMGUARD_AUDIT_LOG", self.dir.join(log))
            .env_remove("CLAUDE_PROJECT_DIR")
            .env("SEAMGUARD_SERVE", "ask")
            .env("SEAMGUARD_SERVE_IDLE_SECS", "60")
            .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
            .env_remove("OTEL_EXPORTER_OTLP_LOGS_ENDPOINT")
            .env_remove("OTEL_SDK_DISABLED");
    }

    /// `seamguard serve` for the audit log `log`, exporting to `endpoint`; waits for its
    /// socket (a new one beside those already there).
    fn serve(&self, log: &str, endpoint: Option<&str>) -> Child {
        let before = self.sockets();
        let mut c = Command::new(BIN);
        c.args(["serve", "--verbose", "--idle-secs", "60", "--policy"])
            .arg(&self.policy)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(self.dir.join(format!("{log}.serve"))).unwrap());
        self.env(&mut c, log);
        if let Some(e) = endpoint {
            c.env("OTEL_EXPORTER_OTLP_ENDPOINT", e)
                .env("OTEL_BLRP_SCHEDULE_DELAY", "50");
        }
        let child = c.spawn().unwrap();
        let started = Instant::now();
        while self.sockets().len() == before.len() {
            assert!(started.elapsed() < Duration::from_secs(60), "no socket");
            std::thread::sleep(Duration::from_millis(20));
        }
        child
    }

    fn sockets(&self) -> Vec<PathBuf> {
        std::fs::read_dir(self.dir.join("state/seamguard/serve"))
            .map(|d| d.flatten().map(|e| e.path()).collect())
            .unwrap_or_default()
    }

    /// `seamguard hook` asking the server of the audit log `log`.
    fn hook(&self, log: &str, payload: &str) -> Run {
        let mut c = Command::new(BIN);
        c.args(["hook", "--policy"]).arg(&self.policy);
        self.env(&mut c, log);
        c.env("SEAMGUARD_SERVE_TIMEOUT_MS", "20000");
        Run::utf8(output_with_stdin(&mut c, payload.as_bytes()))
    }
}

fn read_records(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The records of the audit log at `path` once it has `n` of them (at most 20 s).
fn wait_for_records(path: &Path, n: usize) -> Vec<Value> {
    let started = Instant::now();
    loop {
        let recs = read_records(path);
        if recs.len() >= n || started.elapsed() > Duration::from_secs(20) {
            return recs;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The calls of a session: reads, listings and an `rm` the policy denies.
fn session(cwd: &Path, n: usize) -> Vec<String> {
    (0..n)
        .map(|i| {
            let cmd = match i % 3 {
                0 => format!("ls -la src/{i}"),
                1 => format!("cat notes-{i}.md"),
                _ => format!("rm -r build-{i}"),
            };
            json!({"session_id": "otel-1", "cwd": cwd, "hook_event_name": "PreToolUse",
                "tool_name": "Bash", "tool_input": {"command": cmd}})
            .to_string()
        })
        .collect()
}

/// A string attribute of a log record.
fn attr(r: &LogRecord, key: &str) -> Option<String> {
    r.attributes.iter().find(|kv| kv.key == key).and_then(|kv| {
        match kv.value.as_ref()?.value.as_ref()? {
            Any::StringValue(s) => Some(s.clone()),
            _ => None,
        }
    })
}

struct Kill(Child);

impl Drop for Kill {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn the_receiver_gets_every_audit_record_of_a_session() {
    let s = Setup::new("every");
    let (port, got, stop) = receiver();
    let _server = Kill(s.serve("audit.jsonl", Some(&format!("http://127.0.0.1:{port}"))));
    for p in session(&s.dir, 12) {
        let r = s.hook("audit.jsonl", &p);
        assert_eq!(r.code, 0, "{}", r.stderr);
    }
    // The server answers first and writes the log after: wait for the last call's records.
    let local = wait_for_records(&s.dir.join("audit.jsonl"), 24);
    let started = Instant::now();
    while got.lock().unwrap().records.len() < local.len() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "received {} of {}: {:?}\n{}",
            got.lock().unwrap().records.len(),
            local.len(),
            got.lock()
                .unwrap()
                .records
                .iter()
                .map(|r| attr(r, "seamguard.handler_id"))
                .collect::<Vec<_>>(),
            std::fs::read_to_string(s.dir.join("audit.jsonl.serve")).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    stop.store(true, Ordering::Relaxed);
    // The server's account says so too.
    let mut c = Command::new(BIN);
    c.args(["status", "--format", "json"]).current_dir(&s.dir);
    s.env(&mut c, "audit.jsonl");
    let status: Value =
        serde_json::from_str(&Run::utf8(output_with_stdin(&mut c, b"")).stdout).unwrap();
    let otel: Vec<&Value> = status["servers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["server"]["otel"])
        .collect();
    assert_eq!(
        otel,
        [&json!({"handed": 24, "sent": 24, "dropped": 0, "failed": 0})]
    );
    let g = got.lock().unwrap();
    // Every record, once: the same handler ids and types, in the order of the log.
    let sent: Vec<(String, String)> = g
        .records
        .iter()
        .map(|r| {
            (
                attr(r, "seamguard.handler_id").unwrap(),
                r.event_name.clone(),
            )
        })
        .collect();
    let want: Vec<(String, String)> = local
        .iter()
        .map(|r| {
            (
                r["handler_id"].as_str().unwrap().to_string(),
                format!(
                    "seamguard.{}",
                    r["type"].as_str().unwrap().replace('/', ".")
                ),
            )
        })
        .collect();
    assert_eq!(sent, want);
    // Batched: fewer requests than records.
    assert!(g.requests < local.len(), "{} requests", g.requests);
    let denies: Vec<String> = g
        .records
        .iter()
        .filter(|r| attr(r, "seamguard.decision").as_deref() == Some("deny"))
        .map(|r| attr(r, "seamguard.subject").unwrap())
        .collect();
    assert_eq!(
        denies,
        [
            "rm -r build-2",
            "rm -r build-5",
            "rm -r build-8",
            "rm -r build-11"
        ]
    );
    assert_eq!(
        g.records
            .iter()
            .filter_map(|r| attr(r, "session.id"))
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect::<Vec<_>>(),
        ["otel-1"]
    );
    assert_eq!(
        g.resource.first(),
        Some(&("service.name".to_string(), "seamguard".to_string()))
    );
}

#[test]
fn a_receiver_that_is_down_slows_no_call_and_loses_nothing_locally() {
    let s = Setup::new("down");
    // A port nobody listens on.
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let _off = Kill(s.serve("off.jsonl", None));
    let _down = Kill(s.serve("down.jsonl", Some(&format!("http://127.0.0.1:{port}"))));
    let calls = session(&s.dir, 30);
    let time = |log: &str, p: &str| {
        let t = Instant::now();
        let r = s.hook(log, p);
        assert_eq!(r.code, 0, "{}", r.stderr);
        t.elapsed()
    };
    // Interleaved, so both see the same load of the machine.
    let (mut off, mut down) = (Vec::new(), Vec::new());
    for p in &calls {
        off.push(time("off.jsonl", p));
        down.push(time("down.jsonl", p));
    }
    off.sort();
    down.sort();
    let (off, down) = (off[off.len() / 2], down[down.len() / 2]);
    assert!(
        down <= off.mul_f64(1.05) + Duration::from_millis(1),
        "median call {down:?} with the receiver down, {off:?} without an export"
    );
    assert_eq!(wait_for_records(&s.dir.join("down.jsonl"), 60).len(), 60);
    // The export was on, and said where it sends.
    let said = std::fs::read_to_string(s.dir.join("down.jsonl.serve")).unwrap();
    assert!(
        said.contains(&format!(
            "exporting audit records to http://127.0.0.1:{port}/v1/logs (OTLP/HTTP, batches of at most 512 every 50 ms)"
        )),
        "{said}"
    );
    assert_eq!(wait_for_records(&s.dir.join("off.jsonl"), 60).len(), 60);
}
