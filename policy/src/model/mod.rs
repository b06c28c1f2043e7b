//! The policy model: rules, predicates and actions after loading (the IR between the TOML
//! wire format of DESIGN.md §3 and the compiled `DecisionTable` of the engine).

mod action;
mod error;
mod list;
mod pred;

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

pub use self::action::{Action, DecisionValue, OnError, Redaction, Rewrite, RunSpec};
pub use self::error::{PolicyError, Severity};
pub use self::list::List;
pub use self::pred::{
    EffectKind, EffectTest, FIELD_ALIASES, Field, Leaf, PathSpec, Pred, ShellTest, Test,
    split_pointer,
};

use crate::matcher::{Matcher, MatcherMode};
use crate::seam::Seam;

/// Where a policy comes from; decides trust (DESIGN.md §2 "Provenance everywhere").
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Scope {
    /// System-wide managed policy (`/etc/seamguard/`).
    Managed,
    /// The user's own policy folder (`$XDG_CONFIG_HOME/seamguard/`).
    User,
    /// Given on the command line with `--policy` (the user's explicit choice).
    Cli,
    /// The project's `.seamguard/` folder (possibly a cloned repository): it may only
    /// tighten, so its `allow` decisions are not honoured.
    Project,
    /// Built in Rust code (embedding API).
    Embedded,
}

impl Scope {
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Scope::Managed => "managed",
            Scope::User => "user",
            Scope::Cli => "cli",
            Scope::Project => "project",
            Scope::Embedded => "embedded",
        }
    }
}

/// A location in a policy file: 1-based line and column (columns count characters).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Source {
    /// The file path as given.
    pub file: Arc<str>,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// Scope of the file.
    pub scope: Scope,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// What happens when a policy file fails to load (DESIGN.md §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum OnLoadError {
    /// Skip the broken rules, keep the rest, report loudly (default).
    #[default]
    Warn,
    /// Fail closed: deny every tool call and permission request while the file is broken.
    Deny,
}

/// Whether a policy's rules decide (`[policy] mode`; the library's `observe` profile).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum PolicyMode {
    /// Its rules take part in the decision (default).
    #[default]
    Enforce,
    /// Its rules are evaluated and what they would have decided is recorded
    /// (the engine's `Outcome::observed`, the audit log), but they decide nothing: no verdict,
    /// context, halt, rewrite, redaction, and no command hook runs. For trying a policy on
    /// real work before enforcing it. `seamguard test` and `replay` evaluate such rules as
    /// if enforced (they act on nothing).
    Observe,
}

/// How an `ask` outcome is answered to Codex, which has no `ask` (HOOKS.md B3, case CX-01).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum CodexAsk {
    /// Deny, with a reason saying approval is required (default; fail closed).
    #[default]
    Deny,
    /// Say nothing: Codex's own approval mode decides.
    Ignore,
}

/// Policy-wide settings from the `[policy]` table.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PolicyMeta {
    /// `name` (defaults to the file stem).
    pub name: String,
    /// `description`.
    pub description: Option<String>,
    /// File path.
    pub file: Arc<str>,
    /// Scope of the file.
    pub scope: Scope,
    /// `on_load_error`.
    pub on_load_error: OnLoadError,
    /// `matcher_mode`: how `tool = "…"` strings are classified (default Claude Code).
    pub matcher_mode: MatcherMode,
    /// `codex_ask`.
    pub codex_ask: CodexAsk,
    /// `mode`: `enforce` (default) or `observe`.
    pub mode: PolicyMode,
    /// `on_unsure`: verdict of a rule (hook or guard) whose test cannot be decided (a line
    /// that does not parse, a command word from an unresolved variable, the depth limit, a
    /// computed path): `ask` (the default: the call is asked about once, with the cause),
    /// `deny`, or `ignore`.
    pub on_unsure: OnUnsure,
    /// Whether its `run` actions may execute: user, managed and command-line policies are
    /// trusted; a project policy only after `seamguard trust` recorded its exact content.
    pub trusted: bool,
    /// SHA-256 of the file content (hex), for trust.
    pub content_hash: String,
    /// Named lists the file defines or extends (`[lists]`), referenced as `"@name"`.
    #[serde(default)]
    pub lists: Vec<NamedList>,
    /// Where the file references named lists (`"@name"`), for diagnostics of unknown names.
    #[serde(default)]
    pub list_refs: Vec<ListRef>,
}

/// A named list of a `[lists]` table: `secret_paths = [...]` defines it,
/// `[lists.secret_paths] extend = [...]` adds to a list defined by another file.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct NamedList {
    /// The name, without `@`.
    pub name: String,
    /// The items (strings; what they mean depends on where the list is used).
    pub items: Vec<String>,
    /// Whether this adds to a list defined elsewhere (`extend = [...]`).
    pub extend: bool,
    /// The items that are not valid path globs, with why (checked when the file is lowered,
    /// reported only where the list is used as paths).
    #[serde(default)]
    pub glob_errors: Vec<(String, String)>,
    /// Where it is written.
    pub source: Source,
}

