//! Concerns: what an `ask` is about, so that a person answers each question once.
//!
//! An ask today stops a call because a rule could not let it through. The person who is asked
//! answers about *something*: a host the call logs in to, a folder it deletes, a package it
//! installs. A **concern** is that pair, the rule that asked and the **objects** it asked
//! about ([`Concern`]); an **approval** is a concern the person said yes to. A later call that
//! raises only concerns already approved (same rule, objects covered by the approved ones:
//! [`Object::covers`]) does not need to ask again ([`covered_by`]).
//!
//! In: the asking contributions of an [`Outcome`](crate::Outcome), the call's
//! [`Effects`](crate::effects::Effects) and payload ([`Engine::concerns`](crate::Engine::concerns)
//! works out which effects made each rule ask). Out: one [`Concern`] per asking rule.
//!
//! Objects, by what the rule matched:
//!
//! | effect | object | covers a later object when |
//! |---|---|---|
//! | sends (curl, ssh, scp, MCP fetch, …) | the host, lower case | same host |
//! | reads / writes / deletes / permissions / agent settings | the absolute path | same path, or a path inside it |
//! | installs | manager and package | same manager and package |
//! | signals | the targets as named | same targets |
//! | runs | program, its first operand (a subcommand or target) and the project | all three equal |
//! | a part no lens could resolve | the cause, as worded | same words |
//! | a rule with no effect or shell test (a tool name, a regex on a field) | the normalized call ([`call_key`]) | same call |
//!
//! A path only known at run time (`$DIR/x`) is an object of its own and covers nothing but
//! itself. An approval never lifts a deny (the merge puts a deny above any ask before
//! approvals are looked at) nor an ask of a call seamguard could not read at all.

use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::effects::{Effect, What};
use crate::shell_env::ShellEnv;

// Which effects made each rule of an outcome ask (`Engine::concerns`).
mod asking;

/// What one asking rule asked about.
///
/// ```
/// use seamguard_engine::concern::{Concern, Object};
/// let c = Concern {
///     rule: "remote-login-needs-approval".into(),
///     objects: vec![Object::Host { host: "192.168.7.1".into() }],
/// };
/// assert_eq!(c.describe(), "remote-login-needs-approval on host 192.168.7.1");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Concern {
    /// The id of the rule that asked (`seamguard:unsure` for a part no lens could resolve).
    pub rule: String,
    /// What it asked about; never empty (a rule whose matched effects cannot be named is
    /// about the whole call: [`Object::Call`]).
    pub objects: Vec<Object>,
}

impl Concern {
    /// The concern in words: `rule on host h, path p`.
    pub fn describe(&self) -> String {
        let objects: Vec<String> = self.objects.iter().map(Object::describe).collect();
        format!("{} on {}", self.rule, objects.join(", "))
    }

    /// Whether the approved concern `approved` covers this one: same rule, and every object
    /// of this one covered by an object of `approved`.
    pub fn covered_by(&self, approved: &Concern) -> bool {
        self.rule == approved.rule
            && self
                .objects
                .iter()
                .all(|o| approved.objects.iter().any(|a| a.covers(o)))
    }
}

/// The object of a concern (see the module docs for what covers what).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Object {
    /// A network destination: its host, lower case (an IP literal in canonical form).
    Host {
        /// The host.
        host: String,
    },
    /// A file or folder: absolute and normalized, or as written when only known at run time.
    Path {
        /// The path.
        path: String,
        /// Part of it is only known at run time: it covers nothing but itself.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        dynamic: bool,
    },
    /// A package installed by a manager.
    Install {
        /// The manager (`npm`, `pip`, `cargo`, `apt`).
        manager: String,
        /// The packages as named, sorted and joined by spaces.
        package: String,
    },
    /// Processes signalled, as named (sorted, joined by spaces).
    Signal {
        /// The targets.
        targets: String,
    },
    /// A program run: its base name, its first operand and the project it runs in.
    Program {
        /// The program's base name (`docker-compose`, `sudo`).
        program: String,
        /// The first operand that is not an option (`down`, `root@192.168.7.1`), if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<String>,
        /// The project folder the command runs in, if known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        project: Option<String>,
    },
    /// Cloud or infrastructure resources destroyed, in words (`aws ec2 terminate-instances
    /// i-1`).
    Resource {
        /// The CLI, its operation and the targets.
        text: String,
    },
    /// A part of the call no lens could resolve, by the words of its cause.
    Cause {
        /// The cause.
        text: String,
    },
    /// The whole call, normalized ([`call_key`]).
    Call {
        /// The normalized call, serialized compactly.
        key: String,
    },
}

