//! The decision table: all loaded rules compiled per seam into an index that answers "which
//! rules fire for this event" in one pass per field (STYLE.md "Design answers (a)").
//!
//! Per seam (compiled lazily on first use, so a `PreToolUse` call never pays for other seams):
//!
//! * **matcher buckets**: every distinct exact name, every regex matcher (one `RegexSet` over
//!   all of them) and match-all; an event selects its buckets from its subject (tool name and,
//!   in Codex, its aliases);
//! * **field indexes**: for every field that predicates read, one multi-pattern regex
//!   (`regex-automata` meta regex, `MatchKind::All`) holding every `regex`, `contains`,
//!   `prefix` and string `equals` test of every rule on that field, and one `GlobSet` with
//!   every `glob`; one scan of the field's text yields every test that holds;
//! * **anchors**: a rule whose `when` requires an indexed test (a test that is not under
//!   `any`/`not`) is only looked at when that test matched, so the evaluation cost follows
//!   the number of rules that can fire, not the number of rules loaded.
//!
//! Nothing on the evaluation path parses a policy, compiles a pattern, or allocates per rule.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::OnceLock;

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use regex_automata::meta;
use regex_automata::{Input, MatchKind, PatternSet};
use serde_json::Value;

use crate::dialect::Dialect;
use crate::matcher::{Matcher, codex_aliases};
use crate::policy::{
    Field, Leaf, LoadedPolicy, PathSpec, PolicyError, PolicyMeta, Pred, Rule, RuleKind, ShellTest,
    Test,
};
use crate::seam::Seam;
use crate::shell::{BrushAnalyzer, ShellAnalysis, ShellAnalyzer, SimpleCommand, analyze_argv};

/// Where `project` and `home` are for path-aware tests.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ShellEnv {
    /// Project root (`CLAUDE_PROJECT_DIR`); `None` means "the payload's `cwd`".
    pub project: Option<String>,
    /// Home folder (`$HOME`).
    pub home: String,
}

impl ShellEnv {
    /// From the process environment: `CLAUDE_PROJECT_DIR` and `HOME`.
    pub fn from_process() -> ShellEnv {
        ShellEnv {
            project: std::env::var("CLAUDE_PROJECT_DIR")
                .ok()
                .filter(|p| !p.is_empty()),
            home: std::env::var("HOME").unwrap_or_else(|_| "/root".to_string()),
        }
    }
}

/// A rule that fired, with what its shell-aware test saw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fired {
    /// Global rule index.
    pub rule: u32,
    /// The simple command that made a shell test hold (`rm -rf / (via sudo)`).
    pub matched: Option<String>,
    /// Why a shell test could not be decided (the rule fired as a precaution).
    pub unsure: Option<String>,
}

/// A compiled predicate. Leaves refer to bits set by the field scans.
#[derive(Debug, Clone)]
enum CPred {
    All(Vec<CPred>),
    Any(Vec<CPred>),
    Not(Box<CPred>),
    /// An indexed test: holds when its bit is set.
    Bit(u32),
    /// A test evaluated directly against the payload (non-string `equals`).
    Direct {
        field: Field,
        test: Test,
    },
    /// A shell-aware test on a command-line field; its path globs compile on first use.
    Shell {
        field: Field,
        test: Box<ShellTest>,
        home: String,
        globs: OnceLock<PathGlobs>,
    },
    /// A regex / glob test that is not an index anchor: compiled on first use only, so a
    /// rule that never becomes a candidate never costs a compile.
    Lazy {
        field: Field,
        test: Test,
        /// Regex tests: a literal per pattern that any match contains (see
        /// [`required_literal`]); a text with none of them is no match, without compiling.
        literals: OnceLock<Option<Vec<String>>>,
        compiled: OnceLock<LazyMatcher>,
    },
}

/// A literal every match of `pattern` contains, read from its syntax tree (no compile): the
/// longest run of literal characters in its top-level sequence, looking into groups and
/// `+` / `{n,}` repetitions. `None` when there is none (alternations at the top, flags such as
/// `(?i)`, classes only). A haystack without the literal cannot match, so a hook process can
/// skip compiling the regex (Unicode classes make that the dominant start-up cost).
fn required_literal(pattern: &str) -> Option<String> {
    use regex_syntax::ast::{Ast, RepetitionKind, RepetitionRange};
    fn runs(ast: &Ast, cur: &mut String, best: &mut String) -> bool {
        let flush = |cur: &mut String, best: &mut String| {
            if cur.chars().count() > best.chars().count() {
                *best = cur.clone();
            }
            cur.clear();
        };
        match ast {
            Ast::Literal(l) => {
                cur.push(l.c);
                true
            }
            Ast::Concat(c) => c.asts.iter().all(|a| runs(a, cur, best)),
            Ast::Group(g) => {
                if g.flags().is_some() {
                    return false;
                }
                flush(cur, best);
                let ok = runs(&g.ast, cur, best);
                flush(cur, best);
                ok
            }
            Ast::Repetition(r) => {
                let at_least_one = match &r.op.kind {
                    RepetitionKind::OneOrMore => true,
                    RepetitionKind::Range(RepetitionRange::Exactly(n))
                    | RepetitionKind::Range(RepetitionRange::AtLeast(n))
                    | RepetitionKind::Range(RepetitionRange::Bounded(n, _)) => *n >= 1,
                    _ => false,
                };
                flush(cur, best);
                if at_least_one {
                    let ok = runs(&r.ast, cur, best);
                    flush(cur, best);
                    ok
                } else {
                    true
                }
            }
            Ast::Flags(_) => false,
            _ => {
                flush(cur, best);
                true
            }
        }
    }
    let ast = regex_syntax::ast::parse::Parser::new()
        .parse(pattern)
        .ok()?;
    let (mut cur, mut best) = (String::new(), String::new());
    if !runs(&ast, &mut cur, &mut best) {
        return None;
    }
    if cur.chars().count() > best.chars().count() {
        best = cur;
    }
    (!best.is_empty()).then_some(best)
}

/// One required literal per pattern of a regex list, or `None` if any pattern has none.
fn required_literals(patterns: &[String]) -> Option<Vec<String>> {
    patterns.iter().map(|p| required_literal(p)).collect()
}

fn lazy_compile(test: &Test) -> LazyMatcher {
    match test {
        Test::Regex(p) => regex::RegexSet::new(p)
            .map(LazyMatcher::Regex)
            .unwrap_or(LazyMatcher::Broken),
        Test::Glob(g) => {
            let mut b = GlobSetBuilder::new();
            for x in g {
                if let Ok(glob) = GlobBuilder::new(x).literal_separator(true).build() {
                    b.add(glob);
                }
            }
            b.build()
                .map(LazyMatcher::Glob)
                .unwrap_or(LazyMatcher::Broken)
        }
        _ => LazyMatcher::Broken,
    }
}

/// The compiled form of a lazy leaf.
#[derive(Debug, Clone)]
enum LazyMatcher {
    Regex(regex::RegexSet),
    Glob(GlobSet),
    /// The pattern did not compile (size limits): the leaf never holds.
    Broken,
}

