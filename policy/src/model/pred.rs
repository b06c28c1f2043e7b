//! What a rule tests: a predicate tree of field tests ([`Pred`], [`Leaf`], [`Test`]), the
//! shell-aware test ([`ShellTest`]) and the effect test ([`EffectTest`]) with their path
//! specs, and the payload fields they read ([`Field`]).
//!
//! In: nothing (types only, filled by `lower`). Out: the predicate model the engine
//! compiles.

use std::borrow::Cow;

use serde_json::Value;

use super::List;

/// A field test (DESIGN.md §3 predicates). A list value means "any of".
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Test {
    /// The value equals one of these (strings compare as text, others as JSON).
    Equals(#[serde(with = "json_values")] Vec<Value>),
    /// One of the regexes matches (unanchored, Rust `regex` syntax).
    Regex(List<String>),
    /// One of the globs matches the whole value (`/` is a separator: use `**/`).
    Glob(List<String>),
    /// The value contains one of the substrings.
    Contains(List<String>),
    /// The value starts with one of the prefixes.
    Prefix(List<String>),
    /// Shell-aware test on a command line (see [`ShellTest`]).
    Shell(Box<ShellTest>),
    /// A test on the effects of the tool call (see [`EffectTest`]); its field is the
    /// effect key (`reads`, `sends`, …) and reads nothing of the payload directly.
    Effect(std::sync::Arc<EffectTest>),
}

/// The kind of an effect: what a tool call does (DESIGN.md §3b). The policy language's
/// `when.<key>` names all but `Unsure`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum EffectKind {
    /// A program runs (`when.runs`).
    Run,
    /// A path is read (`when.reads`).
    Read,
    /// A file's values are loaded into a process without being shown (`when.loads`):
    /// `source .env`, `docker run --env-file .env`, `node --env-file=.env`.
    Load,
    /// A path is written (`when.writes`).
    Write,
    /// A path is deleted, emptied or moved away (`when.deletes`).
    Delete,
    /// A network request is sent (`when.sends`).
    Send,
    /// Processes are signalled or stopped (`when.signals`).
    Signal,
    /// Permissions or ownership of a path change (`when.changes_permission`).
    ChangePermission,
    /// A package is installed (`when.installs`).
    Install,
    /// Cloud or infrastructure resources are destroyed by a CLI's operation
    /// (`when.destroys`: `aws ec2 terminate-instances`, `kubectl delete ns`, `dropdb`).
    Destroy,
    /// An agent's own settings change in a way that matters to the guard
    /// (`when.configures`).
    Configure,
    /// A privilege or capability is granted: a shell as root or another user, a process in
    /// the host's namespaces, a privileged container, a bind mount of a host path, a set-uid
    /// bit, file capabilities (`when.grants`).
    Grant,
    /// Part of the call could not be resolved (no policy key: every effect test treats it
    /// as "cannot tell").
    Unsure,
}

impl EffectKind {
    /// The effect keys of the policy language, with their kinds.
    pub const KEYS: &'static [(&'static str, EffectKind)] = &[
        ("runs", EffectKind::Run),
        ("reads", EffectKind::Read),
        ("loads", EffectKind::Load),
        ("writes", EffectKind::Write),
        ("deletes", EffectKind::Delete),
        ("sends", EffectKind::Send),
        ("signals", EffectKind::Signal),
        ("changes_permission", EffectKind::ChangePermission),
        ("installs", EffectKind::Install),
        ("destroys", EffectKind::Destroy),
        ("configures", EffectKind::Configure),
        ("grants", EffectKind::Grant),
    ];

    /// The kind a `when` key names (`reads` → `Read`).
    pub fn from_key(key: &str) -> Option<EffectKind> {
        Self::KEYS.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }

    /// The `when` key (`Read` → `reads`; `Unsure` → `unsure`).
    pub fn key(self) -> &'static str {
        Self::KEYS
            .iter()
            .find(|(_, v)| *v == self)
            .map_or("unsure", |(k, _)| *k)
    }

    /// The verb used in reasons and `explain` (`reads`, `sends to`, …).
    pub fn verb(self) -> &'static str {
        match self {
            EffectKind::Run => "runs",
            EffectKind::Read => "reads",
            EffectKind::Load => "loads",
            EffectKind::Write => "writes",
            EffectKind::Delete => "deletes",
            EffectKind::Send => "sends to",
            EffectKind::Signal => "signals",
            EffectKind::ChangePermission => "changes the permissions of",
            EffectKind::Install => "installs",
            EffectKind::Destroy => "destroys",
            EffectKind::Configure => "configures",
            EffectKind::Grant => "grants",
            EffectKind::Unsure => "cannot resolve",
        }
    }
}

