//! The shell analyses of one payload's command-line fields, each made once per call.
//!
//! In: a payload and a field it names (`command`, a JSON pointer, the virtual `paths`). Out:
//! the field's [`ShellAnalysis`] (`None`: the field is absent or is no command line), made on
//! first use and kept, so the snapshot's gates and the evaluation of the same payload read one
//! analysis instead of making two.

use std::cell::RefCell;
use std::rc::Rc;

use serde_json::Value;

use crate::policy::Field;
use crate::shell::{ShellAnalysis, analyze_command};

/// The analyses of one payload's command-line fields made so far, by field name. Only ever
/// asked about the payload it was made for: a rewritten payload starts a list of its own.
#[derive(Default, Debug)]
pub struct CommandLines {
    made: RefCell<Vec<(String, Rc<ShellAnalysis>)>>,
}

impl CommandLines {
    /// An empty list: nothing analysed yet.
    pub fn new() -> CommandLines {
        CommandLines::default()
    }

    /// The analysis of `field` of `payload`, made on first use.
    pub(crate) fn analysis(&self, payload: &Value, field: &Field) -> Option<Rc<ShellAnalysis>> {
        self.analysis_from(payload, field, None)
    }

    /// [`CommandLines::analysis`], taken from `known` (the same payload's analyses made
    /// before, which it keeps) when this list has none yet: what this list holds is what it
    /// would hold without `known`.
    pub(crate) fn analysis_from(
        &self,
        payload: &Value,
        field: &Field,
        known: Option<&CommandLines>,
    ) -> Option<Rc<ShellAnalysis>> {
        if let Some(a) = self.made(&field.name) {
            return Some(a);
        }
        let a = match known {
            Some(k) => k.analysis(payload, field)?,
            None => Rc::new(field_analysis(payload, field)?),
        };
        self.made.borrow_mut().push((field.name.clone(), a.clone()));
        Some(a)
    }

    /// The analysis of the field named `name`, if one was made.
    pub(crate) fn made(&self, name: &str) -> Option<Rc<ShellAnalysis>> {
        self.made
            .borrow()
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, a)| a.clone())
    }

    /// Whether an analysis made so far does not parse or runs a program only known at run
    /// time.
    pub(crate) fn any_unsure(&self) -> bool {
        self.made
            .borrow()
            .iter()
            .any(|(_, a)| a.unsure.is_some() || a.commands.iter().any(|c| c.dynamic_program))
    }
}

/// The shell analysis of a command-line field (the `paths` field: the paths the tool call
/// touches; the `PowerShell` tool's `command`: its commands as the lens reads them).
fn field_analysis(payload: &Value, field: &Field) -> Option<ShellAnalysis> {
    if field.name == "paths" {
        return Some(crate::shell::tool_paths(payload));
    }
    let cwd = payload.get("cwd").and_then(Value::as_str);
    let v = field.resolve(payload)?;
    match v.as_str() {
        Some(code)
            if field.name == "command" && crate::effects::inline::is_powershell_call(payload) =>
        {
            Some(crate::effects::inline::powershell_analysis(code, cwd))
        }
        _ => analyze_command(v, cwd),
    }
}
