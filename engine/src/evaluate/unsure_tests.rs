//! What cannot be resolved asks once, with its cause (issue 14).

use serde_json::json;

use crate::{
    DecisionTable, Dialect, Engine, Scope, Seam, ShellEnv, UNSURE_RULE, Verdict, load_str,
};

const GUARDS: &str = r#"
[[guard]]
id = "no-disk-tools"
seam = "pre-tool"
when.runs = { program_any = ["mkfs", "dd"] }
reason = "Disk tools"

[[guard]]
id = "no-home-delete"
seam = "pre-tool"
when.deletes = { path_inside = ["~", "~/**"], path_outside = ["project"] }
reason = "Deletes in the home folder"

[[rule]]
id = "curl-asks"
seam = "pre-tool"
when.runs = { program = "curl" }
decision = "ask"
reason = "curl asks"

[[rule]]
id = "no-rm-root"
seam = "pre-tool"
when.runs = { program = "rm", path_inside = ["/"] }
decision = "deny"
reason = "rm of /"
"#;

fn engine(extra: &str) -> Engine {
    let src = format!("{extra}{GUARDS}");
    let env = ShellEnv::new(Some("/home/u/p".into()), "/home/u");
    Engine::new(DecisionTable::new(vec![load_str(&src, "t.toml", Scope::User, 0)]).with_env(env))
}

fn judge(e: &Engine, command: &str) -> (Verdict, Vec<String>, String) {
    let payload = json!({
        "session_id": "s", "cwd": "/home/u/p", "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": command}
    });
    let o = e.evaluate(Seam::PreTool, &payload, Dialect::ClaudeCode);
    (
        o.verdict(),
        o.fired_ids().iter().map(|s| s.to_string()).collect(),
        o.reason_text(),
    )
}

#[test]
fn an_unknown_program_word_asks_once_with_its_cause() {
    let (v, fired, reason) = judge(&engine(""), "\"$PYTHON\" -m pytest");
    assert_eq!(v, Verdict::Ask);
    assert_eq!(fired, [UNSURE_RULE]);
    assert_eq!(
        reason,
        "cannot tell which program `$PYTHON -m pytest` runs; the command word `$PYTHON` comes \
         from an expansion that cannot be resolved before it runs: seamguard cannot check this \
         part of the call, so it asks (it could concern `curl-asks`, `no-rm-root`, \
         `no-disk-tools` and 1 more rule) [seamguard:unsure]"
    );
    // A line that does not parse: the same, with that cause.
    let (v, fired, reason) = judge(&engine(""), "echo (");
    assert_eq!((v, fired), (Verdict::Ask, vec![UNSURE_RULE.to_string()]));
    assert!(
        reason.starts_with("the shell line does not parse"),
        "{reason}"
    );
}

#[test]
fn a_definite_deny_next_to_an_unsure_part_still_denies() {
    let (v, fired, _) = judge(&engine(""), "rm -rf /; $X");
    assert_eq!(v, Verdict::Deny);
    assert_eq!(fired, ["no-rm-root", UNSURE_RULE]);
    let (v, fired, _) = judge(&engine(""), "dd if=/dev/zero of=/dev/sda; $X");
    assert_eq!(v, Verdict::Deny);
    assert_eq!(fired, ["no-disk-tools", UNSURE_RULE]);
}

#[test]
fn on_unsure_deny_is_a_policy_s_explicit_choice() {
    let e = engine("[policy]\non_unsure = \"deny\"\n");
    let (v, fired, reason) = judge(&e, "\"$PYTHON\" -m pytest");
    assert_eq!(v, Verdict::Deny);
    assert!(fired.contains(&"no-disk-tools".to_string()), "{fired:?}");
    assert!(!fired.contains(&UNSURE_RULE.to_string()), "{fired:?}");
    assert!(reason.contains("on_unsure = \"deny\""), "{reason}");
    // `ignore`: nothing.
    let e = engine("[policy]\non_unsure = \"ignore\"\n");
    assert_eq!(judge(&e, "\"$PYTHON\" -m pytest").0, Verdict::Abstain);
}