/// A test on the effects of a tool call: holds when **one** effect of [`EffectTest::kind`]
/// satisfies every given constraint (DESIGN.md §3b). Empty constraints: any effect of the
/// kind. Lists may hold `"@name"` references until [`crate::lists::resolve`] expands them.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct EffectTest {
    /// The effect kind tested.
    pub kind: EffectKind,
    /// `runs`: the shell-aware constraints on the program run (`program`, `flags_any`, …);
    /// `reads` / `writes` / `deletes` / `changes_permission`: `path_inside` / `path_outside`
    /// on the path (matched case-insensitively: see [`EffectTest::case_insensitive`]).
    pub shell: ShellTest,
    /// `recursive = true|false` (deletes, changes_permission).
    pub recursive: Option<bool>,
    /// `tightens = true|false` (changes_permission): the mode only takes rights away or sets
    /// an owner-only mode (`700`, `600`, `go-rwx`, `u=rw,go=`): no one gains anything.
    pub tightens: Option<bool>,
    /// `moved = true|false` (deletes): the path is moved, its files living on under a new
    /// name or in a new place (`mv`, `rsync --remove-source-files`, an MCP move), not removed.
    #[serde(default)]
    pub moved: Option<bool>,
    /// `append = true|false` (writes).
    pub append: Option<bool>,
    /// `by_pattern = true|false` (signals): the target is a pattern the program matches
    /// against process names or command lines (`pkill`, `pgrep | xargs kill`, `killall -r`),
    /// not a name or PID given as is.
    #[serde(default)]
    pub by_pattern: Option<bool>,
    /// `host_in`: the destination host matches one of these (`example.com` and its
    /// subdomains, `*.example.com`, an IP, a CIDR block).
    pub host_in: List<String>,
    /// `host_not_in`: the destination host matches none of these.
    pub host_not_in: List<String>,
    /// `ip_class`: the destination is `loopback`, `private`, `link-local`, `metadata` or
    /// `public`.
    pub ip_class: List<String>,
    /// `scheme`: the URL scheme is one of these (`http`, `file`, `ftp`).
    pub scheme: List<String>,
    /// `method`: the request method is one of these (upper case).
    pub method: List<String>,
    /// `body_from`: the body comes from a file in one of these (path specs).
    pub body_from: List<PathSpec>,
    /// `body_from_env`: the body carries an environment variable whose name matches one of
    /// these globs (`AWS_*`, `*TOKEN*`, `*`).
    pub body_from_env: List<String>,
    /// `credential_in_url = true`: the URL carries a credential (a password, or a query
    /// parameter named like a token or key).
    pub credential_in_url: bool,
    /// `runs_response = true` (sends): what comes back is run as code (`curl … | sh`).
    #[serde(default)]
    pub runs_response: bool,
    /// `target`: a signalled process or unit is named one of these (globs: `ssh*`).
    pub targets: List<String>,
    /// `manager`: the package manager is one of these (`npm`, `pip`).
    pub managers: List<String>,
    /// `cli` / `service` / `operation` (destroys): the CLI, its service path and its
    /// operation match one of these globs each (`aws`, `ec2`, `delete-*`).
    #[serde(default)]
    pub clis: Vec<String>,
    /// See [`EffectTest::clis`].
    #[serde(default)]
    pub services: Vec<String>,
    /// See [`EffectTest::clis`].
    #[serde(default)]
    pub operations: Vec<String>,
    /// `source_not_in`: the install names a source (registry, index, URL) whose host matches
    /// none of these.
    pub source_not_in: List<String>,
    /// `near_name` (installs): a package is named one edit (a letter added, dropped, changed
    /// or two swapped) away from one of these names and is none of them: a typo of a
    /// well-known package (`reqeusts` for `requests`). Names of four letters or fewer are
    /// not compared.
    #[serde(default)]
    pub near_names: List<String>,
    /// `lens`: the effect came through one of these lenses (`shell`, `file`, `web`, `mcp`).
    pub lenses: List<String>,
    /// `via`: the effect's command came through a wrapper whose name matches one of these
    /// globs (`sudo`, `doas`, `xargs`, `bash -c`): `sudo npm install -g x` installs via
    /// `sudo`. An effect with no wrapper matches none.
    #[serde(default)]
    pub via: List<String>,
    /// `content_regex` (writes): the written data matches one of these regexes (a write
    /// whose data is not visible cannot be told).
    #[serde(default)]
    pub content_regex: List<String>,
    /// `mode` (changes_permission): the mode or owner as given matches one of these globs
    /// (`777`, `*+s*`, `4???`, `root:*`).
    #[serde(default)]
    pub modes: List<String>,
    /// `body` (sends): the request carries a body of one of these kinds (`file`, `env`,
    /// `stdin`, `literal`).
    #[serde(default)]
    pub body_kinds: List<String>,
    /// `change` (configures): the settings change is one of these (`blanket-allow`,
    /// `bypass-approval`, `guard-removed`).
    #[serde(default)]
    pub changes: Vec<String>,
    /// `agent` (configures): the settings are those of one of these agents (`claude-code`,
    /// `codex`).
    #[serde(default)]
    pub agents: Vec<String>,
    /// `grant` (grants): the grant is of one of these kinds (`privileged-shell`,
    /// `host-namespace`, `host-mount`, `setuid`, …: see the engine's grant kinds).
    #[serde(default)]
    pub grants: Vec<String>,
    /// `earlier_read_inside` (sends): the session read, in an earlier call, a path in one of
    /// these (path specs): taint from the session memory.
    #[serde(default)]
    pub earlier_read_inside: List<PathSpec>,
    /// `earlier_read_outside` (sends, with `earlier_read_inside`): such an earlier read counts
    /// only outside these (path specs: the exceptions of a secret list).
    #[serde(default)]
    pub earlier_read_outside: List<PathSpec>,
    /// `earlier_fetch = true`: the session took in a page or another reply from a host on the
    /// network through a tool that hands it to the agent (`WebFetch`, an MCP tool that
    /// contacts a host) in an earlier call: its text may carry instructions the
    /// agent follows (prompt injection), so this call may be one of them. Taint from the
    /// session memory.
    #[serde(default)]
    pub earlier_fetch: bool,
}

