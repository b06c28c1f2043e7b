//! `seamguard log`: the decisions of the audit log, newest last, filtered and counted.
//!
//! Also the one place that says where the log is ([`audit_path`]) and reads it
//! ([`read_results`]); `hook` writes it, `allow --last` and `status` read it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::discover;
use crate::report::{log_subject, utc};

/// The audit log: `explicit` (`--audit-log`), else `$SEAMGUARD_AUDIT_LOG` (`off`: none), else
/// `<state dir>/audit.jsonl`.
pub(super) fn audit_path(explicit: Option<&Path>) -> Option<PathBuf> {
    if let Some(p) = explicit {
        return Some(p.to_path_buf());
    }
    match discover::env_path("SEAMGUARD_AUDIT_LOG") {
        Some(p) if p.as_os_str() == "off" => None,
        Some(p) => Some(p),
        None => Some(discover::state_dir().join("audit.jsonl")),
    }
}

/// The `hook/result` records of the evaluations in the log (not those of command hooks), in
/// file order, the rotated previous log ([`seamguard_engine::audit::rotated_path`]) first;
/// lines that are not JSON are skipped. A missing log holds no record.
///
/// # Errors
/// The log exists but cannot be read.
pub(super) fn read_results(path: &Path) -> Result<Vec<Value>, String> {
    read_results_tail(path, u64::MAX)
}

/// [`read_results`] of at most the last `max_bytes` of the log (from the first whole line in
/// them), reaching into the rotated previous log when the current one is shorter: what
/// `allow --last` needs from a log that only grows.
///
/// # Errors
/// The log exists but cannot be read.
pub(super) fn read_results_tail(path: &Path, max_bytes: u64) -> Result<Vec<Value>, String> {
    let current = std::fs::metadata(path).map_or(0, |m| m.len());
    let mut out = if current < max_bytes {
        let previous = seamguard_engine::audit::rotated_path(path);
        read_file_tail(&previous, max_bytes - current)?
    } else {
        Vec::new()
    };
    out.extend(read_file_tail(path, max_bytes)?);
    Ok(out)
}

/// The results of one log file's last `max_bytes`.
fn read_file_tail(path: &Path, max_bytes: u64) -> Result<Vec<Value>, String> {
    use std::io::{Read, Seek, SeekFrom};
    let err = |e: std::io::Error| format!("{}: {e}", path.display());
    let mut f = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(err(e)),
    };
    let len = f.metadata().map_err(err)?.len();
    let start = len.saturating_sub(max_bytes);
    f.seek(SeekFrom::Start(start)).map_err(err)?;
    let mut bytes = Vec::new();
    f.read_to_end(&mut bytes).map_err(err)?;
    if start > 0 {
        // The first line is cut: start after its end.
        let cut = bytes
            .iter()
            .position(|b| *b == b'\n')
            .map_or(bytes.len(), |i| i + 1);
        bytes.drain(..cut);
    }
    let text = String::from_utf8_lossy(&bytes);
    Ok(text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| {
            v.get("type").and_then(Value::as_str) == Some("hook/result")
                && v.get("decision").is_some()
        })
        .collect())
}