/// Three-valued result of a shell test.
enum Tri {
    Yes(String),
    No,
    Unknown(String),
}

/// Glob operands expanded on disk during one evaluation, by (operand, working directory):
/// every rule with a path test sees the same expansion, read from the file system once.
type GlobCache = RefCell<HashMap<(String, Option<String>), Rc<Vec<String>>>>;

struct EvalCtx<'a> {
    payload: &'a Value,
    expanded: GlobCache,
    bits: &'a [u64],
    env: &'a ShellEnv,
    shell: RefCell<Vec<(String, Rc<ShellAnalysis>)>>,
    unsure: RefCell<Option<String>>,
    matched: RefCell<Option<String>>,
}

impl EvalCtx<'_> {
    fn analysis(&self, field: &Field) -> Option<Rc<ShellAnalysis>> {
        if let Some((_, a)) = self.shell.borrow().iter().find(|(n, _)| *n == field.name) {
            return Some(a.clone());
        }
        let cwd = self.payload.get("cwd").and_then(Value::as_str);
        if field.name == "paths" {
            let a = Rc::new(crate::shell::tool_paths(self.payload));
            self.shell
                .borrow_mut()
                .push((field.name.clone(), a.clone()));
            return Some(a);
        }
        let a = match field.resolve(self.payload)? {
            Value::String(s) => BrushAnalyzer.analyze(s, cwd),
            Value::Array(items) => {
                let argv: Vec<String> = items
                    .iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect();
                analyze_argv(&argv, cwd)
            }
            _ => return None,
        };
        let a = Rc::new(a);
        self.shell
            .borrow_mut()
            .push((field.name.clone(), a.clone()));
        Some(a)
    }
}

impl CPred {
    fn eval(&self, cx: &EvalCtx<'_>, positive: bool) -> bool {
        match self {
            // An undecidable branch counts as a match (fail closed), but a definite answer
            // elsewhere decides: `any` with a definite match, or `all` with a definite miss,
            // is no longer "unsure" (an unsure branch must not hide a certain deny).
            CPred::All(k) => {
                let before = cx.unsure.borrow().clone();
                for p in k {
                    if !p.eval(cx, positive) {
                        *cx.unsure.borrow_mut() = before;
                        return false;
                    }
                }
                true
            }
            CPred::Any(k) => {
                let before = cx.unsure.borrow().clone();
                let mut maybe: Option<Option<String>> = None;
                for p in k {
                    *cx.unsure.borrow_mut() = before.clone();
                    if p.eval(cx, positive) {
                        let now = cx.unsure.borrow().clone();
                        if now == before {
                            return true;
                        }
                        maybe.get_or_insert(now);
                    }
                }
                match maybe {
                    Some(u) => {
                        *cx.unsure.borrow_mut() = u;
                        true
                    }
                    None => {
                        *cx.unsure.borrow_mut() = before;
                        false
                    }
                }
            }
            CPred::Not(p) => !p.eval(cx, !positive),
            CPred::Bit(b) => bit(cx.bits, *b as usize),
            CPred::Direct { field, test } => direct(field, test, cx.payload),
            CPred::Lazy {
                field,
                test,
                literals,
                compiled,
            } => {
                let Some(text) = field.resolve_text(cx.payload) else {
                    return false;
                };
                if compiled.get().is_none()
                    && literals
                        .get_or_init(|| match test {
                            Test::Regex(p) => required_literals(p),
                            _ => None,
                        })
                        .as_ref()
                        .is_some_and(|ls| !ls.iter().any(|l| text.contains(l.as_str())))
                {
                    return false;
                }
                let m = compiled.get_or_init(|| lazy_compile(test));
                match m {
                    LazyMatcher::Regex(set) => set.is_match(&text),
                    LazyMatcher::Glob(set) => set.is_match(text.as_ref()),
                    LazyMatcher::Broken => {
                        // Fail closed: a test that cannot be compiled cannot clear anything.
                        if positive && cx.unsure.borrow().is_none() {
                            *cx.unsure.borrow_mut() = Some(format!(
                                "the {} test on `{}` does not compile (size limit)",
                                test.name(),
                                field.name
                            ));
                        }
                        positive
                    }
                }
            }
            CPred::Shell {
                field,
                test,
                home,
                globs,
            } => {
                let globs = globs.get_or_init(|| PathGlobs::build(test, home));
                let Some(a) = cx.analysis(field) else {
                    return false;
                };
                match eval_shell(test, globs, &a, cx.env, cx.payload, &cx.expanded) {
                    Tri::Yes(m) => {
                        if positive && cx.matched.borrow().is_none() {
                            *cx.matched.borrow_mut() = Some(m);
                        }
                        true
                    }
                    Tri::No => false,
                    Tri::Unknown(why) => {
                        // Fail closed: an undecidable test counts against the agent.
                        if positive && cx.unsure.borrow().is_none() {
                            *cx.unsure.borrow_mut() = Some(why);
                        }
                        positive
                    }
                }
            }
        }
    }

    /// Compile every lazy leaf now, reporting the ones that fail (`seamguard check`).
    fn force(&self, errors: &mut Vec<String>, rule: &str) {
        match self {
            CPred::All(k) | CPred::Any(k) => k.iter().for_each(|p| p.force(errors, rule)),
            CPred::Not(p) => p.force(errors, rule),
            CPred::Lazy {
                field,
                test,
                compiled,
                ..
            } => {
                let m = compiled.get_or_init(|| lazy_compile(test));
                if matches!(m, LazyMatcher::Broken) {
                    errors.push(format!(
                        "rule `{rule}`: the {} test on `{}` does not compile",
                        test.name(),
                        field.name
                    ));
                }
            }
            CPred::Shell {
                test, home, globs, ..
            } => {
                let _ = globs.get_or_init(|| PathGlobs::build(test, home));
            }
            CPred::Bit(_) | CPred::Direct { .. } => {}
        }
    }

    /// An indexed leaf that must hold for the whole predicate to hold.
    fn anchor(&self) -> Option<Anchor> {
        match self {
            CPred::Bit(b) => Some(Anchor::Bit(*b)),
            CPred::Shell { field, test, .. } if !test.programs.is_empty() => {
                Some(Anchor::Programs(field.clone(), test.programs.clone()))
            }
            CPred::All(k) => k.iter().find_map(CPred::anchor),
            _ => None,
        }
    }
}

/// Whether a predicate requires a shell test with `program` (so it can be anchored on it).
fn has_program_anchor(p: &Pred) -> bool {
    match p {
        Pred::Leaf(Leaf {
            test: Test::Shell(t),
            ..
        }) => !t.programs.is_empty(),
        Pred::All(k) => k.iter().any(has_program_anchor),
        _ => false,
    }
}

/// Whether a predicate requires an indexable test (regex, contains, prefix, string equals,
/// glob) at its top level.
fn has_index_anchor(p: &Pred) -> bool {
    match p {
        Pred::Leaf(l) => match &l.test {
            Test::Regex(_) | Test::Contains(_) | Test::Prefix(_) | Test::Glob(_) => true,
            Test::Equals(v) => v.iter().all(Value::is_string),
            Test::Shell(_) => false,
        },
        Pred::All(k) => k.iter().any(has_index_anchor),
        _ => false,
    }
}

