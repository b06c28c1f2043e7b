//! Recorded-session readers and the explain trace, on the bundled real sessions
//! (`data/recorded/`, attribution in its `NOTICE.md`) and on damaged inputs.
//!
//! Pinned: per-file event counts per seam, per-rule hit counts with the balanced library
//! (`policies/*.toml`), and a two-profile diff (balanced vs balanced + `policies/strict/`).
//! Every file of `../shared/data/recorded/` is also read when that folder exists.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use seamguard_engine::explain::{Held, explain};
use seamguard_engine::readers::{
    EventReader, Format, Item, ProblemKind, ReadProblem, RecordedEvent, argv_to_command,
    collect_files,
};
use seamguard_engine::{Dialect, Engine, HookEvent, Request, Scope, Seam, load_dir};

use crate::support::{recorded_engine, root};

pub(crate) fn read_all(path: &Path) -> (Vec<RecordedEvent>, Vec<ReadProblem>) {
    let mut ev = Vec::new();
    let mut pr = Vec::new();
    for i in EventReader::open(path) {
        match i {
            Item::Event(e) => ev.push(e),
            Item::Problem(p) => pr.push(p),
        }
    }
    (ev, pr)
}

pub(crate) fn read_str(text: &str) -> (Vec<RecordedEvent>, Vec<ReadProblem>) {
    let mut ev = Vec::new();
    let mut pr = Vec::new();
    for i in EventReader::from_reader("mem.jsonl", std::io::Cursor::new(text.as_bytes().to_vec())) {
        match i {
            Item::Event(e) => ev.push(e),
            Item::Problem(p) => pr.push(p),
        }
    }
    (ev, pr)
}

/// An engine with a fixed path environment (results must not depend on the test machine's
/// `$HOME` or `CLAUDE_PROJECT_DIR`), from policy folders (their `*.toml` in name order, as
/// `--policy DIR` loads them).
fn engine(dirs: &[&str]) -> Engine {
    let mut loaded = Vec::new();
    for d in dirs {
        let more = load_dir(&root().join(d), Scope::Cli, loaded.len());
        assert!(!more.is_empty(), "no policy in {d}");
        for p in &more {
            assert!(!p.has_errors(), "{:#?}", p.diagnostics);
        }
        loaded.extend(more);
    }
    recorded_engine(loaded)
}

fn per_seam(events: &[RecordedEvent]) -> BTreeMap<&'static str, usize> {
    let mut m = BTreeMap::new();
    for e in events {
        *m.entry(e.seam.name()).or_insert(0) += 1;
    }
    m
}

fn bundled() -> Vec<PathBuf> {
    collect_files(&[root().join("data/recorded")])
}

