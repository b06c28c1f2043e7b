//! Predicates compiled: `when` / `unless` trees whose indexable leaves became bits of the
//! field scans, the rest leaves evaluated directly or compiled on first use.
//!
//! In: a rule's [`Pred`]. Out: a [`CPred`] of the same shape (one node per node, so a trace
//! of it lines up with the policy as written) and the field-index sources it feeds.

use std::sync::OnceLock;

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use serde_json::Value;

use super::error::CompileError;
use super::globs::GlobList;
use super::globs::PathGlobs;
use crate::policy::{EffectTest, Field, Leaf, Pred, Rule, ShellTest, Test};

/// The globs of an effect test, case-insensitive: the path tests (`path_inside` /
/// `path_outside`), `body_from`, `body_from_env` and `target`.
#[derive(Debug, Clone)]
pub(crate) struct EffectGlobs {
    pub(crate) path: PathGlobs,
    pub(crate) body: PathGlobs,
    /// `earlier_read_inside` (boxed: rarely used, and it keeps [`CPred`] small).
    pub(crate) earlier: Box<PathGlobs>,
    /// `content_regex`, compiled (`None`: none given; an error: it does not compile, and
    /// the test then cannot clear anything).
    pub(crate) content: Option<Result<super::regex::RegexSet, String>>,
}

impl EffectGlobs {
    pub(crate) fn build(t: &EffectTest, home: &str) -> EffectGlobs {
        EffectGlobs {
            path: PathGlobs::build_folded(&t.shell, home, t.case_insensitive()),
            body: PathGlobs {
                inside: GlobList::build(&t.body_from, home, t.case_insensitive()),
                outside: Default::default(),
                programs: Default::default(),
            },
            earlier: Box::new(PathGlobs {
                inside: GlobList::build(&t.earlier_read_inside, home, t.case_insensitive()),
                outside: GlobList::build(&t.earlier_read_outside, home, t.case_insensitive()),
                programs: Default::default(),
            }),
            content: (!t.content_regex.is_empty())
                .then(|| super::regex::RegexSet::new(&t.content_regex)),
        }
    }
}

/// A compiled predicate. Leaves refer to bits set by the field scans.
#[derive(Debug, Clone)]
pub(crate) enum CPred {
    All(Vec<CPred>),
    Any(Vec<CPred>),
    Not(Box<CPred>),
    /// Holds when the child holds for certain (`sure`).
    Sure(Box<CPred>),
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
    /// A test on the effects of the tool call; its globs compile on first use.
    Effect {
        test: std::sync::Arc<EffectTest>,
        home: String,
        globs: OnceLock<EffectGlobs>,
    },
    /// A regex / glob test that is not an index anchor: compiled on first use only, so a
    /// rule that never becomes a candidate never costs a compile.
    Lazy {
        field: Field,
        test: Test,
        /// Regex tests: a literal per pattern that any match contains (see
        /// [`super::literals::Required`]); a text with none of them is no match,
        /// without compiling.
        literals: OnceLock<Option<super::literals::Required>>,
        /// Regex tests: every literal set each pattern requires (see
        /// [`super::literals::Conjunctions`]), read when a text holds one of `literals` and
        /// the regex is not compiled yet.
        conjunctions: OnceLock<Option<super::literals::Conjunctions>>,
        compiled: OnceLock<LazyMatcher>,
    },
}

/// The compiled form of a lazy leaf.
#[derive(Debug, Clone)]
pub(crate) enum LazyMatcher {
    Regex(super::regex::RegexSet),
    Glob(GlobSet),
    /// The pattern did not compile (size limits): the leaf never holds.
    Broken,
}