impl EffectTest {
    /// An effect test of `kind` with no constraints.
    pub fn new(kind: EffectKind) -> EffectTest {
        EffectTest {
            kind,
            shell: ShellTest::default(),
            recursive: None,
            tightens: None,
            moved: None,
            by_pattern: None,
            append: None,
            host_in: List::default(),
            host_not_in: List::default(),
            ip_class: List::default(),
            scheme: List::default(),
            method: List::default(),
            body_from: List::default(),
            body_from_env: List::default(),
            credential_in_url: false,
            runs_response: false,
            targets: List::default(),
            managers: List::default(),
            clis: Vec::new(),
            services: Vec::new(),
            operations: Vec::new(),
            source_not_in: List::default(),
            near_names: List::default(),
            lenses: List::default(),
            via: List::default(),
            content_regex: List::default(),
            modes: List::default(),
            body_kinds: List::default(),
            changes: Vec::new(),
            agents: Vec::new(),
            grants: Vec::new(),
            earlier_read_inside: List::default(),
            earlier_read_outside: List::default(),
            earlier_fetch: false,
        }
    }

    /// Path globs of effect tests match case-insensitively, always: a case-insensitive file
    /// system (macOS, Windows) opens `~/.SSH/ID_RSA` as `~/.ssh/id_rsa`, and a guard must not
    /// depend on where the hook runs.
    pub const fn case_insensitive(&self) -> bool {
        true
    }
}

