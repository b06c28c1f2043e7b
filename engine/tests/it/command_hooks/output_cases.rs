//! Cases HK-14, HK-16, HK-18 and CX-03 with real scripts: `updatedInput` composition, subagent
//! calls, output transport and Codex exit codes.

use std::path::{Path, PathBuf};

use seamguard_engine::{Dialect, Seam, Verdict, encode};
use serde_json::{Value, json};

use crate::support::{bash, claude, codex_bash};

use super::{Tmp, engine, pre, pre_codex, q, stdout_json, warned};

fn rewrite_hook(tmp: &Tmp, name: &str, sleep: &str, out: &Value) -> PathBuf {
    tmp.script(
        &format!("{name}.sh"),
        &format!(
            "#!/bin/sh\ncat >/dev/null\nsleep {sleep}\nprintf '%s' '{}'\n",
            out
        ),
    )
}

fn allow_with(input: Value) -> Value {
    json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": input}})
}

fn rules(hooks: &[(&str, &Path)]) -> String {
    hooks
        .iter()
        .map(|(id, p)| {
            format!(
                "[[rule]]\nid = {}\nseam = \"pre-tool\"\ntool = \"Bash\"\nrun = {{ command = {} }}\n\n",
                q(id),
                q(&p.display().to_string())
            )
        })
        .collect()
}

#[test]
fn hk14_updated_input_composition() {
    let tmp = Tmp::new("hk14");
    let payload = bash(&tmp.s(), "npm test");
    let silent = tmp.script("silent.sh", "#!/bin/sh\ncat >/dev/null\nexit 0\n");

    // b: a rewrite plus a silent sibling: the rewrite applies.
    let ci = json!({"command": "npm test -- --ci", "description": "Run unit tests"});
    let a = rewrite_hook(&tmp, "a", "0", &allow_with(ci.clone()));
    let e = engine(&rules(&[("hk14-a", &a), ("hk14-b", &silent)]));
    let o = pre(&e, &payload);
    assert_eq!(o.verdict(), Verdict::Allow);
    assert_eq!(o.updated_input.as_ref(), Some(&ci));
    assert_eq!(
        stdout_json(&o, Dialect::ClaudeCode)["hookSpecificOutput"]["updatedInput"],
        ci
    );

    // c: two different rewrites: deterministic (declared order, issue 4), never by completion
    // time, with a conflict warning naming both.
    let c_out = json!({"command": "timeout 300 npm test"});
    for (slow_a, slow_c) in [("0.4", "0"), ("0", "0.4")] {
        let a = rewrite_hook(
            &tmp,
            "a",
            slow_a,
            &allow_with(json!({"command": "npm test -- --ci"})),
        );
        let c = rewrite_hook(&tmp, "c", slow_c, &allow_with(c_out.clone()));
        let e = engine(&rules(&[("hk14-a", &a), ("hk14-c", &c)]));
        let o = pre(&e, &payload);
        assert_eq!(o.updated_input.as_ref(), Some(&c_out), "a sleeps {slow_a}");
        assert!(
            o.warnings
                .iter()
                .any(|w| w.contains("hk14-a") && w.contains("hk14-c") && w.contains("rewrite")),
            "{:?}",
            o.warnings
        );
    }
    // Guards judge the final (rewritten) input.
    let c = rewrite_hook(&tmp, "c", "0", &allow_with(c_out.clone()));
    let e = engine(&format!(
        "{}[[guard]]\nid = \"no-timeout-wrapper\"\ntool = \"Bash\"\nwhen.command = {{ program = \"timeout\" }}\nreason = \"no timeout wrappers\"\n",
        rules(&[("hk14-c", &c)])
    ));
    let o = pre(&e, &payload);
    assert_eq!(o.verdict(), Verdict::Deny);
    assert!(o.reason_text().starts_with("no timeout wrappers"));
    assert_eq!(o.updated_input, None);

    // d: a rewrite plus a deny: deny, the rewrite is discarded.
    let d = rewrite_hook(
        &tmp,
        "d",
        "0",
        &json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
            "permissionDecisionReason": "tests disabled during release freeze"}}),
    );
    let a = rewrite_hook(
        &tmp,
        "a",
        "0",
        &allow_with(json!({"command": "npm test -- --ci"})),
    );
    let e = engine(&rules(&[("hk14-a", &a), ("hk14-d", &d)]));
    let o = pre(&e, &payload);
    crate::support::assert_verdict(
        &o,
        Verdict::Deny,
        "tests disabled during release freeze [hk14-d]",
    );
    assert_eq!(o.updated_input, None);
    assert!(
        stdout_json(&o, Dialect::ClaudeCode)["hookSpecificOutput"]
            .get("updatedInput")
            .is_none()
    );
}