impl Object {
    /// Whether an approval of `self` also answers a question about `other`.
    ///
    /// ```
    /// use seamguard_engine::concern::Object;
    /// let dir = Object::Path { path: "/w/sibling/build".into(), dynamic: false };
    /// let inside = Object::Path { path: "/w/sibling/build/CMakeFiles".into(), dynamic: false };
    /// let beside = Object::Path { path: "/w/sibling/buildx".into(), dynamic: false };
    /// assert!(dir.covers(&inside));
    /// assert!(!dir.covers(&beside));
    /// ```
    pub fn covers(&self, other: &Object) -> bool {
        match (self, other) {
            (
                Object::Path {
                    path: a,
                    dynamic: false,
                },
                Object::Path {
                    path: b,
                    dynamic: false,
                },
            ) => b == a || (b.starts_with(a.as_str()) && inside_after(a, b)),
            (a, b) => a == b,
        }
    }

    /// The object in words (`host 192.168.7.1`, `path /w/build`, `npm install left-pad`).
    pub fn describe(&self) -> String {
        match self {
            Object::Host { host } => format!("host {host}"),
            Object::Path { path, dynamic } => {
                if *dynamic {
                    format!("path {path} (known at run time)")
                } else {
                    format!("path {path}")
                }
            }
            Object::Install { manager, package } => format!("{manager} package {package}"),
            Object::Signal { targets } => format!("processes {targets}"),
            Object::Program {
                program,
                target,
                project,
            } => {
                let mut s = format!("`{program}");
                if let Some(t) = target {
                    s.push(' ');
                    s.push_str(t);
                }
                s.push('`');
                if let Some(p) = project {
                    s.push_str(" in ");
                    s.push_str(p);
                }
                s
            }
            Object::Resource { text } => format!("resources: {text}"),
            Object::Cause { text } => format!("unresolved part: {text}"),
            Object::Call { key } => format!("the call {key}"),
        }
    }
}

/// Whether `b`, which starts with `a`, names something inside the folder `a`.
fn inside_after(a: &str, b: &str) -> bool {
    a.ends_with('/') || b.as_bytes().get(a.len()) == Some(&b'/')
}

/// Whether every concern of `asked` is covered by one of `approved`. An empty `asked` is not
/// covered (a call with nothing named to approve asks).
pub fn covered_by(asked: &[Concern], approved: &[Concern]) -> bool {
    !asked.is_empty()
        && asked
            .iter()
            .all(|c| approved.iter().any(|a| c.covered_by(a)))
}