#[test]
fn bundled_files_event_counts_are_pinned() {
    type Pin<'a> = (&'a str, Format, &'a [(&'a str, usize)]);
    let expect: &[Pin] = &[
        (
            "claude-1.jsonl",
            Format::ClaudeTranscript,
            &[
                ("post-tool", 250),
                ("post-tool-failure", 3),
                ("pre-compact", 4),
                ("pre-tool", 253),
                ("prompt-submit", 24),
                ("session-start", 5),
                ("stop", 23),
            ],
        ),
        (
            "claude-2.jsonl",
            Format::ClaudeTranscript,
            &[
                ("post-tool", 118),
                ("post-tool-failure", 2),
                ("pre-compact", 1),
                ("pre-tool", 120),
                ("prompt-submit", 8),
                ("session-start", 2),
                ("stop", 9),
            ],
        ),
        (
            "claude-3.jsonl",
            Format::ClaudeTranscript,
            &[
                ("post-tool", 22),
                ("post-tool-failure", 10),
                ("pre-tool", 32),
                ("subagent-start", 1),
                ("subagent-stop", 1),
            ],
        ),
        (
            "claude-4.jsonl",
            Format::ClaudeTranscript,
            &[
                ("post-tool", 101),
                ("post-tool-failure", 35),
                ("pre-tool", 136),
                ("prompt-submit", 1),
                ("session-start", 1),
                ("stop", 1),
            ],
        ),
        (
            "claude-5.jsonl",
            Format::ClaudeTranscript,
            &[
                ("post-tool", 289),
                ("post-tool-failure", 23),
                ("pre-tool", 312),
                ("prompt-submit", 11),
                ("session-start", 1),
                ("stop", 4),
            ],
        ),
        (
            "codex-1.jsonl",
            Format::CodexRollout,
            &[
                ("post-tool", 97),
                ("pre-tool", 97),
                ("prompt-submit", 6),
                ("session-start", 1),
                ("stop", 5),
            ],
        ),
        (
            "codex-2.jsonl",
            Format::CodexRollout,
            &[
                ("post-tool", 78),
                ("pre-tool", 78),
                ("prompt-submit", 2),
                ("session-start", 1),
                ("stop", 2),
            ],
        ),
        (
            "codex-3.jsonl",
            Format::CodexRollout,
            &[
                ("post-tool", 148),
                ("pre-tool", 148),
                ("prompt-submit", 13),
                ("session-start", 1),
                ("stop", 13),
            ],
        ),
        (
            "codex-4.jsonl",
            Format::CodexRollout,
            &[
                ("post-tool", 42),
                ("pre-tool", 42),
                ("prompt-submit", 1),
                ("session-start", 1),
                ("stop", 1),
            ],
        ),
        (
            "codex-6.jsonl",
            Format::CodexRollout,
            &[
                ("post-tool", 13),
                ("pre-tool", 13),
                ("prompt-submit", 2),
                ("session-start", 1),
                ("stop", 2),
            ],
        ),
        (
            "codex-7.jsonl",
            Format::CodexRollout,
            &[
                ("post-tool", 17),
                ("pre-tool", 17),
                ("prompt-submit", 14),
                ("session-start", 1),
                ("stop", 10),
            ],
        ),
        (
            "gemini-1.json",
            Format::GeminiChat,
            &[
                ("post-tool", 178),
                ("post-tool-failure", 3),
                ("pre-tool", 181),
                ("prompt-submit", 44),
                ("session-start", 1),
                ("stop", 43),
            ],
        ),
        (
            "gemini-2.json",
            Format::GeminiChat,
            &[
                ("post-tool", 101),
                ("post-tool-failure", 4),
                ("pre-tool", 105),
                ("prompt-submit", 13),
                ("session-start", 1),
                ("stop", 13),
            ],
        ),
        ("hooklog-1.jsonl", Format::HookLog, &[("pre-tool", 831)]),
        (
            "hooklog-2.jsonl",
            Format::HookLog,
            &[
                ("notification", 173),
                ("prompt-submit", 277),
                ("stop", 196),
                ("subagent-stop", 151),
            ],
        ),
        ("hooklog-3.jsonl", Format::HookLog, &[("pre-tool", 725)]),
        (
            "hooklog-4.jsonl",
            Format::HookLog,
            &[
                ("notification", 14),
                ("pre-compact", 3),
                ("prompt-submit", 12),
                ("session-start", 10),
                ("stop", 10),
                ("subagent-stop", 3),
            ],
        ),
        (
            "hooklog-5.jsonl",
            Format::HookLog,
            &[
                ("post-tool", 42),
                ("pre-compact", 1),
                ("pre-tool", 44),
                ("prompt-submit", 10),
                ("session-start", 1),
                ("stop", 9),
            ],
        ),
        ("hooklog-6.jsonl", Format::HookLog, &[("pre-tool", 20)]),
    ];
    let files = bundled();
    assert_eq!(files.len(), expect.len(), "bundled files: {files:?}");
    assert_eq!(files.len(), 19);
    let mut total = 0;
    for (name, format, seams) in expect {
        let (events, problems) = read_all(&root().join("data/recorded").join(name));
        assert!(problems.is_empty(), "{name}: {problems:?}");
        assert!(events.iter().all(|e| e.format == *format), "{name}");
        let got = per_seam(&events);
        let want: BTreeMap<&str, usize> = seams.iter().copied().collect();
        assert_eq!(got, want, "{name}");
        total += events.len();
        // Every reconstructed payload decodes as the hook would decode it, at its seam.
        for e in &events {
            let decoded = HookEvent::from_value(&e.payload);
            assert!(
                decoded.as_ref().is_ok_and(|d| d.seam() == e.seam),
                "{}: {decoded:?}",
                e.location()
            );
            assert!(e.line >= 1);
        }
    }
    assert_eq!(total, 5889);
}

