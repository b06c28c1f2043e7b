//! Program knowledge: for each common program, which operands are read, written or deleted
//! paths, which are URLs, which options take values.
//!
//! In: one analysed [`SimpleCommand`](crate::shell::SimpleCommand). Out: the [`Program`] row
//! that describes it and its words sorted by role ([`Parsed`]): option values with the role the
//! row gives them, switches that change the meaning of the operands (`-r`, `-a`, `-i`), and the
//! operands after the subcommand. The shell lens turns a [`Parsed`] into effects.
//!
//! Every program is one row of a family's table ([`rows`] gives them in order); a program
//! with subcommands (`git diff`, `npm install`, `systemctl stop`) has one row per subcommand
//! family, tried in order before the program's general row. A program without a row is
//! unknown: it only runs, and none of its operands is guessed at.
//!
//! The rows live by family, each beside the option lists it uses: [`text`] readers, [`search`]
//! tools, [`runtimes`], [`files`] writers and deleters, [`git`], [`cloud`] copies and containers,
//! [`network`] senders, [`system`] signals and permissions, [`privilege`] escalations,
//! namespaces and pods, [`packages`] installs, [`publish`] uploads to registries. [`parse`]
//! reads a command line by its row.
//!
//! Beside the rows: [`globals`], each CLI's global options that take a value (so the
//! subcommand is found behind `kubectl --context prod`, for rows and for policy rules alike);
//! [`infra`], the command model of cloud and infrastructure CLIs (which service and
//! operation destroys resources), its rows in [`clis`]; [`database`], where database clients take their SQL.

mod clis;
mod cloud;
pub(crate) mod database;
mod files;
mod git;
pub(crate) mod globals;
pub(crate) mod infra;
pub(crate) mod network;
mod packages;
mod parse;
mod privilege;
mod publish;
mod redis;
mod row;
mod runtimes;
pub(crate) mod search;
pub(crate) mod sed;
mod system;
mod text;

pub(crate) use parse::{
    Parsed, ShortValue, is_remote, option_value, parse, short_options, split_long,
};
pub(crate) use privilege::{
    ADMIN_GROUPS, ADMIN_SHELL, DAEMON_GROUPS, Escape, SYSTEMD_RUN_VALUED, ShellEscape,
    shell_escape, transient_timer,
};
pub(crate) use row::{Action, Fallback, Program, Registry, Role, Switch};
pub(crate) use runtimes::{JULIA_VALUED, OSASCRIPT_VALUED, RSCRIPT_VALUED, stdin_language};
pub(crate) use system::{autostart_key, credential_hive, security_key, security_key_within};

/// Every family's rows, in the order they are tried for a program's base name. The order
/// only matters among the subcommand rows of one program (the first that matches wins), and
/// no program has rows in two families but `bun` (runtimes before packages).
const FAMILIES: &[&[Program]] = &[
    text::ROWS,
    search::ROWS,
    runtimes::ROWS,
    files::ROWS,
    git::ROWS,
    cloud::ROWS,
    network::ROWS,
    system::ROWS,
    privilege::ROWS,
    packages::ROWS,
    publish::ROWS,
];

/// Whether a step of a route's `via` runs what follows as another user: the program of an
/// escalation row (`sudo`, `su -c`, `pkexec`, `runas`) or [`ADMIN_SHELL`], a call of code.
pub(crate) fn escalates(via: &str) -> bool {
    let name = via.split_whitespace().next().unwrap_or_default();
    via == ADMIN_SHELL
        || rows().any(|r| {
            matches!(r.action, Action::Escalate { .. } | Action::RunAs) && r.names.contains(&name)
        })
}

/// Every program the effect model knows, in the order rows are tried.
pub(crate) fn rows() -> impl Iterator<Item = &'static Program> {
    FAMILIES.iter().flat_map(|family| family.iter())
}

/// Whether a row names a program `name`, spelled exactly so (`Rscript`, `HEAD`).
pub(crate) fn has_name(name: &str) -> bool {
    rows().any(|p| p.names.contains(&name))
}
