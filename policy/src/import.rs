//! Import existing hook configurations into seamguard policy files (HOOKS.md A1–A3, B1, B4).
//!
//! Reads Claude Code settings files (`settings.json`, `settings.local.json`,
//! `managed-settings.json`), plugin `hooks.json` (Claude Code or Codex), Codex `hooks.json`
//! and the `[hooks]` tables of Codex `config.toml`, and writes an equivalent policy: one
//! `[[rule]]` with a `run` action per command handler, with the source host's matcher mode,
//! timeout and plugin environment. Handler types seamguard does not run (`http`, `prompt`,
//! `agent`, `mcp_tool`), `asyncRewake` handlers, Codex `async` handlers (Codex skips them) and
//! events without a seam are skipped with a warning naming them. A Claude Code `async` handler
//! becomes a detached run (`run = { …, async = true }`): it runs in the background and cannot
//! influence a decision.

use std::path::Path;

use serde_json::Value;

use std::sync::Arc;

use crate::dialect::Dialect;
use crate::lower::default_run_timeout_ms;
use crate::matcher::{Matcher, MatcherMode};
use crate::model::{
    Action, Field, Leaf, LoadedPolicy, OnError, PolicyError, PolicyMeta, Pred, Rule, RuleKind,
    RunSpec, Scope, Severity, Source, Test,
};
use crate::seam::Seam;

/// The result of an import: the hooks found, what was skipped or approximated, and the same
/// hooks as policy text.
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    /// The policy file text (TOML) that `seamguard import` writes; it loads to the same rules
    /// as [`Imported::policy`].
    pub toml: String,
    /// Number of rules written.
    pub rules: usize,
    /// Warnings naming every skipped or approximated handler.
    pub warnings: Vec<String>,
    /// The host the configuration belongs to.
    pub dialect: Dialect,
    /// The command handlers, one rule each.
    pub hooks: Vec<ImportedHook>,
    /// `name` of the policy: `imported-<file stem>`.
    pub name: String,
}

/// One command handler of a hook configuration, as the rule that runs it.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportedHook {
    /// Rule id: `<file stem>-<event>-<group>-<handler>` (1-based).
    pub id: String,
    /// The seam of the handler's event.
    pub seam: Seam,
    /// The group's matcher, when the seam has one and it is not match-all.
    pub matcher: Option<String>,
    /// The handler's `if` permission rule, translated.
    pub condition: Option<Condition>,
    /// The command line (exec-form `args` quoted onto it).
    pub command: String,
    /// `timeout` / `timeoutSec` in seconds; `None`: the seam's default.
    pub timeout_secs: Option<u64>,
    /// Extra environment: the plugin root variables of plugin hooks.
    pub env: Vec<(String, String)>,
    /// `"async": true`: a detached run that cannot influence a decision.
    pub detached: bool,
}

/// A Claude Code `if` permission rule that has a faithful `when` condition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Condition {
    /// `Bash(git commit*)`: the command contains this prefix.
    CommandContains(String),
    /// `Edit(*.ts)`: the file path matches this glob.
    FilePathGlob(String),
}

impl Condition {
    /// The `when` line of the policy text.
    fn toml(&self) -> String {
        match self {
            Condition::CommandContains(p) => format!("when.command = {{ contains = {} }}", q(p)),
            Condition::FilePathGlob(g) => format!("when.file_path = {{ glob = {} }}", q(g)),
        }
    }

    /// The predicate the lowering makes of [`Condition::toml`].
    fn pred(&self) -> Option<Pred> {
        let (field, test) = match self {
            Condition::CommandContains(p) => ("command", Test::Contains(vec![p.clone()].into())),
            Condition::FilePathGlob(g) => ("file_path", Test::Glob(vec![g.clone()].into())),
        };
        Some(Pred::Leaf(Leaf {
            field: Field::parse(field)?,
            test,
        }))
    }
}

/// Why a configuration could not be imported at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ImportError {
    /// Not JSON / TOML.
    #[error("{file}: cannot parse: {message}")]
    Parse {
        /// File.
        file: String,
        /// Parser message.
        message: String,
    },
    /// Parsed, but not a hook configuration.
    #[error("{file}: {message}")]
    Shape {
        /// File.
        file: String,
        /// What is wrong.
        message: String,
    },
}