#[test]
fn balanced_rule_hits_on_bundled_sessions_are_pinned() {
    let engine = engine(&["policies"]);
    let mut hits: BTreeMap<String, usize> = BTreeMap::new();
    let mut verdicts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut denied = Vec::new();
    for f in bundled() {
        let (events, _) = read_all(&f);
        for e in events {
            let o = engine.evaluate(e.seam, &e.payload, e.dialect);
            *verdicts.entry(o.verdict().name()).or_insert(0) += 1;
            for id in o.fired_ids() {
                *hits.entry(id.to_string()).or_insert(0) += 1;
            }
            if o.verdict().name() == "deny" {
                denied.push(format!(
                    "{}:{}",
                    e.file.rsplit('/').next().unwrap_or(""),
                    e.line
                ));
            }
        }
    }
    let want: BTreeMap<String, usize> = [
        ("agent-settings-change-needs-approval", 1),
        ("git-discard-needs-approval", 2),
        ("install-from-url-or-git-needs-approval", 1),
        ("mcp-destructive-call-needs-approval", 5),
        ("no-recursive-delete-of-root-or-home", 1),
        ("no-recursive-delete-outside-project", 1),
        ("no-secret-file-over-network", 2),
        ("project-or-history-delete-needs-approval", 1),
        ("raw-socket-send-needs-approval", 3),
        ("remote-branch-delete-needs-approval", 1),
        ("remote-copy-needs-approval", 1),
        ("seamguard:unsure", 3),
        ("secret-files-are-off-limits", 3),
        ("ssh-access-changes-need-approval", 2),
        ("upload-to-unlisted-host", 3),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), *v))
    .collect();
    // Issue 14: a line with a part seamguard cannot resolve is asked about once, with its
    // cause, as `seamguard:unsure` (3: gemini-1.json:93, 99, 106, scripts piped into
    // `ssh host "cat > x && sh x"`), instead of firing every rule whose test it made
    // undecidable (29 rules, each counted 4 times before); hooklog-1.jsonl:360, a note whose
    // Markdown backquotes `InitProject()` (bash runs nothing of it), is left alone.
    // `raw-socket-send-needs-approval` still holds on gemini-1.json:93, 99, 106 (data piped
    // into ssh). Effect rules (issue 12): `secret-files-via-shell` merged into
    // `secret-files-are-off-limits`; `no-secret-file-over-network` holds where a line reads a
    // secret file and sends (claude-1.jsonl:165, 384); `upload-to-unlisted-host` also sees
    // those curl requests and the scp body of gemini-1.json:92.
    // `project-or-history-delete-needs-approval` (issue 27): gemini-2.json:112, an
    // `rm -rf transcripts` in a chat without a working directory, where no folder can be
    // told apart from the project itself; it already asked.
    // The PowerShell lens (issue 26) reads codex-7.jsonl's `powershell.exe -Command` calls:
    // :159 runs `uvx --from git+https://…` (install-from-url-or-git, as in bash); :177 and
    // :183 hand a bash heredoc to PowerShell, which refuses a bare `<` and runs nothing.
    // The app's own env file (issue 26): codex-3.jsonl:1078 writes `.env.local` from a
    // heredoc, values the agent holds, no longer a secret read (secret-files 4 → 3).
    assert_eq!(hits, want);
    assert_eq!(
        verdicts,
        [("ask", 17), ("deny", 3), ("none", 5869)]
            .into_iter()
            .collect()
    );
    // Claude Code: `.env` files read from the shell (claude-1.jsonl:80 greps a key name out of
    // `~/.claude/.env`; :165 and :384 grep an API key out of it and send it with curl). Codex: a heredoc written into
    // `.env.local` (codex-3.jsonl:1078). Lines that run a script written earlier on the same
    // line (`cat x.sh | ssh host "cat > /tmp/x.sh && sh /tmp/x.sh"`, gemini-1.json:93, 99,
    // 106) are unsure: they ask once with that cause (issue 14), no longer denied. The `rm -rf` after `cd` in a Gemini session
    // (gemini-2.json:112) asks: the scrubbed `cd /home/[USER]/…` is a glob, so the working
    // directory, and whether the delete hits a home folder, is only known at run time.
    // No longer denied (the old single baseline denied them): hooklog-3.jsonl:308, a sanitizer
    // test holding the placeholder `sk_live_abcd1234efgh5678` (Stripe keys are 24+ characters
    // after the prefix), and gemini-1.json:170-172, the ssh client config read (none) and
    // written (ask, `ssh-access-changes-need-approval`): it holds no secret. codex-3.jsonl:1078
    // writes the app's own `.env.local` from a heredoc: values the agent holds (issue 26).
    assert_eq!(
        denied,
        [
            "claude-1.jsonl:80",
            "claude-1.jsonl:165",
            "claude-1.jsonl:384",
        ]
    );
}

