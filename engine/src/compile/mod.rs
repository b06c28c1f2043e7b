//! The compile stage: the rules of one seam in, one [`SeamTable`] out, an index that answers
//! "which rules can fire for this event" in one pass per field (STYLE.md "Design answers
//! (a)").
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
//! Field indexes and lazy leaves compile on first use; errors (size limits) come out as
//! [`CompileError`]s naming the rule. Evaluating the table is the `evaluate` stage.

pub(crate) mod actions;
pub(crate) mod cache;
mod error;
pub(crate) mod globs;
pub(crate) mod literals;
pub(crate) mod pred;
pub(crate) mod regex;
pub(crate) mod table;

use std::collections::HashMap;
use std::sync::OnceLock;

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use regex_automata::meta;

pub use error::CompileError;
use literals::required_literals_each;
use pred::{Anchor, Builder, CPred, has_effect_anchor, has_index_anchor, has_program_anchor};

use crate::matcher::Matcher;
use crate::policy::{Field, Rule, RuleKind};

/// One field's multi-pattern index: the sources, compiled on first use.
#[derive(Debug)]
pub(crate) struct FieldIndex {
    pub(crate) field: Field,
    /// Matcher buckets whose events scan this index (sorted).
    pub(crate) buckets: Vec<u32>,
    srcs: Vec<String>,
    src_leaf: Vec<u32>,
    glob_srcs: Vec<(String, u32)>,
    /// Compiled on first use.
    compiled: OnceLock<CompiledField>,
}

/// A field index, compiled.
#[derive(Debug)]
pub(crate) struct CompiledField {
    pub(crate) regex: Option<meta::Regex>,
    /// Per pattern of `regex`: its leaf bit.
    pub(crate) pat_leaf: Vec<u32>,
    pub(crate) globs: Option<GlobSet>,
    /// Per glob of `globs`: its leaf bit.
    pub(crate) glob_leaf: Vec<u32>,
    /// Patterns left out because they do not compile: (pattern, leaf bit, message).
    pub(crate) errors: Vec<(String, u32, String)>,
}

impl FieldIndex {
    /// The index compiled (on first call).
    pub(crate) fn compiled(&self) -> &CompiledField {
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
                                Err(e) => errors.push((src.clone(), *leaf, e)),
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

    /// The index if it was compiled already.
    pub(crate) fn compiled_yet(&self) -> Option<&CompiledField> {
        self.compiled.get()
    }
}

/// Regex matcher sources, their required literals, and the set compiled on first need.
pub(crate) type LazyRegexSet = (
    Vec<String>,
    literals::Required,
    OnceLock<Option<::regex::RegexSet>>,
);

/// Matcher buckets of a seam.
#[derive(Debug, Default)]
pub(crate) struct Buckets {
    pub(crate) exact: HashMap<String, u32>,
    pub(crate) regex: Option<::regex::RegexSet>,
    /// When every regex matcher has a required literal: the sources, compiled on the first
    /// subject that contains one of the literals (`regex` is then unused).
    pub(crate) lazy_regex: Option<LazyRegexSet>,
    pub(crate) regex_bucket: Vec<u32>,
    pub(crate) all: u32,
    pub(crate) count: u32,
}

/// A rule, compiled.
#[derive(Debug)]
pub(crate) struct CompiledRule {
    /// Global rule index.
    pub(crate) global: u32,
    pub(crate) kind: RuleKind,
    /// Its matcher buckets (sorted).
    pub(crate) buckets: Vec<u32>,
    pub(crate) when: Option<CPred>,
    pub(crate) unless: Option<CPred>,
}

/// Rules anchored on a shell-aware `program` test of one command-line field.
#[derive(Debug)]
pub(crate) struct ProgramIndex {
    pub(crate) field: Field,
    pub(crate) by_program: HashMap<String, Vec<u32>>,
    pub(crate) all: Vec<u32>,
}

/// One seam's compiled rules.
#[derive(Debug)]
pub(crate) struct SeamTable {
    /// The seam's rules in declaration order (local ids index this).
    pub(crate) rules: Vec<CompiledRule>,
    pub(crate) buckets: Buckets,
    /// Per bucket: local rules without an anchor (checked whenever the bucket matches).
    pub(crate) unanchored: Vec<Vec<u32>>,
    /// Per leaf bit: local rules anchored on it.
    pub(crate) anchored: Vec<Vec<u32>>,
    /// Rules anchored on a shell-aware `program` test, per command-line field.
    pub(crate) program_anchored: Vec<ProgramIndex>,
    pub(crate) fields: Vec<FieldIndex>,
    pub(crate) leaf_count: usize,
    /// Per leaf bit: the rule (global index) whose test it is.
    leaf_rule: Vec<u32>,
    /// Matcher regexes that failed to compile together (size limits).
    pub(crate) errors: Vec<CompileError>,
}

fn build_regex(patterns: &[String]) -> Result<meta::Regex, String> {
    regex::many(patterns)
}

impl SeamTable {
    /// Compile the rules `members` (global indexes into `rules`) of one seam; `home` expands
    /// `~/` in path globs.
    pub(crate) fn compile(rules: &[Rule], members: &[u32], home: &str) -> SeamTable {
        let mut b = Builder::new(home);
        let mut buckets = Buckets::default();
        let mut regex_srcs: Vec<String> = Vec::new();
        buckets.all = 0;
        buckets.count = 1;
        let mut compiled = Vec::with_capacity(members.len());
        for &g in members {
            let Some(rule) = rules.get(g as usize) else {
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
            // A rule that requires an effect test is judged on the call's effects first: its
            // regex leaves are lazy as well.
            let program_anchored = rule.when.as_ref().is_some_and(has_program_anchor);
            let effect_anchored = rule.when.as_ref().is_some_and(has_effect_anchor);
            let index_anchored = rule.when.as_ref().is_some_and(has_index_anchor);
            let lazy = program_anchored || effect_anchored || !index_anchored;
            rb.sort_unstable();
            rb.dedup();
            b.buckets = rb.clone();
            b.rule = g;
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
            match required_literals_each(&regex_srcs) {
                Some(lits) => buckets.lazy_regex = Some((regex_srcs, lits, OnceLock::new())),
                None => match ::regex::RegexSet::new(&regex_srcs) {
                    Ok(s) => buckets.regex = Some(s),
                    Err(e) => errors.push(CompileError::Matchers {
                        message: e.to_string(),
                    }),
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
        let leaf_count = b.leaf_rule.len();
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
                            // `curl.exe` is listed under `curl` too, the name a command has.
                            if let Some(name) = crate::shell::listed_name(&p) {
                                let name = name.into_owned();
                                pi.by_program.entry(name).or_default().push(local as u32);
                            }
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
            leaf_rule: b.leaf_rule,
            errors,
        }
    }

    /// The errors of a compiled field index, naming the rules the patterns belong to.
    pub(crate) fn field_errors(
        &self,
        f: &FieldIndex,
        c: &CompiledField,
        rules: &[Rule],
    ) -> Vec<CompileError> {
        c.errors
            .iter()
            .filter_map(|(pattern, leaf, message)| {
                let g = self.leaf_rule.get(*leaf as usize)?;
                let rule = rules.get(*g as usize)?;
                Some(CompileError::IndexedRegex {
                    rule: rule.id.clone(),
                    at: rule.source.clone(),
                    field: f.field.name.clone(),
                    pattern: pattern.clone(),
                    message: message.clone(),
                })
            })
            .collect()
    }
}