fn q(s: &str) -> String {
    // A JSON string literal is a valid TOML basic string.
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// Guess the host of a configuration from its path: `.codex/`, `config.toml` or a
/// `.codex-plugin` sibling mean Codex; everything else Claude Code.
pub fn guess_dialect(path: &Path) -> Dialect {
    let s = path.to_string_lossy();
    let plugin_codex = path
        .parent()
        .and_then(Path::parent)
        .is_some_and(|root| root.join(".codex-plugin").exists());
    if s.contains(".codex/") || s.contains(".codex\\") || s.ends_with(".toml") || plugin_codex {
        Dialect::Codex
    } else {
        Dialect::ClaudeCode
    }
}

/// Translate a Claude Code `if` permission rule (`Bash(git commit*)`, `Edit(*.ts)`) into a
/// `when` condition; `None` when it has no faithful translation.
fn translate_if(rule: &str) -> Option<Condition> {
    let open = rule.find('(')?;
    let tool = &rule[..open];
    let pat = rule.get(open + 1..rule.len().checked_sub(1)?)?;
    if !rule.ends_with(')') {
        return None;
    }
    match tool {
        "Bash" => {
            let prefix = pat.trim_end_matches('*').trim_end_matches(':').trim();
            if prefix.contains('*') || prefix.is_empty() {
                return None;
            }
            Some(Condition::CommandContains(prefix.to_string()))
        }
        "Edit" | "Write" | "Read" | "MultiEdit" | "NotebookEdit" => {
            let g = if pat.starts_with('/') || pat.starts_with("**") {
                pat.to_string()
            } else {
                format!("**/{pat}")
            };
            Some(Condition::FilePathGlob(g))
        }
        _ => None,
    }
}

/// Import one configuration file's text.
///
/// `dialect` decides the matcher mode and shell convention of the imported hooks
/// (see [`guess_dialect`]). `plugin_root` is set for plugin `hooks.json` files: it becomes
/// `CLAUDE_PLUGIN_ROOT` (and `PLUGIN_ROOT` for Codex) of every hook.
///
/// # Errors
/// [`ImportError`] when the text is not a hook configuration at all.
pub fn import_config(
    file: &str,
    text: &str,
    dialect: Dialect,
    plugin_root: Option<&str>,
) -> Result<Imported, ImportError> {
    let doc: Value = if file.ends_with(".toml") {
        let t = toml::de::DeTable::parse(text).map_err(|e| ImportError::Parse {
            file: file.into(),
            message: e.message().trim().to_string(),
        })?;
        crate::lower::session::to_json(&toml::de::DeValue::Table(t.into_inner()))
    } else {
        serde_json::from_str(text).map_err(|e| ImportError::Parse {
            file: file.into(),
            message: e.to_string(),
        })?
    };
    let Some(hooks) = doc.get("hooks") else {
        return Ok(Imported {
            toml: format!("# {file}: no hooks\n"),
            rules: 0,
            warnings: vec![format!("{file}: no `hooks` key; nothing to import")],
            dialect,
            hooks: Vec::new(),
            name: "imported-hooks".into(),
        });
    };
    let Value::Object(events) = hooks else {
        return Err(ImportError::Shape {
            file: file.into(),
            message: "`hooks` must be an object of event name → matcher groups".into(),
        });
    };
    let stem = Path::new(file)
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| "hooks".into())
        .replace(|c: char| !c.is_ascii_alphanumeric() && c != '-', "-");
    let name = format!("imported-{stem}");
    let mut hooks = Vec::new();
    let mut warnings = Vec::new();
    if disable_all(&doc) {
        warnings.push(format!(
            "{file}: `disableAllHooks` is true here; the host would run none of these hooks"
        ));
    }
    for (event, groups) in events {
        let Some(seam) = Seam::from_event_name(event) else {
            let mut kinds: Vec<String> = groups
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|g| g.get("hooks").and_then(Value::as_array))
                .flatten()
                .map(|h| {
                    h.get("type")
                        .and_then(Value::as_str)
                        .unwrap_or("command")
                        .to_string()
                })
                .collect();
            let n = kinds.len();
            kinds.sort();
            kinds.dedup();
            warnings.push(format!(
                "{file}: event `{event}` has no seamguard seam; its {n} handler(s) ({}) are skipped",
                kinds.join(", ")
            ));
            continue;
        };
        let Value::Array(groups) = groups else {
            warnings.push(format!("{file}: `hooks.{event}` is not an array; skipped"));
            continue;
        };
        for (gi, group) in groups.iter().enumerate() {
            let matcher = group.get("matcher").and_then(Value::as_str).unwrap_or("");
            if let Some(lint) = crate::matcher::Matcher::permission_rule_lint(matcher) {
                warnings.push(format!("{file}: hooks.{event}[{gi}]: {lint}; imported as written (it never fires, as in the host)"));
            }
            let Some(Value::Array(handlers)) = group.get("hooks") else {
                warnings.push(format!(
                    "{file}: `hooks.{event}[{gi}]` has no `hooks` array; skipped"
                ));
                continue;
            };
            for (hi, h) in handlers.iter().enumerate() {
                let kind = h.get("type").and_then(Value::as_str).unwrap_or("command");
                let where_ = format!("{file}: hooks.{event}[{gi}].hooks[{hi}]");
                if kind != "command" {
                    warnings.push(format!("{where_}: handler type `{kind}` is not run by seamguard (only `command`); skipped"));
                    continue;
                }
                if h.get("asyncRewake").and_then(Value::as_bool) == Some(true) {
                    warnings.push(format!(
                        "{where_}: `asyncRewake` handlers (a background run that wakes the agent) are not run by seamguard; skipped"
                    ));
                    continue;
                }
                let detached = h.get("async").and_then(Value::as_bool) == Some(true);
                if detached && dialect == Dialect::Codex {
                    // Codex parses `async` but skips such hooks (HOOKS.md, Codex handler fields).
                    warnings.push(format!(
                        "{where_}: `async` handlers are skipped by Codex; skipped"
                    ));
                    continue;
                }
                let Some(mut command) =
                    h.get("command").and_then(Value::as_str).map(str::to_string)
                else {
                    warnings.push(format!(
                        "{where_}: command handler without `command`; skipped"
                    ));
                    continue;
                };
                if let Some(Value::Array(args)) = h.get("args") {
                    // Exec form: quote each argument for `sh -c`.
                    for a in args.iter().filter_map(Value::as_str) {
                        command.push(' ');
                        command.push_str(&format!("'{}'", a.replace('\'', "'\\''")));
                    }
                    warnings.push(format!(
                        "{where_}: exec-form `args` run through the shell with each argument quoted"
                    ));
                }
                let timeout = h
                    .get("timeout")
                    .or_else(|| h.get("timeoutSec"))
                    .and_then(Value::as_f64)
                    .map(|t| t.max(0.0) as u64);
                let subject = seam.matcher_subject() != crate::seam::MatcherSubject::None;
                let matcher = if !matcher.is_empty() && matcher != "*" {
                    if !subject {
                        warnings.push(format!(
                            "{where_}: matcher `{matcher}` on {event} is ignored by the host; dropped"
                        ));
                    }
                    subject.then(|| matcher.to_string())
                } else {
                    None
                };
                let condition = h.get("if").and_then(Value::as_str).and_then(|cond| {
                    let c = translate_if(cond);
                    if c.is_none() {
                        warnings.push(format!(
                            "{where_}: condition `if = {cond}` has no translation; the hook runs on every call its matcher selects"
                        ));
                    }
                    c
                });
                let mut env = Vec::new();
                if let Some(root) = plugin_root {
                    env.push(("CLAUDE_PLUGIN_ROOT".to_string(), root.to_string()));
                    if dialect == Dialect::Codex {
                        env.push(("PLUGIN_ROOT".to_string(), root.to_string()));
                    }
                }
                hooks.push(ImportedHook {
                    id: format!("{stem}-{}-{}-{}", event, gi + 1, hi + 1),
                    seam,
                    matcher,
                    condition,
                    command,
                    timeout_secs: timeout,
                    env,
                    detached,
                });
            }
        }
    }
    Ok(Imported {
        toml: policy_text(file, dialect, &name, &hooks),
        rules: hooks.len(),
        warnings,
        dialect,
        hooks,
        name,
    })
}

