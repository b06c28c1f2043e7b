//! The seam evaluator: one event in, one merged [`Outcome`](crate::Outcome) out.
//! It lives in the evaluate stage ([`crate::evaluate`]); this module keeps its paths.

pub use crate::evaluate::engine::{Engine, LOAD_ERROR_RULE, UNSURE_RULE};
pub use crate::evaluate::ledger::{ContinuationLedger, FileLedger, MemoryLedger};
