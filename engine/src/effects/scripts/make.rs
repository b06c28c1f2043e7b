//! `make`: the words of a call (`-C dir`, `-f file`, targets, variables) and what a Makefile
//! says as far as recipes go (variables, explicit rules, the default goal), so the recipes a
//! call runs can be followed.
//!
//! In: a `make` call's words, a Makefile's text. Out: the recipe lines each target runs.

use std::collections::{HashMap, HashSet};

use crate::shell::Arg;

/// Most make targets (with their prerequisites) followed for one `make` call.
pub(super) const MAX_MAKE_TARGETS: usize = 64;

/// The words of a `make` call.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct MakeCall {
    pub(super) dir: Option<String>,
    pub(super) file: Option<String>,
    pub(super) targets: Vec<String>,
    pub(super) vars: HashMap<String, String>,
}

/// `make` options that take a value.
pub(super) const MAKE_VALUED: &[&str] = &["-I", "-j", "-l", "-o", "-W", "--jobs", "--load-average"];

impl MakeCall {
    /// `None` when nothing runs (`-n`, `-q`, `-p`, `-t`, `--version`, `--help`) or a word
    /// that matters is only known at run time.
    pub(super) fn parse(args: &[Arg]) -> Option<MakeCall> {
        let mut call = MakeCall::default();
        let mut i = 0;
        while let Some(a) = args.get(i) {
            i += 1;
            let t = a.text.as_str();
            let mut value = |inline: &str| -> Option<String> {
                if inline.is_empty() {
                    let v = args.get(i)?;
                    i += 1;
                    (!v.dynamic).then(|| v.text.clone())
                } else {
                    Some(inline.to_string())
                }
            };
            if let Some(rest) = t.strip_prefix("--") {
                let (name, inline) = rest.split_once('=').unwrap_or((rest, ""));
                match name {
                    "just-print" | "dry-run" | "recon" | "question" | "print-data-base"
                    | "touch" | "version" | "help" => return None,
                    "directory" => call.dir = Some(value(inline)?),
                    "file" | "makefile" => call.file = Some(value(inline)?),
                    "include-dir" | "what-if" | "new-file" | "assume-new" | "old-file"
                    | "assume-old" | "eval"
                        if inline.is_empty() =>
                    {
                        i += 1;
                    }
                    _ => {}
                }
                continue;
            }
            if t.starts_with('-') && t.len() > 1 {
                let flags = &t[1..];
                for (k, ch) in flags.char_indices() {
                    match ch {
                        'n' | 'q' | 'p' | 't' | 'v' => return None,
                        'C' | 'f' => {
                            let v = value(&flags[k + 1..])?;
                            if ch == 'C' {
                                call.dir = Some(match call.dir.take() {
                                    Some(d) if !v.starts_with('/') => format!("{d}/{v}"),
                                    _ => v,
                                });
                            } else {
                                call.file = Some(v);
                            }
                            break;
                        }
                        'I' | 'o' | 'W' | 'l' => {
                            if flags[k + 1..].is_empty() {
                                i += 1;
                            }
                            break;
                        }
                        'j' => break,
                        _ => {}
                    }
                }
                continue;
            }
            if MAKE_VALUED.contains(&t) {
                i += 1;
                continue;
            }
            if let Some((k, v)) = t.split_once('=')
                && !k.is_empty()
                && !k.contains(char::is_whitespace)
            {
                let k = k.trim_end_matches([':', '?', '+', '!']);
                call.vars.insert(k.to_string(), v.to_string());
                continue;
            }
            if a.dynamic {
                return None;
            }
            call.targets.push(t.to_string());
        }
        Some(call)
    }
}

/// One rule of a Makefile.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(super) struct MakeRule {
    pub(super) targets: Vec<String>,
    pub(super) prereqs: Vec<String>,
    pub(super) recipe: Vec<String>,
}

/// What a Makefile says, as far as recipes go: variables, explicit rules, the default goal.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Makefile {
    pub(super) vars: HashMap<String, String>,
    pub(super) rules: Vec<MakeRule>,
    pub(super) default_goal: Option<String>,
}

/// Variables make defines by itself (GNU make's built-in rules).
pub(super) const MAKE_DEFAULTS: &[(&str, &str)] = &[
    ("MAKE", "make"),
    ("CC", "cc"),
    ("CXX", "g++"),
    ("CPP", "cc -E"),
    ("AR", "ar"),
    ("AS", "as"),
    ("LD", "ld"),
    ("RM", "rm -f"),
    ("SHELL", "/bin/sh"),
    ("LEX", "lex"),
    ("YACC", "yacc"),
    ("FC", "f77"),
];

/// Directives that are not rules or assignments (conditionals keep both branches).
pub(super) const MAKE_DIRECTIVES: &[&str] = &[
    "ifeq", "ifneq", "ifdef", "ifndef", "else", "endif", "include", "-include", "sinclude",
    "vpath", "unexport", "undefine", "private",
];