/// The policy file `seamguard import` writes for these hooks.
fn policy_text(file: &str, dialect: Dialect, name: &str, hooks: &[ImportedHook]) -> String {
    let mut out = format!(
        "# Imported by `seamguard import` from {file} ({} hooks).\n# Each command handler became a rule with a `run` action; see the warnings for what was skipped.\n\n[policy]\nname = {}\nmatcher_mode = {}\n",
        dialect.name(),
        q(name),
        q(dialect.name())
    );
    for h in hooks {
        out.push_str("\n[[rule]]\n");
        out.push_str(&format!("id = {}\n", q(&h.id)));
        out.push_str(&format!("seam = {}\n", q(h.seam.name())));
        if let Some(m) = &h.matcher {
            out.push_str(&format!("matcher = {}\n", q(m)));
        }
        if let Some(c) = &h.condition {
            out.push_str(&format!("{}\n", c.toml()));
        }
        let mut run = format!("run = {{ command = {}", q(&h.command));
        if let Some(t) = h.timeout_secs {
            run.push_str(&format!(", timeout = {}", q(&format!("{t}s"))));
        }
        if !h.env.is_empty() {
            let env: Vec<String> = h
                .env
                .iter()
                .map(|(k, v)| format!("{k} = {}", q(v)))
                .collect();
            run.push_str(&format!(", env = {{ {} }}", env.join(", ")));
        }
        if h.detached {
            run.push_str(", async = true");
        }
        run.push_str(" }\n");
        out.push_str(&run);
    }
    out
}