pub(crate) fn lazy_compile(test: &Test) -> LazyMatcher {
    match test {
        Test::Regex(p) => super::regex::RegexSet::new(p)
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

/// The leaf a rule is only looked at through (its candidates come from an index).
pub(crate) enum Anchor {
    Bit(u32),
    Programs(Field, Vec<String>),
}

impl CPred {
    /// Compile every lazy leaf now, reporting the ones that fail (`seamguard check`).
    pub(crate) fn force(&self, errors: &mut Vec<CompileError>, rule: &Rule) {
        match self {
            CPred::All(k) | CPred::Any(k) => k.iter().for_each(|p| p.force(errors, rule)),
            CPred::Not(p) | CPred::Sure(p) => p.force(errors, rule),
            CPred::Lazy {
                field,
                test,
                compiled,
                ..
            } => {
                let m = compiled.get_or_init(|| lazy_compile(test));
                if matches!(m, LazyMatcher::Broken) {
                    errors.push(CompileError::Test {
                        rule: rule.id.clone(),
                        at: rule.source.clone(),
                        test: test.name(),
                        field: field.name.clone(),
                    });
                }
            }
            CPred::Shell {
                test, home, globs, ..
            } => {
                let _ = globs.get_or_init(|| PathGlobs::build(test, home));
            }
            CPred::Effect {
                test, home, globs, ..
            } => {
                let _ = globs.get_or_init(|| EffectGlobs::build(test, home));
            }
            CPred::Bit(_) | CPred::Direct { .. } => {}
        }
    }

    /// An indexed leaf that must hold for the whole predicate to hold.
    pub(crate) fn anchor(&self) -> Option<Anchor> {
        match self {
            CPred::Bit(b) => Some(Anchor::Bit(*b)),
            CPred::Shell { field, test, .. } if !test.programs.is_empty() => {
                Some(Anchor::Programs(field.clone(), test.programs.to_vec()))
            }
            CPred::All(k) => k.iter().find_map(CPred::anchor),
            _ => None,
        }
    }
}

/// Whether a predicate requires a shell test with `program` (so it can be anchored on it).
pub(crate) fn has_program_anchor(p: &Pred) -> bool {
    match p {
        Pred::Leaf(Leaf {
            test: Test::Shell(t),
            ..
        }) => !t.programs.is_empty(),
        Pred::All(k) => k.iter().any(has_program_anchor),
        _ => false,
    }
}

/// Whether a predicate tests effects: such a rule is looked at through its effects (computed
/// once per call), so its regex leaves need not feed the field indexes — they compile on
/// first use, when the evaluation reaches them.
pub(crate) fn has_effect_anchor(p: &Pred) -> bool {
    match p {
        Pred::Leaf(Leaf {
            test: Test::Effect(_),
            ..
        }) => true,
        // A rule judged on effects anywhere keeps its text tests as the prefilters they are:
        // lazy, never a scan of every call's whole input.
        Pred::All(k) | Pred::Any(k) => k.iter().any(has_effect_anchor),
        Pred::Not(x) | Pred::Sure(x) => has_effect_anchor(x),
        Pred::Leaf(_) => false,
    }
}

/// Whether a predicate requires an indexable test (regex, contains, prefix, string equals,
/// glob) at its top level.
pub(crate) fn has_index_anchor(p: &Pred) -> bool {
    match p {
        Pred::Leaf(l) => match &l.test {
            Test::Regex(_) | Test::Contains(_) | Test::Prefix(_) | Test::Glob(_) => true,
            Test::Equals(v) => v.iter().all(Value::is_string),
            Test::Shell(_) | Test::Effect(_) => false,
        },
        Pred::All(k) => k.iter().any(has_index_anchor),
        _ => false,
    }
}

/// A field index under construction: the field, the matcher buckets of its rules, its
/// (pattern, leaf) regex sources and (glob, leaf) sources.
pub(crate) struct FieldSources {
    pub(crate) field: Field,
    pub(crate) buckets: Vec<u32>,
    pub(crate) pats: Vec<(String, u32)>,
    pub(crate) globs: Vec<(String, u32)>,
}

/// Compiles the predicates of one seam's rules, collecting the field-index sources.
pub(crate) struct Builder {
    pub(crate) fields: Vec<FieldSources>,
    /// Matcher buckets of the rule being compiled (sorted).
    pub(crate) buckets: Vec<u32>,
    /// The rule being compiled (global index).
    pub(crate) rule: u32,
    /// Per leaf bit: the rule (global index) whose test it is.
    pub(crate) leaf_rule: Vec<u32>,
    pub(crate) home: String,
}

impl Builder {
    pub(crate) fn new(home: &str) -> Builder {
        Builder {
            fields: Vec::new(),
            buckets: Vec::new(),
            rule: 0,
            leaf_rule: Vec::new(),
            home: home.to_string(),
        }
    }

    /// A new leaf bit of the current rule.
    fn next_leaf(&mut self) -> u32 {
        let id = self.leaf_rule.len() as u32;
        self.leaf_rule.push(self.rule);
        id
    }

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

    fn shell(&self, l: &Leaf, t: &ShellTest) -> CPred {
        CPred::Shell {
            field: l.field.clone(),
            test: Box::new(t.clone()),
            home: self.home.clone(),
            globs: OnceLock::new(),
        }
    }

    fn effect(&self, t: &std::sync::Arc<EffectTest>) -> CPred {
        CPred::Effect {
            test: std::sync::Arc::clone(t),
            home: self.home.clone(),
            globs: OnceLock::new(),
        }
    }

    fn leaf(&mut self, l: &Leaf, lazy: bool) -> CPred {
        if lazy {
            return match &l.test {
                Test::Regex(_) | Test::Glob(_) => CPred::Lazy {
                    field: l.field.clone(),
                    test: l.test.clone(),
                    literals: OnceLock::new(),
                    conjunctions: OnceLock::new(),
                    compiled: OnceLock::new(),
                },
                Test::Shell(t) => self.shell(l, t),
                Test::Effect(t) => self.effect(t),
                _ => CPred::Direct {
                    field: l.field.clone(),
                    test: l.test.clone(),
                },
            };
        }
        let patterns: Vec<String> = match &l.test {
            Test::Regex(p) => p.to_vec(),
            Test::Contains(p) => p.iter().map(|s| regex::escape(s)).collect(),
            Test::Prefix(p) => p.iter().map(|s| format!("^{}", regex::escape(s))).collect(),
            Test::Equals(vals) if vals.iter().all(Value::is_string) => vals
                .iter()
                .filter_map(Value::as_str)
                .map(|s| format!("^{}$", regex::escape(s)))
                .collect(),
            Test::Glob(g) => {
                let id = self.next_leaf();
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
            Test::Shell(t) => return self.shell(l, t),
            Test::Effect(t) => return self.effect(t),
        };
        let id = self.next_leaf();
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
    pub(crate) fn pred(&mut self, p: &Pred, lazy: bool) -> CPred {
        match p {
            Pred::All(k) => CPred::All(k.iter().map(|x| self.pred(x, lazy)).collect()),
            Pred::Any(k) => CPred::Any(k.iter().map(|x| self.pred(x, lazy)).collect()),
            Pred::Not(x) => CPred::Not(Box::new(self.pred(x, lazy))),
            Pred::Sure(x) => CPred::Sure(Box::new(self.pred(x, lazy))),
            Pred::Leaf(l) => self.leaf(l, lazy),
        }
    }
}