#[test]
fn a_guard_whose_own_effect_is_undecidable_asks_under_its_id() {
    // Only the deleted path is computed; the program is known.
    let (v, fired, reason) = judge(&engine(""), "unlink ~/$NAME");
    assert_eq!(v, Verdict::Ask);
    assert_eq!(fired, ["no-home-delete"]);
    assert!(
        reason.ends_with("seamguard cannot rule out: Deletes in the home folder [no-home-delete]"),
        "{reason}"
    );
    // Nothing unresolved and nothing matched: no opinion.
    assert_eq!(judge(&engine(""), "pytest -q").0, Verdict::Abstain);
    assert_eq!(
        judge(&engine(""), "CMD=\"pytest -q\"; $CMD").0,
        Verdict::Abstain
    );
    assert_eq!(
        judge(&engine(""), "${EDITOR:-vi} notes.md").0,
        Verdict::Abstain
    );
    assert_eq!(
        judge(&engine(""), "$(npm bin)/eslint .").0,
        Verdict::Abstain
    );
    assert_eq!(
        judge(&engine(""), "eval \"$(pyenv init -)\"").0,
        Verdict::Abstain
    );
    // Resolved look-alikes are judged as what they are.
    assert_eq!(
        judge(&engine(""), "CMD=\"mkfs /dev/sda\"; $CMD").0,
        Verdict::Deny
    );
    assert_eq!(
        judge(&engine(""), "${TOOL:-dd} if=x of=/dev/sda").0,
        Verdict::Deny
    );
}

/// A rule that reads a path known only at run time as unsure only when the input names
/// something secret-like, while a path the line resolves statically is judged as written
/// (the shape of the library's secret-file rules).
const SURE_RULE: &str = r#"
[[rule]]
id = "no-key-read"
seam = "pre-tool"
when.all = [
  { reads = { path_inside = ["**/*.key"] } },
  { any = [
    { command = { regex = '(?i)key' } },
    { sure = { reads = { path_inside = ["**/*.key"] } } },
  ] },
]
decision = "deny"
reason = "Key files"

[[rule]]
id = "not-surely-a-log"
seam = "pre-tool"
when.all = [
  { runs = { program = "tail" } },
  { not = { sure = { reads = { path_inside = ["**/*.log"] } } } },
]
decision = "ask"
reason = "tail of something that is not surely a log"
"#;

#[test]
fn sure_holds_only_for_what_certainly_holds() {
    let e = engine(SURE_RULE);
    // Resolved from parts the hint cannot see: judged as written.
    let (v, fired, _) = judge(&e, "a=server.k; b=ey; cat $a$b");
    assert_eq!((v, fired), (Verdict::Deny, vec!["no-key-read".to_string()]));
    // A literal path with the hint: as before.
    assert_eq!(judge(&e, "cat tls/server.key").0, Verdict::Deny);
    // Only known at run time, no hint: `sure` does not hold, nothing is unresolved.
    assert_eq!(judge(&e, "f=$(mktemp); cat \"$f\"").0, Verdict::Abstain);
    // Only known at run time with the hint: the deny cannot be decided, so it asks, with
    // the cause.
    let (v, fired, reason) = judge(&e, "cat \"$KEYFILE\"");
    assert_eq!((v, fired), (Verdict::Ask, vec!["no-key-read".to_string()]));
    assert!(reason.contains("cannot tell"), "{reason}");
    // `not` of `sure`: a log for certain stays quiet, anything else (unknown too) asks,
    // by the rule itself (nothing unresolved is left behind by the `sure` below `not`).
    assert_eq!(judge(&e, "tail -n 50 logs/app.log").0, Verdict::Abstain);
    let (v, fired, _) = judge(&e, "tail -n 50 \"$LOG\"");
    assert_eq!(
        (v, fired),
        (Verdict::Ask, vec!["not-surely-a-log".to_string()])
    );
    let (v, fired, _) = judge(&e, "tail -f notes.txt");
    assert_eq!(
        (v, fired),
        (Verdict::Ask, vec!["not-surely-a-log".to_string()])
    );
}
