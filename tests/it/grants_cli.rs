//! Grants end to end through the binary: an ask, `allow --last --session`, the same call
//! allowed in that session and asked in another, a deny no grant lifts, the audit record of a
//! granted decision, `grants list` and `grants revoke`.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use sha2::Digest as _;

use crate::support::{Run, seamguard_home_in as seamguard};

const ASK: &str = r#"
[[rule]]
id = "push-ask"
seam = "pre-tool"
tool = "Bash"
when.command = { contains = "git push" }
decision = "ask"
reason = "Pushing needs your approval"
"#;

const DENY: &str = r#"
[[rule]]
id = "push-ask"
seam = "pre-tool"
tool = "Bash"
when.command = { contains = "git push" }
decision = "ask"
reason = "Pushing needs your approval"

[[rule]]
id = "force-deny"
seam = "pre-tool"
tool = "Bash"
when.command = { contains = "--force" }
decision = "deny"
reason = "Force pushes are not allowed"
"#;

/// A fresh folder used as working folder, HOME and XDG dirs.
fn workdir() -> PathBuf {
    crate::support::workdir_with("grants", &[("ask.toml", ASK), ("deny.toml", DENY)])
}

fn payload(dir: &Path, session: &str, command: &str) -> Vec<u8> {
    json!({
        "session_id": session,
        "transcript_path": "",
        "cwd": dir.display().to_string(),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": { "command": command },
        "tool_use_id": "toolu_1",
    })
    .to_string()
    .into_bytes()
}

fn hook(dir: &Path, policy: &str, session: &str, command: &str) -> Run {
    seamguard(
        dir,
        &["hook", "--policy", policy],
        &payload(dir, session, command),
    )
}

fn decision(r: &Run) -> String {
    let v: Value = serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {}", r.stdout));
    v["hookSpecificOutput"]["permissionDecision"]
        .as_str()
        .unwrap()
        .to_string()
}

fn last_result(dir: &Path) -> Value {
    let log = std::fs::read_to_string(dir.join("state/seamguard/audit.jsonl")).unwrap();
    serde_json::from_str(log.lines().last().unwrap()).unwrap()
}

/// The grant id of `allow`'s first line: `granted g-… (…`.
fn granted_id(r: &Run) -> String {
    r.stdout
        .strip_prefix("granted ")
        .and_then(|s| s.split(' ').next())
        .unwrap_or_else(|| panic!("{}", r.stdout))
        .to_string()
}

#[test]
fn a_session_grant_lifts_the_ask_in_its_session_only_and_revoke_ends_it() {
    let dir = workdir();
    let cmd = "git push origin 'main'";
    assert_eq!(decision(&hook(&dir, "ask.toml", "s1", cmd)), "ask");
    let rec = last_result(&dir);
    assert_eq!(
        rec["call"],
        json!({"tool": "Bash", "argv": ["git", "push", "origin", "main"]})
    );

    let r = seamguard(&dir, &["allow", "--last", "--session"], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let id = granted_id(&r);
    assert_eq!(id.len(), 12, "{id}");
    let file = dir.join("state/seamguard/grants.json");
    assert_eq!(
        r.stdout,
        format!(
            "granted {id} (session s1) Bash: git push origin 'main'\n  lifts the ask of: push-ask\n  stored in {}; undo with `seamguard grants revoke {id}`\n",
            file.display()
        )
    );

    // The same call (quoted differently: the same argv) runs in s1, still asks in s2.
    let r = hook(&dir, "ask.toml", "s1", "git push \"origin\" main");
    assert_eq!(decision(&r), "allow");
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        v["hookSpecificOutput"]["permissionDecisionReason"],
        json!(format!(
            "approved by a session grant (asked: Pushing needs your approval [push-ask]) [{id}]"
        ))
    );
    let rec = last_result(&dir);
    assert_eq!(rec["decision"], "allow");
    assert_eq!(rec["grant"], json!(id));
    assert_eq!(rec["grant_scope"], "session");
    assert_eq!(rec["rules"], json!(["push-ask"]));
    assert_eq!(decision(&hook(&dir, "ask.toml", "s2", cmd)), "ask");
    // Another command line is another call.
    assert_eq!(
        decision(&hook(&dir, "ask.toml", "s1", "git push origin dev")),
        "ask"
    );

    let r = seamguard(&dir, &["grants", "list"], b"");
    assert_eq!(
        r.stdout,
        format!("{id}  session s1  Bash: git push origin 'main'  [push-ask]\n")
    );
    let r = seamguard(&dir, &["grants", "revoke", &id], b"");
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, format!("revoked {id}\n").as_str())
    );
    assert_eq!(decision(&hook(&dir, "ask.toml", "s1", cmd)), "ask");
    let r = seamguard(&dir, &["grants"], b"");
    assert_eq!(r.stdout, "no grants\n");
    let r = seamguard(&dir, &["grants", "revoke", &id], b"");
    assert_eq!(
        (r.code, r.stderr.as_str()),
        (1, format!("seamguard: no grant {id}\n").as_str())
    );
}

