//! How a policy is loaded ([`LoadOptions`]) and the protocol's default command-hook timeouts.
//!
//! In: nothing (constants and the options a caller picks). Out: [`LoadOptions`] and the
//! timeout a `run` action gets when its rule gives none.

use crate::seam::Seam;

/// Default command-hook timeout in ms (HOOKS.md A2/B1: 600 s).
pub const DEFAULT_RUN_TIMEOUT_MS: u64 = 600_000;
/// Default command-hook timeout on prompt-submit in ms (HOOKS.md A2: 30 s).
pub const PROMPT_RUN_TIMEOUT_MS: u64 = 30_000;

/// The protocol's timeout of a command hook at `seam`, in ms, when the rule gives none.
pub fn default_run_timeout_ms(seam: Seam) -> u64 {
    if seam == Seam::PromptSubmit {
        PROMPT_RUN_TIMEOUT_MS
    } else {
        DEFAULT_RUN_TIMEOUT_MS
    }
}

/// How thoroughly to load (the hook command trades a little up-front checking for start-up
/// time; `check`, `test` and `replay` load fully).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoadOptions {
    /// Translate every regex fully at load (catches e.g. unknown Unicode class names). When
    /// off, only the syntax is parsed; a pattern that still fails later is reported and its
    /// test fails closed.
    pub full_regex_check: bool,
    /// Lower the `[[test]]` examples.
    pub tests: bool,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            full_regex_check: true,
            tests: true,
        }
    }
}

impl LoadOptions {
    /// The fast profile of `seamguard hook`: syntax-only regex check, no tests.
    pub fn hook() -> LoadOptions {
        LoadOptions {
            full_regex_check: false,
            tests: false,
        }
    }
}
