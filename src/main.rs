//! The `seamguard` command: hook command for Claude Code / Codex, and policy tooling.
//!
//! `main` parses the command line and runs the subcommand; each subcommand is a module of
//! [`cmd`] (its flags beside its run function). The stages the subcommands share live beside
//! it: [`discover`] finds and loads policy files, [`init`] installs a profile, [`replay`] and
//! [`explain`] evaluate recorded events, [`report`] holds the pieces of their output.

use std::process::ExitCode;

use clap::{CommandFactory, Parser};

mod approvals;
mod cmd;
mod discover;
mod explain;
mod grants;
mod init;
mod library;
mod lint;
#[cfg(feature = "otel")]
mod otel;
mod replay;
mod report;
mod session_memory;

pub(crate) use report::{bump, outcome_json, show};

#[derive(Parser, Debug)]
#[command(
    name = "seamguard",
    version,
    about = "Policy engine for the lifecycle hooks of AI coding agents"
)]
struct Cli {
    #[command(subcommand)]
    command: cmd::Command,
}

fn main() -> ExitCode {
    Cli::parse().command.run(cmd::Root {
        command: Cli::command,
        parse: |argv| Cli::try_parse_from(argv).map(drop),
    })
}