/// A line without its comment (`#` not escaped).
pub(super) fn strip_comment(l: &str) -> &str {
    let b = l.as_bytes();
    for (i, &ch) in b.iter().enumerate() {
        if ch == b'#' && (i == 0 || b[i - 1] != b'\\') {
            return &l[..i];
        }
    }
    l
}

/// `NAME = value`, `NAME := value`, `NAME ?= value`, `NAME += value`, `NAME != cmd`: the
/// name, the operator's last-but-`=` part and the value.
pub(super) fn assignment(t: &str) -> Option<(&str, &str, &str)> {
    let eq = t.find('=')?;
    let head = &t[..eq];
    let (name, op) = ["::", ":", "?", "+", "!"]
        .iter()
        .find_map(|op| head.strip_suffix(op).map(|n| (n, *op)))
        .unwrap_or((head, ""));
    let name = name.trim();
    if name.is_empty() || name.contains([':', ' ', '\t']) {
        return None;
    }
    Some((name, op, t[eq + 1..].trim()))
}

impl Makefile {
    pub(super) fn parse(text: &str) -> Makefile {
        let mut mf = Makefile::default();
        let lines: Vec<&str> = text.lines().collect();
        let mut current: Option<usize> = None;
        let mut in_define = false;
        let mut i = 0;
        while let Some(&raw) = lines.get(i) {
            i += 1;
            if in_define {
                in_define = !raw.trim_start().starts_with("endef");
                continue;
            }
            if let Some(recipe) = raw.strip_prefix('\t') {
                let Some(r) = current.and_then(|r| mf.rules.get_mut(r)) else {
                    continue;
                };
                let mut l = recipe.to_string();
                // The shell gets a continued line with its backslash-newlines.
                while l.ends_with('\\')
                    && let Some(next) = lines.get(i)
                {
                    l.push('\n');
                    l.push_str(next.strip_prefix('\t').unwrap_or(next));
                    i += 1;
                }
                r.recipe.push(l);
                continue;
            }
            let mut l = raw.to_string();
            while l.ends_with('\\')
                && let Some(next) = lines.get(i)
            {
                l.pop();
                l.push(' ');
                l.push_str(next.trim_start());
                i += 1;
            }
            let t = strip_comment(&l).trim();
            if t.is_empty() {
                continue;
            }
            let first = t.split_whitespace().next().unwrap_or("");
            if first == "define"
                || (matches!(first, "export" | "override") && t.contains(" define "))
            {
                in_define = true;
                current = None;
                continue;
            }
            if MAKE_DIRECTIVES.contains(&first) {
                continue;
            }
            let t = t
                .strip_prefix("export ")
                .or_else(|| t.strip_prefix("override "))
                .unwrap_or(t)
                .trim();
            if let Some((name, op, value)) = assignment(t) {
                current = None;
                let v = match op {
                    "+" => match mf.vars.get(name) {
                        Some(old) => format!("{old} {value}"),
                        None => value.to_string(),
                    },
                    "?" if mf.vars.contains_key(name) => continue,
                    // `!=`: the output of a shell command, only known at run time.
                    "!" => format!("$(shell {value})"),
                    _ => value.to_string(),
                };
                if name == ".DEFAULT_GOAL" {
                    mf.default_goal = Some(v.trim().to_string());
                }
                mf.vars.insert(name.to_string(), v);
                continue;
            }
            let Some(colon) = t.find(':') else {
                current = None;
                continue;
            };
            // Targets and prerequisites are expanded when the rule is read.
            let none = HashMap::new();
            let targets: Vec<String> = mf
                .expand(&t[..colon], None, &none, 0)
                .split_whitespace()
                .map(str::to_string)
                .collect();
            let rest = t[colon + 1..].trim_start_matches(':');
            let (prereqs, inline) = rest.split_once(';').unwrap_or((rest, ""));
            if prereqs.contains('=') || targets.is_empty() {
                // A target-specific variable (`t: VAR = x`).
                current = None;
                continue;
            }
            let prereqs: Vec<String> = mf
                .expand(prereqs, None, &none, 0)
                .split_whitespace()
                .filter(|p| *p != "|")
                .map(str::to_string)
                .collect();
            if mf.default_goal.is_none()
                && let Some(first) = targets
                    .iter()
                    .find(|t| !t.starts_with('.') && !t.contains('%'))
            {
                mf.default_goal = Some(first.clone());
            }
            let mut rule = MakeRule {
                targets,
                prereqs,
                recipe: Vec::new(),
            };
            if !inline.trim().is_empty() {
                rule.recipe.push(inline.trim().to_string());
            }
            mf.rules.push(rule);
            current = Some(mf.rules.len() - 1);
        }
        mf
    }

    /// The recipe lines of `goals` (the default goal when empty), prerequisites first, each
    /// with its target, expanded as make would and without its `@` / `-` / `+` prefixes.
    pub(super) fn recipes(
        &self,
        goals: &[String],
        cmdline: &HashMap<String, String>,
    ) -> Vec<(String, String)> {
        let goals: Vec<String> = if goals.is_empty() {
            self.default_goal.iter().cloned().collect()
        } else {
            goals.to_vec()
        };
        let mut out = Vec::new();
        let mut seen: HashSet<String> = HashSet::new();
        for g in goals {
            self.walk(&g, 0, cmdline, &mut seen, &mut out);
        }
        out
    }

