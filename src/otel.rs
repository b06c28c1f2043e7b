//! OpenTelemetry logs export of the audit log (cargo feature `otel`): the resident server
//! (`seamguard serve`) sends every audit record it writes as an OTLP/HTTP log record, in
//! batches, from a thread of its own. The local audit log stays the source of truth: a record
//! is handed over after it is written, the hand-over never waits (a full queue drops the
//! record from the export, counted), and a receiver that is down or slow only delays that
//! thread. A hook run in its own process (`seamguard hook` without a server) exports nothing.
//!
//! Configuration, as every OpenTelemetry SDK reads it:
//!
//! * `OTEL_EXPORTER_OTLP_LOGS_ENDPOINT` (used as is), else `OTEL_EXPORTER_OTLP_ENDPOINT`
//!   plus `/v1/logs`; nothing is exported without either. Only `http://` endpoints (the
//!   export speaks plain HTTP/1.1, to a collector on the machine or its network);
//! * `OTEL_EXPORTER_OTLP_PROTOCOL` / `…_LOGS_PROTOCOL`: `http/protobuf` (the default; any
//!   other value turns the export off, said on start);
//! * `OTEL_EXPORTER_OTLP_HEADERS` / `…_LOGS_HEADERS`: `key=value,…` (values percent-decoded);
//! * `OTEL_EXPORTER_OTLP_TIMEOUT` / `…_LOGS_TIMEOUT`: ms per request (default 10000);
//! * `OTEL_BLRP_SCHEDULE_DELAY` (ms, default 1000), `OTEL_BLRP_MAX_QUEUE_SIZE` (2048),
//!   `OTEL_BLRP_MAX_EXPORT_BATCH_SIZE` (512): the batch log record processor's settings;
//! * `OTEL_SERVICE_NAME` (default `seamguard`), `OTEL_RESOURCE_ATTRIBUTES`; `OTEL_SDK_DISABLED=true`
//!   turns it off.
//!
//! A log record: `time_unix_nano` from the record's `ts_ms`, `event_name`
//! `seamguard.hook.invoked` / `seamguard.hook.result`, severity WARN for a deny or block, ERROR
//! for a refused payload, INFO otherwise (`severity_text` the decision), the whole record as the
//! body (a key/value list, secrets masked as in the log), and as attributes the fields that have
//! an OpenTelemetry semantic convention (`session.id`, `gen_ai.tool.name`,
//! `gen_ai.tool.call.id`) and the rest under `seamguard.*` (`decision`, `rules`, `dialect`,
//! `event`, `handler_id`, `duration_ms`, `subject`).

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TrySendError, sync_channel};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use opentelemetry_proto::tonic::collector::logs::v1::ExportLogsServiceRequest;
use opentelemetry_proto::tonic::common::v1::{
    AnyValue, ArrayValue, InstrumentationScope, KeyValue, KeyValueList, any_value,
};
use opentelemetry_proto::tonic::logs::v1::{LogRecord, ResourceLogs, ScopeLogs, SeverityNumber};
use opentelemetry_proto::tonic::resource::v1::Resource;
use prost::Message;
use serde_json::Value;

/// Where and how to export.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Config {
    /// `host:port` to connect to.
    authority: String,
    /// The request path (`/v1/logs`).
    path: String,
    /// Extra request headers.
    headers: Vec<(String, String)>,
    /// Per-request timeout.
    timeout: Duration,
    /// How long a record waits for its batch at most.
    delay: Duration,
    /// Records queued at most; more are dropped from the export.
    queue: usize,
    /// Records per request at most.
    batch: usize,
    /// Resource attributes (`service.name` first).
    resource: Vec<(String, String)>,
}

