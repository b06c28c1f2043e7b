//! The PowerShell lens's model of a command: its name and elements as read from the tree, what
//! flows between the commands of a pipeline, and the small helpers every reader of a command
//! shares (a path from a value, a literal word, a program word, the POSIX command a cmdlet
//! does the same as).
//!
//! In: a `command` node and its text, values. Out: [`Command`], [`Element`], [`Flow`], and
//! words or a POSIX command pushed through [`Collect`].

use tree_sitter::Node;

use super::words::{Vars, ps_values, windows_path};
use crate::effects::inline::{Collect, text};
use crate::effects::model::PathRef;
use crate::shell::{Arg, program_base};

/// A command of a pipeline: its name and its elements.
pub(super) struct Command<'t> {
    /// The name as written after quote removal (`Remove-Item`, `git`, `./build.ps1`).
    pub(super) name: Arg,
    /// The node of the whole command.
    pub(super) node: Node<'t>,
    /// Its elements in order.
    pub(super) elements: Vec<Element<'t>>,
}

/// One element of a command.
pub(super) enum Element<'t> {
    /// `-Name` (with `:` when its value follows it directly), and the token as written
    /// (`--from`), which a native program receives unchanged.
    Param(String, bool, String),
    /// A value: its nodes and its values.
    Value(Vec<Node<'t>>, Vec<Arg>),
    /// A redirection: `>`, `>>`, `2>`, … and its file.
    Redirect(String, Arg),
}

/// What flows out of a command into the next one of a pipeline.
#[derive(Default, Clone)]
pub(super) struct Flow {
    /// Files read.
    pub(super) reads: Vec<PathRef>,
    /// A URL downloaded.
    pub(super) download: Option<Arg>,
    /// Literal text.
    pub(super) literal: Option<String>,
    /// Environment variables (`Get-Content Env:X`); `*` for all of them.
    pub(super) env: Vec<String>,
    /// Paths listed, and whether recursively (`Get-ChildItem -Recurse`).
    pub(super) listed: Vec<PathRef>,
    /// The listing was recursive.
    pub(super) recursive: bool,
}

/// The command a `command` node runs, with its elements read.
pub(super) fn read_command<'t>(n: Node<'t>, code: &str, vars: &Vars) -> Option<Command<'t>> {
    let name_node = n.child_by_field_name("command_name")?;
    let name = match ps_values(text(name_node, code).trim(), vars)
        .into_iter()
        .next()
    {
        Some(a) => a,
        None => Arg {
            text: String::new(),
            dynamic: true,
        },
    };
    let mut elements = Vec::new();
    if let Some(els) = n.child_by_field_name("command_elements") {
        let mut group: Vec<Node<'t>> = Vec::new();
        let mut cur = els.walk();
        let kids: Vec<Node<'t>> = els.named_children(&mut cur).collect();
        let flush = |group: &mut Vec<Node<'t>>, elements: &mut Vec<Element<'t>>| {
            if let (Some(first), Some(last)) = (group.first(), group.last()) {
                let t = code.get(first.start_byte()..last.end_byte()).unwrap_or("");
                elements.push(Element::Value(group.clone(), ps_values(t.trim(), vars)));
            }
            group.clear();
        };
        for k in kids {
            match k.kind() {
                "command_argument_sep" => flush(&mut group, &mut elements),
                "command_parameter" => {
                    flush(&mut group, &mut elements);
                    let t = text(k, code).trim();
                    let mut kc = k.walk();
                    let colon = t.ends_with(':')
                        || k.children(&mut kc).any(|x| x.kind() == ":")
                        || code.as_bytes().get(k.end_byte()) == Some(&b':');
                    let name = t.trim_start_matches(['-', '\u{2013}', '\u{2014}']);
                    elements.push(Element::Param(
                        name.trim_end_matches(':').to_string(),
                        colon,
                        t.trim_end_matches(':').to_string(),
                    ));
                }
                "redirection" => {
                    flush(&mut group, &mut elements);
                    let t = text(k, code).trim();
                    let op_end = t.find(|c: char| !matches!(c, '>' | '*' | '&' | '1'..='6' | '<'));
                    let (op, file) = t.split_at(op_end.unwrap_or(t.len()));
                    let file = ps_values(file.trim(), vars).into_iter().next();
                    if let Some(f) = file {
                        elements.push(Element::Redirect(op.to_string(), f));
                    }
                }
                _ => group.push(k),
            }
        }
        flush(&mut group, &mut elements);
    }
    Some(Command {
        name,
        node: n,
        elements,
    })
}

/// A path from a value, relative to the code's working folder.
pub(super) fn path(a: &Arg, cx: &Collect<'_>) -> PathRef {
    PathRef {
        text: a.text.clone(),
        dynamic: a.dynamic,
        cwd: cx.cwd.clone(),
    }
}

/// The POSIX command a cmdlet does the same as (`Remove-Item -Recurse x` is `rm -r -f -- x`),
/// for the shell lens and the rules on its programs; `who` names the cmdlet in the route.
pub(super) fn posix(
    cx: &mut Collect<'_>,
    who: &str,
    program: &str,
    flags: &[Arg],
    paths: Vec<Arg>,
    last: &[Arg],
) {
    if paths.is_empty() {
        return;
    }
    let mut words = vec![lit(program)];
    words.extend(flags.iter().cloned());
    words.push(lit("--"));
    words.extend(paths);
    words.extend(last.iter().cloned());
    cx.words(who, words, None);
}

/// A program word as the shell lens reads it: `/` separators, and a bare name without its
/// `.exe` or `.com` ([`program_base`]; a path keeps it, the shell lens's name drops it).
pub(super) fn program_word(a: &Arg) -> Arg {
    let t = windows_path(&a.text);
    Arg {
        text: if t.contains('/') {
            t
        } else {
            program_base(&t).to_string()
        },
        dynamic: a.dynamic,
    }
}

/// A literal word.
pub(super) fn lit(t: &str) -> Arg {
    Arg {
        text: t.to_string(),
        dynamic: false,
    }
}
