//! Matchers: which rules an event selects by tool name / source / agent type.
//!
//! The classification is the hosts' own (HOOKS.md A3 and B4):
//!
//! | pattern | Claude Code mode | Codex mode |
//! |---|---|---|
//! | absent, `""`, `"*"` | match all | match all |
//! | only `[A-Za-z0-9_]`, `-`, space, `,`, `\|` | exact list split on `\|` or `,` (trimmed) | regex unless only `[A-Za-z0-9_\|]` |
//! | only `[A-Za-z0-9_\|]` | exact list | exact list split on `\|` |
//! | anything else | unanchored regex | unanchored regex |
//!
//! Matching is case-sensitive in every mode. JavaScript-only regex syntax (look-around,
//! back-references) is rejected at load time with the regex error, instead of silently never
//! matching.

use std::fmt;

/// How a matcher string is classified.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum MatcherMode {
    /// Claude Code ≥ 2.1.195: exact set `[A-Za-z0-9_ ,|-]`, separators `|` and `,`.
    ClaudeCode,
    /// Codex: exact set `[A-Za-z0-9_|]`, separator `|`.
    Codex,
}

impl MatcherMode {
    /// `claude-code` or `codex`.
    pub fn name(self) -> &'static str {
        match self {
            MatcherMode::ClaudeCode => "claude-code",
            MatcherMode::Codex => "codex",
        }
    }
}

/// A classified matcher.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Matcher {
    /// Matches every subject (absent, `""` or `"*"`).
    All,
    /// Exact alternatives.
    Exact(Vec<String>),
    /// An unanchored regular expression (source text).
    Regex(String),
}

impl Matcher {
    /// Classify a matcher string per the host's rules.
    pub fn classify(pattern: &str, mode: MatcherMode) -> Matcher {
        if pattern.is_empty() || pattern == "*" {
            return Matcher::All;
        }
        let exact = match mode {
            MatcherMode::ClaudeCode => pattern
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ' ' | ',' | '|')),
            MatcherMode::Codex => pattern
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '|')),
        };
        if !exact {
            return Matcher::Regex(pattern.to_string());
        }
        let parts: Vec<String> = match mode {
            MatcherMode::ClaudeCode => pattern
                .split(['|', ','])
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(str::to_string)
                .collect(),
            MatcherMode::Codex => pattern
                .split('|')
                .filter(|p| !p.is_empty())
                .map(str::to_string)
                .collect(),
        };
        if parts.is_empty() {
            // e.g. "|" or " , ": nothing to match against; hosts match nothing either.
            return Matcher::Exact(Vec::new());
        }
        Matcher::Exact(parts)
    }

    /// Validate a regex matcher.
    ///
    /// # Errors
    /// The regex syntax error text (Rust `regex` syntax; no look-around or back-references).
    pub fn validate(&self) -> Result<(), String> {
        match self {
            Matcher::Regex(p) => regex_error(p, true).map_or(Ok(()), Err),
            _ => Ok(()),
        }
    }

    /// Test one subject (slow path, compiles the regex; the decision table uses an index).
    pub fn matches(&self, subject: &str) -> bool {
        match self {
            Matcher::All => true,
            Matcher::Exact(parts) => parts.iter().any(|p| p == subject),
            Matcher::Regex(p) => regex::Regex::new(p).is_ok_and(|r| r.is_match(subject)),
        }
    }

    /// A lint for matchers that look like permission rules (`Bash(git commit*)`), which
    /// hosts classify as a regex over the tool name only and which then never fire (case HK-01).
    pub fn permission_rule_lint(pattern: &str) -> Option<String> {
        let open = pattern.find('(')?;
        let name = &pattern[..open];
        if pattern.ends_with(')')
            && !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            Some(format!(
                "matcher `{pattern}` looks like a permission rule, but matchers only see the \
                 tool name: as a regex it never matches `{name}`; use `tool = \"{name}\"` and \
                 put the command test in `when`"
            ))
        } else {
            None
        }
    }
}