impl Config {
    /// The configuration `var` (an environment lookup) gives: `Ok(None)` when nothing is to be
    /// exported (no endpoint, or `OTEL_SDK_DISABLED=true`).
    ///
    /// # Errors
    /// An endpoint or protocol the export cannot use, in words.
    pub(crate) fn from_env(var: impl Fn(&str) -> Option<String>) -> Result<Option<Config>, String> {
        let get = |logs: &str, any: &str| var(logs).or_else(|| var(any)).filter(|v| !v.is_empty());
        if var("OTEL_SDK_DISABLED").is_some_and(|v| v.eq_ignore_ascii_case("true")) {
            return Ok(None);
        }
        let endpoint = match (
            var("OTEL_EXPORTER_OTLP_LOGS_ENDPOINT").filter(|v| !v.is_empty()),
            var("OTEL_EXPORTER_OTLP_ENDPOINT").filter(|v| !v.is_empty()),
        ) {
            (Some(e), _) => e,
            (None, Some(e)) => format!("{}/v1/logs", e.trim_end_matches('/')),
            (None, None) => return Ok(None),
        };
        let protocol = get(
            "OTEL_EXPORTER_OTLP_LOGS_PROTOCOL",
            "OTEL_EXPORTER_OTLP_PROTOCOL",
        );
        if let Some(p) = protocol.filter(|p| p != "http/protobuf") {
            return Err(format!(
                "OTLP protocol {p:?} is not supported (only http/protobuf); no export"
            ));
        }
        let url = url::Url::parse(&endpoint)
            .map_err(|e| format!("OTLP endpoint {endpoint:?}: {e}; no export"))?;
        if url.scheme() != "http" {
            return Err(format!(
                "OTLP endpoint {endpoint:?}: only http:// is supported (send to a collector on this machine or network); no export"
            ));
        }
        let host = url
            .host_str()
            .ok_or_else(|| format!("OTLP endpoint {endpoint:?} has no host; no export"))?;
        let port = url.port_or_known_default().unwrap_or(80);
        let ms = |name: &str, default: u64| {
            var(name)
                .and_then(|v| v.trim().parse::<u64>().ok())
                .unwrap_or(default)
        };
        let timeout = get(
            "OTEL_EXPORTER_OTLP_LOGS_TIMEOUT",
            "OTEL_EXPORTER_OTLP_TIMEOUT",
        )
        .and_then(|v| v.trim().parse::<u64>().ok())
        .unwrap_or(10_000);
        let headers = get(
            "OTEL_EXPORTER_OTLP_LOGS_HEADERS",
            "OTEL_EXPORTER_OTLP_HEADERS",
        )
        .map(|h| pairs(&h))
        .unwrap_or_default();
        let mut resource = vec![(
            "service.name".to_string(),
            var("OTEL_SERVICE_NAME")
                .filter(|v| !v.is_empty())
                .unwrap_or_else(|| "seamguard".into()),
        )];
        resource.push((
            "service.version".into(),
            env!("CARGO_PKG_VERSION").to_string(),
        ));
        for (k, v) in var("OTEL_RESOURCE_ATTRIBUTES")
            .map(|a| pairs(&a))
            .unwrap_or_default()
        {
            if !resource.iter().any(|(x, _)| *x == k) {
                resource.push((k, v));
            }
        }
        Ok(Some(Config {
            authority: format!("{host}:{port}"),
            path: match url.query() {
                Some(q) => format!("{}?{q}", url.path()),
                None => url.path().to_string(),
            },
            headers,
            timeout: Duration::from_millis(timeout.max(1)),
            delay: Duration::from_millis(ms("OTEL_BLRP_SCHEDULE_DELAY", 1000).max(1)),
            queue: usize::try_from(ms("OTEL_BLRP_MAX_QUEUE_SIZE", 2048).max(1)).unwrap_or(2048),
            batch: usize::try_from(ms("OTEL_BLRP_MAX_EXPORT_BATCH_SIZE", 512).max(1))
                .unwrap_or(512),
            resource,
        }))
    }
}

/// `key=value,…` with percent-decoded values (the W3C baggage form the OTel variables use).
fn pairs(text: &str) -> Vec<(String, String)> {
    text.split(',')
        .filter_map(|p| {
            let (k, v) = p.split_once('=')?;
            let v = percent_encoding::percent_decode_str(v.trim()).decode_utf8_lossy();
            Some((k.trim().to_string(), v.into_owned()))
        })
        .filter(|(k, _)| !k.is_empty())
        .collect()
}

/// The running export: the queue into its thread and its counts.
struct Exporter {
    tx: Mutex<Option<SyncSender<Value>>>,
    done: Mutex<Option<std::thread::JoinHandle<()>>>,
}

static EXPORTER: OnceLock<Exporter> = OnceLock::new();

