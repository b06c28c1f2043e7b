//! Every key of the policy format, for the book's generated reference ("Policy keys").
//!
//! In: the key lists the loader itself checks files against (`[policy]`, `[[rule]]`,
//! `[[guard]]`, the field tests, each effect test, `rewrite`, `redact`, `run`, `[[test]]`),
//! the field names of [`FIELD_ALIASES`], the effect keys of [`EffectKind::KEYS`] and, for an
//! action key, the seams that may take it ([`Seam::allows`]). Out: [`Table`]s of
//! [`Key`]s, each with its type, default, seams and an example, in the loader's order.
//!
//! The set of keys and their seams come from the loader, so a key added there without a
//! description here makes [`tables`] fail, and so does a description of a key the loader
//! does not know: the reference cannot drift from what loads. The examples are loaded by
//! this module's tests (at every seam listed, and refused at one that is not).
//!
//! # Example
//!
//! ```
//! use seamguard_policy::lower::keys::tables;
//!
//! let tables = tables().expect("every key is described");
//! let rule = tables.iter().find(|t| t.name == "[[rule]]").expect("the rule table");
//! let context = rule.keys.iter().find(|k| k.key == "context").expect("context");
//! assert_eq!(context.seams, ["session-start", "prompt-submit", "pre-tool", "post-tool",
//!     "post-tool-failure", "subagent-start"]);
//! ```

use super::action::{REDACT_KEYS, REWRITE_KEYS, RUN_ACTION_KEYS, action_of};
use super::effect::keys_of;
use super::example::EXAMPLE_KEYS;
use super::meta::POLICY_KEYS;
use super::rule::{GUARD_KEYS, RULE_KEYS};
use super::shell_test::TEST_KEYS;
use crate::model::{EffectKind, FIELD_ALIASES};
use crate::seam::{MatcherSubject, Seam};

/// One key of a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key {
    /// The key as written.
    pub key: &'static str,
    /// What its value is.
    pub kind: &'static str,
    /// What holds when it is absent (`required` when it must be given).
    pub default: &'static str,
    /// The seams where it may be written (empty: not tied to a seam).
    pub seams: Vec<&'static str>,
    /// An example, one TOML line per line.
    pub example: &'static str,
    /// What it does.
    pub meaning: &'static str,
}

/// One table of the format and its keys, in the loader's order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// How the table is written (`[[rule]]`, `when.sends`).
    pub name: String,
    /// What the table is.
    pub about: String,
    /// Its keys.
    pub keys: Vec<Key>,
}

/// A description: table, key, type, default, example, meaning.
type Doc = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
);