enum Anchor {
    Bit(u32),
    Programs(Field, Vec<String>),
}

fn bit(bits: &[u64], i: usize) -> bool {
    bits.get(i / 64)
        .is_some_and(|w| w & (1u64 << (i % 64)) != 0)
}

fn set_bit(bits: &mut [u64], i: usize) {
    if let Some(w) = bits.get_mut(i / 64) {
        *w |= 1u64 << (i % 64);
    }
}

fn direct(field: &Field, test: &Test, payload: &Value) -> bool {
    let Some(v) = field.resolve(payload) else {
        return false;
    };
    let text = || match v {
        Value::String(s) => std::borrow::Cow::Borrowed(s.as_str()),
        other => std::borrow::Cow::Owned(other.to_string()),
    };
    match test {
        Test::Equals(vals) => vals.iter().any(|x| match (x, v) {
            (Value::String(a), _) => a.as_str() == text().as_ref(),
            (a, b) => a == b,
        }),
        Test::Contains(cs) => {
            let t = text();
            cs.iter().any(|c| t.contains(c.as_str()))
        }
        Test::Prefix(ps) => {
            let t = text();
            ps.iter().any(|c| t.starts_with(c.as_str()))
        }
        // Regex and glob tests are indexed or lazy; shell tests are evaluated elsewhere.
        _ => false,
    }
}

fn base(p: &str) -> &str {
    p.rsplit('/').next().unwrap_or(p)
}

fn cmd_flags(c: &SimpleCommand) -> Vec<String> {
    let mut out = Vec::new();
    for a in &c.args {
        let t = a.text.as_str();
        if t == "--" {
            break;
        }
        if let Some(long) = t.strip_prefix("--") {
            if !long.is_empty() {
                out.push(format!("--{}", long.split('=').next().unwrap_or(long)));
            }
        } else if t.len() > 1 && t.starts_with('-') {
            out.extend(t.chars().skip(1).map(|ch| format!("-{ch}")));
        }
    }
    out
}

fn positionals(c: &SimpleCommand) -> Vec<&crate::shell::Arg> {
    let mut out = Vec::new();
    let mut after = false;
    let git = base(&c.program) == "git";
    let mut skip_next = false;
    for a in &c.args {
        if skip_next {
            skip_next = false;
            continue;
        }
        let t = a.text.as_str();
        if after {
            out.push(a);
            continue;
        }
        if t == "--" {
            after = true;
            continue;
        }
        if git
            && out.is_empty()
            && matches!(
                t,
                "-C" | "-c"
                    | "--git-dir"
                    | "--work-tree"
                    | "--namespace"
                    | "--config-env"
                    | "--super-prefix"
            )
        {
            skip_next = true;
            continue;
        }
        if t.starts_with('-') && t.len() > 1 {
            continue;
        }
        out.push(a);
    }
    out
}

/// The glob specs of a shell test's `path_inside` / `path_outside` (`~/` expanded).
///
/// Matched in place with `fast_glob` (no compile step: a hook process judges one command, and
/// building a `GlobSet` per rule cost more than the whole evaluation); a pattern `fast_glob`
/// cannot read falls back to a compiled `globset` matcher. Both read `*` as not crossing `/`.
#[derive(Debug, Clone, Default)]
struct PathGlobs {
    inside: GlobList,
    outside: GlobList,
}

#[derive(Debug, Clone, Default)]
struct GlobList {
    fast: Vec<String>,
    compiled: Vec<globset::GlobMatcher>,
}

impl GlobList {
    fn is_match(&self, path: &str) -> bool {
        self.fast.iter().any(|g| fast_glob::glob_match(g, path))
            || self.compiled.iter().any(|m| m.is_match(path))
    }
}

impl PathGlobs {
    fn build(t: &ShellTest, home: &str) -> PathGlobs {
        let list = |specs: &[PathSpec]| {
            let mut out = GlobList::default();
            for spec in specs {
                if let PathSpec::Glob(g) = spec {
                    let g = match g.strip_prefix("~/") {
                        Some(rest) => format!("{}/{rest}", home.trim_end_matches('/')),
                        None => g.clone(),
                    };
                    // A leading `!` negates in fast_glob; in a policy it is a literal.
                    if !g.starts_with('!') && fast_glob::validate(&g).is_ok() {
                        out.fast.push(g);
                    } else if let Ok(glob) = GlobBuilder::new(&g).literal_separator(true).build() {
                        out.compiled.push(glob.compile_matcher());
                    }
                }
            }
            out
        };
        PathGlobs {
            inside: list(&t.path_inside),
            outside: list(&t.path_outside),
        }
    }
}

/// Whether `path` is in one of `specs` (`project`, `home`, or one of the globs).
fn path_in(
    specs: &[PathSpec],
    globs: &GlobList,
    path: &str,
    env: &ShellEnv,
    cwd: Option<&str>,
) -> bool {
    specs.iter().any(|spec| match spec {
        PathSpec::Project => {
            let root = env.project.as_deref().or(cwd);
            root.and_then(|r| crate::paths::normalize(r, None, &env.home))
                .is_some_and(|r| crate::paths::is_inside(path, &r))
        }
        PathSpec::Home => crate::paths::normalize(&env.home, None, &env.home)
            .is_some_and(|h| crate::paths::is_inside(path, &h)),
        PathSpec::Glob(_) => false,
    }) || globs.is_match(path)
}

