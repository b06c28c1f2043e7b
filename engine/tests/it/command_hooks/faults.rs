//! Fault injection into the process runner: hangs, floods, invalid UTF-8, missing binaries,
//! crashes; output caps and concurrency.

use std::time::{Duration, Instant};

use seamguard_engine::runner::{CommandHook, OUTPUT_CAP_BYTES, RunContext, run_all};
use seamguard_engine::{Dialect, Verdict, encode};

use crate::support::bash;

use super::{DENY_JSON, Tmp, engine, pre, q, warned};

fn process_gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        // A zombie (state `Z`) is dead; it only waits to be reaped.
        Ok(s) => s
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

#[test]
fn faults_each_give_the_documented_outcome_and_the_engine_keeps_working() {
    let tmp = Tmp::new("faults");
    let pidfile = tmp.join("child.pid");
    let forever = tmp.script(
        "forever.sh",
        "#!/bin/bash\nsleep 1000 &\necho $! > \"$PIDFILE\"\nsleep 1000\n",
    );
    let flood = tmp.script(
        "flood.sh",
        "#!/bin/sh\ncat >/dev/null\nhead -c 52428800 /dev/zero | tr '\\0' 'y'\n",
    );
    let badutf8 = tmp.script(
        "badutf8.sh",
        "#!/bin/sh\ncat >/dev/null\nprintf '\\377\\376 not utf-8 \\300\\n'\n",
    );
    let crash = tmp.script("crash.sh", "#!/bin/bash\ncat >/dev/null\nkill -SEGV $$\n");
    let healthy = tmp.script(
        "healthy.sh",
        &format!("#!/bin/sh\ncat >/dev/null\nprintf '%s' '{DENY_JSON}'\n"),
    );
    let missing = tmp.join("no/such/hook.sh").display().to_string();
    let faults: Vec<(&str, String, &str)> = vec![
        ("forever", forever.display().to_string(), "1s"),
        ("flood", flood.display().to_string(), "60s"),
        ("badutf8", badutf8.display().to_string(), "10s"),
        ("missing", missing, "10s"),
        ("crash", crash.display().to_string(), "10s"),
    ];
    let mut src = String::new();
    for (name, cmd, timeout) in &faults {
        for on_error in ["ignore", "deny"] {
            src.push_str(&format!(
                "[[rule]]\nid = \"{name}-{on_error}\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nwhen.command = {{ prefix = \"{name}-{on_error}\" }}\nrun = {{ command = {}, timeout = \"{timeout}\", on_error = \"{on_error}\", env = {{ PIDFILE = {} }} }}\n\n",
                q(cmd),
                q(&pidfile.display().to_string())
            ));
        }
    }
    src.push_str(&format!(
        "[[rule]]\nid = \"healthy\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nwhen.command = {{ prefix = \"healthy\" }}\nrun = {{ command = {} }}\n",
        q(&healthy.display().to_string())
    ));
    let e = engine(&src);
    let cwd = tmp.s();
    let mut problems: Vec<String> = Vec::new();
    for (name, _, _) in &faults {
        // Without on_error: no decision and a warning naming the hook.
        let _ = std::fs::remove_file(&pidfile);
        let t = Instant::now();
        let o = pre(&e, &bash(&cwd, &format!("{name}-ignore")));
        assert_eq!(o.verdict(), Verdict::Abstain, "{name}: {o:?}");
        assert_eq!(o.hook_runs.len(), 1, "{name}");
        // Invalid UTF-8 plain text on exit 0 is read lossily and, like any plain text on
        // PreToolUse, ignored by the host (HOOKS.md A5.1): the hook did not fail.
        let plain_text_ok = *name == "badutf8";
        if !plain_text_ok && !warned(&o, &format!("`{name}-ignore`")) {
            problems.push(format!(
                "{name}: no warning naming the hook: {:?}",
                o.warnings
            ));
        }
        assert!(
            encode(&o, Dialect::ClaudeCode)
                .stdout
                .find("permissionDecision")
                .is_none(),
            "{name}"
        );
        match *name {
            "forever" => {
                assert!(o.hook_runs[0].timed_out);
                assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
                let pid: u32 = std::fs::read_to_string(&pidfile)
                    .unwrap()
                    .trim()
                    .parse()
                    .unwrap();
                let deadline = Instant::now() + Duration::from_secs(3);
                while !process_gone(pid) && Instant::now() < deadline {
                    std::thread::sleep(Duration::from_millis(20));
                }
                assert!(
                    process_gone(pid),
                    "child {pid} of the timed-out hook survived"
                );
            }
            "flood" => assert!(warned(&o, "output truncated"), "{:?}", o.warnings),
            "missing" => {
                assert_eq!(o.hook_runs[0].exit_code, Some(127));
                assert!(warned(&o, "exit 127"));
            }
            "crash" => assert!(
                matches!(o.hook_runs[0].exit_code, None | Some(139)),
                "{:?}",
                o.hook_runs[0]
            ),
            _ => {}
        }
        // The engine keeps working for the next event.
        let ok = pre(&e, &bash(&cwd, "healthy check"));
        assert_eq!(ok.verdict(), Verdict::Deny, "after {name}");
        assert_eq!(ok.reason_text(), "matched [healthy]");

        // With on_error = "deny": a deny that says why.
        let o = pre(&e, &bash(&cwd, &format!("{name}-deny")));
        if plain_text_ok {
            assert_eq!(o.verdict(), Verdict::Abstain, "{name}-deny");
        } else if o.verdict() != Verdict::Deny || !o.reason_text().contains("on_error = \"deny\"") {
            problems.push(format!(
                "{name}-deny: on_error = \"deny\" gave {:?} ({}); warnings {:?}",
                o.verdict(),
                o.reason_text(),
                o.warnings
            ));
        }
        let ok = pre(&e, &bash(&cwd, "healthy again"));
        assert_eq!(ok.verdict(), Verdict::Deny, "after {name}-deny");
    }
    // A JSON deny with invalid UTF-8 inside its reason is read lossily (U+FFFD), as the
    // hosts read it, and still denies.
    let lossy = tmp.script(
        "lossy.sh",
        "#!/bin/sh\ncat >/dev/null\nprintf '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"bad \\377 byte\"}}'\n",
    );
    let e2 = engine(&format!(
        "[[rule]]\nid = \"lossy\"\nseam = \"pre-tool\"\nrun = {{ command = {} }}\n",
        q(&lossy.display().to_string())
    ));
    let o = pre(&e2, &bash(&cwd, "ls"));
    crate::support::assert_verdict(&o, Verdict::Deny, "bad \u{fffd} byte [lossy]");
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn runner_caps_output_and_runs_hooks_concurrently() {
    let cx = RunContext {
        dialect: Dialect::ClaudeCode,
        cwd: None,
        project_dir: None,
    };
    let hook = |id: &str, cmd: &str| CommandHook::new(id, cmd, 30_000);
    // 50 MB: the capture is bounded and the rest drained (the writer is not blocked).
    let r = run_all(
        &[hook(
            "flood",
            "head -c 52428800 /dev/zero | tr '\\0' y; echo done >&2",
        )],
        b"",
        &cx,
    );
    assert_eq!(r[0].stdout.len(), OUTPUT_CAP_BYTES);
    assert!(r[0].stdout_truncated);
    assert_eq!(r[0].stderr, b"done\n");
    assert_eq!(r[0].exit_code, Some(0));
    // 8 hooks of 100 ms run at once and come back in declared order.
    let hooks: Vec<CommandHook> = (0..8)
        .map(|i| hook(&format!("h{i}"), &format!("sleep 0.1; echo {i}")))
        .collect();
    let t = Instant::now();
    let r = run_all(&hooks, b"", &cx);
    let took = t.elapsed();
    assert!(took < Duration::from_millis(600), "{took:?}");
    for (i, x) in r.iter().enumerate() {
        assert_eq!(x.stdout, format!("{i}\n").as_bytes());
    }
}