#[test]
fn two_policy_diff_on_real_sessions_is_pinned() {
    let base = engine(&["policies"]);
    let strict = engine(&["policies", "policies/strict"]);
    let mut changed = Vec::new();
    for f in bundled() {
        let (events, _) = read_all(&f);
        for e in events {
            let a = base.evaluate(e.seam, &e.payload, e.dialect);
            let b = strict.evaluate(e.seam, &e.payload, e.dialect);
            let ids = |o: &seamguard_engine::Outcome| {
                let mut v: Vec<String> = o.fired_ids().iter().map(|s| s.to_string()).collect();
                v.extend(o.pending_runs.iter().map(|(id, _)| id.clone()));
                v.sort();
                v
            };
            if a.verdict() != b.verdict() || ids(&a) != ids(&b) {
                changed.push((
                    format!("{}:{}", e.file.rsplit('/').next().unwrap_or(""), e.line),
                    a.verdict().name(),
                    b.verdict().name(),
                    ids(&b).join(","),
                ));
            }
        }
    }
    // 340: hooklog-5.jsonl:32, a Grep of `~/.claude` with the file filter `*.json`, asks in
    // strict now: a pattern that names nothing on the replaying machine is judged by what it
    // could name (`secrets.json`, `credentials.json` there are secret-prone files).
    // 339 (issue 14): gemini-1.json:93, 99, 106 ask once in both profiles (their rule lists
    // differ: strict adds rules), no longer deny; hooklog-1.jsonl:360 is left alone by both.
    // 349 (issue 26): the PowerShell lens reads codex-7.jsonl's `powershell.exe -Command`
    // calls; strict's network-needs-approval now sees their web requests (:46, 52, 58, 93,
    // 99, 105, 111, 153, 165) and package-install-needs-approval the `uvx --from git+…` of :159.
    // 353 (issue 27): `gh repo create M-Gemini --public --source . --push` (gemini-2.json:49,
    // 54, 56, 57) is read as a `PUT` of the project to github.com; strict's
    // network-needs-approval asks for it, the balanced library does not.
    assert_eq!(changed.len(), 353, "{changed:#?}");
    // The strict profile only adds rules: no verdict gets less restrictive.
    let rank = |v: &str| {
        ["none", "allow", "ask", "defer", "deny"]
            .iter()
            .position(|x| *x == v)
    };
    assert!(
        changed.iter().all(|c| rank(c.2) >= rank(c.1)),
        "{changed:#?}"
    );
    let transitions =
        |from: &str, to: &str| changed.iter().filter(|c| c.1 == from && c.2 == to).count();
    assert_eq!(transitions("none", "ask"), 337);
    assert_eq!(transitions("ask", "ask"), 14);
    assert_eq!(transitions("deny", "deny"), 2);
    let find = |loc: &str| changed.iter().find(|c| c.0 == loc).cloned();
    // Claude Code transcript: renaming a skill folder under `~/.claude` now asks.
    assert_eq!(
        find("claude-2.jsonl:212"),
        Some((
            "claude-2.jsonl:212".into(),
            "none",
            "ask",
            "agent-folder-write-needs-approval".into()
        ))
    );
    // `npx` may download and run a package.
    assert_eq!(
        find("claude-5.jsonl:848"),
        Some((
            "claude-5.jsonl:848".into(),
            "none",
            "ask",
            "package-install-needs-approval".into()
        ))
    );
    // Gemini chat: ssh to a router now asks (network access asks only in the strict profile).
    assert_eq!(
        find("gemini-1.json:44"),
        Some((
            "gemini-1.json:44".into(),
            "none",
            "ask",
            "network-needs-approval".into()
        ))
    );
    // Hook log: a plain push (the current branch is not in the payload) now asks; a branch
    // deletion keeps asking with the same rule.
    assert_eq!(
        find("hooklog-3.jsonl:122"),
        Some((
            "hooklog-3.jsonl:122".into(),
            "none",
            "ask",
            "push-to-protected-branch-needs-approval".into()
        ))
    );
    assert_eq!(find("hooklog-3.jsonl:495"), None);
    // Editing the agent's settings keeps asking, with one more rule.
    assert_eq!(
        find("hooklog-5.jsonl:62"),
        Some((
            "hooklog-5.jsonl:62".into(),
            "ask",
            "ask",
            "agent-folder-write-needs-approval,agent-settings-change-needs-approval".into()
        ))
    );
    // Codex rollout: a `for` loop over a glob of Markdown specs, `cat "$f"` in its body. The
    // loop variable is bound to the glob (a static word), so neither profile flags it.
    assert_eq!(find("codex-3.jsonl:987"), None);
    let by_rule = |id: &str| {
        changed
            .iter()
            .filter(|c| c.3.split(',').any(|r| r == id))
            .count()
    };
    // Strict network and upload rules test sends (issue 12): claude-3.jsonl:71, a POST to
    // `http://localhost:***REMOVED***/notify` whose scrubbed port does not parse, so its
    // destination is unknown and strict asks; claude-1.jsonl:437, a POST to localhost:8888 the
    // old regex missed, no longer asks (the total stays 340). Issue 14: hooklog-1.jsonl:360
    // (its backquoted `InitProject()` runs nothing) is no longer unsure: 90. PowerShell read
    // by its lens: codex-7.jsonl's nine web requests ask in strict as a Bash `curl` does: 99.
    // Issue 27: the four `gh repo create … --public --push` lines of gemini-2.json: 103.
    assert_eq!(by_rule("network-needs-approval"), 103);
    assert_eq!(by_rule("mcp-write-needs-approval"), 86);
    // One rule for every route now (the shell copy was merged into it): the 13 shell writes
    // under `~/.claude` it asked for, and 5 `cd ~/.claude/voice-server && … > logs/…` lines
    // whose redirection the old regex could not place.
    assert_eq!(by_rule("agent-folder-write-needs-approval"), 95);
    // hooklog-1.jsonl:360 (a line that does not parse, denied by balanced) names no home
    // folder: the strict path rules no longer count it as unsure (issue 12). Issue 14: the
    // unsure gemini-1.json:93, 99, 106 ask once as `seamguard:unsure`, not by this rule: 5.
    assert_eq!(by_rule("home-dotfile-access-needs-approval"), 5);
    // Issue 14: 4 fewer, the undecidable lines above (now `seamguard:unsure` asks).
    assert_eq!(by_rule("push-to-protected-branch-needs-approval"), 39);
    assert_eq!(by_rule("package-install-needs-approval"), 20);
}