fn eval_shell(
    t: &ShellTest,
    globs: &PathGlobs,
    a: &ShellAnalysis,
    env: &ShellEnv,
    payload: &Value,
    cache: &GlobCache,
) -> Tri {
    let payload_cwd = payload.get("cwd").and_then(Value::as_str);
    let mut unknown: Option<String> = None;
    for c in &a.commands {
        if c.program.is_empty() && t.programs.is_empty() && t.subcommands.is_empty() {
            // A bare redirection (`> file`): only path tests apply.
        } else if c.program.is_empty() {
            continue;
        }
        let mut maybe: Option<String> = None;
        if !t.programs.is_empty() {
            if c.dynamic_program {
                maybe = Some(format!("cannot tell which program `{}` runs", c.display()));
            } else if !t
                .programs
                .iter()
                .any(|p| p == base(&c.program) || p == &c.program)
            {
                continue;
            }
        }
        let pos = positionals(c);
        if !t.subcommands.is_empty() {
            match pos.first() {
                Some(s) if s.dynamic => {
                    maybe = Some(format!("cannot tell the subcommand of `{}`", c.display()))
                }
                Some(s) if t.subcommands.contains(&s.text) => {}
                _ => continue,
            }
        }
        if t.is_push() {
            if base(&c.program) != "git" {
                continue;
            }
            match pos.first() {
                Some(s) if s.text == "push" => {}
                Some(s) if s.dynamic => {
                    maybe = Some(format!("cannot tell the subcommand of `{}`", c.display()));
                }
                _ => continue,
            }
            let fl = cmd_flags(c);
            let refspecs: Vec<&crate::shell::Arg> = pos.iter().skip(2).copied().collect();
            let force = fl.iter().any(|f| {
                matches!(
                    f.as_str(),
                    "--force" | "-f" | "--force-with-lease" | "--mirror" | "--force-if-includes"
                )
            }) || refspecs.iter().any(|r| r.text.starts_with('+'));
            let delete = fl.iter().any(|f| matches!(f.as_str(), "--delete" | "-d"))
                || refspecs.iter().any(|r| r.text.starts_with(':'));
            if t.push_force && !force {
                continue;
            }
            if t.push_delete && !delete {
                continue;
            }
            if !t.push_to.is_empty() {
                let all_refs = fl
                    .iter()
                    .any(|f| matches!(f.as_str(), "--mirror" | "--all"));
                let targets: Vec<Option<String>> = refspecs
                    .iter()
                    .map(|r| {
                        if r.dynamic {
                            return None;
                        }
                        let t = r.text.trim_start_matches('+');
                        let dst = t.rsplit_once(':').map_or(t, |(_, d)| d);
                        let dst = dst.strip_prefix("refs/heads/").unwrap_or(dst);
                        (!dst.is_empty() && dst != "HEAD").then(|| dst.to_string())
                    })
                    .collect();
                let hit = targets.iter().flatten().any(|d| t.push_to.contains(d));
                if !hit {
                    if all_refs || targets.is_empty() || targets.iter().any(Option::is_none) {
                        maybe = Some(format!(
                            "cannot tell which branch `{}` updates (no explicit destination)",
                            c.display()
                        ));
                    } else {
                        continue;
                    }
                }
            }
        }
        if !t.flags_any.is_empty() || !t.flags_all.is_empty() || !t.flags_none.is_empty() {
            let fl = cmd_flags(c);
            let has = |set: &Vec<String>| set.iter().all(|f| fl.contains(f));
            if !t.flags_any.is_empty() && !t.flags_any.iter().any(has) {
                continue;
            }
            if !t.flags_all.iter().all(has) {
                continue;
            }
            if t.flags_none.iter().any(has) {
                continue;
            }
        }
        let mut operands: Vec<&crate::shell::Arg> = if t.subcommands.is_empty() {
            pos.clone()
        } else {
            pos.iter().skip(1).copied().collect()
        };
        // Search and edit tools take a pattern or script before their files (case PP-01:
        // `grep -n '.env' .gitignore` reads .gitignore, not .env).
        if matches!(
            base(&c.program),
            "grep" | "egrep" | "fgrep" | "rg" | "ag" | "ack" | "sed" | "awk" | "gawk" | "mawk"
        ) && !cmd_flags(c).iter().any(|f| {
            matches!(
                f.as_str(),
                "-e" | "-f" | "--regexp" | "--file" | "--expression"
            )
        }) && !operands.is_empty()
        {
            operands.remove(0);
        }
        if !t.args_any.is_empty() && !operands.iter().any(|o| t.args_any.contains(&o.text)) {
            if operands.iter().any(|o| o.dynamic) {
                maybe = Some(format!(
                    "an argument of `{}` is only known at run time",
                    c.display()
                ));
            } else {
                continue;
            }
        }
        if !t.path_inside.is_empty() || !t.path_outside.is_empty() {
            let cwd = c.cwd.as_deref().or(payload_cwd);
            let mut any_ok = false;
            let mut any_dynamic = false;
            for o in operands.iter().copied().chain(c.redirects.iter()) {
                if o.dynamic {
                    any_dynamic = true;
                    continue;
                }
                // A glob names what the shell will expand it to: `cat .en?` reads `.env`.
                let expanded: Option<Rc<Vec<String>>> =
                    o.text.contains(['*', '?', '[']).then(|| {
                        cache
                            .borrow_mut()
                            .entry((o.text.clone(), cwd.map(str::to_string)))
                            .or_insert_with(|| {
                                Rc::new(crate::paths::expand_glob(&o.text, cwd, &env.home))
                            })
                            .clone()
                    });
                if let Some(expanded) = expanded.filter(|e| !e.is_empty()) {
                    let hit = expanded.iter().any(|p| {
                        (t.path_inside.is_empty()
                            || path_in(&t.path_inside, &globs.inside, p, env, payload_cwd))
                            && (t.path_outside.is_empty()
                                || !path_in(&t.path_outside, &globs.outside, p, env, payload_cwd))
                    });
                    if hit {
                        any_ok = true;
                        break;
                    }
                }
                let Some(p) = crate::paths::normalize(&o.text, cwd, &env.home) else {
                    // Relative, no working directory: judged by its own components
                    // (`paths::unknown_cwd_path`); `project` / `home` stay undecided.
                    let p = crate::paths::unknown_cwd_path(&o.text);
                    let Some(p) = p.filter(|_| {
                        !t.path_inside
                            .iter()
                            .chain(&t.path_outside)
                            .any(|s| matches!(s, PathSpec::Project | PathSpec::Home))
                    }) else {
                        any_dynamic = true;
                        continue;
                    };
                    let inside_ok = t.path_inside.is_empty()
                        || path_in(&t.path_inside, &globs.inside, &p, env, None);
                    let outside_ok = t.path_outside.is_empty()
                        || !path_in(&t.path_outside, &globs.outside, &p, env, None);
                    if inside_ok && outside_ok {
                        any_ok = true;
                        break;
                    }
                    continue;
                };
                let inside_ok = t.path_inside.is_empty()
                    || path_in(&t.path_inside, &globs.inside, &p, env, payload_cwd);
                let outside_ok = t.path_outside.is_empty()
                    || !path_in(&t.path_outside, &globs.outside, &p, env, payload_cwd);
                if inside_ok && outside_ok {
                    any_ok = true;
                    break;
                }
            }
            // Without a project directory (no CLAUDE_PROJECT_DIR, no cwd) "inside / outside
            // the project" cannot be decided.
            let project_unknown = env.project.is_none()
                && payload_cwd.is_none()
                && t.path_inside
                    .iter()
                    .chain(&t.path_outside)
                    .any(|s| *s == PathSpec::Project);
            if project_unknown {
                maybe = Some(format!(
                    "no project directory is known for `{}`",
                    c.display()
                ));
            } else if !any_ok {
                if any_dynamic {
                    maybe = Some(format!(
                        "a path of `{}` is only known at run time",
                        c.display()
                    ));
                } else {
                    continue;
                }
            }
        }
        match maybe {
            None => return Tri::Yes(c.display()),
            Some(m) => {
                if unknown.is_none() {
                    unknown = Some(m);
                }
            }
        }
    }
    if let Some(u) = unknown {
        return Tri::Unknown(u);
    }
    if let Some(u) = &a.unsure {
        return Tri::Unknown(u.clone());
    }
    Tri::No
}

#[derive(Debug)]
struct FieldIndex {
    field: Field,
    /// Matcher buckets whose events scan this index (sorted).
    buckets: Vec<u32>,
    srcs: Vec<String>,
    src_leaf: Vec<u32>,
    glob_srcs: Vec<(String, u32)>,
    /// Compiled on first use.
    compiled: OnceLock<CompiledField>,
}