/// The object of one effect that made a rule ask (`None` for an effect that names nothing:
/// a run of an empty program word).
pub(crate) fn object_of(e: &Effect, env: &ShellEnv, project: Option<&str>) -> Option<Object> {
    let path = |p: &crate::effects::PathRef| -> Object {
        if p.dynamic {
            return Object::Path {
                path: p.text.clone(),
                dynamic: true,
            };
        }
        match crate::paths::normalize(&p.text, p.cwd.as_deref(), &env.home) {
            Some(abs) => Object::Path {
                path: abs,
                dynamic: false,
            },
            // Relative with no folder known: only the same words are the same path.
            None => Object::Path {
                path: p.text.clone(),
                dynamic: true,
            },
        }
    };
    Some(match &e.what {
        What::Send(s) => match &s.endpoint {
            Some(ep) if !s.dynamic && !ep.host.is_empty() => Object::Host {
                host: ep.host.clone(),
            },
            _ => Object::Cause {
                text: e.to_string(),
            },
        },
        What::Read(p) | What::Load(p) => path(p),
        What::Write { path: p, .. }
        | What::Delete { path: p, .. }
        | What::ChangePermission { path: p, .. } => path(p),
        What::Configure(c) => path(&c.file),
        What::Grant(g) => match &g.path {
            Some(p) => path(p),
            None => Object::Cause {
                text: e.to_string(),
            },
        },
        What::Install {
            manager, packages, ..
        } => {
            let mut names: Vec<&str> = packages.iter().map(|a| a.text.as_str()).collect();
            names.sort_unstable();
            Object::Install {
                manager: manager.clone(),
                package: names.join(" "),
            }
        }
        What::Signal { targets, .. } => {
            let mut names: Vec<&str> = targets.iter().map(|a| a.text.as_str()).collect();
            names.sort_unstable();
            Object::Signal {
                targets: names.join(" "),
            }
        }
        What::Run(c) => {
            if c.program.is_empty() {
                return None;
            }
            if c.dynamic_program {
                return Some(Object::Cause {
                    text: e.to_string(),
                });
            }
            // The first operand: not an option, and not the word right after a lone short
            // option (`sshpass -p SECRET ssh …`: the value of `-p`, never the target).
            let mut after_short = false;
            // A CLI whose global options the program table knows: its subcommand
            // (`kubectl --context prod delete …` → `delete`, not `prod`).
            let positional = crate::effects::programs::globals::of(c.basename())
                .and_then(|_| crate::shell::operands::positionals(c).first().copied());
            let target = positional
                .or_else(|| {
                    c.args.iter().find(|a| {
                        let t = a.text.as_str();
                        let option = t.starts_with('-') && t.len() > 1;
                        let skip = option || after_short;
                        after_short = option && t.len() == 2 && t != "--";
                        !skip
                    })
                })
                .map(|a| {
                    if a.dynamic {
                        format!("{} (known at run time)", a.text)
                    } else {
                        a.text.clone()
                    }
                });
            Object::Program {
                program: c.basename().to_string(),
                target,
                project: project.map(str::to_string),
            }
        }
        What::Destroy {
            cli,
            service,
            operation,
            targets,
        } => {
            let words = crate::effects::named_words(&[cli, service, operation], targets);
            Object::Resource {
                text: words.join(" "),
            }
        }
        What::Unsure(w) => Object::Cause { text: w.clone() },
    })
}

/// A JSON value with object keys sorted at every level (serialized compactly, this is the
/// canonical form of MCP arguments and other tool inputs).
fn canonical(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let mut out = Map::new();
            for k in keys {
                out.insert(k.clone(), canonical(&m[k]));
            }
            Value::Object(out)
        }
        Value::Array(a) => Value::Array(a.iter().map(canonical).collect()),
        other => other.clone(),
    }
}

