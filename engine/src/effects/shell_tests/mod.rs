//! The shell lens: command lines to exact effect lists.
//!
//! The helpers live here; the tests, by topic, in the files beside this one.

mod everyday;
mod files;
mod git;
mod links;
mod network;
mod network_down;
mod pipes;
mod privilege;
mod scripts;
mod system;
mod windows;
mod windows_admin;
mod wrappers;

use super::dispatch::shell_value as lens_value;
use super::test_support::{body_text, check_table, show_delete};
use super::{Effects, Lens, Route, What};
use crate::shell_env::ShellEnv;

/// The effects of a Bash command line run in `/p`.
fn effects(line: &str) -> Effects {
    let env = ShellEnv::new(None, "/home/u");
    let mut fx = Effects::default();
    lens_value(
        "Bash",
        "",
        &serde_json::Value::String(line.to_string()),
        Some("/p"),
        &env,
        &mut fx,
    );
    fx
}

/// The effects of a Bash command line run in `/p`, one compact line each.
/// The endpoints of the requests `line` sends, in order.
fn endpoints(line: &str) -> Vec<Option<crate::effects::Endpoint>> {
    effects(line)
        .list
        .into_iter()
        .filter_map(|e| match e.what {
            What::Send(s) => Some(s.endpoint),
            _ => None,
        })
        .collect()
}

fn fx(line: &str) -> Vec<String> {
    effects(line).list.iter().map(|e| show(&e.what)).collect()
}

/// `fx` of each line, with the line, for one assertion per table.
fn table(cases: &[(&str, &[&str])]) {
    check_table(cases, fx);
}

fn show(w: &What) -> String {
    let dynamic = |d: bool| if d { " (dynamic)" } else { "" };
    match w {
        What::Run(c) => format!("run {}", c.display_words()),
        What::Destroy {
            cli,
            service,
            operation,
            targets,
        } => {
            let t: Vec<&str> = targets.iter().map(|a| a.text.as_str()).collect();
            format!("destroy {cli} [{service}] {operation} {}", t.join(" "))
        }
        What::Read(p) => format!("read {}{}", p.text, dynamic(p.dynamic)),
        What::Load(p) => format!("load {}{}", p.text, dynamic(p.dynamic)),
        What::Write { path, append, .. } => format!(
            "{} {}{}",
            if *append { "append" } else { "write" },
            path.text,
            dynamic(path.dynamic)
        ),
        What::Delete {
            path, recursive, ..
        } => show_delete(path, *recursive),
        What::Send(s) => {
            format!(
                "send {} {} [{}]{}{}",
                s.url.as_deref().unwrap_or("-"),
                s.method.as_deref().unwrap_or("-"),
                body_text(&s.body),
                dynamic(s.dynamic),
                if s.runs_response {
                    " (runs response)"
                } else {
                    ""
                }
            )
        }
        What::Signal {
            targets, signal, ..
        } => {
            let t: Vec<&str> = targets.iter().map(|a| a.text.as_str()).collect();
            format!(
                "signal {} {}",
                t.join(" "),
                signal.as_deref().unwrap_or("-")
            )
        }
        What::ChangePermission {
            path,
            mode,
            recursive,
        } => format!(
            "permission {} {}{}",
            path.text,
            mode.as_deref().unwrap_or("-"),
            if *recursive { " recursively" } else { "" }
        ),
        What::Install {
            manager,
            packages,
            source,
        } => {
            let p: Vec<&str> = packages.iter().map(|a| a.text.as_str()).collect();
            format!(
                "install {manager} [{}] {}",
                p.join(" "),
                source.as_deref().unwrap_or("-")
            )
        }
        What::Configure(c) => format!("configure {} {}", c.change.name(), c.file.text),
        What::Grant(g) => format!(
            "grant {} {}",
            g.kind.name(),
            g.path.as_ref().map_or("-", |p| p.text.as_str())
        ),
        What::Unsure(why) => format!("unsure {why}"),
    }
}
