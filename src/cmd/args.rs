//! The argument types several subcommands share: the host protocol (`--dialect` / `--agent`)
//! and the report format (`--format`).
//!
//! In: the values clap parses from the command line. Out: the engine's [`Dialect`] and the
//! [`Format`] the report commands print in.

use clap::ValueEnum;

use seamguard_engine::Dialect;

/// `--dialect` / `--agent`: a host protocol.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub(super) enum DialectArg {
    #[value(name = "claude-code", alias = "claude")]
    ClaudeCode,
    Codex,
}

impl From<DialectArg> for Dialect {
    fn from(d: DialectArg) -> Dialect {
        match d {
            DialectArg::ClaudeCode => Dialect::ClaudeCode,
            DialectArg::Codex => Dialect::Codex,
        }
    }
}

/// `hook --dialect`: the host protocol a payload is read and answered in.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub(super) enum HookDialectArg {
    #[value(name = "claude-code", alias = "claude")]
    ClaudeCode,
    Codex,
    #[value(name = "gemini-cli", alias = "gemini")]
    GeminiCli,
    Cursor,
    #[value(name = "copilot-cli", alias = "copilot")]
    CopilotCli,
}

impl From<HookDialectArg> for Dialect {
    fn from(d: HookDialectArg) -> Dialect {
        match d {
            HookDialectArg::ClaudeCode => Dialect::ClaudeCode,
            HookDialectArg::Codex => Dialect::Codex,
            HookDialectArg::GeminiCli => Dialect::GeminiCli,
            HookDialectArg::Cursor => Dialect::Cursor,
            HookDialectArg::CopilotCli => Dialect::CopilotCli,
        }
    }
}

/// `--format` of the report commands.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq)]
pub(super) enum Format {
    Text,
    Json,
    Jsonl,
}

/// `--format` of the commands that print one document (`try`, `explain`, `status`,
/// `grants list`): there is no stream of records to print as `jsonl`.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq)]
pub(super) enum DocFormat {
    Text,
    Json,
}