/// The descriptions, by table (`policy`, `rule`, `field-test`, `effect`, `rewrite`, `redact`,
/// `run`, `test`) and key.
#[rustfmt::skip]
const DOCS: &[Doc] = &[
    // [policy]
    ("policy", "name", "string", "the file's name without `.toml`", r#"name = "team""#, "The policy's name in reports."),
    ("policy", "description", "string", "none", r#"description = "What our team asks about""#, "What the policy is for, shown in the reference and `status`."),
    ("policy", "on_load_error", "`\"deny\"` or `\"warn\"`", "`\"deny\"` in the hook (a file with errors denies tool calls)", r#"on_load_error = "warn""#, "What a file with errors does: `deny` fails closed (tool calls and permission requests denied while it is broken); `warn` skips its broken rules and keeps the rest."),
    ("policy", "matcher_mode", "`\"claude-code\"` or `\"codex\"`", "`\"claude-code\"`", r#"matcher_mode = "codex""#, "Whose matcher rules `tool = \"…\"` strings follow."),
    ("policy", "codex_ask", "`\"deny\"` or `\"ignore\"`", "`\"deny\"`", r#"codex_ask = "ignore""#, "How an `ask` is answered to Codex, which has no ask: deny with a reason saying approval is required, or say nothing and let Codex's approval mode decide."),
    ("policy", "on_unsure", "`\"ask\"`, `\"deny\"` or `\"ignore\"`", "`\"ask\"`", r#"on_unsure = "deny""#, "What the policy's rules do with a call they cannot check (a line that does not parse, a command word from an unresolved variable, a computed path)."),
    ("policy", "mode", "`\"enforce\"` or `\"observe\"`", "`\"enforce\"`", r#"mode = "observe""#, "`observe`: the rules are evaluated and what they would decide is recorded in the audit log, but they decide nothing."),
    // [[rule]]
    ("rule", "id", "string", "required", r#"id = "no-force-push""#, "The rule's id, unique in its file; reasons end in `[id]`."),
    ("rule", "seam", "a seam name", "required (`[[guard]]`: `\"pre-tool\"`, the only seam a guard takes)", r#"seam = "pre-tool""#, "The lifecycle point the rule runs at."),
    ("rule", "tool", "string: an exact name, `A|B`, or a regex", "every tool (or source, agent type, …)", r#"tool = "Bash""#, "The matcher: which tool calls (on other seams: which source, agent type or notification) the rule applies to, in the host's matcher rules."),
    ("rule", "matcher", "string, as `tool`", "every subject", r#"matcher = "startup|resume""#, "The same setting as `tool`, named as the hosts name it on seams whose subject is not a tool."),
    ("rule", "description", "string", "none", r#"description = "Why this rule exists""#, "Notes for readers of the policy; not shown to the agent."),
    ("rule", "when", "condition table", "always", r#"when.command = { program = "git", subcommand = "push" }"#, "The rule fires when this holds (see the condition keys below)."),
    ("rule", "unless", "condition table", "never", r#"unless.command = { contains = "--dry-run" }"#, "An exception: the rule does not fire when this holds."),
    ("rule", "reason", "string, not empty", "a sentence naming the rule", r#"reason = "Force pushes are not allowed""#, "What the user and the agent are told; ends in `[id]`."),
    ("rule", "decision", "a decision the seam takes", "none (the rule decides nothing)", r#"decision = "deny""#, "The verdict."),
    ("rule", "context", "string", "none", r#"context = "This repository deploys from main: open a pull request instead.""#, "Text added to the model's context."),
    ("rule", "rewrite", "table: `{ regex, replace }`, `{ prepend }` or `{ append }`", "none", r#"rewrite = { append = "Answer in English." }"#, "Rewrites the prompt."),
    ("rule", "redact", "table or array of tables `{ regex, replace }`", "none", r#"redact = { regex = 'ghp_[A-Za-z0-9]{36}' }"#, "Replaces matches in the tool's output before the model sees it."),
    ("rule", "feedback", "string", "none", r#"feedback = "The build failed: read the error before retrying.""#, "Feedback to the model about the tool's result."),
    ("rule", "continue_with", "string, not empty", "none", r#"continue_with = "Run the tests before stopping.""#, "Keeps the agent going with this instruction instead of stopping."),
    ("rule", "max_continuations", "integer 1..=1000 (with `continue_with`)", "`1`", "continue_with = \"Run the tests before stopping.\"\nmax_continuations = 2", "How many times per turn `continue_with` applies."),
    ("rule", "halt", "string", "none", r#"halt = "Stopped by policy""#, "Ends the agent's run with this reason."),
    ("rule", "run", "table `{ command, timeout, on_error, env, async }`", "none", r#"run = { command = "./scripts/check.sh", timeout = "30s" }"#, "Runs a command hook; its answer takes part in the decision (see the `run` keys below)."),
    ("rule", "suppress_prompt", "boolean (with `decision = \"block\"`)", "`false`", "decision = \"block\"\nsuppress_prompt = true", "Blocks without showing the prompt to the model."),
    ("rule", "observe", "boolean", "`false`", "decision = \"deny\"\nobserve = true", "The rule is evaluated and recorded, but decides nothing."),
    // Field tests: `when.FIELD = { … }`.
    ("field-test", "equals", "string or array of strings", "", r#"equals = "git status""#, "The field is exactly one of these."),
    ("field-test", "regex", "regex or array of regexes", "", r#"regex = 'git\s+push'"#, "A regex matches somewhere in the field."),
    ("field-test", "glob", "glob or array of globs", "", r#"glob = "**/.env""#, "The field matches a glob (paths)."),
    ("field-test", "contains", "string or array of strings", "", r#"contains = "rm -rf""#, "The field contains one of these."),
    ("field-test", "prefix", "string or array of strings", "", r#"prefix = "npm ""#, "The field starts with one of these."),
    ("field-test", "program", "string", "", r#"program = "git""#, "Shell-aware: a simple command of the line runs this program (wrappers such as `sudo`, `env`, `xargs` seen through)."),
    ("field-test", "program_any", "array of strings", "", r#"program_any = ["curl", "wget"]"#, "Shell-aware: a simple command runs one of these programs."),
    ("field-test", "subcommand", "string or array of strings", "", "program = \"git\"\nsubcommand = \"push\"", "Shell-aware: with `program`, its subcommand (global options skipped)."),
    ("field-test", "flags_any", "array of strings", "", r#"flags_any = ["--force", "-f"]"#, "Shell-aware: the command has one of these flags (bundles such as `-rf` split)."),
    ("field-test", "flags_all", "array of strings", "", r#"flags_all = ["-r", "-f"]"#, "Shell-aware: the command has all of these flags."),
    ("field-test", "flags_none", "array of strings", "", r#"flags_none = ["--dry-run"]"#, "Shell-aware: the command has none of these flags."),
    ("field-test", "args_any", "array of globs", "", r#"args_any = ["main", "master"]"#, "Shell-aware: an argument matches one of these."),
    ("field-test", "path_inside", "path spec or array (`project`, `home`, `seamguard`, a glob, `@list`)", "", r#"path_inside = ["~/.ssh/**"]"#, "Shell-aware: a path argument lies inside one of these."),
    ("field-test", "path_outside", "path spec or array", "", r#"path_outside = "project""#, "Shell-aware: a path argument lies outside all of these."),
    ("field-test", "push_force", "`true`", "", "push_force = true", "Shell-aware: a `git push` that forces (`--force`, `-f`, `+refspec`, `--force-with-lease`)."),
    ("field-test", "push_force_unleased", "`true`", "", "push_force_unleased = true", "Shell-aware: a force push without a lease."),
    ("field-test", "push_delete", "`true`", "", "push_delete = true", "Shell-aware: a `git push` that deletes a remote branch."),
    ("field-test", "push_to", "array of globs", "", r#"push_to = ["main", "release/*"]"#, "Shell-aware: a `git push` to one of these branches."),
    // Effect tests: `when.EFFECT = { … }`.
    ("effect", "path_inside", "path spec or array (`project`, `home`, `seamguard`, a glob, `@list`)", "", r#"path_inside = "@secret_paths""#, "The effect's path lies inside one of these (matched case-insensitively)."),
    ("effect", "path_outside", "path spec or array", "", r#"path_outside = "project""#, "The effect's path lies outside all of these."),
    ("effect", "lens", "array of `shell`, `file`, `web`, `mcp`", "every lens", r#"lens = ["shell"]"#, "The route the effect was seen on."),
    ("effect", "via", "array of globs", "any route", r#"via = ["sudo", "doas"]"#, "The wrappers the command came through, by name or whole text."),
    ("effect", "append", "boolean", "either", "append = true", "The write appends."),
    ("effect", "content_regex", "regex or array", "", r#"content_regex = 'AKIA[0-9A-Z]{16}'"#, "The written content matches."),
    ("effect", "recursive", "boolean", "either", "recursive = true", "The delete or permission change applies below the path."),
    ("effect", "moved", "boolean", "either", "moved = false", "Deletes only: the path is moved (`mv`, `rsync --remove-source-files`, an MCP move), its files living on under a new name; `false` keeps only removals."),
    ("effect", "tightens", "boolean", "either", "tightens = false", "Permission changes only: the mode only takes rights away or sets an owner-only mode (`700`, `600`, `go-rwx`, `u=rw,go=`), so no one gains anything; a right added (`u+x`) or an owner change never tightens."),
    ("effect", "mode", "array of globs", "", r#"mode = ["777", "a+w"]"#, "The mode or owner set."),
    ("effect", "host_in", "array of hosts, `*.domain`, IPs, CIDR blocks or `@list`", "", r#"host_in = ["pastebin.com"]"#, "The request goes to one of these hosts (a domain covers its subdomains)."),
    ("effect", "host_not_in", "array, as `host_in`", "", r#"host_not_in = "@allowed_hosts""#, "The request goes to none of these hosts."),
    ("effect", "ip_class", "array of `loopback`, `private`, `link-local`, `metadata`, `public`", "", r#"ip_class = ["metadata"]"#, "The request goes to an address of this class."),
    ("effect", "scheme", "array of strings", "", r#"scheme = ["http"]"#, "The URL's scheme."),
    ("effect", "method", "array of strings", "", r#"method = ["POST", "PUT"]"#, "The request method."),
    ("effect", "body", "array of `file`, `env`, `stdin`, `literal`", "", r#"body = ["file"]"#, "What the request body is made of."),
    ("effect", "body_from", "path spec or array", "", r#"body_from = "@secret_paths""#, "The body is read from one of these paths."),
    ("effect", "body_from_env", "array of variable-name globs", "", r#"body_from_env = ["*TOKEN*"]"#, "The request sends one of these variables."),
    ("effect", "credential_in_url", "`true`", "", "credential_in_url = true", "The URL carries a credential."),
    ("effect", "runs_response", "`true`", "", "runs_response = true", "What comes back is piped into a shell or interpreter."),
    ("effect", "earlier_read_inside", "path spec or array", "", r#"earlier_read_inside = "@secret_paths""#, "The session read such a path in an earlier call (taint)."),
    ("effect", "earlier_read_outside", "path spec or array", "", r#"earlier_read_outside = "project""#, "The session read a path outside these in an earlier call."),
    ("effect", "earlier_fetch", "`true`", "", "earlier_fetch = true", "The session took in a web page or another network reply through a hook tool (WebFetch, MCP) in an earlier call (taint)."),
    ("effect", "target", "array of globs", "", r#"target = ["1", "init"]"#, "The process, process name or service signalled."),
    ("effect", "by_pattern", "boolean", "`false`", "by_pattern = true", "Signals only: a computed target (`kill $(pgrep -f x)`, `xargs kill`) is judged by the patterns that chose it."),
    ("effect", "manager", "array of strings", "", r#"manager = ["pip", "npm"]"#, "The package manager."),
    ("effect", "source_not_in", "array of registries or `@list`", "", r#"source_not_in = "@package_registries""#, "The packages come from none of these registries."),
    ("effect", "near_name", "array of package names or `@list`", "", r#"near_name = ["requests", "numpy"]"#, "A package named one edit from one of these and none of them."),
    ("effect", "cli", "array of globs", "", r#"cli = ["aws"]"#, "The CLI that destroys."),
    ("effect", "service", "array of globs", "", r#"service = ["ec2"]"#, "The service or resource group."),
    ("effect", "operation", "array of globs", "", r#"operation = ["terminate-*"]"#, "The operation."),
    ("effect", "change", "array of `blanket-allow`, `bypass-approval`, `guard-removed`", "", r#"change = ["guard-removed"]"#, "What the write to an agent's settings changes."),
    ("effect", "agent", "array of agent names", "", r#"agent = ["claude-code"]"#, "Whose settings are written."),
    ("effect", "grant", "array of grant kinds (`privileged-shell`, `host-mount`, …)", "", r#"grant = ["privileged-shell"]"#, "The privilege or capability the call gives."),
    // `rewrite = { … }`
    ("rewrite", "regex", "regex (with `replace`)", "", "rewrite = { regex = 'please', replace = '' }", "What to replace in the prompt."),
    ("rewrite", "replace", "string (with `regex`)", "", "rewrite = { regex = 'TODO', replace = 'task' }", "The replacement (`$1` names a group)."),
    ("rewrite", "prepend", "string", "", r#"rewrite = { prepend = "Be brief. " }"#, "Text put before the prompt."),
    ("rewrite", "append", "string", "", r#"rewrite = { append = " Be brief." }"#, "Text put after the prompt."),
    // `redact = { … }`
    ("redact", "regex", "regex", "required", r#"redact = { regex = 'AKIA[0-9A-Z]{16}' }"#, "What to hide in the tool's output."),
    ("redact", "replace", "string", "`\"[REDACTED]\"`", r#"redact = { regex = 'AKIA[0-9A-Z]{16}', replace = "[key]" }"#, "What it is replaced by."),
    // `run = { … }`
    ("run", "command", "string", "required", r#"run = { command = "./hooks/check.sh" }"#, "The command hook, run with the payload on standard input."),
    ("run", "timeout", "duration (`\"30s\"`, `\"500ms\"`, `\"2m\"`) or seconds", "600 s (prompt-submit: 30 s)", r#"run = { command = "./hooks/check.sh", timeout = "10s" }"#, "How long it may run."),
    ("run", "on_error", "`\"ignore\"` or `\"deny\"`", "`\"ignore\"`", r#"run = { command = "./hooks/check.sh", on_error = "deny" }"#, "What a crash or timeout does."),
    ("run", "env", "table of strings", "none", r#"run = { command = "./hooks/check.sh", env = { MODE = "ci" } }"#, "Environment variables for the command."),
    ("run", "async", "boolean", "`false`", r#"run = { command = "./hooks/notify.sh", async = true }"#, "Run it in the background: it decides nothing."),
    // [[test]]
    ("test", "name", "string", "`test #N`", r#"name = "benign: a normal push""#, "The example's name in reports."),
    ("test", "event", "table: a whole payload (`seam` becomes `hook_event_name`)", "", r#"event = { seam = "pre-tool", tool_name = "Bash", tool_input = { command = "ls" } }"#, "The event judged."),
    ("test", "expect", "a verdict or `none`", "required", r#"expect = "deny""#, "The merged verdict the example must get."),
    ("test", "reason_contains", "string", "none", r#"reason_contains = "force""#, "A substring of the merged reason."),
    ("test", "rules", "array of rule ids", "none", r#"rules = ["no-force-push"]"#, "Rules that must fire."),
    ("test", "not_rules", "array of rule ids", "none", r#"not_rules = ["no-force-push"]"#, "Rules that must not fire."),
    ("test", "earlier", "array of shorthand calls", "none", r#"earlier = [{ command = "cat .env" }]"#, "Calls made earlier in the session (session memory)."),
    ("test", "dialect", "a host name", "detected from the payload", r#"dialect = "codex""#, "The host the event is read in."),
    ("test", "home", "absolute path", "`/home/user`", r#"home = "/home/dev""#, "The home folder of the example's event."),
    ("test", "project", "absolute path", "`<home>/project`", r#"project = "/home/user/work""#, "The project folder (`cwd`) of the example's event."),
    ("test", "command", "string", "", r#"command = "git push --force origin main""#, "Shorthand: a `Bash` call at pre-tool."),
    ("test", "file_path", "string", "", r#"file_path = "~/.ssh/id_rsa""#, "Shorthand: a file tool call (`Read` unless `tool` says)."),
    ("test", "tool", "string (with `file_path`)", "`Read`", "file_path = \"a.txt\"\ntool = \"Write\"", "The file tool of a `file_path` shorthand."),
    ("test", "content", "string (with `file_path`)", "none", "file_path = \"a.txt\"\ntool = \"Write\"\ncontent = \"hello\"", "The content written by a `file_path` shorthand."),
    ("test", "url", "string", "", r#"url = "https://example.com/""#, "Shorthand: a `WebFetch` call."),
    ("test", "mcp", "table `{ tool, arguments }`", "", r#"mcp = { tool = "mcp__fs__read_file", arguments = { path = "/etc/shadow" } }"#, "Shorthand: an MCP tool call."),
];

/// The description of `key` in `table`.
fn doc(table: &str, key: &str) -> Option<&'static Doc> {
    DOCS.iter().find(|d| d.0 == table && d.1 == key)
}

/// The seams a `[[rule]]` key may be written at.
fn rule_seams(key: &str) -> Vec<&'static str> {
    let allowed: Vec<Seam> = match (action_of(key), key) {
        // Only with `decision = "block"`.
        (Some(a), "suppress_prompt") => Seam::ALL
            .iter()
            .copied()
            .filter(|s| s.allows(a) && s.decision_values().contains(&"block"))
            .collect(),
        (Some(a), _) => Seam::ALL.iter().copied().filter(|s| s.allows(a)).collect(),
        (None, "tool" | "matcher") => Seam::ALL
            .iter()
            .copied()
            .filter(|s| s.matcher_subject() != MatcherSubject::None)
            .collect(),
        (None, _) => return Vec::new(),
    };
    allowed.into_iter().map(Seam::name).collect()
}

/// The keys the loader accepts in `table`, described; every key not described is an error.
fn described(
    table: &'static str,
    keys: &[&'static str],
    seams: impl Fn(&str) -> Vec<&'static str>,
    missing: &mut Vec<String>,
) -> Vec<Key> {
    keys.iter()
        .filter_map(|k| match doc(table, k) {
            Some(d) => Some(Key {
                key: d.1,
                kind: d.2,
                default: d.3,
                seams: seams(k),
                example: d.4,
                meaning: d.5,
            }),
            None => {
                missing.push(format!("`{k}` of {table} has no description"));
                None
            }
        })
        .collect()
}

/// The effect keys, each once, in the order the effect tests list them.
fn effect_keys() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for (_, kind) in EffectKind::KEYS {
        for k in keys_of(*kind) {
            let shell_key = *kind == EffectKind::Run && TEST_KEYS.contains(k);
            if !out.contains(k) && !shell_key {
                out.push(k);
            }
        }
    }
    out
}

/// Every table of the format with its keys, in the loader's order.
///
/// # Errors
/// The keys the loader accepts that have no description here, and the descriptions of
/// keys it does not accept, one message each.
pub fn tables() -> Result<Vec<Table>, Vec<String>> {
    let mut missing = Vec::new();
    let none = |_: &str| Vec::new();
    let guard_only: Vec<String> = GUARD_KEYS.iter().map(|k| format!("`{k}`")).collect();
    let fields: Vec<String> = FIELD_ALIASES
        .iter()
        .map(|(n, ptrs)| {
            let ptrs: Vec<String> = ptrs.iter().map(|p| format!("`{p}`")).collect();
            format!("`{n}` ({})", ptrs.join(", "))
        })
        .collect();
    let effects: Vec<String> = EffectKind::KEYS
        .iter()
        .map(|(k, kind)| {
            let keys: Vec<String> = keys_of(*kind).iter().map(|k| format!("`{k}`")).collect();
            format!("`{k}`: {}", keys.join(", "))
        })
        .collect();
    let out = vec![
        Table {
            name: "[policy]".into(),
            about: "The file's settings; every key is optional.".into(),
            keys: described("policy", POLICY_KEYS, none, &mut missing),
        },
        Table {
            name: "[[rule]]".into(),
            about: format!(
                "A rule. The decisions each seam takes: {}. A `[[guard]]` takes only {} (it denies, with `reason`, or abstains, at `pre-tool`).",
                Seam::ALL
                    .iter()
                    .map(|s| {
                        let values: Vec<String> =
                            s.decision_values().iter().map(|v| format!("`{v}`")).collect();
                        if values.is_empty() {
                            format!("`{}`: none", s.name())
                        } else {
                            format!("`{}`: {}", s.name(), values.join(", "))
                        }
                    })
                    .collect::<Vec<_>>()
                    .join("; "),
                guard_only.join(", ")
            ),
            keys: described("rule", RULE_KEYS, rule_seams, &mut missing),
        },
        Table {
            name: "when.FIELD / unless.FIELD".into(),
            about: format!(
                "A test on a field of the payload: `when.command = {{ contains = \"rm\" }}`. A field is a JSON pointer (`/tool_input/edits/0/new_string`) or a name: {}. Conditions combine with `any = [...]`, `all = [...]` and `not = {{ … }}`; the keys of one table must all hold. The tests, `program` and after on a command line (shell-aware):",
                fields.join(", ")
            ),
            keys: described("field-test", TEST_KEYS, none, &mut missing),
        },
        Table {
            name: "when.EFFECT".into(),
            about: format!(
                "A test on what the call does, whatever tool it came through ([Effects and named lists](../effects.md)): `when.sends = {{ host_not_in = \"@allowed_hosts\" }}`; an empty table is any effect of the kind. The keys each effect takes: {}. `runs` also takes the shell-aware field tests above. The keys:",
                effects.join("; ")
            ),
            keys: described("effect", &effect_keys(), none, &mut missing),
        },
        Table {
            name: "rewrite".into(),
            about: "Exactly one of `{ regex, replace }`, `{ prepend }` or `{ append }`.".into(),
            keys: described("rewrite", REWRITE_KEYS, none, &mut missing),
        },
        Table {
            name: "redact".into(),
            about: "One table or an array of them.".into(),
            keys: described("redact", REDACT_KEYS, none, &mut missing),
        },
        Table {
            name: "run".into(),
            about: "A command hook ([Existing hooks and trust](../existing-hooks.md)).".into(),
            keys: described("run", RUN_ACTION_KEYS, none, &mut missing),
        },
        Table {
            name: "[[test]]".into(),
            about: "An example `seamguard test` runs: one event (`event` or a shorthand) and what must come of it.".into(),
            keys: described("test", EXAMPLE_KEYS, none, &mut missing),
        },
    ];
    // A description of a key the loader does not accept.
    for d in DOCS {
        let known = out.iter().any(|t| {
            t.keys
                .iter()
                .any(|k| k.key == d.1 && k.example == d.4 && k.meaning == d.5)
        });
        if !known {
            missing.push(format!(
                "`{}` of {} is described but the loader does not accept it",
                d.1, d.0
            ));
        }
    }
    if missing.is_empty() {
        Ok(out)
    } else {
        Err(missing)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lower::load_str;
    use crate::model::{Scope, Severity};
    use crate::seam::ActionKind;

    const RULE: &str = "[[rule]]\nid = \"r\"\n";

    fn errors(src: &str) -> Vec<String> {
        let p = load_str(src, "keys.toml", Scope::User, 0);
        p.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| d.to_string())
            .collect()
    }

    /// Every key the loader accepts is described, and every description is of such a key.
    #[test]
    fn every_key_is_described() {
        let t = tables();
        assert!(t.is_ok(), "{:?}", t.err());
    }

    /// Each example loads clean: a rule key at every seam it names (and is refused at a
    /// seam it does not), a field or effect test under `when`, a `[[test]]` key in an
    /// example.
    #[test]
    fn the_examples_load() {
        let Ok(tables) = tables() else {
            panic!("undescribed keys")
        };
        let mut failures = Vec::new();
        let mut check = |src: String, want_ok: bool| {
            let e = errors(&src);
            if e.is_empty() != want_ok {
                failures.push(format!("{src}\n→ {e:?}"));
            }
        };
        for t in &tables {
            for k in &t.keys {
                let ex = k.example;
                match t.name.as_str() {
                    "[policy]" => check(format!("[policy]\n{ex}\n"), true),
                    "[[rule]]" => {
                        let seams: Vec<&str> = if k.seams.is_empty() {
                            vec!["pre-tool"]
                        } else {
                            k.seams.clone()
                        };
                        let action = if action_of(k.key).is_some() || k.key == "observe" {
                            ""
                        } else {
                            "context = \"c\"\n"
                        };
                        let id = if k.key == "id" { "[[rule]]\n" } else { RULE };
                        let seam_line = |s: &str| {
                            if k.key == "seam" {
                                String::new()
                            } else {
                                format!("seam = \"{s}\"\n")
                            }
                        };
                        for s in &seams {
                            // `context` is not taken everywhere: test with `observe`.
                            let action = if Seam::from_name(s)
                                .is_some_and(|x| !x.allows(ActionKind::Context))
                            {
                                action.replace("context = \"c\"", "observe = true")
                            } else {
                                action.to_string()
                            };
                            // A decision the seam takes.
                            let ex = match Seam::from_name(s) {
                                Some(x) if k.key == "decision" => format!(
                                    "decision = \"{}\"",
                                    x.decision_values().first().copied().unwrap_or("")
                                ),
                                _ => ex.to_string(),
                            };
                            check(format!("{id}{}{action}{ex}\n", seam_line(s)), true);
                        }
                        if let Some(other) = Seam::ALL.iter().find(|s| !seams.contains(&s.name()))
                            && !k.seams.is_empty()
                        {
                            check(format!("{RULE}seam = \"{other}\"\n{ex}\n"), false);
                        }
                    }
                    "when.FIELD / unless.FIELD" => check(
                        format!(
                            "{RULE}seam = \"pre-tool\"\ndecision = \"ask\"\n[rule.when.command]\n{ex}\n"
                        ),
                        true,
                    ),
                    "when.EFFECT" => {
                        let (effect, _) = EffectKind::KEYS
                            .iter()
                            .find(|(_, kind)| keys_of(*kind).contains(&k.key))
                            .copied()
                            .unwrap_or(("reads", EffectKind::Read));
                        check(
                            format!(
                                "[lists]\nsecret_paths = [\"**/.env\"]\nallowed_hosts = [\"x\"]\npackage_registries = [\"pypi\"]\n{RULE}seam = \"pre-tool\"\ndecision = \"ask\"\n[rule.when.{effect}]\n{ex}\n"
                            ),
                            true,
                        );
                    }
                    "rewrite" => check(format!("{RULE}seam = \"prompt-submit\"\n{ex}\n"), true),
                    "redact" => check(format!("{RULE}seam = \"post-tool\"\n{ex}\n"), true),
                    "run" => check(format!("{RULE}seam = \"pre-tool\"\n{ex}\n"), true),
                    "[[test]]" => {
                        let event = if [
                            "event",
                            "command",
                            "file_path",
                            "url",
                            "mcp",
                            "tool",
                            "content",
                        ]
                        .contains(&k.key)
                        {
                            ""
                        } else {
                            "command = \"ls\"\n"
                        };
                        let expect = if k.key == "expect" {
                            ""
                        } else {
                            "expect = \"none\"\n"
                        };
                        check(format!("[[test]]\n{event}{expect}{ex}\n"), true);
                    }
                    other => check(format!("no check for table {other}"), true),
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    }
}
