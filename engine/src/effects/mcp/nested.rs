//! Code inside an MCP argument: a command line through the shell lens, a SQL statement as a
//! `run` of the program `sql`.
//!
//! In: the argument's value (a command line, an argv array, a parsed SQL statement), its JSON
//! pointer and working folder. Out: the shell lens's effects under this call's route (the
//! command and wrapper path kept), or a `run` of `sql` (with `unsure` when the statement did
//! not parse in full). A tool named after a command-line program (`mcp__k8s__kubectl`) has that
//! program put before its command line.

use serde_json::Value;

use super::walk::Walk;
use crate::effects::model::{Effects, Lens, What};
use crate::effects::sql;

impl Walk<'_> {
    /// A command value through the shell lens; its effects keep the shell lens's command
    /// and wrapper path and take this call's route.
    pub(super) fn shell(&mut self, v: &Value, ptr: &str, base: Option<&str>, fx: &mut Effects) {
        let mut inner = Effects::default();
        // A tool named after a command-line program takes that program's arguments
        // (`mcp__k8s__kubectl {"command": "delete namespace prod"}` runs
        // `kubectl delete namespace prod`).
        let prefixed = v.as_str().and_then(|line| {
            let program = program_of_tool(self.tool)?;
            let first = line.split_whitespace().next().unwrap_or("");
            (first != program && !first.ends_with(&format!("/{program}")))
                .then(|| Value::String(format!("{program} {line}")))
        });
        let v = prefixed.as_ref().unwrap_or(v);
        crate::effects::dispatch::shell_value(self.tool, ptr, v, base, self.env, &mut inner);
        for mut e in inner.list {
            e.route.tool = self.tool.to_string();
            e.route.lens = Some(Lens::Mcp);
            e.route.argument = ptr.to_string();
            fx.list.push(e);
        }
    }

    /// A SQL statement: a `run` of `sql`.
    pub(super) fn sql(
        &mut self,
        st: sql::Statement,
        ptr: &str,
        base: Option<&str>,
        fx: &mut Effects,
    ) {
        if let Some(why) = st.unparsed(self.tool) {
            fx.push(What::Unsure(why), self.route(ptr));
        }
        fx.push(What::Run(st.run(base, false)), self.route(ptr));
    }
}

/// The command-line program an MCP tool is named after (`mcp__k8s__kubectl` → `kubectl`),
/// for the programs whose subcommand line such tools take.
pub(super) fn program_of_tool(tool: &str) -> Option<&'static str> {
    const PROGRAMS: &[&str] = &[
        "kubectl",
        "helm",
        "docker",
        "podman",
        "git",
        "gh",
        "glab",
        "aws",
        "gcloud",
        "az",
        "terraform",
        "redis-cli",
        "npm",
        "pnpm",
        "yarn",
        "cargo",
        "pip",
        "brew",
        "apt-get",
        "systemctl",
        "psql",
        "mysql",
    ];
    let last = tool.rsplit("__").next()?.rsplit(':').next()?;
    let name = last.to_ascii_lowercase().replace('_', "-");
    PROGRAMS
        .iter()
        .find(|p| name == **p || name == format!("run-{p}") || name == format!("{p}-command"))
        .copied()
}