#[derive(Debug)]
struct CompiledField {
    regex: Option<meta::Regex>,
    pat_leaf: Vec<u32>,
    globs: Option<GlobSet>,
    glob_leaf: Vec<u32>,
    errors: Vec<String>,
}

impl FieldIndex {
    fn compiled(&self) -> &CompiledField {
        self.compiled.get_or_init(|| {
            let mut errors = Vec::new();
            let mut pat_leaf = self.src_leaf.clone();
            let regex = if self.srcs.is_empty() {
                None
            } else {
                match build_regex(&self.srcs) {
                    Ok(r) => Some(r),
                    Err(_) => {
                        // Find the culprits one by one, report them, keep the rest.
                        let mut keep = Vec::new();
                        let mut keep_leaf = Vec::new();
                        for (src, leaf) in self.srcs.iter().zip(&self.src_leaf) {
                            match build_regex(std::slice::from_ref(src)) {
                                Ok(_) => {
                                    keep.push(src.clone());
                                    keep_leaf.push(*leaf);
                                }
                                Err(e) => errors.push(format!(
                                    "regex `{src}` on `{}` does not compile: {e}",
                                    self.field.name
                                )),
                            }
                        }
                        pat_leaf = keep_leaf;
                        build_regex(&keep).ok()
                    }
                }
            };
            let glob_leaf: Vec<u32> = self.glob_srcs.iter().map(|(_, l)| *l).collect();
            let globs = if self.glob_srcs.is_empty() {
                None
            } else {
                let mut gb = GlobSetBuilder::new();
                for (g, _) in &self.glob_srcs {
                    if let Ok(glob) = GlobBuilder::new(g).literal_separator(true).build() {
                        gb.add(glob);
                    }
                }
                gb.build().ok()
            };
            CompiledField {
                regex,
                pat_leaf,
                globs,
                glob_leaf,
                errors,
            }
        })
    }
}

/// Regex matcher sources, their required literals, and the set compiled on first need.
type LazyRegexSet = (Vec<String>, Vec<String>, OnceLock<Option<regex::RegexSet>>);

/// Matcher bucket of a rule.
#[derive(Debug, Default)]
struct Buckets {
    exact: HashMap<String, u32>,
    regex: Option<regex::RegexSet>,
    /// When every regex matcher has a required literal: the sources, compiled on the first
    /// subject that contains one of the literals (`regex` is then unused).
    lazy_regex: Option<LazyRegexSet>,
    regex_bucket: Vec<u32>,
    all: u32,
    count: u32,
}

#[derive(Debug)]
struct CompiledRule {
    global: u32,
    kind: RuleKind,
    buckets: Vec<u32>,
    when: Option<CPred>,
    unless: Option<CPred>,
}

/// One seam's compiled rules.
#[derive(Debug)]
struct SeamTable {
    rules: Vec<CompiledRule>,
    buckets: Buckets,
    /// Per bucket: local rules without an anchor (checked whenever the bucket matches).
    unanchored: Vec<Vec<u32>>,
    /// Per leaf bit: local rules anchored on it.
    anchored: Vec<Vec<u32>>,
    /// Rules anchored on a shell-aware `program` test, per command-line field.
    program_anchored: Vec<ProgramIndex>,
    fields: Vec<FieldIndex>,
    leaf_count: usize,
    /// Rules dropped because a pattern failed to compile (size limits).
    errors: Vec<String>,
}

/// A field index under construction: the field, the matcher buckets of its rules, its
/// (pattern, leaf) regex sources and (glob, leaf) sources.
struct FieldSources {
    field: Field,
    buckets: Vec<u32>,
    pats: Vec<(String, u32)>,
    globs: Vec<(String, u32)>,
}

struct Builder<'a> {
    fields: Vec<FieldSources>,
    /// Matcher buckets of the rule being compiled (sorted).
    buckets: Vec<u32>,
    leaf_count: u32,
    rules: &'a [Rule],
    home: String,
}

impl Builder<'_> {
    /// The index of a field for the current rule's matcher buckets: rules selected by
    /// different tools get different indexes, so an event only scans (and compiles) the
    /// patterns of rules its tool can select.
    fn field_slot(&mut self, f: &Field) -> usize {
        if let Some(i) = self
            .fields
            .iter()
            .position(|x| x.field == *f && x.buckets == self.buckets)
        {
            return i;
        }
        self.fields.push(FieldSources {
            field: f.clone(),
            buckets: self.buckets.clone(),
            pats: Vec::new(),
            globs: Vec::new(),
        });
        self.fields.len() - 1
    }

    fn leaf(&mut self, l: &Leaf, lazy: bool) -> CPred {
        if lazy {
            return match &l.test {
                Test::Regex(_) | Test::Glob(_) => CPred::Lazy {
                    field: l.field.clone(),
                    test: l.test.clone(),
                    literals: OnceLock::new(),
                    compiled: OnceLock::new(),
                },
                Test::Shell(t) => CPred::Shell {
                    field: l.field.clone(),
                    test: t.clone(),
                    home: self.home.clone(),
                    globs: OnceLock::new(),
                },
                _ => CPred::Direct {
                    field: l.field.clone(),
                    test: l.test.clone(),
                },
            };
        }
        let patterns: Vec<String> = match &l.test {
            Test::Regex(p) => p.clone(),
            Test::Contains(p) => p.iter().map(|s| regex::escape(s)).collect(),
            Test::Prefix(p) => p.iter().map(|s| format!("^{}", regex::escape(s))).collect(),
            Test::Equals(vals) if vals.iter().all(Value::is_string) => vals
                .iter()
                .filter_map(Value::as_str)
                .map(|s| format!("^{}$", regex::escape(s)))
                .collect(),
            Test::Glob(g) => {
                let id = self.leaf_count;
                self.leaf_count += 1;
                let slot = self.field_slot(&l.field);
                if let Some(fs) = self.fields.get_mut(slot) {
                    for p in g {
                        fs.globs.push((p.clone(), id));
                    }
                }
                return CPred::Bit(id);
            }
            Test::Equals(_) => {
                return CPred::Direct {
                    field: l.field.clone(),
                    test: l.test.clone(),
                };
            }
            Test::Shell(t) => {
                return CPred::Shell {
                    field: l.field.clone(),
                    test: t.clone(),
                    home: self.home.clone(),
                    globs: OnceLock::new(),
                };
            }
        };
        let id = self.leaf_count;
        self.leaf_count += 1;
        let slot = self.field_slot(&l.field);
        if let Some(fs) = self.fields.get_mut(slot) {
            for p in patterns {
                fs.pats.push((p, id));
            }
        }
        CPred::Bit(id)
    }

    /// Compile a predicate. With `lazy`, regex and glob leaves are not put into the field
    /// indexes (the rule has another anchor, or this is an `unless`): they compile on first
    /// use.
    fn pred(&mut self, p: &Pred, lazy: bool) -> CPred {
        match p {
            Pred::All(k) => CPred::All(k.iter().map(|x| self.pred(x, lazy)).collect()),
            Pred::Any(k) => CPred::Any(k.iter().map(|x| self.pred(x, lazy)).collect()),
            Pred::Not(x) => CPred::Not(Box::new(self.pred(x, lazy))),
            Pred::Leaf(l) => self.leaf(l, lazy),
        }
    }
}