/// Records handed over, sent (accepted by the receiver), dropped (queue full) and failed (the
/// request failed or was refused).
static HANDED: AtomicU64 = AtomicU64::new(0);
static SENT: AtomicU64 = AtomicU64::new(0);
static DROPPED: AtomicU64 = AtomicU64::new(0);
static FAILED: AtomicU64 = AtomicU64::new(0);

/// Start the export from the environment; the line to say (where it goes, or why not), `None`
/// when nothing is configured. A second call does nothing.
pub(crate) fn start_from_env() -> Option<String> {
    match Config::from_env(|k| std::env::var(k).ok()) {
        Ok(None) => None,
        Err(e) => Some(e),
        Ok(Some(c)) => {
            let line = format!(
                "exporting audit records to http://{}{} (OTLP/HTTP, batches of at most {} every {} ms)",
                c.authority,
                c.path,
                c.batch,
                c.delay.as_millis()
            );
            let (tx, rx) = sync_channel(c.queue);
            let handle = std::thread::Builder::new()
                .name("otel-export".into())
                .spawn(move || run(&c, &rx))
                .ok()?;
            let _ = EXPORTER.set(Exporter {
                tx: Mutex::new(Some(tx)),
                done: Mutex::new(Some(handle)),
            });
            Some(line)
        }
    }
}

