//! Import existing hook configurations into seamguard policy files (HOOKS.md A1–A3, B1, B4).
//!
//! Reads Claude Code settings files (`settings.json`, `settings.local.json`,
//! `managed-settings.json`), plugin `hooks.json` (Claude Code or Codex), Codex `hooks.json`
//! and the `[hooks]` tables of Codex `config.toml`, and writes an equivalent policy: one
//! `[[rule]]` with a `run` action per command handler, with the source host's matcher mode,
//! timeout and plugin environment. Handler types seamguard does not run (`http`, `prompt`,
//! `agent`, `mcp_tool`), `async` handlers and events without a seam are skipped with a warning
//! naming them.

use std::path::Path;

use serde_json::Value;

use crate::dialect::Dialect;
use crate::seam::Seam;

/// The result of an import: policy text and what was skipped or approximated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Imported {
    /// The policy file text (TOML).
    pub toml: String,
    /// Number of rules written.
    pub rules: usize,
    /// Warnings naming every skipped or approximated handler.
    pub warnings: Vec<String>,
    /// The host the configuration belongs to.
    pub dialect: Dialect,
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
fn translate_if(rule: &str) -> Option<String> {
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
            Some(format!("when.command = {{ contains = {} }}", q(prefix)))
        }
        "Edit" | "Write" | "Read" | "MultiEdit" | "NotebookEdit" => {
            let g = if pat.starts_with('/') || pat.starts_with("**") {
                pat.to_string()
            } else {
                format!("**/{pat}")
            };
            Some(format!("when.file_path = {{ glob = {} }}", q(&g)))
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
        crate::lower::cx::to_json(&toml::de::DeValue::Table(t.into_inner()))
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
    let mut out = String::new();
    let mut warnings = Vec::new();
    out.push_str(&format!(
        "# Imported by `seamguard import` from {file} ({} hooks).\n# Each command handler became a rule with a `run` action; see the warnings for what was skipped.\n\n[policy]\nname = {}\nmatcher_mode = {}\n",
        dialect.name(),
        q(&format!("imported-{stem}")),
        q(dialect.name())
    ));
    if disable_all(&doc) {
        warnings.push(format!(
            "{file}: `disableAllHooks` is true here; the host would run none of these hooks"
        ));
    }
    let mut n = 0usize;
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
                if h.get("async").and_then(Value::as_bool) == Some(true)
                    || h.get("asyncRewake").and_then(Value::as_bool) == Some(true)
                {
                    warnings.push(format!(
                        "{where_}: `async` handlers cannot influence a decision; skipped"
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
                n += 1;
                out.push_str("\n[[rule]]\n");
                out.push_str(&format!(
                    "id = {}\n",
                    q(&format!("{stem}-{}-{}-{}", event, gi + 1, hi + 1))
                ));
                out.push_str(&format!("seam = {}\n", q(seam.name())));
                if seam.matcher_subject() != crate::seam::MatcherSubject::None
                    && !matcher.is_empty()
                    && matcher != "*"
                {
                    out.push_str(&format!("matcher = {}\n", q(matcher)));
                } else if seam.matcher_subject() == crate::seam::MatcherSubject::None
                    && !matcher.is_empty()
                    && matcher != "*"
                {
                    warnings.push(format!(
                        "{where_}: matcher `{matcher}` on {event} is ignored by the host; dropped"
                    ));
                }
                if let Some(cond) = h.get("if").and_then(Value::as_str) {
                    match translate_if(cond) {
                        Some(w) => out.push_str(&format!("{w}\n")),
                        None => warnings.push(format!(
                            "{where_}: condition `if = {cond}` has no translation; the hook runs on every call its matcher selects"
                        )),
                    }
                }
                let mut run = format!("run = {{ command = {}", q(&command));
                if let Some(t) = timeout {
                    run.push_str(&format!(", timeout = {}", q(&format!("{t}s"))));
                }
                if let Some(root) = plugin_root {
                    let mut env = vec![format!("CLAUDE_PLUGIN_ROOT = {}", q(root))];
                    if dialect == Dialect::Codex {
                        env.push(format!("PLUGIN_ROOT = {}", q(root)));
                    }
                    run.push_str(&format!(", env = {{ {} }}", env.join(", ")));
                }
                run.push_str(" }\n");
                out.push_str(&run);
            }
        }
    }
    Ok(Imported {
        toml: out,
        rules: n,
        warnings,
        dialect,
    })
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
}