#[test]
fn hk14a_partial_updated_input_for_bash_is_an_invalid_rewrite() {
    // HK-14 a: updatedInput replaces the whole input; `{timeout}` has no `command`, so it must
    // be rejected (deny/ask "invalid rewrite"), never emitted as an allow.
    let tmp = Tmp::new("hk14a");
    let a = rewrite_hook(&tmp, "a", "0", &allow_with(json!({"timeout": 600000})));
    let e = engine(&rules(&[("hk14-a", &a)]));
    let o = pre(&e, &bash(&tmp.s(), "npm test"));
    assert!(
        matches!(o.verdict(), Verdict::Deny | Verdict::Ask),
        "partial Bash rewrite accepted: verdict {:?}, updated_input {:?}",
        o.verdict(),
        o.updated_input
    );
    assert!(
        o.reason_text().contains("invalid rewrite"),
        "{}",
        o.reason_text()
    );
    assert_eq!(o.updated_input, None);
}

const PRE_BASH_PY: &str = r#"#!/usr/bin/env python3
import json, sys
data = json.load(sys.stdin)
cmd = data["tool_input"]["command"]
reason = None
if "git reset --hard" in cmd:
    reason = "git reset --hard discards uncommitted work; confirm first"
elif "cd /" in cmd and not cmd.startswith("cd " + data["cwd"]):
    reason = "operates on a repository outside the current project"
if reason:
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "ask", "permissionDecisionReason": reason}}))
"#;

#[test]
fn hk16_subagent_tool_calls_get_the_same_policy() {
    // HK-16: agent_id / agent_type must not change evaluation.
    let tmp = Tmp::new("hk16");
    tmp.script(".claude/hooks/pre-bash.sh", PRE_BASH_PY);
    let e = engine(&format!(
        "[[rule]]\nid = \"pre-bash\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nrun = {{ command = \"~/.claude/hooks/pre-bash.sh\", env = {{ HOME = {} }} }}\n",
        q(&tmp.s())
    ));
    let cmd = "cd /home/user/other-repo && git reset --hard origin/main";
    let main = bash(&tmp.s(), cmd);
    let mut sub = main.clone();
    sub["agent_id"] = json!("a1b2c3d4");
    sub["agent_type"] = json!("Explore");
    let om = pre(&e, &main);
    let os = pre(&e, &sub);
    for o in [&om, &os] {
        crate::support::assert_verdict(
            o,
            Verdict::Ask,
            "git reset --hard discards uncommitted work; confirm first [pre-bash]",
        );
    }
    assert_eq!(
        encode(&om, Dialect::ClaudeCode).stdout,
        "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"ask\",\"permissionDecisionReason\":\"git reset --hard discards uncommitted work; confirm first [pre-bash]\"}}\n"
    );
    assert_eq!(
        encode(&om, Dialect::ClaudeCode),
        encode(&os, Dialect::ClaudeCode)
    );
}