/// Where decision number `n` of `seamguard log` (`#n`, counted from the start of the rotated
/// previous log, as [`read_results`] counts) is recorded: the log file and its 1-based line.
/// `None` when the log holds fewer decisions.
///
/// # Errors
/// A log file exists but cannot be read.
pub(super) fn result_location(path: &Path, n: usize) -> Result<Option<(PathBuf, usize)>, String> {
    let mut seen = 0;
    for file in [
        seamguard_engine::audit::rotated_path(path),
        path.to_path_buf(),
    ] {
        let text = match std::fs::read(&file) {
            Ok(b) => String::from_utf8_lossy(&b).into_owned(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(format!("{}: {e}", file.display())),
        };
        for (i, l) in text.lines().enumerate() {
            let is_result = serde_json::from_str::<Value>(l).is_ok_and(|v| {
                v.get("type").and_then(Value::as_str) == Some("hook/result")
                    && v.get("decision").is_some()
            });
            if is_result {
                seen += 1;
                if seen == n {
                    return Ok(Some((file, i + 1)));
                }
            }
        }
    }
    Ok(None)
}

/// The verdicts a record's `decision` can hold (`seamguard_engine::Verdict::name`).
const VERDICTS: &[&str] = &[
    "allow", "ask", "defer", "deny", "block", "redact", "continue", "none",
];

/// Read the audit log: the last decisions, filtered, or counted per rule.
///
/// Exit status: 0 (also when nothing matches), 2 for a bad `--since` or `--verdict`, 3 when
/// the log does not exist or cannot be read.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// How many decisions to show (the newest).
    #[arg(short = 'n', long = "last", value_name = "N", default_value_t = 20)]
    last: usize,
    /// Only this verdict: allow, ask, defer, deny, block, redact, continue or none (no rule
    /// decided).
    #[arg(long)]
    verdict: Option<String>,
    /// Only decisions this rule took part in.
    #[arg(long)]
    rule: Option<String>,
    /// Only this session.
    #[arg(long)]
    session: Option<String>,
    /// Only this agent.
    #[arg(long, value_enum)]
    agent: Option<super::args::HookDialectArg>,
    /// Only decisions newer than this (`90s`, `15m`, `2h`, `3d`).
    #[arg(long, value_name = "AGE")]
    since: Option<String>,
    /// Count the decisions per rule and verdict instead of listing them.
    #[arg(long)]
    counts: bool,
    /// Observe mode: what observe-mode rules would have decided (only records where they had
    /// something to say, with their verdict and rules), with a summary first.
    #[arg(long)]
    observed: bool,
    /// The audit log (default: $SEAMGUARD_AUDIT_LOG, else <state dir>/audit.jsonl).
    #[arg(long, value_name = "PATH")]
    audit_log: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: super::args::Format,
}

/// `90s`, `15m`, `2h`, `3d` in milliseconds.
fn parse_age(s: &str) -> Option<u64> {
    let s = s.trim();
    let split = s.find(|c: char| !c.is_ascii_digit())?;
    let (n, unit) = s.split_at(split);
    let n: u64 = n.parse().ok()?;
    let secs = match unit {
        "s" | "sec" => 1,
        "m" | "min" => 60,
        "h" => 3600,
        "d" => 86_400,
        "w" => 604_800,
        _ => return None,
    };
    n.checked_mul(secs * 1000)
}

/// A string field of a record.
fn field<'a>(r: &'a Value, k: &str) -> &'a str {
    r.get(k).and_then(Value::as_str).unwrap_or("")
}