#[test]
fn no_grant_lifts_a_deny() {
    let dir = workdir();
    let cmd = "git push --force origin main";
    assert_eq!(decision(&hook(&dir, "ask.toml", "s1", cmd)), "ask");
    let r = seamguard(&dir, &["allow", "--last", "--always"], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with("granted g-"), "{}", r.stdout);
    assert!(
        r.stdout
            .contains(" (always) Bash: git push --force origin main\n"),
        "{}",
        r.stdout
    );
    // The always grant applies in any session…
    assert_eq!(decision(&hook(&dir, "ask.toml", "s9", cmd)), "allow");
    // …but the same call under a policy that denies it stays denied.
    let r = hook(&dir, "deny.toml", "s1", cmd);
    assert_eq!(decision(&r), "deny");
    let rec = last_result(&dir);
    assert_eq!(rec["decision"], "deny");
    assert_eq!(rec.get("grant"), None);
}

#[test]
fn allow_without_an_ask_says_so() {
    let dir = workdir();
    let r = hook(&dir, "ask.toml", "s1", "git status");
    assert_eq!((r.code, r.stdout.as_str()), (0, ""));
    let r = seamguard(&dir, &["allow", "--last"], b"");
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stderr,
        format!(
            "seamguard: no ask to approve in {} (only pre-tool asks can be approved)\n",
            dir.join("state/seamguard/audit.jsonl").display()
        )
    );
}

#[test]
fn a_project_grant_cannot_lift_the_ask_of_a_rule_outside_the_project() {
    let dir = workdir();
    let cmd = "git push origin main";
    assert_eq!(decision(&hook(&dir, "ask.toml", "s1", cmd)), "ask");
    let r = seamguard(&dir, &["allow", "--last", "--project"], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(dir.join(".seamguard/grants.json").is_file());
    // The asking rule comes from a --policy file, not from the project's policies.
    assert_eq!(decision(&hook(&dir, "ask.toml", "s1", cmd)), "ask");
    // A project's own policy asking: the project grant lifts it.
    std::fs::write(dir.join(".seamguard/ask.toml"), ASK).unwrap();
    let r = seamguard(&dir, &["hook"], &payload(&dir, "s2", cmd));
    assert_eq!(decision(&r), "allow", "{}", r.stderr);
}

#[test]
fn a_codex_deny_that_stands_for_an_ask_says_how_to_approve_and_can_be_approved() {
    let dir = workdir();
    let payload = |session: &str| {
        json!({
            "session_id": session, "turn_id": "t1", "transcript_path": null,
            "cwd": dir.display().to_string(), "hook_event_name": "PreToolUse", "model": "gpt-5",
            "permission_mode": "default", "tool_name": "Bash",
            "tool_input": { "command": "git push origin main" }, "tool_use_id": "call_1",
        })
        .to_string()
        .into_bytes()
    };
    let args = ["hook", "--policy", "ask.toml", "--dialect", "codex"];
    let r = seamguard(&dir, &args, &payload("c1"));
    assert_eq!(
        r.stdout,
        "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"Approval required: Pushing needs your approval [push-ask] — Codex hooks cannot ask for confirmation, so seamguard denies; if the call is intended, the user can approve it with `seamguard allow --last` and retry.\"}}\n"
    );
    let r = seamguard(&dir, &["allow", "--last"], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .contains(" (session c1) Bash: git push origin main\n"),
        "{}",
        r.stdout
    );
    // Allowed: Codex gets no answer, so the call runs.
    let r = seamguard(&dir, &args, &payload("c1"));
    assert_eq!((r.code, r.stdout.as_str()), (0, ""));
    assert_eq!(last_result(&dir)["dialect"], "codex");
    assert!(
        last_result(&dir)["grant"]
            .as_str()
            .unwrap()
            .starts_with("g-")
    );
}

/// `allow --id N` approves the ask `seamguard log` numbers N, not the newest one.
#[test]
fn allow_id_approves_the_ask_log_numbers() {
    let dir = workdir();
    assert_eq!(
        decision(&hook(&dir, "ask.toml", "s1", "git push origin a")),
        "ask"
    );
    assert_eq!(
        decision(&hook(&dir, "ask.toml", "s2", "git push origin b")),
        "ask"
    );
    let r = seamguard(&dir, &["log", "--verdict", "ask"], b"");
    let numbers: Vec<&str> = r.stdout.lines().map(|l| &l[..6]).collect();
    assert_eq!(numbers, ["#1    ", "#2    "], "{}", r.stdout);
    let r = seamguard(&dir, &["allow", "--id", "1"], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("(session s1) Bash: git push origin a"),
        "{}",
        r.stdout
    );
    assert_eq!(
        decision(&hook(&dir, "ask.toml", "s1", "git push origin a")),
        "allow"
    );
    assert_eq!(
        decision(&hook(&dir, "ask.toml", "s2", "git push origin b")),
        "ask"
    );
    // A number that is no ask, or no decision at all.
    let r = seamguard(&dir, &["allow", "--id", "3"], b"");
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("decision #3 in "), "{}", r.stderr);
    assert!(r.stderr.contains(" is `allow`, not an ask"), "{}", r.stderr);
    let r = seamguard(&dir, &["allow", "--id", "99"], b"");
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("holds 4 decision(s), no #99"),
        "{}",
        r.stderr
    );
    // One of `--last` and `--id` is needed.
    assert_eq!(seamguard(&dir, &["allow"], b"").code, 2);
}

