//! Which rules of a seam fire: one scan per field index, candidates from the anchors, then
//! each candidate's `when` and `unless`.
//!
//! In: a compiled [`SeamTable`], the payload, its matcher subjects, and a [`Sink`]. Out: the
//! rules that fire in declaration order (local ids), each with the simple command its shell
//! test matched and why a test was undecidable, and the call's effects when a test needed
//! them. A recording sink gets every rule of the
//! seam instead of the candidates only, every field scanned.

use std::rc::Rc;

use regex_automata::{Input, PatternSet};
use serde_json::Value;

use super::pred::{CallInput, Evaluation, bit, set_bit};
use super::trace::Sink;
use crate::compile::SeamTable;
use crate::effects::Effects;
use crate::policy::RuleKind;
use crate::shell_env::ShellEnv;

/// A fired rule (local id), the command its shell test matched, why a test was undecidable,
/// and whether that is because the call itself has an unresolved part.
pub(crate) type LocalFired = (u32, Option<String>, Option<String>, bool);

/// The rules that fire for one payload, and the call's effects if a test worked them out
/// (the evaluation's own, so a caller need not find them again).
pub(crate) struct Firing {
    /// The fired rules, in declaration order.
    pub(crate) fired: Vec<LocalFired>,
    /// The effects of the tool call, when a test needed them.
    pub(crate) effects: Option<Rc<Effects>>,
}

impl SeamTable {
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
                    if set.get().is_none() && !lits.found_in(s) {
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

    /// Scan the field indexes of the matched buckets (every one when recording): the leaf
    /// bits that hold, and the leaves in the order they matched.
    fn scan<S: Sink>(&self, payload: &Value, buckets: &[u32]) -> (Vec<u64>, Vec<u32>) {
        let mut bits = vec![0u64; self.leaf_count.div_ceil(64)];
        let mut matched_leaves: Vec<u32> = Vec::new();
        for f in &self.fields {
            if !S::RECORDS && !f.buckets.iter().any(|b| buckets.binary_search(b).is_ok()) {
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
        (bits, matched_leaves)
    }

    /// The rules that could fire: unanchored rules of the matched buckets, and anchored
    /// rules whose anchor held (sorted, local ids).
    fn candidates(&self, cx: &Evaluation<'_>, buckets: &[u32], matched_leaves: &[u32]) -> Vec<u32> {
        let mut candidates: Vec<u32> = Vec::new();
        for b in buckets {
            if let Some(list) = self.unanchored.get(*b as usize) {
                candidates.extend_from_slice(list);
            }
        }
        let in_bucket = |r: u32| self.in_buckets(r, buckets);
        for leaf in matched_leaves {
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
        candidates
    }

    /// Whether local rule `r` is in one of the (sorted) matched buckets.
    fn in_buckets(&self, r: u32, buckets: &[u32]) -> bool {
        self.rules
            .get(r as usize)
            .is_some_and(|cr| cr.buckets.iter().any(|x| buckets.binary_search(x).is_ok()))
    }

    /// The rules that fire, in declaration order (local ids).
    pub(crate) fn fire<S: Sink>(
        &self,
        call: CallInput<'_>,
        subjects: &[&str],
        kind: Option<RuleKind>,
        env: &ShellEnv,
        sink: &mut S,
    ) -> Firing {
        let payload = call.payload;
        // The lenses and the path tests resolve each path on disk once per evaluation (a
        // memo: the same answers as without it).
        let _resolve = crate::paths::ResolveScope::enter();
        let mut buckets = Vec::with_capacity(4);
        self.matched_buckets(subjects, &mut buckets);
        let (bits, matched_leaves) = self.scan::<S>(payload, &buckets);
        let cx = Evaluation::new(call, &bits, env);
        let candidates = if S::RECORDS {
            (0..self.rules.len() as u32).collect()
        } else {
            self.candidates(&cx, &buckets, &matched_leaves)
        };
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
            let when = cr.when.as_ref().is_none_or(|p| p.eval(&cx, true, sink));
            if !S::RECORDS && !when {
                continue;
            }
            let unsure = cx.unsure.borrow_mut().take();
            let matched = cx.matched.borrow_mut().take();
            // `unless` with an undecidable shell test does not excuse the rule (fail closed).
            let unless = cr.unless.as_ref().is_some_and(|p| p.eval(&cx, false, sink));
            if S::RECORDS {
                let matcher_matched = self.in_buckets(r, &buckets);
                let fired = matcher_matched && when && !unless;
                sink.rule(
                    cr.global,
                    matcher_matched,
                    cr.when.is_some(),
                    cr.unless.is_some(),
                    fired,
                );
                if !fired {
                    continue;
                }
            } else if unless {
                continue;
            }
            let call_unsure = unsure.is_some() && cx.call_unsure();
            out.push((r, matched, unsure, call_unsure));
        }
        Firing {
            fired: out,
            effects: cx.effects_found(),
        }
    }
}
