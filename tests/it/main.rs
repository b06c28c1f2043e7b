//! Integration tests of the `seamguard` crate (the binary end to end and the embedding API),
//! linked into one test binary: each module was a test binary of its own, `support` holds
//! what they share. Run one module with `cargo test --test it -- init_cli::`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests: a failed step stops the test with its message"
)]

mod support;

mod approvals_cli;
mod architecture_page;
mod audit_replay_cli;
mod book;
mod check_json_cli;
mod cli;
mod codex_code_mode;
mod command_hooks_cli;
mod explain_cli;
mod failure_matrix;
mod grants_cli;
mod harness_pipeline;
mod hosts_cli;
mod hosts_normalize_cli;
mod init_cli;
mod init_hosts_cli;
mod init_undo_cli;
mod init_world;
mod library_replay;
mod log_cli;
#[cfg(feature = "otel")]
mod otel_cli;
mod policy_macro_replay;
mod reasons_library;
mod regex_ascii;
mod replay_cli;
mod replay_filters_cli;
mod sample_hooks;
mod schema_cli;
mod serve_cli;
mod serve_faults_cli;
mod session_memory_cli;
mod status_cli;
mod try_cli;
mod unreadable_payloads;