pub(crate) const CLAUDE: &str = r#"{"type":"file-history-snapshot","messageId":"m0","snapshot":{},"isSnapshotUpdate":false}
{"parentUuid":null,"cwd":"/w","sessionId":"s1","version":"2.0.57","type":"user","message":{"role":"user","content":"remove the build folder"},"uuid":"u1","timestamp":"t"}
{"parentUuid":"u1","cwd":"/w","sessionId":"s1","type":"assistant","message":{"role":"assistant","content":[{"type":"thinking","thinking":"x"},{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"rm -rf build"}},{"type":"tool_use","id":"toolu_2","name":"Read","input":{"file_path":"/w/.env"}}]},"uuid":"a1","timestamp":"t"}
{"parentUuid":"a1","cwd":"/w","sessionId":"s1","type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"","is_error":false}]},"toolUseResult":{"stdout":"","stderr":"","interrupted":false,"isImage":false},"uuid":"u2","timestamp":"t"}
{"parentUuid":"u2","cwd":"/w","sessionId":"s1","type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_2","content":"denied","is_error":true}]},"uuid":"u3","timestamp":"t"}
{"parentUuid":"u3","cwd":"/w","sessionId":"s1","type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Done."}]},"uuid":"a2","timestamp":"t"}
{"parentUuid":"a2","cwd":"/w","sessionId":"s1","type":"user","message":{"role":"user","content":"<command-name>/clear</command-name>"},"uuid":"u4","timestamp":"t"}
{"parentUuid":"u4","cwd":"/w","sessionId":"s1","type":"user","isMeta":true,"message":{"role":"user","content":"Caveat: injected"},"uuid":"u5","timestamp":"t"}
{"parentUuid":"u5","cwd":"/w","sessionId":"s1","type":"user","message":{"role":"user","content":[{"type":"text","text":"thanks"}]},"uuid":"u6","timestamp":"t"}
{"parentUuid":"u6","cwd":"/w","sessionId":"s1","type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"You're welcome."}]},"uuid":"a3","timestamp":"t"}
"#;

#[test]
fn claude_transcript_becomes_hook_events() {
    let (ev, pr) = read_str(CLAUDE);
    assert!(pr.is_empty(), "{pr:?}");
    let got: Vec<(usize, &str)> = ev
        .iter()
        .map(|e| {
            (
                e.line,
                e.payload["hook_event_name"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (2, "SessionStart"),
            (2, "UserPromptSubmit"),
            (3, "PreToolUse"),
            (3, "PreToolUse"),
            (4, "PostToolUse"),
            (5, "PostToolUseFailure"),
            (6, "Stop"),
            (9, "UserPromptSubmit"),
            (10, "Stop"),
        ]
    );
    let pre = &ev[2].payload;
    assert_eq!(pre["tool_name"], "Bash");
    assert_eq!(pre["tool_input"]["command"], "rm -rf build");
    assert_eq!(pre["tool_use_id"], "toolu_1");
    assert_eq!(pre["cwd"], "/w");
    assert_eq!(pre["session_id"], "s1");
    assert_eq!(pre["transcript_path"], "mem.jsonl");
    assert_eq!(ev[4].payload["tool_response"]["interrupted"], false);
    assert_eq!(ev[5].payload["error"], "denied");
    assert_eq!(ev[6].payload["last_assistant_message"], "Done.");
    assert!(ev.iter().all(|e| e.dialect == Dialect::ClaudeCode));
    assert!(
        ev.iter()
            .all(|e| Dialect::detect(&e.payload) == Dialect::ClaudeCode)
    );
}

const CODEX: &str = r#"{"timestamp":"t","type":"session_meta","payload":{"id":"th1","cwd":"/w","originator":"codex_cli_rs","cli_version":"0.46.0"}}
{"timestamp":"t","type":"event_msg","payload":{"type":"user_message","message":"clean up","images":[]}}
{"timestamp":"t","type":"turn_context","payload":{"cwd":"/w","approval_policy":"on-request","model":"gpt-5-codex"}}
{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"bash\",\"-lc\",\"rm -rf /tmp/x && ls\"],\"workdir\":\"/w\"}","call_id":"c1"}}
{"timestamp":"t","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"{\"output\":\"\",\"metadata\":{\"exit_code\":0}}"}}
{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"rg\",\"-n\",\"foo bar\"]}","call_id":"c2"}}
{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"shell_command","arguments":"{\"command\":\"git push --force\"}","call_id":"c3"}}
{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"cargo test\",\"yield_time_ms\":1000}","call_id":"c4"}}
{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"write_stdin","arguments":"{\"session_id\":1,\"chars\":\"y\\n\"}","call_id":"c5"}}
{"timestamp":"t","type":"response_item","payload":{"type":"local_shell_call","call_id":"c6","status":"completed","action":{"type":"exec","command":["sudo","rm","-rf","/"]}}}
{"timestamp":"t","type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch","call_id":"c7","input":"*** Begin Patch\n*** Delete File: a.txt\n*** End Patch"}}
{"timestamp":"t","type":"response_item","payload":{"type":"custom_tool_call_output","call_id":"c7","output":"ok"}}
{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"update_plan","arguments":"{\"plan\":[]}","call_id":"c8"}}
{"timestamp":"t","type":"event_msg","payload":{"type":"agent_message","message":"All done."}}
{"timestamp":"t","type":"event_msg","payload":{"type":"user_message","message":"thanks","images":[]}}
{"timestamp":"t","type":"event_msg","payload":{"type":"task_complete","turn_id":"T9","last_agent_message":"bye"}}
"#;