/// The rule ids of a record.
fn rules_of(r: &Value) -> Vec<&str> {
    r.get("rules")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// The record as observe mode sees it: its `observed` verdict and rules in place of the
/// enforced ones; `None` when no observe-mode rule had something to say.
fn observed_view(r: &Value) -> Option<Value> {
    let o = r.get("observed")?;
    let mut v = r.clone();
    v["enforced"] = serde_json::json!(field(r, "decision"));
    // The verdicts of the enforced rules, not of the observed ones.
    if let Value::Object(m) = &mut v {
        m.remove("rule_verdicts");
    }
    v["decision"] = o.get("decision").cloned().unwrap_or(Value::Null);
    v["rules"] = o.get("rules").cloned().unwrap_or(Value::Null);
    v["reason"] = o.get("reason").cloned().unwrap_or(Value::Null);
    Some(v)
}

/// How many characters of a subject a log line shows.
const SUBJECT_CHARS: usize = 100;

/// One decision as a line: its number in the log (for `allow --id N` and `explain #N`), time, agent, verdict,
/// event, tool and subject, rules, grant.
fn line(n: usize, r: &Value) -> String {
    let ts = r.get("ts_ms").and_then(Value::as_u64).unwrap_or(0);
    let mut out = format!(
        "#{n:<4} {}  {:<11}  {:<5}  {}",
        utc(ts),
        field(r, "dialect"),
        field(r, "decision"),
        field(r, "event")
    );
    let tool = field(r, "tool_name");
    let subject = log_subject(field(r, "subject"), field(r, "reason"), SUBJECT_CHARS);
    match (tool.is_empty(), subject.is_empty()) {
        (false, false) => out.push_str(&format!("  {tool}: {subject}")),
        (false, true) => out.push_str(&format!("  {tool}")),
        (true, false) => out.push_str(&format!("  {subject}")),
        (true, true) => {}
    }
    let rules = rules_of(r);
    if !rules.is_empty() {
        out.push_str(&format!("  [{}]", rules.join(", ")));
    }
    if let Some(g) = r.get("grant").and_then(Value::as_str) {
        out.push_str(&format!("  (granted: {g})"));
    }
    if let Some(e) = r.get("enforced").and_then(Value::as_str) {
        out.push_str(&format!("  (enforced: {e})"));
    }
    if r.get("refused").and_then(Value::as_bool) == Some(true) {
        out.push_str(&format!("  (refused: {})", field(r, "cause")));
    }
    out
}

/// Counts per rule: `(rule, verdict) → n`, each rule under its own verdict (`rule_verdicts`;
/// the record's merged verdict in records written before it existed), most decisions first,
/// then by rule id; the verdicts of a rule in the order of [`VERDICTS`].
fn counts(recs: &[Value]) -> Vec<(String, Vec<(String, usize)>)> {
    let mut per_rule: BTreeMap<&str, BTreeMap<&str, usize>> = BTreeMap::new();
    for r in recs {
        let merged = field(r, "decision");
        let rules = rules_of(r);
        let own: Vec<&str> = r
            .get("rule_verdicts")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .filter(|v: &Vec<&str>| v.len() == rules.len())
            .unwrap_or_default();
        for (k, rule) in rules.iter().enumerate() {
            let verdict = own.get(k).copied().unwrap_or(merged);
            *per_rule
                .entry(rule)
                .or_default()
                .entry(verdict)
                .or_insert(0) += 1;
        }
    }
    // Verdicts in the order `--verdict` lists them (`observed` and unknown names last).
    let by_count = |m: BTreeMap<&str, usize>| {
        let mut v: Vec<(String, usize)> = m.into_iter().map(|(k, n)| (k.to_string(), n)).collect();
        v.sort_by_key(|(k, _)| {
            VERDICTS
                .iter()
                .position(|x| x == k)
                .unwrap_or(VERDICTS.len())
        });
        v
    };
    let mut out: Vec<(String, Vec<(String, usize)>)> = per_rule
        .into_iter()
        .map(|(rule, m)| (rule.to_string(), by_count(m)))
        .collect();
    out.sort_by_key(|(_, per)| std::cmp::Reverse(per.iter().map(|(_, n)| n).sum::<usize>()));
    out
}

/// Run `seamguard log`.
pub(super) fn run(a: &Args) -> std::process::ExitCode {
    use std::process::ExitCode;
    let Some(path) = audit_path(a.audit_log.as_deref()) else {
        eprintln!("seamguard: the audit log is off (SEAMGUARD_AUDIT_LOG=off)");
        return ExitCode::from(3);
    };
    let since = match a.since.as_deref().map(|s| (s, parse_age(s))) {
        None => None,
        Some((_, Some(ms))) => Some(seamguard_engine::audit::now_ms().saturating_sub(ms)),
        Some((s, None)) => {
            eprintln!("seamguard: --since {s}: expected a number and s, m, h, d or w (`2h`)");
            return ExitCode::from(2);
        }
    };
    if let Some(v) = a.verdict.as_deref()
        && !VERDICTS.contains(&v)
    {
        eprintln!(
            "seamguard: --verdict {v}: expected one of {}",
            VERDICTS.join(", ")
        );
        return ExitCode::from(2);
    }
    // No log at all (neither it nor its rotated predecessor): say so, not "nothing matches".
    if !path.exists() && !seamguard_engine::audit::rotated_path(&path).exists() {
        eprintln!(
            "seamguard: no audit log at {} (the hook writes it on its first call; `seamguard status` says whether the hook is installed and has run)",
            path.display()
        );
        return ExitCode::from(3);
    }
    let all = match read_results(&path) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("seamguard: {e}");
            return ExitCode::from(3);
        }
    };
    let agent = a.agent.map(|d| seamguard_engine::Dialect::from(d).name());
    let total = all.len();
    // Each record with its number in the log (1: the oldest), which `allow --id` takes.
    let recs: Vec<Value> = all
        .into_iter()
        .enumerate()
        .filter_map(|(i, r)| {
            let mut r = if a.observed { observed_view(&r)? } else { r };
            if let Value::Object(m) = &mut r {
                m.insert("n".into(), serde_json::json!(i + 1));
            }
            Some(r)
        })
        .filter(|r| {
            a.verdict
                .as_deref()
                .is_none_or(|v| field(r, "decision") == v)
        })
        .filter(|r| a.rule.as_deref().is_none_or(|x| rules_of(r).contains(&x)))
        .filter(|r| {
            a.session
                .as_deref()
                .is_none_or(|s| field(r, "session_id") == s)
        })
        .filter(|r| agent.is_none_or(|d| field(r, "dialect") == d))
        .filter(|r| since.is_none_or(|t| r.get("ts_ms").and_then(Value::as_u64).unwrap_or(0) >= t))
        .collect();
    let mut out = String::new();
    let fmt = a.format;
    if a.counts {
        let c = counts(&recs);
        match fmt {
            super::args::Format::Text => {
                for (rule, per) in &c {
                    let n: usize = per.iter().map(|(_, n)| n).sum();
                    let parts: Vec<String> = per.iter().map(|(v, n)| format!("{v} {n}")).collect();
                    out.push_str(&format!("{n:>6}  {rule}  ({})\n", parts.join(", ")));
                }
                if c.is_empty() {
                    out.push_str("no rule decided anything in the selected records\n");
                }
            }
            _ => {
                let rows: Vec<Value> = c
                    .iter()
                    .map(|(rule, per)| {
                        let mut m = serde_json::Map::new();
                        m.insert("rule".into(), serde_json::json!(rule));
                        for (v, n) in per {
                            m.insert(v.clone(), serde_json::json!(n));
                        }
                        m.insert(
                            "total".into(),
                            serde_json::json!(per.iter().map(|(_, n)| n).sum::<usize>()),
                        );
                        Value::Object(m)
                    })
                    .collect();
                if fmt == super::args::Format::Json {
                    out = serde_json::to_string_pretty(&rows).unwrap_or_default() + "\n";
                } else {
                    for r in rows {
                        out.push_str(&format!("{r}\n"));
                    }
                }
            }
        }
    } else {
        let shown = &recs[recs.len().saturating_sub(a.last)..];
        match fmt {
            super::args::Format::Text => {
                if a.observed {
                    let n = |v: &str| recs.iter().filter(|r| field(r, "decision") == v).count();
                    out.push_str(&format!(
                        "observe mode: {} of {total} recorded decisions would have been denied, {} asked, {} blocked\n",
                        n("deny"),
                        n("ask"),
                        n("block")
                    ));
                }
                for r in shown {
                    let n = r.get("n").and_then(Value::as_u64).unwrap_or(0) as usize;
                    out.push_str(&line(n, r));
                    out.push('\n');
                }
                if recs.is_empty() && !a.observed {
                    out.push_str(&format!("no decision in {} matches\n", path.display()));
                }
            }
            super::args::Format::Json => {
                out = serde_json::to_string_pretty(shown).unwrap_or_default() + "\n";
            }
            super::args::Format::Jsonl => {
                for r in shown {
                    out.push_str(&format!("{r}\n"));
                }
            }
        }
    }
    let _ = std::io::Write::write_all(&mut std::io::stdout().lock(), out.as_bytes());
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tail_starts_at_a_whole_line() {
        let p = std::env::temp_dir().join(format!("sg-log-tail-{}.jsonl", std::process::id()));
        let rec = |d: &str| format!("{{\"type\":\"hook/result\",\"decision\":\"{d}\"}}\n");
        std::fs::write(&p, rec("deny") + &rec("ask") + &rec("allow")).unwrap();
        let all = read_results(&p).unwrap();
        assert_eq!(all.len(), 3);
        let tail = read_results_tail(&p, rec("allow").len() as u64 + 5).unwrap();
        assert_eq!(
            tail,
            vec![serde_json::json!({"type": "hook/result", "decision": "allow"})]
        );
        std::fs::remove_file(&p).unwrap();
        assert_eq!(read_results(&p).unwrap(), Vec::<Value>::new());
    }

    #[test]
    fn ages() {
        assert_eq!(parse_age("90s"), Some(90_000));
        assert_eq!(parse_age("2h"), Some(7_200_000));
        assert_eq!(parse_age("15min"), Some(900_000));
        assert_eq!(parse_age("3d"), Some(259_200_000));
        assert_eq!(parse_age("2"), None);
        assert_eq!(parse_age("h"), None);
        assert_eq!(parse_age("2y"), None);
    }
}
