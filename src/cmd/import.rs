//! `seamguard import FILE… [-o OUT]`: hook configs → one policy file per input.

use std::path::PathBuf;
use std::process::ExitCode;

use seamguard_engine::Dialect;
use seamguard_engine::import::{guess_dialect, import_config, plugin_root_of};

use super::args::DialectArg;
use crate::report::exit_code;

/// Turn Claude Code / Codex hook configurations into a seamguard policy file.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// settings.json, hooks.json or config.toml files.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Write the policy here instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Host of the configuration (default: guessed from the path).
    #[arg(long, value_enum)]
    dialect: Option<DialectArg>,
}

/// Import every file; the policies go to `--output` or stdout, the notes to stderr.
pub(super) fn run(a: Args) -> ExitCode {
    let mut texts = Vec::new();
    let mut failed = false;
    for p in &a.paths {
        let file = p.display().to_string();
        let text = match std::fs::read_to_string(p) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("seamguard: cannot read {file}: {e}");
                failed = true;
                continue;
            }
        };
        let d = a.dialect.map_or_else(|| guess_dialect(p), Dialect::from);
        match import_config(&file, &text, d, plugin_root_of(p).as_deref()) {
            Ok(imp) => {
                for w in &imp.warnings {
                    eprintln!("warning: {w}");
                }
                eprintln!(
                    "{file}: {} rule(s) imported ({} hooks)",
                    imp.rules,
                    imp.dialect.name()
                );
                texts.push(imp.toml);
            }
            Err(e) => {
                eprintln!("seamguard: {e}");
                failed = true;
            }
        }
    }
    let all = texts.join("\n");
    match a.output {
        Some(o) => {
            if let Err(e) = std::fs::write(&o, all) {
                eprintln!("seamguard: cannot write {}: {e}", o.display());
                return ExitCode::from(1);
            }
        }
        None => print!("{all}"),
    }
    exit_code(failed)
}