#[test]
fn codex_rollout_shell_versions_become_codex_payloads() {
    let (ev, pr) = read_str(CODEX);
    assert!(pr.is_empty(), "{pr:?}");
    let pre: Vec<(&str, String)> = ev
        .iter()
        .filter(|e| e.seam == Seam::PreTool)
        .map(|e| {
            (
                e.payload["tool_name"].as_str().unwrap_or_default(),
                e.payload["tool_input"]["command"]
                    .as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| e.payload["tool_input"].to_string()),
            )
        })
        .collect();
    assert_eq!(
        pre,
        [
            ("Bash", "rm -rf /tmp/x && ls".to_string()),
            ("Bash", "rg -n 'foo bar'".to_string()),
            ("Bash", "git push --force".to_string()),
            ("Bash", "cargo test".to_string()),
            // Typed into the running session: judged by the shell lens in replay.
            (
                "write_stdin",
                "{\"session_id\":1,\"chars\":\"y\\n\"}".to_string()
            ),
            ("Bash", "sudo rm -rf /".to_string()),
            (
                "apply_patch",
                "*** Begin Patch\n*** Delete File: a.txt\n*** End Patch".to_string()
            ),
            ("update_plan", "{\"plan\":[]}".to_string()),
        ]
    );
    for e in &ev {
        assert_eq!(e.dialect, Dialect::Codex);
        assert!(HookEvent::from_value(&e.payload).is_ok(), "{:?}", e.payload);
        if e.seam != Seam::SessionStart {
            assert_eq!(Dialect::detect(&e.payload), Dialect::Codex);
        }
    }
    // The prompt waits for its turn context, so it carries the model.
    let prompt = ev.iter().find(|e| e.seam == Seam::PromptSubmit);
    assert!(prompt.is_some_and(|p| p.line == 2 && p.payload["model"] == "gpt-5-codex"));
    assert!(prompt.is_some_and(|p| p.payload["turn_id"] == "turn-1"));
    let post: Vec<usize> = ev
        .iter()
        .filter(|e| e.seam == Seam::PostTool)
        .map(|e| e.line)
        .collect();
    assert_eq!(post, [5, 12]);
    // Stop: the last agent message of an old-style turn, then task_complete.
    let stops: Vec<(usize, String)> = ev
        .iter()
        .filter(|e| e.seam == Seam::Stop)
        .map(|e| (e.line, e.payload["turn_id"].to_string()))
        .collect();
    assert_eq!(stops, [(14, "\"turn-1\"".into()), (16, "\"T9\"".into())]);
}