fn build_regex(patterns: &[String]) -> Result<meta::Regex, String> {
    meta::Regex::builder()
        .configure(
            meta::Config::new()
                .match_kind(MatchKind::All)
                .nfa_size_limit(Some(256 << 20))
                .hybrid_cache_capacity(8 << 20),
        )
        .build_many(patterns)
        .map_err(|e| e.to_string())
}

impl SeamTable {
    fn compile(rules: &[Rule], members: &[u32], home: &str) -> SeamTable {
        let mut b = Builder {
            fields: Vec::new(),
            leaf_count: 0,
            rules,
            home: home.to_string(),
            buckets: Vec::new(),
        };
        let mut buckets = Buckets::default();
        let mut regex_srcs: Vec<String> = Vec::new();
        buckets.all = 0;
        buckets.count = 1;
        let mut compiled = Vec::with_capacity(members.len());
        for &g in members {
            let Some(rule) = b.rules.get(g as usize) else {
                continue;
            };
            let mut rb = Vec::new();
            match &rule.matcher {
                Matcher::All => rb.push(buckets.all),
                Matcher::Exact(names) => {
                    for n in names {
                        let next = buckets.count;
                        let id = *buckets.exact.entry(n.clone()).or_insert(next);
                        if id == next {
                            buckets.count += 1;
                        }
                        rb.push(id);
                    }
                }
                Matcher::Regex(src) => {
                    let id = match regex_srcs.iter().position(|s| s == src) {
                        Some(i) => buckets.regex_bucket.get(i).copied().unwrap_or(0),
                        None => {
                            regex_srcs.push(src.clone());
                            let id = buckets.count;
                            buckets.count += 1;
                            buckets.regex_bucket.push(id);
                            id
                        }
                    };
                    rb.push(id);
                }
            }
            // A rule anchored on a shell `program` needs no field index: its other leaves
            // are only looked at when the program ran, so they compile lazily.
            // A rule without any anchor is evaluated whenever its matcher matches: its leaves
            // are lazy too. Only rules anchored on an indexed test feed the field indexes.
            let program_anchored = rule.when.as_ref().is_some_and(has_program_anchor);
            let index_anchored = rule.when.as_ref().is_some_and(has_index_anchor);
            let lazy = program_anchored || !index_anchored;
            rb.sort_unstable();
            rb.dedup();
            b.buckets = rb.clone();
            let when = rule.when.as_ref().map(|p| b.pred(p, lazy));
            let unless = rule.unless.as_ref().map(|p| b.pred(p, true));
            compiled.push(CompiledRule {
                global: g,
                kind: rule.kind,
                buckets: rb,
                when,
                unless,
            });
        }
        let mut errors = Vec::new();
        if !regex_srcs.is_empty() {
            match required_literals(&regex_srcs) {
                Some(lits) => buckets.lazy_regex = Some((regex_srcs, lits, OnceLock::new())),
                None => match regex::RegexSet::new(&regex_srcs) {
                    Ok(s) => buckets.regex = Some(s),
                    Err(e) => errors.push(format!("matcher regexes do not compile together: {e}")),
                },
            }
        }
        let fields: Vec<FieldIndex> = b
            .fields
            .into_iter()
            .map(|fs| FieldIndex {
                field: fs.field,
                buckets: fs.buckets,
                srcs: fs.pats.iter().map(|(p, _)| p.clone()).collect(),
                src_leaf: fs.pats.iter().map(|(_, l)| *l).collect(),
                glob_srcs: fs.globs,
                compiled: OnceLock::new(),
            })
            .collect();
        let leaf_count = b.leaf_count as usize;
        let mut unanchored = vec![Vec::new(); buckets.count as usize];
        let mut anchored = vec![Vec::new(); leaf_count];
        let mut program_anchored: Vec<ProgramIndex> = Vec::new();
        for (local, r) in compiled.iter().enumerate() {
            match r.when.as_ref().and_then(CPred::anchor) {
                Some(Anchor::Bit(a)) => {
                    if let Some(v) = anchored.get_mut(a as usize) {
                        v.push(local as u32);
                    }
                }
                Some(Anchor::Programs(field, programs)) => {
                    let idx = match program_anchored.iter().position(|p| p.field == field) {
                        Some(i) => i,
                        None => {
                            program_anchored.push(ProgramIndex {
                                field,
                                by_program: HashMap::new(),
                                all: Vec::new(),
                            });
                            program_anchored.len() - 1
                        }
                    };
                    if let Some(pi) = program_anchored.get_mut(idx) {
                        for p in programs {
                            pi.by_program.entry(p).or_default().push(local as u32);
                        }
                        pi.all.push(local as u32);
                    }
                }
                _ => {
                    for bk in &r.buckets {
                        if let Some(v) = unanchored.get_mut(*bk as usize) {
                            v.push(local as u32);
                        }
                    }
                }
            }
        }
        SeamTable {
            rules: compiled,
            buckets,
            unanchored,
            anchored,
            program_anchored,
            fields,
            leaf_count,
            errors,
        }
    }

    fn matched_buckets(&self, subjects: &[&str], out: &mut Vec<u32>) {
        out.push(self.buckets.all);
        for s in subjects {
            if let Some(id) = self.buckets.exact.get(*s) {
                out.push(*id);
            }
            let lazy = self
                .buckets
                .lazy_regex
                .as_ref()
                .and_then(|(srcs, lits, set)| {
                    if set.get().is_none() && !lits.iter().any(|l| s.contains(l.as_str())) {
                        return None;
                    }
                    set.get_or_init(|| regex::RegexSet::new(srcs).ok()).as_ref()
                });
            if let Some(set) = self.buckets.regex.as_ref().or(lazy) {
                for i in set.matches(s).iter() {
                    if let Some(id) = self.buckets.regex_bucket.get(i) {
                        out.push(*id);
                    }
                }
            }
        }
        out.sort_unstable();
        out.dedup();
    }