/// Where a path must (not) be for `path_inside` / `path_outside`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum PathSpec {
    /// The project: `CLAUDE_PROJECT_DIR` when set, else the payload `cwd`.
    Project,
    /// The user's home folder.
    Home,
    /// The project folder itself or a folder that holds it (`project_root`), not what is
    /// inside it: deleting it loses the working tree and its history at once.
    ProjectRoot,
    /// A glob relative to the project folder, written `project/<glob>`: `project/.git` is the
    /// project's own repository (not the `.git` of a checkout vendored inside it).
    InProject(String),
    /// seamguard's own files wherever they are installed (the running binary and the ones
    /// beside it, the policy files it loaded) and the folders that directly hold them,
    /// written `seamguard`.
    Guard,
    /// A glob over the normalized absolute path (`~/` expanded), e.g. `~/.ssh/**`.
    Glob(String),
}

impl PathSpec {
    /// The spec a keyword names: `project`, `home`, `project_root`, `project/<glob>` or
    /// `seamguard`;
    /// `None` for a glob or a list reference.
    ///
    /// ```
    /// use seamguard_policy::model::PathSpec;
    /// assert_eq!(PathSpec::keyword("project_root"), Some(PathSpec::ProjectRoot));
    /// assert_eq!(PathSpec::keyword("project/.git"), Some(PathSpec::InProject(".git".into())));
    /// assert_eq!(PathSpec::keyword("~/.ssh/**"), None);
    /// ```
    pub fn keyword(text: &str) -> Option<PathSpec> {
        match text {
            "project" => Some(PathSpec::Project),
            "home" => Some(PathSpec::Home),
            "project_root" => Some(PathSpec::ProjectRoot),
            "seamguard" => Some(PathSpec::Guard),
            _ => text
                .strip_prefix("project/")
                .filter(|g| !g.is_empty())
                .map(|g| PathSpec::InProject(g.to_string())),
        }
    }

    /// Whether the spec is judged against the project folder (undecidable without one).
    pub fn needs_project(&self) -> bool {
        matches!(
            self,
            PathSpec::Project | PathSpec::ProjectRoot | PathSpec::InProject(_)
        )
    }

    /// The spec as a policy writes it.
    pub fn text(&self) -> String {
        match self {
            PathSpec::Project => "project".into(),
            PathSpec::Home => "home".into(),
            PathSpec::ProjectRoot => "project_root".into(),
            PathSpec::InProject(g) => format!("project/{g}"),
            PathSpec::Guard => "seamguard".into(),
            PathSpec::Glob(g) => g.clone(),
        }
    }
}