impl Imported {
    /// The imported hooks as a loaded policy, built directly (no policy text is written or
    /// parsed): one hook rule with a `run` action per handler, matchers classified in the
    /// host's mode. `file` names the configuration in diagnostics and rule sources (each
    /// rule's id says which handler it is); `policy_index` is its place in the decision table.
    ///
    /// A matcher that is an invalid regex is an error diagnostic and its rule is skipped,
    /// as when the policy text is loaded.
    pub fn policy(&self, file: &str, scope: Scope, policy_index: usize) -> LoadedPolicy {
        let file: Arc<str> = Arc::from(file);
        let mut meta = PolicyMeta::defaults(self.name.clone(), file.clone(), scope);
        meta.matcher_mode = match self.dialect {
            Dialect::Codex => MatcherMode::Codex,
            _ => MatcherMode::ClaudeCode,
        };
        let source = Source {
            file: file.clone(),
            line: 1,
            column: 1,
            scope,
        };
        let mut rules = Vec::new();
        let mut diagnostics = Vec::new();
        for h in &self.hooks {
            let matcher = match &h.matcher {
                Some(m) => Matcher::classify(m, meta.matcher_mode),
                None => Matcher::All,
            };
            if let Err(e) = matcher.validate() {
                diagnostics.push(PolicyError {
                    severity: Severity::Error,
                    file: file.clone(),
                    line: 1,
                    column: 1,
                    message: format!(
                        "`{}`: matcher `{}` is a regex and does not compile: {e}",
                        h.id,
                        h.matcher.as_deref().unwrap_or("")
                    ),
                    snippet: None,
                    width: 1,
                    note: None,
                });
                continue;
            }
            let default_timeout = default_run_timeout_ms(h.seam);
            rules.push(Rule {
                id: h.id.clone(),
                kind: RuleKind::Hook,
                seam: h.seam,
                matcher,
                when: h.condition.as_ref().and_then(Condition::pred),
                unless: None,
                action: Action {
                    max_continuations: 1,
                    run: Some(RunSpec {
                        command: h.command.clone(),
                        timeout_ms: h
                            .timeout_secs
                            .map_or(default_timeout, |t| t.saturating_mul(1000)),
                        on_error: OnError::Ignore,
                        env: h.env.clone(),
                        detached: h.detached,
                    }),
                    ..Action::default()
                },
                source: source.clone(),
                policy: policy_index,
            });
        }
        LoadedPolicy {
            meta,
            rules,
            tests: Vec::new(),
            diagnostics,
        }
    }
}

fn disable_all(doc: &Value) -> bool {
    doc.get("disableAllHooks").and_then(Value::as_bool) == Some(true)
}

