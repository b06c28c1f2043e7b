//! What the evaluator saw, for `explain`: the evaluator takes a [`Sink`]; the hook passes
//! [`NoTrace`] (every method a no-op, short-cuts kept), `explain` passes a [`Recorder`].
//!
//! In: the results of the evaluator, node by node and rule by rule. Out: per rule of the
//! seam, whether its matcher matched, its `when` / `unless` trees (in the shape of the
//! policy's predicates) with whether each node held, and the analysis each shell-aware leaf
//! judged.

use std::rc::Rc;

use crate::shell::ShellAnalysis;

/// Whether a predicate node held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Held {
    /// It held.
    Yes,
    /// It did not hold.
    No,
    /// A shell test could not be decided; it counts as holding in `when` and as not holding
    /// under `not` and in `unless` (fail closed either way).
    Unsure,
}

impl Held {
    /// `yes`, `no`, `unsure`.
    pub fn name(self) -> &'static str {
        match self {
            Held::Yes => "yes",
            Held::No => "no",
            Held::Unsure => "unsure",
        }
    }
}

/// One evaluated node of a predicate; its children line up with the policy's `all` / `any` /
/// `not` children.
#[derive(Debug, Clone)]
pub(crate) struct NodeTrace {
    pub(crate) held: Held,
    /// The result that counted (an unsure test counts per its polarity).
    pub(crate) counted: bool,
    /// Shell-aware leaves: the analysis of the field the test judged.
    pub(crate) analysis: Option<Rc<ShellAnalysis>>,
    pub(crate) children: Vec<NodeTrace>,
}

/// One rule of the seam as the evaluator judged it.
#[derive(Debug, Clone)]
pub(crate) struct RuleEval {
    /// Global rule index.
    pub(crate) rule: u32,
    pub(crate) matcher_matched: bool,
    pub(crate) when: Option<NodeTrace>,
    pub(crate) unless: Option<NodeTrace>,
    /// Matcher matched, `when` held and `unless` did not.
    pub(crate) fired: bool,
}

/// Receives the evaluator's results.
pub(crate) trait Sink {
    /// Whether to record: every rule of the seam and every node of its predicates is then
    /// evaluated (no short-cuts), so the record is complete.
    const RECORDS: bool;
    /// An `all` / `any` / `not` node starts.
    fn open(&mut self);
    /// The innermost open node ends with its result.
    fn close(&mut self, counted: bool);
    /// A leaf's result.
    fn leaf(&mut self, held: Held, counted: bool, analysis: Option<Rc<ShellAnalysis>>);
    /// A rule's result; its `when` and `unless` trees (if it has them) are the last
    /// completed predicates, in that order.
    fn rule(&mut self, rule: u32, matcher_matched: bool, when: bool, unless: bool, fired: bool);
}

/// The hook's sink: records nothing, so the evaluator keeps its short-cuts.
pub(crate) struct NoTrace;

impl Sink for NoTrace {
    const RECORDS: bool = false;
    #[inline(always)]
    fn open(&mut self) {}
    #[inline(always)]
    fn close(&mut self, _: bool) {}
    #[inline(always)]
    fn leaf(&mut self, _: Held, _: bool, _: Option<Rc<ShellAnalysis>>) {}
    #[inline(always)]
    fn rule(&mut self, _: u32, _: bool, _: bool, _: bool, _: bool) {}
}

/// Records every rule of the seam with its predicate trees.
#[derive(Debug, Default)]
pub(crate) struct Recorder {
    /// Children of the open nodes, innermost last.
    open: Vec<Vec<NodeTrace>>,
    /// Completed predicate trees not yet given to a rule.
    done: Vec<NodeTrace>,
    /// The rules, in declaration order.
    pub(crate) rules: Vec<RuleEval>,
}

impl Recorder {
    fn push(&mut self, node: NodeTrace) {
        match self.open.last_mut() {
            Some(children) => children.push(node),
            None => self.done.push(node),
        }
    }
}

impl Sink for Recorder {
    const RECORDS: bool = true;

    fn open(&mut self) {
        self.open.push(Vec::new());
    }

    fn close(&mut self, counted: bool) {
        let children = self.open.pop().unwrap_or_default();
        self.push(NodeTrace {
            held: if counted { Held::Yes } else { Held::No },
            counted,
            analysis: None,
            children,
        });
    }

    fn leaf(&mut self, held: Held, counted: bool, analysis: Option<Rc<ShellAnalysis>>) {
        self.push(NodeTrace {
            held,
            counted,
            analysis,
            children: Vec::new(),
        });
    }

    fn rule(&mut self, rule: u32, matcher_matched: bool, when: bool, unless: bool, fired: bool) {
        let unless = if unless { self.done.pop() } else { None };
        let when = if when { self.done.pop() } else { None };
        self.done.clear();
        self.rules.push(RuleEval {
            rule,
            matcher_matched,
            when,
            unless,
            fired,
        });
    }
}