/// An ask raised because seamguard could not read the call is never approved.
#[test]
fn no_grant_for_a_call_seamguard_could_not_read() {
    let dir = workdir();
    std::fs::write(
        dir.join("runs.toml"),
        "[[rule]]\nid = \"push-ask\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nwhen.runs = { program = \"git\", subcommand = \"push\" }\ndecision = \"ask\"\n",
    )
    .unwrap();
    let unreadable = json!({
        "session_id": "s1", "transcript_path": "", "cwd": dir.display().to_string(),
        "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": 5},
    });
    let r = seamguard(
        &dir,
        &["hook", "--policy", "runs.toml"],
        unreadable.to_string().as_bytes(),
    );
    assert_eq!(decision(&r), "ask");
    let rec = last_result(&dir);
    assert_eq!(rec["rules"], json!(["seamguard:unsure"]));
    let r = seamguard(&dir, &["log"], b"");
    assert!(
        r.stdout
            .ends_with("  ask    PreToolUse  Bash  [seamguard:unsure]\n"),
        "{}",
        r.stdout
    );
    let r = seamguard(&dir, &["allow", "--last"], b"");
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stderr
            .contains("grants never lift what seamguard could not read"),
        "{}",
        r.stderr
    );
    assert!(!dir.join("state/seamguard/grants.json").exists());
    // A grant for that call written by hand does not lift it either.
    std::fs::write(
        dir.join("state/seamguard/grants.json"),
        json!({"grants": [{"id": "g-0000000000", "scope": "always", "call": rec["call"], "created_ms": 0}]})
            .to_string(),
    )
    .unwrap();
    let r = seamguard(&dir, &["grants", "list"], b"");
    assert!(
        r.stdout.contains("g-0000000000"),
        "{}{}",
        r.stdout,
        r.stderr
    );
    let r = seamguard(
        &dir,
        &["hook", "--policy", "runs.toml"],
        unreadable.to_string().as_bytes(),
    );
    assert_eq!(decision(&r), "ask");
    assert_eq!(last_result(&dir).get("grant"), None);
}

/// A grant's `call` is masked in the audit log like every other part of the record (the
/// token of an asked command stayed in the log), and so in the grant made from it; the
/// digest of the exact call (`call_sha256`) is what the grant matches, so the same call is
/// still let through, and `grants list` shows the masked call.
#[test]
fn grants_list_masks_secrets_in_the_call() {
    let dir = workdir();
    let token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    let cmd = format!("git push https://{token}@github.com/o/r.git main");
    assert_eq!(decision(&hook(&dir, "ask.toml", "s1", &cmd)), "ask");
    let masked = "ghp_000000000000000000000000000000000000";
    let rec = last_result(&dir);
    assert_eq!(
        rec["call"],
        json!({"tool": "Bash", "argv": ["git", "push", format!("https://{masked}@github.com/o/r.git"), "main"]})
    );
    let exact = json!({"tool": "Bash", "argv": ["git", "push", format!("https://{token}@github.com/o/r.git"), "main"]});
    let digest: String = sha2::Sha256::digest(exact.to_string().as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(rec["call_sha256"], json!(digest));
    let log = std::fs::read_to_string(dir.join("state/seamguard/audit.jsonl")).unwrap();
    // No part of the log holds the token.
    assert_eq!(log.matches(token).count(), 0, "{log}");
    let r = seamguard(&dir, &["allow", "--last", "--always"], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let id = granted_id(&r);
    let r = seamguard(&dir, &["grants", "list"], b"");
    assert_eq!(
        r.stdout,
        format!(
            "{id}  always  Bash: git push https://{masked}@github.com/o/r.git main  [push-ask]\n"
        )
    );
    let r = seamguard(&dir, &["grants", "list", "--format", "json"], b"");
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        v[0]["call"],
        json!({"tool": "Bash", "argv": ["git", "push", format!("https://{masked}@github.com/o/r.git"), "main"]})
    );
    assert!(!r.stdout.contains(token), "{}", r.stdout);
    // The stored grant's call is the masked one, with the digest of the exact call; it
    // still matches the real call. (Its concerns, from the session memory, keep the exact
    // call a later ask is compared with: the grants file is the user's, not a log.)
    let stored: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("state/seamguard/grants.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(stored["grants"][0]["call"], rec["call"]);
    assert_eq!(stored["grants"][0]["call_sha256"], json!(digest));
    assert_eq!(decision(&hook(&dir, "ask.toml", "s2", &cmd)), "allow");
}