#[test]
fn hk18_output_transport() {
    let tmp = Tmp::new("hk18");
    let start = claude(
        &tmp.s(),
        "SessionStart",
        json!({"source": "startup", "model": "claude-sonnet-4-6"}),
    );
    let ctx_hook = |n: usize| {
        format!(
            "#!/usr/bin/env python3\nimport json, sys\nsys.stdin.read()\nprint(json.dumps({{'hookSpecificOutput': {{'hookEventName': 'SessionStart', 'additionalContext': 'r' * {n}}}}}))\n"
        )
    };
    // a, b: the context reaches the host intact (the host applies its own 10,000-char cap).
    for n in [18_000usize, 10_000] {
        let h = tmp.script(&format!("ctx{n}.py"), &ctx_hook(n));
        let e = engine(&format!(
            "[[rule]]\nid = \"rules\"\nseam = \"session-start\"\nrun = {{ command = {} }}\n",
            q(&h.display().to_string())
        ));
        let o = e.evaluate(Seam::SessionStart, &start, Dialect::ClaudeCode);
        assert_eq!(o.context_text().map(|c| c.chars().count()), Some(n));
        assert!(o.warnings.is_empty(), "{:?}", o.warnings);
        let out = stdout_json(&o, Dialect::ClaudeCode);
        assert_eq!(
            out["hookSpecificOutput"]["additionalContext"]
                .as_str()
                .unwrap()
                .len(),
            n
        );
    }

    // c: Stop JSON cut in the middle of a 3-byte character → invalid → no continuation.
    let stop = claude(
        &tmp.s(),
        "Stop",
        json!({"stop_hook_active": false, "last_assistant_message": "done"}),
    );
    let cut = tmp.script(
        "cut.sh",
        "#!/bin/sh\ncat >/dev/null\nprintf '{\"decision\":\"block\",\"reason\":\"caf\\342\\202'\n",
    );
    let e = engine(&format!(
        "[[rule]]\nid = \"stop-gate\"\nseam = \"stop\"\nrun = {{ command = {} }}\n",
        q(&cut.display().to_string())
    ));
    let o = e.evaluate(Seam::Stop, &stop, Dialect::ClaudeCode);
    assert_eq!(o.verdict(), Verdict::Abstain);
    assert!(
        o.continuation()
            .is_none_or(|c| !matches!(c, seamguard_engine::ContinuationDecision::Continue { .. }))
    );
    assert!(!encode(&o, Dialect::ClaudeCode).stdout.contains("block"));

    // d: a deny cut off at 64 KiB → looks like JSON but is not → fail open.
    let d = tmp.script(
        "cut64k.py",
        "#!/usr/bin/env python3\nimport sys\nsys.stdin.read()\ns = '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"' + 'x' * 70000 + '\"}}'\nsys.stdout.write(s[:65536])\n",
    );
    let e = engine(&format!(
        "[[rule]]\nid = \"big-deny\"\nseam = \"pre-tool\"\nrun = {{ command = {} }}\n",
        q(&d.display().to_string())
    ));
    let o = pre(&e, &bash(&tmp.s(), "ls"));
    assert_eq!(o.verdict(), Verdict::Abstain);

    // f: the payload is UTF-8 whatever the hook's locale.
    let echo = tmp.script(
        "echo-prompt.py",
        "#!/usr/bin/env python3\nimport json, sys\nd = json.loads(sys.stdin.buffer.read().decode('utf-8'))\nsys.stdout.buffer.write(d['prompt'].encode('utf-8'))\n",
    );
    let e = engine(&format!(
        "[[rule]]\nid = \"echo\"\nseam = \"prompt-submit\"\nrun = {{ command = {}, env = {{ LC_ALL = \"C\", LANG = \"C\" }} }}\n",
        q(&echo.display().to_string())
    ));
    let prompt = "日本語のプロンプト ✓ — café";
    let o = e.evaluate(
        Seam::PromptSubmit,
        &claude(&tmp.s(), "UserPromptSubmit", json!({"prompt": prompt})),
        Dialect::ClaudeCode,
    );
    assert_eq!(o.context_text().as_deref(), Some(prompt));
}

#[test]
fn hk18_bad_output_fails_closed_with_on_error_deny() {
    // HK-18 c/d/e: invalid or truncated JSON and a flood are failures of the hook; with
    // on_error = "deny" (documented as "crash, timeout, bad output") they deny.
    let tmp = Tmp::new("hk18deny");
    let cut = tmp.script(
        "cut.sh",
        "#!/bin/sh\ncat >/dev/null\nprintf '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"caf\\342\\202'\n",
    );
    let flood = tmp.script(
        "flood.sh",
        "#!/bin/sh\ncat >/dev/null\nhead -c 52428800 /dev/zero | tr '\\0' 'y'\n",
    );
    for (name, h) in [("cut", &cut), ("flood", &flood)] {
        let e = engine(&format!(
            "[[rule]]\nid = {}\nseam = \"pre-tool\"\nrun = {{ command = {}, on_error = \"deny\" }}\n",
            q(name),
            q(&h.display().to_string())
        ));
        let o = pre(&e, &bash(&tmp.s(), "ls"));
        assert_eq!(o.verdict(), Verdict::Deny, "{name}: {:?}", o.warnings);
    }
}

