//! Guards see the final value. Tables run before Rust handlers at every seam; where handlers
//! can rewrite what the tables judged — the prompt (`prompt-submit`) and the tool result's
//! presentation (`post-tool`) — the tables judge the rewritten value again, so a handler can
//! neither add what a table blocks nor undo what a table redacted. (`pre-tool` needs no
//! re-check: a call is sealed before policy runs, so no handler rewrites its input, and
//! guards run after every hook.)
//!
//! In: the final value as a hook payload, and the contributions the seam has so far. Out:
//! a [`Recheck`]: the blocks the final value earns that were not already given, and the
//! tables' replacements and redactions of the final value, which become the final value.
//! Only what restricts is kept: the re-check's allows and contexts are dropped, its command
//! hooks are not run (they ran once, on the first value), and prompt prepends and appends
//! are not applied twice.

use serde_json::Value;

use super::Harness;
use super::table::TablePart;
use crate::decision::{Contribution, Verdict};
use crate::seam::Seam;

/// What the tables say about a rewritten value.
pub(super) struct Recheck {
    /// Blocking contributions (without contexts) not already among the seam's.
    pub(super) blocks: Vec<Contribution>,
    /// The tables' replacements of the final prompt (`prompt-submit`).
    pub(super) rewritten_prompt: Option<String>,
    /// The tables' redaction of the final tool response (`post-tool`).
    pub(super) redacted: Option<Value>,
    /// A blocking table asked not to echo the prompt.
    pub(super) suppress_prompt: bool,
    /// Warnings of the re-check that the first evaluation did not give.
    pub(super) warnings: Vec<String>,
}

impl Harness {
    /// Judge `payload`, a value handlers rewrote, with every table at `seam` again.
    /// `so_far` are the seam's contributions and `warnings` its warnings (not repeated).
    pub(super) fn recheck(
        &self,
        (seam, payload): (Seam, &Value),
        so_far: &[Contribution],
        warnings: &[String],
    ) -> Recheck {
        let part = TablePart::eval(&self.tables, self.dialect, (seam, payload), true);
        let blocks = part
            .hooks
            .into_iter()
            .chain(part.guards)
            .filter(|c| !c.observe && matches!(c.verdict, Verdict::Block | Verdict::Deny))
            .filter(|c| {
                !so_far
                    .iter()
                    .any(|s| s.rule == c.rule && s.verdict == c.verdict)
            })
            .map(|mut c| {
                c.context = None;
                c
            })
            .collect();
        Recheck {
            blocks,
            rewritten_prompt: part.rewritten_prompt,
            redacted: part.redacted,
            suppress_prompt: part.suppress_prompt,
            warnings: part
                .warnings
                .into_iter()
                .filter(|w| !warnings.contains(w))
                .collect(),
        }
    }
}