impl fmt::Display for Matcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Matcher::All => f.write_str("*"),
            Matcher::Exact(p) => f.write_str(&p.join("|")),
            Matcher::Regex(r) => write!(f, "/{r}/"),
        }
    }
}

/// Names a Codex tool also answers to in matchers (HOOKS.md B2 "Matcher also accepts").
pub fn codex_aliases(tool_name: &str) -> &'static [&'static str] {
    match tool_name {
        "apply_patch" => &["Edit", "Write"],
        "spawn_agent" => &["Agent"],
        _ => &[],
    }
}

/// Why `pattern` is not a valid Rust regex, on one line (`unclosed group at character 3`),
/// or `None`. `full` translates the pattern too (unknown Unicode classes, invalid ranges);
/// otherwise only its syntax is parsed.
pub fn regex_error(pattern: &str, full: bool) -> Option<String> {
    let located = |kind: String, span: &regex_syntax::ast::Span| {
        let at = pattern
            .get(..span.start.offset)
            .map_or(0, |s| s.chars().count())
            + 1;
        format!("{kind} at character {at}")
    };
    let ast = match regex_syntax::ast::parse::Parser::new().parse(pattern) {
        Ok(ast) => ast,
        Err(e) => return Some(located(e.kind().to_string(), e.span())),
    };
    if !full {
        return None;
    }
    match regex_syntax::hir::translate::Translator::new().translate(pattern, &ast) {
        Ok(_) => None,
        Err(e) => Some(located(e.kind().to_string(), e.span())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cc(p: &str, s: &str) -> bool {
        Matcher::classify(p, MatcherMode::ClaudeCode).matches(s)
    }

    #[test]
    fn hk02_claude_code_matcher_table() {
        // Case HK-02: every (matcher, tool_name) pair with the documented result.
        assert!(!cc("mcp__github", "mcp__github__create_issue"));
        assert!(cc("mcp__github__.*", "mcp__github__create_issue"));
        assert!(!cc("mcp__brave-search", "mcp__brave-search__web_search"));
        assert!(!cc("Edit|Write", "NotebookEdit"));
        assert!(cc("Edit, Write", "Write"));
        assert!(cc("Edit.*", "NotebookEdit"));
        assert!(!cc("^Edit$", "NotebookEdit"));
        assert!(!cc("mcp__db__.*", "mcp__plugin_acme_db__query"));
        assert!(cc("mcp__plugin_acme_db__.*", "mcp__plugin_acme_db__query"));
        assert!(cc("", "Read"));
        assert!(cc("*", "Read"));
    }

    #[test]
    fn hk01_permission_rule_matcher_never_fires() {
        let m = Matcher::classify("Bash(git commit*)", MatcherMode::ClaudeCode);
        assert!(matches!(m, Matcher::Regex(_)));
        assert!(!m.matches("Bash"));
        assert!(Matcher::permission_rule_lint("Bash(git commit*)").is_some());
        assert!(Matcher::permission_rule_lint("Edit|Write").is_none());
    }

    #[test]
    fn codex_mode_differs_on_hyphen_and_comma() {
        let m = Matcher::classify("code-reviewer", MatcherMode::Codex);
        assert_eq!(m, Matcher::Regex("code-reviewer".into()));
        assert!(m.matches("my-code-reviewer-2"));
        let m = Matcher::classify("Edit, Write", MatcherMode::Codex);
        assert!(!m.matches("Write"));
        let m = Matcher::classify("Bash|apply_patch", MatcherMode::Codex);
        assert_eq!(m, Matcher::Exact(vec!["Bash".into(), "apply_patch".into()]));
        assert!(!m.matches("BashOutput"));
    }

    #[test]
    fn lookaround_is_a_load_error() {
        let m = Matcher::classify("^(?!Read).*", MatcherMode::ClaudeCode);
        assert!(m.validate().is_err());
    }
}