    /// The rules that fire, in declaration order (local ids).
    fn fire(
        &self,
        payload: &Value,
        subjects: &[&str],
        kind: Option<RuleKind>,
        env: &ShellEnv,
    ) -> Vec<(u32, Option<String>, Option<String>)> {
        let mut buckets = Vec::with_capacity(4);
        self.matched_buckets(subjects, &mut buckets);
        let mut bits = vec![0u64; self.leaf_count.div_ceil(64)];
        let mut matched_leaves: Vec<u32> = Vec::new();
        for f in &self.fields {
            if !f.buckets.iter().any(|b| buckets.binary_search(b).is_ok()) {
                continue;
            }
            let Some(text) = f.field.resolve_text(payload) else {
                continue;
            };
            let c = f.compiled();
            if let Some(re) = &c.regex {
                let mut set = PatternSet::new(re.pattern_len());
                re.which_overlapping_matches(&Input::new(text.as_bytes()), &mut set);
                for pid in set.iter() {
                    if let Some(&leaf) = c.pat_leaf.get(pid.as_usize())
                        && !bit(&bits, leaf as usize)
                    {
                        set_bit(&mut bits, leaf as usize);
                        matched_leaves.push(leaf);
                    }
                }
            }
            if let Some(gs) = &c.globs {
                for i in gs.matches(text.as_ref()) {
                    if let Some(&leaf) = c.glob_leaf.get(i)
                        && !bit(&bits, leaf as usize)
                    {
                        set_bit(&mut bits, leaf as usize);
                        matched_leaves.push(leaf);
                    }
                }
            }
        }
        let cx = EvalCtx {
            payload,
            expanded: RefCell::new(HashMap::new()),
            bits: &bits,
            env,
            shell: RefCell::new(Vec::new()),
            unsure: RefCell::new(None),
            matched: RefCell::new(None),
        };
        let mut candidates: Vec<u32> = Vec::new();
        for b in &buckets {
            if let Some(list) = self.unanchored.get(*b as usize) {
                candidates.extend_from_slice(list);
            }
        }
        let in_bucket = |r: u32| {
            self.rules
                .get(r as usize)
                .is_some_and(|cr| cr.buckets.iter().any(|x| buckets.binary_search(x).is_ok()))
        };
        for leaf in &matched_leaves {
            if let Some(list) = self.anchored.get(*leaf as usize) {
                candidates.extend(list.iter().copied().filter(|r| in_bucket(*r)));
            }
        }
        for pi in &self.program_anchored {
            let Some(a) = cx.analysis(&pi.field) else {
                continue;
            };
            if a.unsure.is_some() || a.commands.iter().any(|c| c.dynamic_program) {
                candidates.extend(pi.all.iter().copied().filter(|r| in_bucket(*r)));
                continue;
            }
            for c in &a.commands {
                for name in [c.basename(), c.program.as_str()] {
                    if let Some(list) = pi.by_program.get(name) {
                        candidates.extend(list.iter().copied().filter(|r| in_bucket(*r)));
                    }
                }
            }
        }
        candidates.sort_unstable();
        candidates.dedup();
        let mut out = Vec::new();
        for r in candidates {
            let Some(cr) = self.rules.get(r as usize) else {
                continue;
            };
            if kind.is_some_and(|k| k != cr.kind) {
                continue;
            }
            *cx.unsure.borrow_mut() = None;
            *cx.matched.borrow_mut() = None;
            let when = cr.when.as_ref().is_none_or(|p| p.eval(&cx, true));
            if !when {
                continue;
            }
            let unsure = cx.unsure.borrow_mut().take();
            let matched = cx.matched.borrow_mut().take();
            // `unless` with an undecidable shell test does not excuse the rule (fail closed).
            if cr.unless.as_ref().is_some_and(|p| p.eval(&cx, false)) {
                continue;
            }
            out.push((r, matched, unsure));
        }
        out
    }
}

#[derive(Debug)]
struct ProgramIndex {
    field: Field,
    by_program: HashMap<String, Vec<u32>>,
    all: Vec<u32>,
}

/// A policy file's load status as the table keeps it (for loud reporting and fail-closed).
#[derive(Debug, Clone)]
pub struct LoadFailure {
    /// The policy.
    pub policy: PolicyMeta,
    /// Its error diagnostics.
    pub errors: Vec<PolicyError>,
}

/// All loaded policies compiled into per-seam indexes. Immutable, `Send + Sync`.
#[derive(Debug)]
pub struct DecisionTable {
    policies: Vec<PolicyMeta>,
    rules: Vec<Rule>,
    by_seam: Vec<Vec<u32>>,
    compiled: Vec<OnceLock<SeamTable>>,
    failures: Vec<LoadFailure>,
    env: ShellEnv,
}

impl DecisionTable {
    /// Build a table from loaded policies (in precedence order: their rules are declared in
    /// this order). Compilation of each seam happens on first use.
    pub fn new(policies: Vec<LoadedPolicy>) -> DecisionTable {
        let mut metas = Vec::new();
        let mut rules = Vec::new();
        let mut failures = Vec::new();
        for (i, p) in policies.into_iter().enumerate() {
            let errors: Vec<PolicyError> = p
                .diagnostics
                .iter()
                .filter(|d| d.severity == crate::policy::Severity::Error)
                .cloned()
                .collect();
            if !errors.is_empty() {
                failures.push(LoadFailure {
                    policy: p.meta.clone(),
                    errors,
                });
            }
            for mut r in p.rules {
                r.policy = i;
                rules.push(r);
            }
            metas.push(p.meta);
        }
        let mut by_seam = vec![Vec::new(); Seam::COUNT];
        for (i, r) in rules.iter().enumerate() {
            if let Some(v) = by_seam.get_mut(r.seam.index()) {
                v.push(i as u32);
            }
        }
        DecisionTable {
            policies: metas,
            rules,
            by_seam,
            compiled: (0..Seam::COUNT).map(|_| OnceLock::new()).collect(),
            failures,
            env: ShellEnv::from_process(),
        }
    }

    /// Set where `project` and `home` are for path-aware tests (default: the process
    /// environment's `CLAUDE_PROJECT_DIR` and `HOME`).
    pub fn with_env(mut self, env: ShellEnv) -> DecisionTable {
        self.env = env;
        self.compiled = (0..Seam::COUNT).map(|_| OnceLock::new()).collect();
        self
    }

    /// The path environment in use.
    pub fn env(&self) -> &ShellEnv {
        &self.env
    }

    fn seam_table(&self, seam: Seam) -> Option<&SeamTable> {
        let cell = self.compiled.get(seam.index())?;
        let members = self.by_seam.get(seam.index())?;
        Some(cell.get_or_init(|| SeamTable::compile(&self.rules, members, &self.env.home)))
    }

    /// Compile one seam now (it is otherwise compiled on first use).
    pub fn prepare(&self, seam: Seam) {
        let _ = self.seam_table(seam);
    }

    /// Compile every seam now (for `check` and benchmarks); returns compile errors.
    pub fn compile_all(&self) -> Vec<String> {
        let mut out = Vec::new();
        for s in Seam::ALL {
            let Some(t) = self.seam_table(s) else {
                continue;
            };
            out.extend(t.errors.iter().cloned());
            if let Some((srcs, _, _)) = &t.buckets.lazy_regex
                && let Err(e) = regex::RegexSet::new(srcs)
            {
                out.push(format!("matcher regexes do not compile together: {e}"));
            }
            for f in &t.fields {
                out.extend(f.compiled().errors.iter().cloned());
            }
            for r in &t.rules {
                for p in r.when.iter().chain(r.unless.iter()) {
                    p.force(
                        &mut out,
                        self.rules
                            .get(r.global as usize)
                            .map_or("?", |x| x.id.as_str()),
                    );
                }
            }
        }
        out
    }

    /// Compile errors of one seam (patterns that exceeded size limits).
    pub fn seam_errors(&self, seam: Seam) -> Vec<String> {
        let Some(t) = self.seam_table(seam) else {
            return Vec::new();
        };
        let mut out = t.errors.clone();
        for f in &t.fields {
            if let Some(c) = f.compiled.get() {
                out.extend(c.errors.iter().cloned());
            }
        }
        out
    }

    /// All rules, in declaration order.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// A rule by its index.
    pub fn rule(&self, i: u32) -> Option<&Rule> {
        self.rules.get(i as usize)
    }