/// A shell-aware test: holds when **one** simple command of the parsed line satisfies every
/// given constraint (DESIGN.md §3 shell-aware family).
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct ShellTest {
    /// `program` / `program_any`: base name (or exact path) of the program.
    pub programs: List<String>,
    /// `subcommand`: first operand after global options (`git -C dir push` → `push`).
    pub subcommands: List<String>,
    /// `flags_any`: one of these flags is given (`-rf` in the list means `-r` and `-f`).
    pub flags_any: Vec<Vec<String>>,
    /// `flags_all`: all of these flags are given.
    pub flags_all: Vec<Vec<String>>,
    /// `flags_none`: none of these flags is given (on the same simple command:
    /// `git clean -n && git clean -fdx` still has a `clean` without `-n`).
    pub flags_none: Vec<Vec<String>>,
    /// `args_any`: one operand equals one of these.
    pub args_any: List<String>,
    /// `path_inside`: one path operand is inside one of these.
    pub path_inside: List<PathSpec>,
    /// `path_outside`: one path operand is outside all of these.
    pub path_outside: List<PathSpec>,
    /// `push_force = true`: a `git push` that forces by any spelling (`--force`, `-f`,
    /// `--force-with-lease`, `--mirror`, a `+refspec`).
    pub push_force: bool,
    /// `push_force_unleased = true`: a `git push` that forces without a lease (`--force`,
    /// `-f`, `--mirror`, a `+refspec`); `--force-with-lease` alone is not one.
    #[serde(default)]
    pub push_force_unleased: bool,
    /// `push_delete = true`: a `git push` that deletes a remote ref (`--delete`, `-d`,
    /// `:ref`).
    pub push_delete: bool,
    /// `push_to`: a `git push` whose destination branch is one of these (`main`,
    /// `HEAD:refs/heads/main`, `+main`); a push without refspec cannot be decided.
    pub push_to: List<String>,
}

impl ShellTest {
    /// Whether a git-push refspec test is set (it implies `program = "git"`,
    /// `subcommand = "push"`).
    pub fn is_push(&self) -> bool {
        self.push_force || self.push_force_unleased || self.push_delete || !self.push_to.is_empty()
    }
}

impl Test {
    /// The predicate keyword.
    pub fn name(&self) -> &'static str {
        match self {
            Test::Equals(_) => "equals",
            Test::Regex(_) => "regex",
            Test::Glob(_) => "glob",
            Test::Contains(_) => "contains",
            Test::Prefix(_) => "prefix",
            Test::Shell(_) => "shell",
            Test::Effect(t) => t.kind.key(),
        }
    }
}

/// A payload field a predicate reads: a known name or a JSON pointer.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Field {
    /// As written (`command`, `/tool_input/edits/0/new_string`).
    pub name: String,
    /// Candidate pointers, pre-split into unescaped tokens; the first one present is used.
    pub pointers: Vec<Vec<String>>,
}

/// Known field names and the JSON pointers they read (first present wins).
pub const FIELD_ALIASES: &[(&str, &[&str])] = &[
    ("command", &["/tool_input/command"]),
    (
        "file_path",
        &["/tool_input/file_path", "/tool_input/notebook_path"],
    ),
    ("path", &["/tool_input/path"]),
    ("pattern", &["/tool_input/pattern"]),
    (
        "content",
        &[
            "/tool_input/content",
            "/tool_input/new_string",
            "/tool_input/new_source",
        ],
    ),
    ("old_string", &["/tool_input/old_string"]),
    ("new_string", &["/tool_input/new_string"]),
    ("url", &["/tool_input/url"]),
    ("query", &["/tool_input/query"]),
    ("description", &["/tool_input/description"]),
    ("subagent_type", &["/tool_input/subagent_type"]),
    ("prompt", &["/prompt", "/tool_input/prompt"]),
    ("tool_name", &["/tool_name"]),
    ("tool_input", &["/tool_input"]),
    ("tool_response", &["/tool_response"]),
    ("error", &["/error"]),
    ("cwd", &["/cwd"]),
    ("session_id", &["/session_id"]),
    ("turn_id", &["/turn_id"]),
    ("transcript_path", &["/transcript_path"]),
    ("permission_mode", &["/permission_mode"]),
    ("hook_event_name", &["/hook_event_name"]),
    ("model", &["/model"]),
    ("source", &["/source"]),
    ("reason", &["/reason"]),
    ("trigger", &["/trigger"]),
    ("custom_instructions", &["/custom_instructions"]),
    ("agent_id", &["/agent_id"]),
    ("agent_type", &["/agent_type"]),
    ("notification_type", &["/notification_type"]),
    ("message", &["/message"]),
    ("title", &["/title"]),
    ("last_assistant_message", &["/last_assistant_message"]),
    ("stop_hook_active", &["/stop_hook_active"]),
    // Virtual: every path the tool call touches (file tools' paths, `apply_patch` headers,
    // shell operands and redirections); takes `path_inside` / `path_outside`.
    (
        "paths",
        &[
            "/tool_input/file_path",
            "/tool_input/notebook_path",
            "/tool_input/path",
            "/tool_input/command",
            "/tool_input/input",
        ],
    ),
];