/// Hand the records of one evaluation to the export, never waiting: a full queue drops them
/// from the export (the audit log has them). Nothing when the export is not running.
pub(crate) fn export(records: &[Value]) {
    let Some(e) = EXPORTER.get() else { return };
    let Ok(guard) = e.tx.lock() else { return };
    let Some(tx) = guard.as_ref() else { return };
    for r in records {
        HANDED.fetch_add(1, Ordering::Relaxed);
        match tx.try_send(r.clone()) {
            Ok(()) => {}
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {
                DROPPED.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
}

/// Send what is queued and stop the export, waiting at most `wait`.
pub(crate) fn shutdown(wait: Duration) {
    let Some(e) = EXPORTER.get() else { return };
    if let Ok(mut tx) = e.tx.lock() {
        tx.take();
    }
    let Some(handle) = e.done.lock().ok().and_then(|mut h| h.take()) else {
        return;
    };
    let start = Instant::now();
    while !handle.is_finished() && start.elapsed() < wait {
        std::thread::sleep(Duration::from_millis(10));
    }
    if handle.is_finished() {
        let _ = handle.join();
    }
}

/// The counts of the export as JSON (for the server's status): records handed over, sent,
/// dropped (queue full) and failed (request failed).
pub(crate) fn counts() -> Value {
    serde_json::json!({
        "handed": HANDED.load(Ordering::Relaxed),
        "sent": SENT.load(Ordering::Relaxed),
        "dropped": DROPPED.load(Ordering::Relaxed),
        "failed": FAILED.load(Ordering::Relaxed),
    })
}

/// The export thread: gather a batch (full, or the oldest record waited `delay`), send it.
fn run(c: &Config, rx: &Receiver<Value>) {
    let mut batch: Vec<Value> = Vec::new();
    let mut oldest = Instant::now();
    loop {
        let wait = if batch.is_empty() {
            c.delay
        } else {
            c.delay.saturating_sub(oldest.elapsed())
        };
        match rx.recv_timeout(wait) {
            Ok(r) => {
                if batch.is_empty() {
                    oldest = Instant::now();
                }
                batch.push(r);
                if batch.len() < c.batch {
                    continue;
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                send_all(c, std::mem::take(&mut batch));
                return;
            }
        }
        send_all(c, std::mem::take(&mut batch));
    }
}

fn send_all(c: &Config, batch: Vec<Value>) {
    if batch.is_empty() {
        return;
    }
    let n = batch.len() as u64;
    let body = request(c, &batch).encode_to_vec();
    match post(c, &body) {
        Ok(()) => SENT.fetch_add(n, Ordering::Relaxed),
        Err(_) => FAILED.fetch_add(n, Ordering::Relaxed),
    };
}

/// The OTLP request of a batch of audit records.
pub(crate) fn request(c: &Config, batch: &[Value]) -> ExportLogsServiceRequest {
    let kv = |k: &str, v: &str| KeyValue {
        key: k.to_string(),
        value: Some(string(v)),
        ..KeyValue::default()
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
        .unwrap_or(0);
    ExportLogsServiceRequest {
        resource_logs: vec![ResourceLogs {
            resource: Some(Resource {
                attributes: c.resource.iter().map(|(k, v)| kv(k, v)).collect(),
                ..Resource::default()
            }),
            scope_logs: vec![ScopeLogs {
                scope: Some(InstrumentationScope {
                    name: "seamguard".into(),
                    version: env!("CARGO_PKG_VERSION").into(),
                    ..InstrumentationScope::default()
                }),
                log_records: batch.iter().map(|r| log_record(r, now)).collect(),
                ..ScopeLogs::default()
            }],
            ..ResourceLogs::default()
        }],
    }
}

fn string(s: &str) -> AnyValue {
    AnyValue {
        value: Some(any_value::Value::StringValue(s.to_string())),
    }
}

/// A JSON value as an OTLP value (objects as key/value lists).
fn any(v: &Value) -> AnyValue {
    use any_value::Value as V;
    let value = match v {
        Value::Null => None,
        Value::Bool(b) => Some(V::BoolValue(*b)),
        Value::Number(n) => n
            .as_i64()
            .map(V::IntValue)
            .or_else(|| n.as_f64().map(V::DoubleValue)),
        Value::String(s) => Some(V::StringValue(s.clone())),
        Value::Array(a) => Some(V::ArrayValue(ArrayValue {
            values: a.iter().map(any).collect(),
        })),
        Value::Object(m) => Some(V::KvlistValue(KeyValueList {
            values: m
                .iter()
                .map(|(k, v)| KeyValue {
                    key: k.clone(),
                    value: Some(any(v)),
                    ..KeyValue::default()
                })
                .collect(),
        })),
    };
    AnyValue { value }
}

/// The log record of one audit record (see the module doc); `now`: the observed time, ns.
pub(crate) fn log_record(r: &Value, now: u64) -> LogRecord {
    let text = |k: &str| r.get(k).and_then(Value::as_str);
    let decision = text("decision");
    let refused = r.get("refused").and_then(Value::as_bool) == Some(true);
    let severity = match decision {
        _ if refused => SeverityNumber::Error,
        Some("deny" | "block") => SeverityNumber::Warn,
        _ => SeverityNumber::Info,
    };
    let mut attributes = Vec::new();
    let mut attr = |key: &str, value: Option<&Value>| {
        if let Some(v) = value.filter(|v| !v.is_null()) {
            attributes.push(KeyValue {
                key: key.to_string(),
                value: Some(any(v)),
                ..KeyValue::default()
            });
        }
    };
    for (key, field) in [
        ("session.id", "session_id"),
        ("gen_ai.tool.name", "tool_name"),
        ("gen_ai.tool.call.id", "call_id"),
        ("seamguard.decision", "decision"),
        ("seamguard.rules", "rules"),
        ("seamguard.dialect", "dialect"),
        ("seamguard.event", "event"),
        ("seamguard.handler_id", "handler_id"),
        ("seamguard.duration_ms", "duration_ms"),
        ("seamguard.subject", "subject"),
    ] {
        attr(key, r.get(field));
    }
    LogRecord {
        time_unix_nano: r
            .get("ts_ms")
            .and_then(Value::as_u64)
            .map_or(0, |ms| ms.saturating_mul(1_000_000)),
        observed_time_unix_nano: now,
        severity_number: severity as i32,
        severity_text: decision
            .unwrap_or(if refused { "ERROR" } else { "INFO" })
            .to_string(),
        body: Some(any(r)),
        attributes,
        event_name: format!(
            "seamguard.{}",
            text("type").unwrap_or("record").replace('/', ".")
        ),
        ..LogRecord::default()
    }
}

/// POST the body; `Ok` on a 2xx answer.
fn post(c: &Config, body: &[u8]) -> Result<(), String> {
    let addr = c
        .authority
        .to_socket_addrs()
        .map_err(|e| e.to_string())?
        .next()
        .ok_or("no address")?;
    let mut s = TcpStream::connect_timeout(&addr, c.timeout).map_err(|e| e.to_string())?;
    s.set_read_timeout(Some(c.timeout))
        .map_err(|e| e.to_string())?;
    s.set_write_timeout(Some(c.timeout))
        .map_err(|e| e.to_string())?;
    let mut head = format!(
        "POST {} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/x-protobuf\r\nContent-Length: {}\r\nConnection: close\r\n",
        c.path,
        c.authority,
        body.len()
    );
    for (k, v) in &c.headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    s.write_all(head.as_bytes()).map_err(|e| e.to_string())?;
    s.write_all(body).map_err(|e| e.to_string())?;
    let mut status = [0u8; 12];
    s.read_exact(&mut status).map_err(|e| e.to_string())?;
    // `HTTP/1.1 200`
    match status.get(9) {
        Some(b'2') => Ok(()),
        _ => Err(String::from_utf8_lossy(&status).into_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn configuration_from_the_standard_variables() {
        assert_eq!(Config::from_env(env(&[])), Ok(None));
        let c = Config::from_env(env(&[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318/"),
            (
                "OTEL_EXPORTER_OTLP_HEADERS",
                "x-team=core,authorization=Bearer%20t",
            ),
            ("OTEL_BLRP_SCHEDULE_DELAY", "250"),
            (
                "OTEL_RESOURCE_ATTRIBUTES",
                "host.name=ci-1,service.name=ignored",
            ),
        ]))
        .unwrap()
        .unwrap();
        assert_eq!(
            (
                c.authority.as_str(),
                c.path.as_str(),
                c.delay,
                c.batch,
                c.queue
            ),
            (
                "collector:4318",
                "/v1/logs",
                Duration::from_millis(250),
                512,
                2048
            )
        );
        assert_eq!(
            c.headers,
            [
                ("x-team".to_string(), "core".to_string()),
                ("authorization".to_string(), "Bearer t".to_string())
            ]
        );
        assert_eq!(
            c.resource,
            [
                ("service.name".to_string(), "seamguard".to_string()),
                (
                    "service.version".to_string(),
                    env!("CARGO_PKG_VERSION").to_string()
                ),
                ("host.name".to_string(), "ci-1".to_string())
            ]
        );
        let logs = Config::from_env(env(&[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://a:1"),
            ("OTEL_EXPORTER_OTLP_LOGS_ENDPOINT", "http://b/custom"),
        ]))
        .unwrap()
        .unwrap();
        assert_eq!(
            (logs.authority.as_str(), logs.path.as_str()),
            ("b:80", "/custom")
        );
        assert_eq!(
            Config::from_env(env(&[("OTEL_EXPORTER_OTLP_ENDPOINT", "https://c:4318")])),
            Err("OTLP endpoint \"https://c:4318/v1/logs\": only http:// is supported (send to a collector on this machine or network); no export".to_string())
        );
        assert_eq!(
            Config::from_env(env(&[
                ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4317"),
                ("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"),
            ])),
            Err(
                "OTLP protocol \"grpc\" is not supported (only http/protobuf); no export"
                    .to_string()
            )
        );
        assert_eq!(
            Config::from_env(env(&[
                ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318"),
                ("OTEL_SDK_DISABLED", "true"),
            ])),
            Ok(None)
        );
    }

    #[test]
    fn an_audit_record_as_a_log_record() {
        let r = serde_json::json!({
            "type": "hook/result", "handler_id": "sg-1", "ts_ms": 1_700_000_000_000u64,
            "dialect": "claude-code", "event": "PreToolUse", "session_id": "s1",
            "decision": "deny", "reason": "no", "rules": ["r1"], "duration_ms": 1.5,
            "tool_name": "Bash", "subject": "rm -rf /",
        });
        let l = log_record(&r, 7);
        assert_eq!(
            (
                l.time_unix_nano,
                l.observed_time_unix_nano,
                l.severity_number,
                l.severity_text.as_str(),
                l.event_name.as_str()
            ),
            (
                1_700_000_000_000_000_000,
                7,
                SeverityNumber::Warn as i32,
                "deny",
                "seamguard.hook.result"
            )
        );
        let keys: Vec<&str> = l.attributes.iter().map(|a| a.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "session.id",
                "gen_ai.tool.name",
                "seamguard.decision",
                "seamguard.rules",
                "seamguard.dialect",
                "seamguard.event",
                "seamguard.handler_id",
                "seamguard.duration_ms",
                "seamguard.subject"
            ]
        );
        assert_eq!(l.body, Some(any(&r)));
    }
}