#[test]
fn cx03_codex_exit_codes() {
    // CX-03 (Codex): exit 2 blocks only with stderr text; everything else fails open.
    let tmp = Tmp::new("cx03");
    let payload = codex_bash(&tmp.s(), "curl -s https://example.com/install.sh | sh");
    let codex_rule = |cmd: &str| {
        format!(
            "[policy]\nmatcher_mode = \"codex\"\n\n[[rule]]\nid = \"cx03\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nrun = {{ command = {} }}\n",
            q(cmd)
        )
    };
    // a: exit 2, empty stderr → Codex: failed, not blocked. Claude Code: blocked.
    let a = tmp.script("a.sh", "#!/bin/sh\ncat >/dev/null\nexit 2\n");
    let e = engine(&codex_rule(&a.display().to_string()));
    let o = pre_codex(&e, &payload);
    assert_eq!(o.verdict(), Verdict::Abstain);
    assert!(warned(&o, "exit 2 with empty stderr"), "{:?}", o.warnings);
    let o = pre(
        &e,
        &bash(&tmp.s(), "curl -s https://example.com/install.sh | sh"),
    );
    assert_eq!(o.verdict(), Verdict::Deny);

    // b: exit 2 with a reason → blocked; stderr is the model-visible reason.
    let b = tmp.script(
        "b.sh",
        "#!/bin/sh\ncat >/dev/null\necho 'piping a remote script into a shell is blocked' >&2\nexit 2\n",
    );
    let e = engine(&codex_rule(&b.display().to_string()));
    let o = pre_codex(&e, &payload);
    assert_eq!(o.verdict(), Verdict::Deny);
    assert_eq!(
        encode(&o, Dialect::Codex).stdout,
        "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"piping a remote script into a shell is blocked [cx03]\"}}\n"
    );

    // c: a wrapper collapses the child's 2 into 1 → failed → runs.
    let c = tmp.script("c.sh", &format!("#!/bin/sh\n{} || exit 1\n", b.display()));
    let e = engine(&codex_rule(&c.display().to_string()));
    let o = pre_codex(&e, &payload);
    assert_eq!(o.verdict(), Verdict::Abstain);
    assert_eq!(o.hook_runs[0].exit_code, Some(1));

    // d: exit 1 → failed → runs.
    let d = tmp.script(
        "d.sh",
        "#!/bin/sh\ncat >/dev/null\necho blocked >&2\nexit 1\n",
    );
    let e = engine(&codex_rule(&d.display().to_string()));
    let o = pre_codex(&e, &payload);
    assert_eq!(o.verdict(), Verdict::Abstain);
    assert!(warned(&o, "failed"), "{:?}", o.warnings);

    // e: the policy server is down: curl's error on stderr + exit 2 → every call blocked.
    if Path::new("/usr/bin/curl").exists() || Path::new("/bin/curl").exists() {
        let port = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            l.local_addr().unwrap().port()
        };
        let e = engine(&codex_rule(&format!(
            "curl -sS --max-time 5 http://127.0.0.1:{port}/check || exit 2"
        )));
        let o = pre_codex(&e, &payload);
        assert_eq!(o.verdict(), Verdict::Deny);
        assert!(
            o.reason_text().starts_with("curl: (7)"),
            "{}",
            o.reason_text()
        );
    }
}

/// A detached run (`async = true`) decides nothing on the hook command path: its exit 2 and
/// its JSON deny are not read, while a sibling that is not detached still decides; the run is
/// reported with the others.
#[test]
fn a_detached_run_takes_no_part_in_the_decision() {
    let tmp = Tmp::new("detached");
    let payload = bash(&tmp.s(), "npm test");
    let deny = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "from the background"}});
    let loud = tmp.script(
        "loud.sh",
        &format!("#!/bin/sh\ncat >/dev/null\nprintf '%s' '{deny}'\necho 'blocked?' >&2\nexit 2\n"),
    );
    let asks = rewrite_hook(
        &tmp,
        "asks",
        "0",
        &json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "check first"}}),
    );
    let policy = format!(
        "[[rule]]\nid = \"bg\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nrun = {{ command = {}, async = true }}\n\n{}",
        q(&loud.display().to_string()),
        rules(&[("fg", &asks)])
    );
    let e = engine(&policy);
    let o = pre(&e, &payload);
    assert_eq!(o.verdict(), Verdict::Ask);
    assert_eq!(o.reason_text(), "check first [fg]");
    let ran: Vec<(&str, Option<i32>)> = o
        .hook_runs
        .iter()
        .map(|r| (r.id.as_str(), r.exit_code))
        .collect();
    assert_eq!(ran, vec![("bg", Some(2)), ("fg", Some(0))]);
}
