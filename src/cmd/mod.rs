//! The subcommands of `seamguard`, one module each (the clap arguments beside the function
//! that runs them).
//!
//! In: the parsed command line ([`Command`], from `main`). Out: what the subcommand prints on
//! stdout / stderr and its [`ExitCode`]. The work itself is done by the engine and by the
//! crate's stage modules ([`crate::init`], [`crate::replay`], [`crate::explain`],
//! [`crate::discover`]); these modules turn flags into their options and report.

use std::process::ExitCode;

use clap::Subcommand;

mod allow;
mod args;
mod check;
mod docs;
pub(crate) use docs::Root;
mod explain;
mod grants;
mod hook;
mod hook_input;
mod import;
mod init;
mod log;
mod replay;
mod serve;
mod serve_client;
mod serve_key;
mod status;
mod test;
mod trust;
mod try_call;

/// A subcommand and its arguments.
#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    Hook(hook::Args),
    Trust(trust::Args),
    Init(init::Args),
    Import(import::Args),
    Check(check::Args),
    Test(test::Args),
    Replay(replay::Args),
    Explain(explain::Args),
    /// Judge one call in one line: `seamguard try 'rm -rf ~'` (exit 0 runs, 1 ask, 2 deny).
    Try(try_call::Args),
    /// Approve the call of an ask: `seamguard allow --last | --id N [--session|--project|--always]`.
    ///
    /// `--last` approves the newest ask in the audit log; `--id N` the ask numbered `#N` by
    /// `seamguard log` (`seamguard log --verdict ask` lists the asks), to pick one when
    /// several sessions ask. A call seamguard could not read (asked as `seamguard:unsure`
    /// with no command, path or URL to show) is never approved.
    Allow(allow::Args),
    /// List or revoke grants: `seamguard grants [list | revoke ID]`.
    Grants(grants::Args),
    /// Is the guard on: hooks installed per agent, binary, policies, last run (exit 1: off).
    Status(status::Args),
    /// Read the audit log: last decisions, filters, counts per rule, observe-mode summary.
    Log(log::Args),
    /// Keep the policies compiled in a resident server that `hook` and `seamguard-hook` ask
    /// first (they start one on first use; docs/serve.md).
    Serve(serve::ServeArgs),
    /// The book's generated reference pages (for the project's tests and CI).
    #[command(hide = true)]
    Docs(docs::Args),
}

impl Command {
    /// Run the subcommand; `root` is the whole command line, for `docs`.
    pub(crate) fn run(self, root: Root) -> ExitCode {
        match self {
            Command::Hook(a) => hook::run(a),
            Command::Trust(a) => trust::run(&a),
            Command::Init(a) => init::run(a),
            Command::Import(a) => import::run(a),
            Command::Check(a) => check::run(&a),
            Command::Test(a) => test::run(&a),
            Command::Replay(a) => replay::run(a),
            Command::Explain(a) => explain::run(a),
            Command::Try(a) => try_call::run(&a),
            Command::Allow(a) => allow::run(&a),
            Command::Grants(a) => grants::run(&a),
            Command::Status(a) => status::run(&a),
            Command::Log(a) => log::run(&a),
            Command::Serve(a) => serve::run(a),
            Command::Docs(a) => docs::run(a, root),
        }
    }
}
