//! Loading policy files: TOML (DESIGN.md §3) → [`LoadedPolicy`](crate::model::LoadedPolicy), with every error located at
//! `file:line:column` and all errors of a file collected in one pass.
//!
//! The document is parsed into `toml`'s spanned [`DeTable`](toml::de::DeTable) and lowered by hand, so unknown
//! keys, wrong types, invalid regexes and globs, and actions a seam cannot take each point at
//! their own span. Loading is fail-partial: a broken rule is skipped and reported, the other
//! rules of the file still load (DESIGN.md §2).

//! The stages, each in its own module, in the order a file meets them:
//! - `load`: the entry points; the text parsed into a spanned table, then lowered table by
//!   table ([`load_str`], [`load_file`], [`load_dir`]);
//! - `meta`: the `[policy]` header; `rule`: each `[[rule]]` / `[[guard]]`, whose `when` /
//!   `unless` conditions go to `cond` (field tests, with the shell-aware ones in
//!   `shell_test`) and `effect` (effect tests), and whose actions go to `action`;
//! - `example`: the `[[test]]` examples;
//! - `session`: the lowering session every stage reports into (the file, its line index, the
//!   diagnostics) and the typed readers of spanned TOML values; `options`: [`LoadOptions`];
//! - [`keys`]: the documented keys of every table, for the generated reference.

mod action;
mod cond;
mod effect;
mod example;
pub mod keys;
mod load;
mod meta;
mod options;
mod rule;
pub(crate) mod session;
mod shell_test;
#[cfg(test)]
mod tests;

pub use effect::GRANTS;
pub use load::{load_dir, load_file, load_file_with, load_str, load_str_with};
pub use options::{
    DEFAULT_RUN_TIMEOUT_MS, LoadOptions, PROMPT_RUN_TIMEOUT_MS, default_run_timeout_ms,
};