/// One `"@name"` reference in a file.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ListRef {
    /// The name, without `@`.
    pub name: String,
    /// Where it is written.
    pub source: Source,
}

impl PolicyMeta {
    /// The settings of a file with no `[policy]` table: enforce, fail-partial (`warn`),
    /// Claude Code matchers, Codex asks as denies, unsure shell tests ask; trusted unless the
    /// file is in a project.
    pub fn defaults(name: String, file: Arc<str>, scope: Scope) -> PolicyMeta {
        PolicyMeta {
            name,
            description: None,
            file,
            scope,
            on_load_error: OnLoadError::Warn,
            matcher_mode: MatcherMode::ClaudeCode,
            codex_ask: CodexAsk::Deny,
            on_unsure: OnUnsure::Ask,
            mode: PolicyMode::Enforce,
            trusted: scope != Scope::Project,
            content_hash: String::new(),
            lists: Vec::new(),
            list_refs: Vec::new(),
        }
    }
}

/// What a hook rule does when its shell-aware test cannot see what will run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum OnUnsure {
    /// Ask the user (default; Codex: per `codex_ask`).
    #[default]
    Ask,
    /// Deny.
    Deny,
    /// Treat the test as not holding (fail open; not recommended).
    Ignore,
}

/// Kind of a rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum RuleKind {
    /// `[[rule]]`: may produce any decision its seam allows.
    Hook,
    /// `[[guard]]`: pre-tool only, deny or abstain; evaluated after all hooks.
    Guard,
}

/// A loaded rule with its provenance.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Rule {
    /// Unique id (`id = "…"`).
    pub id: String,
    /// Hook or guard.
    pub kind: RuleKind,
    /// The seam it runs at.
    pub seam: Seam,
    /// The matcher (`tool = "…"` / `matcher = "…"`).
    pub matcher: Matcher,
    /// `when` (absent = always).
    pub when: Option<Pred>,
    /// `unless`: the rule does not fire when this holds.
    pub unless: Option<Pred>,
    /// What it does.
    pub action: Action,
    /// Where it was declared.
    pub source: Source,
    /// Index of its policy in the table's policy list.
    pub policy: usize,
}

/// A `[[test]]` example of a policy file.
#[derive(Debug, Clone, PartialEq)]
pub struct PolicyTest {
    /// `name`, or `test #N`.
    pub name: String,
    /// The payload built from `event` (`seam` turned into `hook_event_name`, defaults added).
    pub payload: Value,
    /// `dialect` (default: detected from the payload).
    pub dialect: Option<crate::Dialect>,
    /// `expect`: `allow`, `deny`, `ask`, `defer`, `block`, `continue`, `stop`, `redact`,
    /// `halt`, or `none` (no decision).
    pub expect: String,
    /// `reason_contains`: a substring the outcome's reason must contain.
    pub reason_contains: Option<String>,
    /// `rules`: ids that must be among the fired rules.
    pub rules: Vec<String>,
    /// `not_rules`: ids that must not be among the fired rules (a benign look-alike names
    /// the rules it must not trip).
    pub not_rules: Vec<String>,
    /// `earlier`: pre-tool calls made earlier in the same session (their payloads, in
    /// order), remembered before the event is judged (session memory: a script written, a
    /// symlink created, a secret read).
    pub earlier: Vec<Value>,
    /// `home`: the home folder the example is judged with (`~`, `$HOME`, `home`, `~/…`
    /// globs); `None` means the fixed [`PolicyTest::DEFAULT_HOME`], never the caller's `HOME`.
    pub home: Option<String>,
    /// `project`: the project folder the example is judged with (`project` in path tests);
    /// `None` means the event's `cwd`, never the caller's `CLAUDE_PROJECT_DIR`.
    pub project: Option<String>,
    /// Where it was declared.
    pub source: Source,
}

impl PolicyTest {
    /// The home folder of an example that sets no `home`: the one its default `cwd`
    /// (`/home/user/project`) and `transcript_path` are in.
    pub const DEFAULT_HOME: &'static str = "/home/user";

    /// The home folder this example is judged with: its `home`, else
    /// [`PolicyTest::DEFAULT_HOME`].
    pub fn home(&self) -> &str {
        self.home.as_deref().unwrap_or(Self::DEFAULT_HOME)
    }
}

/// One loaded policy file: settings, rules, tests and diagnostics.
#[derive(Debug, Clone)]
pub struct LoadedPolicy {
    /// `[policy]` settings.
    pub meta: PolicyMeta,
    /// Rules that loaded (broken ones are skipped and reported in `diagnostics`).
    pub rules: Vec<Rule>,
    /// `[[test]]` examples.
    pub tests: Vec<PolicyTest>,
    /// Errors and warnings, in file order.
    pub diagnostics: Vec<PolicyError>,
}

impl LoadedPolicy {
    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }
}