/// Split an RFC 6901 pointer into unescaped tokens (`~1` → `/`, `~0` → `~`).
pub fn split_pointer(p: &str) -> Option<Vec<String>> {
    if p.is_empty() {
        return Some(Vec::new());
    }
    let rest = p.strip_prefix('/')?;
    Some(
        rest.split('/')
            .map(|t| t.replace("~1", "/").replace("~0", "~"))
            .collect(),
    )
}

impl Field {
    /// Resolve a field name (known alias or JSON pointer).
    pub fn parse(name: &str) -> Option<Field> {
        if name.starts_with('/') {
            let toks = split_pointer(name)?;
            return Some(Field {
                name: name.to_string(),
                pointers: vec![toks],
            });
        }
        let (_, ptrs) = FIELD_ALIASES.iter().find(|(n, _)| *n == name)?;
        Some(Field {
            name: name.to_string(),
            pointers: ptrs.iter().filter_map(|p| split_pointer(p)).collect(),
        })
    }

    /// The value of the field in a payload, if present (and not `null`).
    pub fn resolve<'v>(&self, payload: &'v Value) -> Option<&'v Value> {
        'ptr: for toks in &self.pointers {
            let mut cur = payload;
            for t in toks {
                cur = match cur {
                    Value::Object(m) => match m.get(t.as_str()) {
                        Some(v) => v,
                        None => continue 'ptr,
                    },
                    Value::Array(a) => match t.parse::<usize>().ok().and_then(|i| a.get(i)) {
                        Some(v) => v,
                        None => continue 'ptr,
                    },
                    _ => continue 'ptr,
                };
            }
            if !cur.is_null() {
                return Some(cur);
            }
        }
        None
    }

    /// The value as text: strings as they are, other JSON compactly serialized.
    pub fn resolve_text<'v>(&self, payload: &'v Value) -> Option<Cow<'v, str>> {
        match self.resolve(payload)? {
            Value::String(s) => Some(Cow::Borrowed(s.as_str())),
            other => Some(Cow::Owned(other.to_string())),
        }
    }
}

/// A predicate tree over payload fields.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Pred {
    /// Every child holds (an empty `All` holds).
    All(Vec<Pred>),
    /// At least one child holds.
    Any(Vec<Pred>),
    /// The child does not hold.
    Not(Box<Pred>),
    /// The child holds for certain: a child that could hold only through something known
    /// at run time (a path from an unresolved variable, a part of the call no lens could see)
    /// does not (`when.sure = { reads = { … } }`).
    Sure(Box<Pred>),
    /// One test on one field.
    Leaf(Leaf),
}

/// One test on one field.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Leaf {
    /// The field.
    pub field: Field,
    /// The test.
    pub test: Test,
}

/// JSON values in a binary format: as their JSON texts (a format that is not self-describing
/// cannot read a `Value`); human-readable formats keep them as they are.
mod json_values {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use serde_json::Value;

    pub(super) fn serialize<S: Serializer>(v: &[Value], s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            return v.serialize(s);
        }
        let texts: Vec<String> = v.iter().map(Value::to_string).collect();
        texts.serialize(s)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Value>, D::Error> {
        if d.is_human_readable() {
            return Vec::<Value>::deserialize(d);
        }
        Vec::<String>::deserialize(d)?
            .iter()
            .map(|t| serde_json::from_str(t).map_err(serde::de::Error::custom))
            .collect()
    }
}