/// The words of a shell command line after quote removal, when it is one simple command with
/// nothing the shell would expand or combine; `None` otherwise (the exact text is the key).
///
/// ```
/// use seamguard_engine::concern::simple_argv;
/// assert_eq!(simple_argv("git push 'my branch'"), Some(vec!["git".into(), "push".into(), "my branch".into()]));
/// assert_eq!(simple_argv("rm -rf *"), None);
/// ```
pub fn simple_argv(line: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut it = line.trim().chars().peekable();
    while let Some(c) = it.next() {
        match c {
            ' ' | '\t' => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match it.next()? {
                        '\'' => break,
                        ch => cur.push(ch),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match it.next()? {
                        '"' => break,
                        '$' | '`' => return None,
                        '\\' => match it.next()? {
                            e @ ('"' | '\\') => cur.push(e),
                            '$' | '`' => return None,
                            '\n' => {}
                            e => {
                                cur.push('\\');
                                cur.push(e);
                            }
                        },
                        ch => cur.push(ch),
                    }
                }
            }
            '\\' => match it.next()? {
                '\n' => {}
                e => {
                    in_word = true;
                    cur.push(e);
                }
            },
            '|' | '&' | ';' | '<' | '>' | '(' | ')' | '$' | '`' | '*' | '?' | '[' | '{' | '\n'
            | '\r' => return None,
            '~' | '#' if !in_word => return None,
            ch => {
                in_word = true;
                cur.push(ch);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    (!words.is_empty()).then_some(words)
}

/// `path` made absolute against `cwd`, `.` and `..` resolved lexically.
fn absolute(path: &str, cwd: Option<&str>) -> String {
    let p = Path::new(path);
    let joined = match cwd {
        Some(c) if p.is_relative() => Path::new(c).join(p),
        _ => p.to_path_buf(),
    };
    let mut out = PathBuf::new();
    for part in joined.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out.display().to_string()
}

/// The normalized call of a pre-tool payload; `None` without a tool name.
///
/// A shell command is its argv after quote removal when it is one simple command
/// (`{"tool":"Bash","argv":["git","push"]}`); anything the shell would expand or combine is
/// keyed by its exact text (`"command"`). A file tool call is the tool and the absolute path;
/// an MCP call the tool and the canonical JSON of its arguments (keys sorted); a web fetch
/// the tool and the URL's host; any other tool its name and canonical input.
///
/// ```
/// use serde_json::json;
/// use seamguard_engine::concern::call_key;
/// let p = json!({"tool_name": "Read", "cwd": "/w/x", "tool_input": {"file_path": "../a/./b"}});
/// assert_eq!(call_key(&p), Some(json!({"tool": "Read", "path": "/w/a/b"})));
/// ```
pub fn call_key(payload: &Value) -> Option<Value> {
    let tool = payload.get("tool_name").and_then(Value::as_str)?;
    let input = payload.get("tool_input").cloned().unwrap_or(Value::Null);
    let cwd = payload.get("cwd").and_then(Value::as_str);
    if let Some(cmd) = input.get("command").and_then(Value::as_str)
        && !tool.starts_with("mcp__")
    {
        return Some(match simple_argv(cmd) {
            Some(argv) => json!({ "tool": tool, "argv": argv }),
            None => json!({ "tool": tool, "command": cmd.trim() }),
        });
    }
    if tool.starts_with("mcp__") {
        let args = canonical(&input).to_string();
        return Some(json!({ "tool": tool, "arguments": args }));
    }
    if let Some(p) = ["file_path", "notebook_path", "path"]
        .iter()
        .find_map(|k| input.get(*k).and_then(Value::as_str))
    {
        return Some(json!({ "tool": tool, "path": absolute(p, cwd) }));
    }
    if let Some(u) = input.get("url").and_then(Value::as_str) {
        let host = url::Url::parse(u)
            .ok()
            .and_then(|u| u.host_str().map(str::to_ascii_lowercase))?;
        return Some(json!({ "tool": tool, "host": host }));
    }
    Some(json!({ "tool": tool, "input": canonical(&input).to_string() }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(p: &str) -> Object {
        Object::Path {
            path: p.into(),
            dynamic: false,
        }
    }

    #[test]
    fn paths_cover_what_is_inside_them_and_nothing_beside() {
        assert!(path("/w/b").covers(&path("/w/b")));
        assert!(path("/w/b").covers(&path("/w/b/c/d")));
        assert!(path("/").covers(&path("/etc")));
        assert!(!path("/w/b").covers(&path("/w/bc")));
        assert!(!path("/w/b/c").covers(&path("/w/b")));
        let dynamic = Object::Path {
            path: "$D/x".into(),
            dynamic: true,
        };
        assert!(dynamic.covers(&dynamic.clone()));
        assert!(!dynamic.covers(&path("$D/x")));
        assert!(!path("/").covers(&dynamic));
    }

    #[test]
    fn a_concern_is_covered_only_by_the_same_rule_over_all_its_objects() {
        let host = |h: &str| Object::Host { host: h.into() };
        let approved = Concern {
            rule: "upload".into(),
            objects: vec![host("192.168.7.1")],
        };
        let same = Concern {
            rule: "upload".into(),
            objects: vec![host("192.168.7.1")],
        };
        let other_host = Concern {
            rule: "upload".into(),
            objects: vec![host("192.168.7.1"), host("evil.example")],
        };
        let other_rule = Concern {
            rule: "remote-login".into(),
            objects: vec![host("192.168.7.1")],
        };
        assert!(covered_by(
            std::slice::from_ref(&same),
            std::slice::from_ref(&approved)
        ));
        assert!(!covered_by(&[other_host], std::slice::from_ref(&approved)));
        assert!(!covered_by(&[other_rule], std::slice::from_ref(&approved)));
        assert!(!covered_by(&[], &[approved]));
    }

    #[test]
    fn a_cli_s_target_is_its_subcommand_behind_global_options() {
        use crate::shell::{BrushAnalyzer, ShellAnalyzer};
        let target = |line: &str| {
            let a = BrushAnalyzer.analyze(line, None);
            let c = a.commands.first().cloned().expect("a command");
            let e = Effect {
                what: What::Run(c),
                route: crate::effects::Route::default(),
            };
            match object_of(&e, &ShellEnv::default(), None) {
                Some(Object::Program { target, .. }) => target,
                other => panic!("{other:?}"),
            }
        };
        assert_eq!(
            target("kubectl --context prod delete ns x").as_deref(),
            Some("delete")
        );
        assert_eq!(target("git -C /w push").as_deref(), Some("push"));
        assert_eq!(target("sshpass -p SECRET ssh h").as_deref(), Some("ssh"));
    }

    #[test]
    fn simple_commands_become_argv_and_the_rest_stays_exact() {
        assert_eq!(
            simple_argv("git  push 'my branch' \"a\\\"b\" c\\ d"),
            Some(vec![
                "git".to_string(),
                "push".into(),
                "my branch".into(),
                "a\"b".into(),
                "c d".into()
            ])
        );
        assert_eq!(simple_argv("rm -rf *"), None);
        assert_eq!(simple_argv("cat ~/.bashrc"), None);
        assert_eq!(simple_argv("echo hi > f"), None);
        assert_eq!(simple_argv("echo \"$HOME\""), None);
        assert_eq!(simple_argv("a | b"), None);
        assert_eq!(simple_argv("echo 'unterminated"), None);
        assert_eq!(simple_argv("   "), None);
    }

    #[test]
    fn call_keys_per_kind() {
        let p = json!({"tool_name": "Bash", "cwd": "/w", "tool_input": {"command": "git push -f"}});
        assert_eq!(
            call_key(&p),
            Some(json!({"tool": "Bash", "argv": ["git", "push", "-f"]}))
        );
        let p =
            json!({"tool_name": "mcp__db__drop", "tool_input": {"z": 1, "a": {"y": 2, "b": 3}}});
        assert_eq!(
            call_key(&p),
            Some(
                json!({"tool": "mcp__db__drop", "arguments": "{\"a\":{\"b\":3,\"y\":2},\"z\":1}"})
            )
        );
        let p =
            json!({"tool_name": "WebFetch", "tool_input": {"url": "https://Docs.Example.com/x?y"}});
        assert_eq!(
            call_key(&p),
            Some(json!({"tool": "WebFetch", "host": "docs.example.com"}))
        );
    }
}