/// The plugin root of a plugin `hooks.json` (`<root>/hooks/hooks.json`), if it is one.
pub fn plugin_root_of(path: &Path) -> Option<String> {
    let hooks_dir = path.parent()?;
    if hooks_dir.file_name()? != "hooks" || path.file_name()? != "hooks.json" {
        return None;
    }
    let root = hooks_dir.parent()?;
    let is_plugin = root.join(".claude-plugin").exists() || root.join(".codex-plugin").exists();
    is_plugin.then(|| root.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lower::load_str;
    use crate::model::Scope;

    #[test]
    fn claude_settings_import_loads_as_policy() {
        let src = r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"$CLAUDE_PROJECT_DIR/.claude/hooks/guard.sh","timeout":5}]},
            {"matcher":"Edit|Write","hooks":[{"type":"http","url":"http://x"},{"type":"command","command":"fmt \"$1\"","if":"Edit(*.ts)"}]}],
            "Setup":[{"hooks":[{"type":"command","command":"x"}]}]}}"#;
        let imp = import_config(".claude/settings.json", src, Dialect::ClaudeCode, None).unwrap();
        assert_eq!(imp.rules, 2);
        assert!(imp.warnings.iter().any(|w| w.contains("`http`")));
        assert!(imp.warnings.iter().any(|w| w.contains("`Setup`")));
        let p = load_str(&imp.toml, "imported.toml", Scope::User, 0);
        assert!(!p.has_errors(), "{:?}\n{}", p.diagnostics, imp.toml);
        assert_eq!(p.rules.len(), 2);
        assert_eq!(p.rules[0].action.run.as_ref().unwrap().timeout_ms, 5000);
    }

    #[test]
    fn codex_config_toml_imports_with_codex_matchers() {
        let src = "[[hooks.PreToolUse]]\nmatcher = \"Bash|apply_patch\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"guard --protocol codex\"\ntimeout = 15\n";
        let imp = import_config("config.toml", src, Dialect::Codex, None).unwrap();
        assert!(imp.toml.contains("matcher_mode = \"codex\""));
        let p = load_str(&imp.toml, "imported.toml", Scope::User, 0);
        assert!(!p.has_errors(), "{:?}", p.diagnostics);
        assert_eq!(p.rules[0].action.run.as_ref().unwrap().timeout_ms, 15000);
    }

    /// The rules built directly are the rules the written policy text loads to (apart from
    /// where each rule was declared).
    #[test]
    fn direct_rules_equal_the_loaded_policy_text() {
        let configs = [
            (
                ".claude/settings.json",
                Dialect::ClaudeCode,
                None,
                r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"guard.sh","timeout":5}]},
                {"matcher":"Edit|Write","hooks":[{"type":"command","command":"fmt \"$1\"","if":"Edit(*.ts)"},{"type":"command","command":"x","if":"Bash(git commit*)"},{"type":"command","command":"y","args":["a b","c'd"]}]}],
                "UserPromptSubmit":[{"matcher":"ignored","hooks":[{"type":"command","command":"p"}]}],
                "Stop":[{"hooks":[{"type":"command","command":"s","timeoutSec":2.5}]}]}}"#,
            ),
            (
                "plugin/hooks/hooks.json",
                Dialect::Codex,
                Some("/opt/plugin"),
                r#"{"hooks":{"PreToolUse":[{"matcher":"Bash|apply_patch","hooks":[{"type":"command","command":"g"}]},{"matcher":"mcp__.*","hooks":[{"type":"command","command":"m"}]}]}}"#,
            ),
        ];
        for (file, dialect, root, text) in configs {
            let imp = import_config(file, text, dialect, root).unwrap();
            let direct = imp.policy(file, Scope::User, 3);
            let loaded = load_str(&imp.toml, file, Scope::User, 3);
            assert!(
                !loaded.has_errors() && !direct.has_errors(),
                "{:?}",
                loaded.diagnostics
            );
            assert_eq!(direct.meta.name, loaded.meta.name);
            assert_eq!(direct.meta.matcher_mode, loaded.meta.matcher_mode);
            assert_eq!(direct.rules.len(), imp.rules);
            for (d, l) in direct.rules.iter().zip(&loaded.rules) {
                let mut l = l.clone();
                l.source = d.source.clone();
                assert_eq!(d, &l);
            }
            assert_eq!(direct.rules.len(), loaded.rules.len());
        }
    }

    #[test]
    fn an_invalid_matcher_regex_is_an_error_and_its_rule_is_skipped() {
        let text = r#"{"hooks":{"PreToolUse":[{"matcher":"Bash|(","hooks":[{"type":"command","command":"g"}]},{"matcher":"Read","hooks":[{"type":"command","command":"r"}]}]}}"#;
        let imp = import_config("s.json", text, Dialect::ClaudeCode, None).unwrap();
        let direct = imp.policy("s.json", Scope::User, 0);
        assert_eq!(direct.rules.len(), 1);
        assert_eq!(direct.rules[0].id, "s-PreToolUse-2-1");
        assert_eq!(
            direct.diagnostics[0].to_string(),
            "s.json:1:1: error: `s-PreToolUse-1-1`: matcher `Bash|(` is a regex and does not compile: unclosed group at character 6"
        );
        let loaded = load_str(&imp.toml, "s.json", Scope::User, 0);
        assert_eq!(loaded.rules.len(), 1);
        assert!(loaded.has_errors());
    }
}