    /// The loaded policies' settings.
    pub fn policies(&self) -> &[PolicyMeta] {
        &self.policies
    }

    /// Policies that had errors while loading.
    pub fn failures(&self) -> &[LoadFailure] {
        &self.failures
    }

    /// Number of rules at a seam.
    pub fn seam_len(&self, seam: Seam) -> usize {
        self.by_seam.get(seam.index()).map_or(0, Vec::len)
    }

    fn subjects(seam: Seam, payload: &Value, dialect: Dialect) -> Vec<&str> {
        let subject = seam
            .matcher_subject()
            .field()
            .and_then(|f| payload.get(f))
            .and_then(Value::as_str)
            .unwrap_or("");
        let mut subjects: Vec<&str> = vec![subject];
        if dialect == Dialect::Codex
            && seam.matcher_subject() == crate::seam::MatcherSubject::ToolName
        {
            subjects.extend_from_slice(codex_aliases(subject));
        }
        subjects
    }

    /// The rules that fire for a payload at `seam`, in declaration order, with the simple
    /// command a shell-aware test matched and whether a test was undecidable.
    ///
    /// `kind` restricts to hooks or guards. The matcher subject is read from the payload per
    /// the seam (HOOKS.md A4 "M"); in the Codex dialect `apply_patch` also answers to
    /// `Edit`/`Write` and `spawn_agent` to `Agent` (B2).
    pub fn fire_detailed(
        &self,
        seam: Seam,
        payload: &Value,
        dialect: Dialect,
        kind: Option<RuleKind>,
    ) -> Vec<Fired> {
        let Some(t) = self.seam_table(seam) else {
            return Vec::new();
        };
        if t.rules.is_empty() {
            return Vec::new();
        }
        let subjects = Self::subjects(seam, payload, dialect);
        t.fire(payload, &subjects, kind, &self.env)
            .into_iter()
            .filter_map(|(l, matched, unsure)| {
                t.rules.get(l as usize).map(|r| Fired {
                    rule: r.global,
                    matched,
                    unsure,
                })
            })
            .collect()
    }

    /// Indices of the rules that fire for a payload at `seam`, in declaration order.
    pub fn fire(
        &self,
        seam: Seam,
        payload: &Value,
        dialect: Dialect,
        kind: Option<RuleKind>,
    ) -> Vec<u32> {
        self.fire_detailed(seam, payload, dialect, kind)
            .into_iter()
            .map(|f| f.rule)
            .collect()
    }

    /// The reference evaluator: every rule checked one by one with freshly compiled
    /// patterns. Slow by design; used as the baseline in benchmarks and as the oracle in
    /// property tests.
    pub fn fire_naive(
        &self,
        seam: Seam,
        payload: &Value,
        dialect: Dialect,
        kind: Option<RuleKind>,
    ) -> Vec<u32> {
        let subjects = Self::subjects(seam, payload, dialect);
        let mut out = Vec::new();
        for &g in self
            .by_seam
            .get(seam.index())
            .map(Vec::as_slice)
            .unwrap_or(&[])
        {
            let Some(r) = self.rules.get(g as usize) else {
                continue;
            };
            if kind.is_some_and(|k| k != r.kind) {
                continue;
            }
            if !subjects.iter().any(|s| r.matcher.matches(s)) {
                continue;
            }
            let when = r
                .when
                .as_ref()
                .is_none_or(|p| naive_pred(p, payload, &self.env, true));
            let unless = r
                .unless
                .as_ref()
                .is_some_and(|p| naive_pred(p, payload, &self.env, false));
            if when && !unless {
                out.push(g);
            }
        }
        out
    }
}

/// Evaluate a predicate the slow, obvious way.
///
/// `positive` is the polarity: an undecidable shell test holds in positive position and
/// fails under `not` / in `unless` (fail closed either way).
pub fn naive_pred(p: &Pred, payload: &Value, env: &ShellEnv, positive: bool) -> bool {
    match p {
        Pred::All(k) => k.iter().all(|x| naive_pred(x, payload, env, positive)),
        Pred::Any(k) => k.iter().any(|x| naive_pred(x, payload, env, positive)),
        Pred::Not(x) => !naive_pred(x, payload, env, !positive),
        Pred::Leaf(l) => {
            if let Test::Shell(t) = &l.test {
                let globs = PathGlobs::build(t, &env.home);
                let cwd = payload.get("cwd").and_then(Value::as_str);
                let a = match l.field.resolve(payload) {
                    _ if l.field.name == "paths" => crate::shell::tool_paths(payload),
                    Some(Value::String(s)) => BrushAnalyzer.analyze(s, cwd),
                    Some(Value::Array(items)) => {
                        let argv: Vec<String> = items
                            .iter()
                            .filter_map(|x| x.as_str().map(str::to_string))
                            .collect();
                        analyze_argv(&argv, cwd)
                    }
                    _ => return false,
                };
                return match eval_shell(t, &globs, &a, env, payload, &RefCell::new(HashMap::new()))
                {
                    Tri::Yes(_) => true,
                    Tri::No => false,
                    Tri::Unknown(_) => positive,
                };
            }
            if let Test::Equals(vals) = &l.test
                && !vals.iter().all(Value::is_string)
            {
                return direct(&l.field, &l.test, payload);
            }
            let Some(text) = l.field.resolve_text(payload) else {
                return false;
            };
            match &l.test {
                Test::Equals(v) => v.iter().any(|x| x.as_str() == Some(text.as_ref())),
                Test::Regex(ps) => ps
                    .iter()
                    .any(|p| regex::Regex::new(p).is_ok_and(|r| r.is_match(&text))),
                Test::Glob(gs) => gs.iter().any(|g| {
                    GlobBuilder::new(g)
                        .literal_separator(true)
                        .build()
                        .is_ok_and(|g| g.compile_matcher().is_match(text.as_ref()))
                }),
                Test::Contains(cs) => cs.iter().any(|c| text.contains(c.as_str())),
                Test::Prefix(ps) => ps.iter().any(|c| text.starts_with(c.as_str())),
                Test::Shell(_) => false,
            }
        }
    }
}

#[cfg(test)]
mod literal_tests {
    use super::required_literal as lit;

    #[test]
    fn required_literals_come_from_the_syntax_tree() {
        assert_eq!(
            lit(r"\bdocker-credential-[\w-]+\s+get\b").as_deref(),
            Some("docker-credential-")
        );
        assert_eq!(lit(r"^mcp__.+__(a|b)$").as_deref(), Some("mcp__"));
        assert_eq!(lit(r"/proc/[a-z]+/environ").as_deref(), Some("/environ"));
        assert_eq!(lit(r"(?i)secret"), None);
        assert_eq!(lit(r"x(?i:secret)"), None);
        assert_eq!(lit(r"a|b"), None);
        assert_eq!(lit(r"(abc)?x").as_deref(), Some("x"));
        assert_eq!(lit(r"(abc)+x").as_deref(), Some("abc"));
        assert_eq!(lit(r"\x27ab").as_deref(), Some("'ab"));
        assert_eq!(lit(r"[a-z]+"), None);
    }
}
