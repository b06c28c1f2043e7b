//! `seamguard check`: load and compile policy files, print their diagnostics and a summary.

use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::{Value, json};

use seamguard_engine::{DecisionTable, LoadedPolicy, PolicyError, Seam, Severity};

use super::args::Format;
use crate::discover;
use crate::report::{exit_code, print_diagnostics};

/// Validate policy files: spanned diagnostics, non-zero exit on errors.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Policy files or folders (default: discovered policies).
    paths: Vec<PathBuf>,
    /// Treat lint warnings (unknown tools, tests naming no rule, files or rule ids loaded
    /// twice, shadowed rules, conditions that never hold) as errors.
    #[arg(long)]
    deny_warnings: bool,
    /// Output format: `text` (diagnostics on stderr, a summary on stdout) or `json` (one
    /// object on stdout: `diagnostics` with file, line, column, severity, code, message,
    /// suggestion and note; then the counts).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

/// The `code` of a diagnostic: the `[lint-name]` its message starts with, else `error` or
/// `warning`; and the message without that prefix.
fn code_of(d: &PolicyError) -> (String, &str) {
    if let Some(rest) = d.message.strip_prefix('[')
        && let Some((code, msg)) = rest.split_once("] ")
        && code.chars().all(|c| c.is_ascii_lowercase() || c == '-')
    {
        return (code.to_string(), msg);
    }
    let code = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    (code.to_string(), d.message.as_str())
}

/// The name a "did you mean `x`?" in a message suggests.
fn suggestion(message: &str) -> Option<&str> {
    let (_, rest) = message.split_once("did you mean `")?;
    rest.split_once('`').map(|(s, _)| s)
}

/// A diagnostic as a JSON object.
fn diagnostic_json(d: &PolicyError) -> Value {
    let (code, message) = code_of(d);
    json!({
        "file": d.file.to_string(),
        "line": d.line,
        "column": d.column,
        "severity": match d.severity { Severity::Error => "error", Severity::Warning => "warning" },
        "code": code,
        "message": message,
        "suggestion": suggestion(message),
        "note": d.note,
    })
}

/// A compile error (`file:line:column: message`) as a JSON diagnostic.
fn compile_error_json(text: &str) -> Value {
    let at = regex::Regex::new(r"^(.*?):(\d+):(\d+): (.*)$")
        .ok()
        .and_then(|re| {
            re.captures(text).map(|c| {
                (
                    c[1].to_string(),
                    c[2].parse::<usize>().ok(),
                    c[3].parse::<usize>().ok(),
                    c[4].to_string(),
                )
            })
        });
    let (file, line, column, message) = match at {
        Some((f, l, c, m)) => (Some(f), l, c, m),
        None => (None, None, None, text.to_string()),
    };
    json!({
        "file": file, "line": line, "column": column, "severity": "error", "code": "error",
        "message": message, "suggestion": suggestion(text), "note": null,
    })
}

/// Every load diagnostic of the policies, counted: (errors, warnings).
fn json_diagnostics(loaded: &[LoadedPolicy], out: &mut Vec<Value>) -> (usize, usize) {
    let (mut errors, mut warnings) = (0, 0);
    for d in loaded.iter().flat_map(|p| &p.diagnostics) {
        match d.severity {
            Severity::Error => errors += 1,
            Severity::Warning => warnings += 1,
        }
        out.push(diagnostic_json(d));
    }
    (errors, warnings)
}

/// Exit 1 when a file has errors (or, with `--deny-warnings`, warnings) or no file is found.
pub(super) fn run(a: &Args) -> ExitCode {
    let (files, mut lints) = crate::lint::dedupe(discover::found_policy_paths(&a.paths, None));
    if files.is_empty() {
        eprintln!("seamguard: no policy files found (give a path, or create .seamguard/*.toml)");
        return ExitCode::from(1);
    }
    let loaded = discover::load_all(&files);
    let json_out = a.format != Format::Text;
    let mut diags = Vec::new();
    let (mut errors, mut warnings) = if json_out {
        json_diagnostics(&loaded, &mut diags)
    } else {
        print_diagnostics(&loaded)
    };
    lints.extend(crate::lint::lint(&loaded));
    for mut l in lints {
        if a.deny_warnings {
            l.severity = Severity::Error;
            errors += 1;
        } else {
            warnings += 1;
        }
        if json_out {
            diags.push(diagnostic_json(&l));
        } else {
            eprintln!("{}", l.render());
        }
    }
    let n_policies = loaded.len();
    let table = DecisionTable::new(loaded);
    for e in table.compile_all() {
        if json_out {
            diags.push(compile_error_json(&e.to_string()));
        } else {
            eprintln!("error: {e}");
        }
        errors += 1;
    }
    if json_out {
        let v = json!({
            "diagnostics": diags,
            "files": n_policies,
            "rules": table.rules().len(),
            "errors": errors,
            "warnings": warnings,
        });
        println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        return exit_code(errors > 0 || (a.deny_warnings && warnings > 0));
    }
    let mut per_seam = Vec::new();
    for s in Seam::ALL {
        let n = table.seam_len(s);
        if n > 0 {
            per_seam.push(format!("{s}: {n}"));
        }
    }
    println!(
        "{n_policies} policy file(s), {} rule(s) ({}), {errors} error(s), {warnings} warning(s)",
        table.rules().len(),
        if per_seam.is_empty() {
            "none".to_string()
        } else {
            per_seam.join(", ")
        }
    );
    exit_code(errors > 0 || (a.deny_warnings && warnings > 0))
}
