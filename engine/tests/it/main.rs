//! Integration tests of `seamguard-engine`, linked into one test binary: each module was a
//! test binary of its own, `support` holds what they share. Run one module with
//! `cargo test -p seamguard-engine --test it -- cases::`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

mod cases;
mod command_hooks;
mod conformance;
mod effect_routes;
mod host_logs;
mod properties;
mod readers;
mod replay;
mod samples;
mod shell_cases;
mod shell_props;
mod unsure_branches;