    pub(super) fn walk(
        &self,
        target: &str,
        depth: usize,
        cmdline: &HashMap<String, String>,
        seen: &mut HashSet<String>,
        out: &mut Vec<(String, String)>,
    ) {
        if depth > crate::shell::MAX_DEPTH
            || seen.len() >= MAX_MAKE_TARGETS
            || !seen.insert(target.to_string())
        {
            return;
        }
        let rules: Vec<&MakeRule> = self
            .rules
            .iter()
            .filter(|r| r.targets.iter().any(|t| t == target))
            .collect();
        for r in &rules {
            for p in &r.prereqs {
                self.walk(p, depth + 1, cmdline, seen, out);
            }
        }
        for r in rules {
            let auto = Auto {
                target,
                prereqs: &r.prereqs,
            };
            for line in &r.recipe {
                let l = line.trim_start_matches(['@', '-', '+', ' ', '\t']);
                let l = self.expand(l, Some(&auto), cmdline, 0);
                if !l.trim().is_empty() {
                    out.push((target.to_string(), l));
                }
            }
        }
    }

    /// The value of variable `name`, expanded; `None` when make does not know it here.
    pub(super) fn var(
        &self,
        name: &str,
        auto: Option<&Auto<'_>>,
        cmdline: &HashMap<String, String>,
        depth: usize,
    ) -> Option<String> {
        let v = cmdline
            .get(name)
            .or_else(|| self.vars.get(name))
            .map(String::as_str)
            .or_else(|| {
                MAKE_DEFAULTS
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| *v)
            })?;
        Some(self.expand(v, auto, cmdline, depth + 1))
    }

    /// Expand make references in `s`: `$$` → `$`, known variables and automatic variables
    /// by their value, `$(shell CMD)` as the shell's `$(CMD)`, and what make cannot know
    /// here (a variable from the environment, a function) as a shell variable
    /// (`${NAME}`), which the shell lens treats as only known at run time.
    pub(super) fn expand(
        &self,
        s: &str,
        auto: Option<&Auto<'_>>,
        cmdline: &HashMap<String, String>,
        depth: usize,
    ) -> String {
        if depth > 16 || !s.contains('$') {
            return s.to_string();
        }
        let mut out = String::with_capacity(s.len());
        let mut chars = s.char_indices().peekable();
        while let Some((i, ch)) = chars.next() {
            if ch != '$' {
                out.push(ch);
                continue;
            }
            let Some(&(j, next)) = chars.peek() else {
                out.push('$');
                break;
            };
            chars.next();
            match next {
                '$' => out.push('$'),
                '(' | '{' => {
                    let close = if next == '(' { ')' } else { '}' };
                    let mut level = 1;
                    let mut end = None;
                    for (k, c2) in chars.by_ref() {
                        if c2 == next {
                            level += 1;
                        } else if c2 == close {
                            level -= 1;
                            if level == 0 {
                                end = Some(k);
                                break;
                            }
                        }
                    }
                    let Some(end) = end else {
                        out.push_str(&s[i..]);
                        break;
                    };
                    let inner = &s[j + 1..end];
                    out.push_str(&self.reference(inner, auto, cmdline, depth));
                }
                c2 => {
                    let name = c2.to_string();
                    out.push_str(&self.reference(&name, auto, cmdline, depth));
                }
            }
        }
        out
    }

    /// The expansion of one reference (`VAR`, `@`, `shell CMD`, `wildcard *.c`).
    pub(super) fn reference(
        &self,
        inner: &str,
        auto: Option<&Auto<'_>>,
        cmdline: &HashMap<String, String>,
        depth: usize,
    ) -> String {
        if let Some(a) = auto {
            match inner {
                "@" => return a.target.to_string(),
                "<" => return a.prereqs.first().cloned().unwrap_or_default(),
                "^" | "+" | "?" => return a.prereqs.join(" "),
                "*" => return String::new(),
                _ => {}
            }
        }
        if let Some(cmd) = inner.strip_prefix("shell ") {
            return format!("$({})", self.expand(cmd, auto, cmdline, depth + 1));
        }
        if !inner.contains([' ', ',', ':', '$'])
            && let Some(v) = self.var(inner, auto, cmdline, depth)
        {
            return v;
        }
        let name: String = inner
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty()
            && !inner.contains([' ', ','])
            && !name.starts_with(|c: char| c.is_ascii_digit())
        {
            format!("${{{name}}}")
        } else {
            "${MAKE_FUNCTION}".to_string()
        }
    }
}

/// Automatic variables of one recipe.
pub(super) struct Auto<'a> {
    pub(super) target: &'a str,
    pub(super) prereqs: &'a [String],
}
