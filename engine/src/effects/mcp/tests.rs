//! Tests of the MCP lens, by topic in `tests/`; the shared helpers are here.

mod arguments;
mod commands;
mod files;
mod stores;

use serde_json::{Value, json};

use super::keys::{KeyKind, Role, key_kind, words};
use super::nested::program_of_tool;
use super::tool::{Verb, split_tool, verb_of};
use crate::effects::model::{BodySource, Effects, Lens, PathRef, Route, Send, What};
use crate::effects::test_support::assert_metadata_get;
use crate::effects::{Effect, EffectKind, Endpoint, IpClass, effects_of};
use crate::shell::Arg;
use crate::shell_env::ShellEnv;

const CWD: &str = "/home/u/p";

fn env() -> ShellEnv {
    ShellEnv::new(None, "/home/u")
}

fn fx(tool: &str, input: Value) -> Effects {
    effects_of(
        &json!({"cwd": CWD, "tool_name": tool, "tool_input": input}),
        &env(),
    )
}

fn route(tool: &str, argument: &str) -> Route {
    Route {
        tool: tool.into(),
        lens: Some(Lens::Mcp),
        argument: argument.into(),
        command: None,
        via: Vec::new(),
    }
}

fn read(text: &str, cwd: Option<&str>) -> What {
    What::Read(PathRef::new(text, cwd))
}

fn write(text: &str, content: Option<&str>) -> What {
    What::Write {
        path: PathRef::new(text, Some(CWD)),
        append: false,
        content: content.map(str::to_string),
    }
}

fn list(effects: &[(What, Route)]) -> Vec<Effect> {
    effects
        .iter()
        .map(|(what, route)| Effect {
            what: what.clone(),
            route: route.clone(),
        })
        .collect()
}

/// The `run` effects: program, argv, route.
fn runs(fx: &Effects) -> Vec<(String, Vec<String>, Route)> {
    fx.list
        .iter()
        .filter_map(|e| match &e.what {
            What::Run(c) => Some((
                c.program.clone(),
                c.args.iter().map(|a| a.text.clone()).collect(),
                e.route.clone(),
            )),
            _ => None,
        })
        .collect()
}

fn sends(fx: &Effects) -> Vec<(&Send, &Route)> {
    fx.list
        .iter()
        .filter_map(|e| match &e.what {
            What::Send(s) => Some((s, &e.route)),
            _ => None,
        })
        .collect()
}
