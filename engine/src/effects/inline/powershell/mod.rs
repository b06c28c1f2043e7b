//! The PowerShell lens: PowerShell code (`pwsh -Command`, `powershell.exe
//! -EncodedCommand`, the `PowerShell` tool of Claude Code and Copilot CLI) read with the
//! tree-sitter PowerShell grammar, and cmd.exe lines (`cmd /c`, [`cmd`]).
//!
//! In: a parsed tree and its text. Out, through [`Collect`]: the effects of each cmdlet the
//! table ([`cmdlets`]) knows, by the role of its parameters (reads, writes, deletes, copies,
//! web requests with their method, body and files, code run by `Invoke-Expression`,
//! processes started), the .NET calls that do the same (`[IO.File]::WriteAllText`,
//! `(New-Object Net.WebClient).DownloadString`), and each other command as a program for
//! the shell lens's table (`git`, `npm`, `dotnet`, `cmd /c`), as one nested item.
//!
//! Data between the commands of a pipeline is followed: a file read and piped into a web
//! request is its body (`Get-Content .env | Invoke-RestMethod -Method Post …`), a download
//! piped into `Invoke-Expression` is run (`iwr https://… | iex`, as `curl … | sh` is), a
//! literal piped into it is read as code. A value only known at run time is a path known
//! only at run time; code evaluated from such a value is `unsure` with the cause.
//!
//! # Layout
//!
//! - `syntax`: the parse, its first error, code PowerShell refuses to run;
//! - `pipeline`: the effects of a tree, pipeline by pipeline, command by command;
//! - `model`: a command and its elements, what flows between commands, shared helpers;
//! - `binding`, `words`: what names and words stand for; `cmdlets`: the cmdlet table;
//! - `admin`: Windows account and start-up cmdlets spelled as their command-line tools;
//! - `requests`, `dotnet`: web requests and code evaluated from text, .NET calls;
//! - `cli`: PowerShell code a command line or a Codex call runs, as a shell analysis;
//!   `tool`: the `PowerShell` tool; `cmd`: the cmd.exe lens.

mod admin;
mod binding;
mod cli;
pub(super) mod cmd;
mod cmdlets;
mod dotnet;
mod model;
mod pipeline;
mod requests;
mod syntax;
#[cfg(test)]
mod tests;
mod tool;
mod words;

pub(crate) use cli::{is_powershell_call, posix_alike, powershell_analysis};
pub(super) use pipeline::effects;
pub(super) use syntax::{first_error, parse_code};
pub(crate) use tool::powershell_tool;