#[test]
fn argv_joins_like_a_shell() {
    let cases: [(&[&str], &str); 7] = [
        (&["bash", "-lc", "echo 'a b'"], "echo 'a b'"),
        (
            &["powershell.exe", "-Command", "Get-ChildItem"],
            "powershell.exe -Command Get-ChildItem",
        ),
        (&["echo", "$HOME"], "echo '$HOME'"),
        (&["bash", "-lc", "ls -la | head"], "ls -la | head"),
        (&["/bin/zsh", "-c", "echo hi"], "echo hi"),
        (
            &["rg", "-n", "foo bar", "it's"],
            "rg -n 'foo bar' 'it'\"'\"'s'",
        ),
        (&["echo", ""], "echo ''"),
    ];
    for (argv, want) in cases {
        let argv: Vec<String> = argv.iter().map(|s| s.to_string()).collect();
        assert_eq!(argv_to_command(&argv), want, "{argv:?}");
    }
}

#[test]
fn explain_traces_every_rule_of_the_seam() {
    let engine = engine(&["policies"]);
    let (ev, _) = read_all(&root().join("data/recorded/hooklog-3.jsonl"));
    let e = ev.iter().find(|e| e.line == 495);
    let Some(e) = e else {
        panic!("hooklog-3.jsonl:495 not read");
    };
    let x = explain(&engine, &Request::new(e.seam, &e.payload, e.dialect));
    assert_eq!(x.rules.len(), engine.table().seam_len(Seam::PreTool));
    assert_eq!(x.outcome.verdict().name(), "ask");
    for r in &x.rules {
        assert_eq!(r.fired, r.engine_fired, "{}", r.id);
    }
    let r = x
        .rules
        .iter()
        .find(|r| r.id == "remote-branch-delete-needs-approval");
    let Some(r) = r else {
        panic!("rule missing");
    };
    assert!(r.fired && r.matcher_matched);
    let when = r.when.as_ref().expect("a when");
    assert_eq!(when.held, Held::Yes);
    assert!(when.counted);
    // The leaf that held is a `runs` effect test (the rule judges every route).
    fn leaves(
        t: &seamguard_engine::explain::PredTrace,
    ) -> Vec<&seamguard_engine::explain::PredTrace> {
        if t.children.is_empty() {
            vec![t]
        } else {
            t.children.iter().flat_map(leaves).collect()
        }
    }
    assert!(leaves(when).iter().any(|l| {
        l.held == Held::Yes
            && l.field.as_deref() == Some("runs")
            && l.label == "runs push_delete = true"
    }));
    // The reason names the command the effect test held on.
    assert!(
        x.outcome
            .reason_text()
            .contains("git push origin --delete feature/issue-363-phase2-universal-tools"),
        "{}",
        x.outcome.reason_text()
    );
    // Rules that do not fire are reported too. `secret-files-are-off-limits` names no tool
    // (it tests the effects of every tool), so its matcher matches a Bash call.
    let secret = x
        .rules
        .iter()
        .find(|r| r.id == "secret-files-are-off-limits");
    assert!(secret.is_some_and(|r| r.matcher_matched && !r.fired));
    // Both dialects encoded; Codex has no ask, so it gets a deny.
    let cc = &x.encoded[0].2.stdout;
    let cx = &x.encoded[1].2.stdout;
    assert!(cc.contains("\"permissionDecision\":\"ask\""), "{cc}");
    assert!(
        cx.contains("\"permissionDecision\":\"deny\"") && cx.contains("Approval required"),
        "{cx}"
    );
}

/// Every file of the team's shared recorded data replays without an unreadable record.
#[test]
fn every_shared_recorded_file_replays_without_error() {
    let dir = root().join("../shared/data/recorded");
    if !dir.is_dir() {
        println!(
            "skipped: {} is absent (CI clones only the repository)",
            dir.display()
        );
        return;
    }
    let engine = engine(&["policies"]);
    let files = collect_files(&[dir]);
    assert!(files.len() >= 19, "{files:?}");
    let mut total = 0;
    for f in &files {
        let (events, problems) = read_all(f);
        let errors: Vec<&ReadProblem> = problems
            .iter()
            .filter(|p| p.kind == ProblemKind::Unreadable)
            .collect();
        assert!(errors.is_empty(), "{}: {errors:#?}", f.display());
        assert!(!events.is_empty(), "{}", f.display());
        for e in &events {
            assert!(
                HookEvent::from_value(&e.payload).is_ok(),
                "{}",
                e.location()
            );
            let _ = engine.evaluate(e.seam, &e.payload, e.dialect);
        }
        total += events.len();
    }
    println!("{total} events from {} shared recorded files", files.len());
}
