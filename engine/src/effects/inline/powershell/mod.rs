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

mod binding;
mod cli;
pub(super) mod cmd;
mod cmdlets;
mod dotnet;
mod requests;
#[cfg(test)]
mod tests;
mod words;

use tree_sitter::{Node, Tree};

use self::binding::{Bound, bind, bindings, item_scopes, listing_glob, rebind};
use self::cmdlets::{Act, P, Sw, cmdlet};
use self::requests::{download_in, download_variables, eval, evaluated, web};
use self::words::{Vars, provider, ps_values};
use super::{Collect, first_error_outside, nodes, text};
use crate::effects::model::{PathRef, What};
use crate::shell::Arg;

pub(crate) use cli::{is_powershell_call, posix_alike, powershell_analysis, powershell_tool};

/// A command of a pipeline: its name and its elements.
struct Command<'t> {
    /// The name as written after quote removal (`Remove-Item`, `git`, `./build.ps1`).
    name: Arg,
    /// The node of the whole command.
    node: Node<'t>,
    /// Its elements in order.
    elements: Vec<Element<'t>>,
}

/// One element of a command.
enum Element<'t> {
    /// `-Name` (with `:` when its value follows it directly).
    Param(String, bool),
    /// A value: its nodes and its values.
    Value(Vec<Node<'t>>, Vec<Arg>),
    /// A redirection: `>`, `>>`, `2>`, … and its file.
    Redirect(String, Arg),
}

/// What flows out of a command into the next one of a pipeline.
#[derive(Default, Clone)]
struct Flow {
    /// Files read.
    reads: Vec<PathRef>,
    /// A URL downloaded.
    download: Option<Arg>,
    /// Literal text.
    literal: Option<String>,
    /// Environment variables (`Get-Content Env:X`); `*` for all of them.
    env: Vec<String>,
    /// Paths listed, and whether recursively (`Get-ChildItem -Recurse`).
    listed: Vec<PathRef>,
    /// The listing was recursive.
    recursive: bool,
}

/// Whether PowerShell refuses to run the code: its parser reserves `<` (there is no input
/// redirection: "The '<' operator is reserved for future use"), so code with a bare `<` in a
/// command (`python - <<'PY'`, `prog < in.txt`) fails to parse, and PowerShell parses a whole
/// script block before it runs any of it: nothing runs.
pub(super) fn refused(root: Node<'_>, code: &str) -> bool {
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        match n.kind() {
            "generic_token" | "redirection" if text(n, code).starts_with('<') => return true,
            "string_literal" | "comment" => continue,
            _ => {}
        }
        let mut c = n.walk();
        stack.extend(n.children(&mut c));
    }
    false
}

/// Read the effects of PowerShell code; `true` when a budget ran out.
pub(super) fn effects(tree: &Tree, code: &str, cx: &mut Collect<'_>) -> bool {
    if refused(tree.root_node(), code) {
        return false;
    }
    let all = nodes(tree.root_node());
    let vars = bindings(&all, code);
    let downloads = download_variables(&all, code);
    let scopes = item_scopes(&all, code);
    for n in &all {
        match n.kind() {
            "pipeline_chain" => {
                // `$_` in a script block fed by a listing is an item of it.
                let scope = scopes
                    .iter()
                    .filter(|s| s.range.contains(&n.start_byte()))
                    .min_by_key(|s| s.range.len());
                match scope {
                    Some(s) => {
                        // Once per item; what an earlier round found is not added again.
                        let was = cx.rereading;
                        for (k, g) in s.items.iter().enumerate() {
                            let mut v = vars.clone();
                            for name in &s.names {
                                v.insert(name.clone(), Some(g.clone()));
                            }
                            rebind(&all, code, &s.range, &mut v);
                            cx.rereading = was || k > 0;
                            chain(*n, code, &v, &downloads, cx);
                        }
                        cx.rereading = was;
                    }
                    None => chain(*n, code, &vars, &downloads, cx),
                }
            }
            "argument_list" => dotnet::call(*n, code, &vars, cx),
            _ => {}
        }
        if cx.full {
            return false;
        }
    }
    // `[scriptblock]::Create((iwr …))`, `& ([scriptblock]::Create($c))`: text run as code.
    // (Found in the text once, then the call around each place: no node's text is copied.)
    let lower = code.to_ascii_lowercase();
    let mut from = 0;
    while let Some(k) = lower
        .get(from..)
        .and_then(|t| t.find("[scriptblock]::create"))
    {
        let at = from + k;
        from = at + 1;
        let mut n = tree.root_node().descendant_for_byte_range(at, at + 1);
        while let Some(x) = n.filter(|x| x.kind() != "invokation_expression") {
            n = x.parent();
        }
        if let Some(call) = n {
            evaluated(call, code, &vars, &downloads, "[scriptblock]::Create", cx);
        }
    }
    false
}

/// PowerShell code parsed for the lens. The grammar does not take a parameter glued to a
/// quoted value (`rg -g"*.rs" x`, which PowerShell passes to a program as `-g*.rs`): when
/// the code has such a value and does not parse, it is read with those quotes as blanks
/// (`-g *.rs`, the same length, so every node still spans its text in `code`), the value
/// then a word of its own.
pub(crate) fn parse_code(code: &str) -> Result<Tree, String> {
    let tree = super::parse(super::Language::PowerShell, code)?;
    if first_error(tree.root_node(), code).is_none() {
        return Ok(tree);
    }
    let Some(unglued) = unglue(code) else {
        return Ok(tree);
    };
    match super::parse(super::Language::PowerShell, &unglued) {
        Ok(t) if first_error(t.root_node(), &unglued).is_none() => Ok(t),
        _ => Ok(tree),
    }
}

/// `code` with the quotes of each value glued to a parameter (`-g"*.rs"`, `-name'x'`) as
/// blanks; `None` when it has none.
fn unglue(code: &str) -> Option<String> {
    let b = code.as_bytes();
    let mut out = b.to_vec();
    let mut changed = false;
    let mut i = 0;
    let mut quote: Option<u8> = None;
    while i < b.len() {
        let c = b[i];
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == b'\'' || c == b'"' => quote = Some(c),
            None if c == b'-'
                && (i == 0 || b[i - 1].is_ascii_whitespace())
                && b.get(i + 1).is_some_and(u8::is_ascii_alphabetic) =>
            {
                let mut j = i + 1;
                while b.get(j).is_some_and(|x| x.is_ascii_alphanumeric()) {
                    j += 1;
                }
                if let Some(&q) = b.get(j).filter(|q| **q == b'"' || **q == b'\'')
                    && let Some(k) = b[j + 1..].iter().position(|x| *x == q)
                {
                    out[j] = b' ';
                    out[j + 1 + k] = b' ';
                    changed = true;
                    i = j + k + 2;
                    continue;
                }
                i = j;
                continue;
            }
            None => {}
        }
        i += 1;
    }
    changed.then(|| String::from_utf8(out).ok()).flatten()
}

/// Where the first syntax error of a PowerShell tree is, if it has one outside a command's
/// arguments: the grammar does not take every bare word PowerShell does
/// (`$env:USERPROFILE\.ssh`), and the lens reads arguments from their text.
pub(super) fn first_error(root: Node<'_>, code: &str) -> Option<tree_sitter::Point> {
    if !root.has_error() || refused(root, code) {
        return None;
    }
    first_error_outside(root, |n| n.kind() == "command_elements")
}

/// The command a `command` node runs, with its elements read.
fn read_command<'t>(n: Node<'t>, code: &str, vars: &Vars) -> Option<Command<'t>> {
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

/// The commands of one pipeline, in order, with what flows between them.
fn chain(n: Node<'_>, code: &str, vars: &Vars, downloads: &[(String, Arg)], cx: &mut Collect<'_>) {
    let mut cur = n.walk();
    let kids: Vec<Node<'_>> = n.named_children(&mut cur).collect();
    let mut flow: Option<Flow> = None;
    for (i, k) in kids.iter().enumerate() {
        if k.kind() != "command" {
            if i == 0 && k.kind() != "redirections" {
                flow = Some(source_flow(*k, code, vars, downloads));
            }
            continue;
        }
        let Some(c) = read_command(*k, code, vars) else {
            continue;
        };
        flow = Some(command(&c, flow.as_ref(), code, vars, downloads, cx));
    }
}

/// What an expression at the head of a pipeline sends down it (`"text" | iex`, `$s | iex`).
fn source_flow(n: Node<'_>, code: &str, vars: &Vars, downloads: &[(String, Arg)]) -> Flow {
    let mut f = Flow::default();
    if let Some(url) = download_in(n, code, vars, downloads) {
        f.download = Some(url);
        return f;
    }
    let t = text(n, code).trim();
    if let [one] = ps_values(t, vars).as_slice()
        && !one.dynamic
        && (t.starts_with(['\'', '"']) || t.starts_with('$'))
    {
        f.literal = Some(one.text.clone());
    }
    f
}

/// A path from a value, relative to the code's working folder.
fn path(a: &Arg, cx: &Collect<'_>) -> PathRef {
    PathRef {
        text: a.text.clone(),
        dynamic: a.dynamic,
        cwd: cx.cwd.clone(),
    }
}

/// The effects of one command, given what flows into it; what flows out.
fn command(
    c: &Command<'_>,
    input: Option<&Flow>,
    code: &str,
    vars: &Vars,
    downloads: &[(String, Arg)],
    cx: &mut Collect<'_>,
) -> Flow {
    let mut out = Flow::default();
    let shown = text(c.node, code).trim().to_string();
    let Some(t) = (!c.name.dynamic).then(|| cmdlet(&c.name.text)).flatten() else {
        redirects(c, None, cx);
        native(c, input, &shown, cx);
        return out;
    };
    let mut b = bind(c, t);
    // Path cmdlets take their path from the pipeline when none is given
    // (`"~" | Remove-Item -Recurse`, `'C:\build' | Get-ChildItem`).
    if matches!(
        t.act,
        Act::Read | Act::Delete | Act::Clear | Act::Copy { .. } | Act::Rename | Act::List
    ) && b.of(P::Path).next().is_none()
        && let Some(text) = input.and_then(|f| f.literal.clone())
    {
        b.values.push((
            P::Path,
            Arg {
                text,
                dynamic: false,
            },
            Vec::new(),
        ));
    }
    if b.whatif {
        return out;
    }
    let name = t.names.first().copied().unwrap_or_default();
    let who = c.name.text.clone();
    let recursive = b.has(Sw::Recurse);
    match t.act {
        Act::Read | Act::Search => {
            let mut files: Vec<Arg> = Vec::new();
            for a in b.of(P::Path) {
                match provider(&a.text) {
                    Some("environment") => {
                        let v = a.text.split_once(':').map(|(_, v)| v).unwrap_or("");
                        out.env
                            .push(if v.is_empty() { "*".into() } else { v.into() });
                    }
                    Some(_) => {}
                    None => {
                        out.reads.push(path(a, cx));
                        files.push(a.clone());
                    }
                }
            }
            if t.act == Act::Read {
                posix(cx, &who, "cat", &[], files, &[]);
            } else if !files.is_empty() {
                // `--regexp=PATTERN`: one word, as PowerShell passes it (no word splitting),
                // so a pattern known only at run time is not taken for a file.
                let pattern = b.of(P::Pattern).next().cloned().unwrap_or_else(|| lit(""));
                let pattern = Arg {
                    text: format!("--regexp={}", pattern.text),
                    dynamic: pattern.dynamic,
                };
                posix(cx, &who, "grep", &[pattern], files, &[]);
            }
        }
        Act::Write { append } => {
            let append = append || b.has(Sw::Append);
            let content = literal_content(&b, input);
            for a in b.of(P::Path) {
                if provider(&a.text).is_some() {
                    continue;
                }
                let k = cx.push(What::Write {
                    path: path(a, cx),
                    append,
                    content: None,
                });
                cx.set_content(k, content.clone());
            }
            out.literal = content;
        }
        Act::Delete | Act::Clear => {
            let mut files: Vec<Arg> = Vec::new();
            for a in b.of(P::Path) {
                match provider(&a.text) {
                    Some("registry") => {
                        cx.unsure(format!("`{shown}` changes the Windows registry"))
                    }
                    Some(_) => {}
                    None => files.push(a.clone()),
                }
            }
            if b.of(P::Path).next().is_none()
                && let Some(f) = input
            {
                // `Get-ChildItem build | Remove-Item`: what was listed goes.
                files.extend(f.listed.iter().chain(f.reads.iter()).map(|p| Arg {
                    text: p.text.clone(),
                    dynamic: p.dynamic,
                }));
            }
            // An item of a recursive listing (`src/**/*.log`) is what `find` deletes.
            let (deep, files): (Vec<Arg>, Vec<Arg>) = files
                .into_iter()
                .partition(|a| a.text.starts_with("**/") || a.text.contains("/**/"));
            for a in deep {
                let (folder, filter) = a.text.split_once("**/").unwrap_or((".", "*"));
                let folder = folder.trim_end_matches('/');
                let folder = if folder.is_empty() { "." } else { folder };
                let words = vec![
                    lit("find"),
                    Arg {
                        text: folder.to_string(),
                        dynamic: a.dynamic,
                    },
                    lit("-name"),
                    lit(filter),
                    lit("-delete"),
                ];
                cx.words(&who, words, None);
            }
            if t.act == Act::Clear {
                posix(cx, &who, "truncate", &[lit("-s"), lit("0")], files, &[]);
            } else {
                let flags = if recursive {
                    vec![lit("-r"), lit("-f")]
                } else {
                    vec![lit("-f")]
                };
                posix(cx, &who, "rm", &flags, files, &[]);
            }
        }
        Act::Copy { moves } => {
            let from: Vec<Arg> = b.of(P::Path).cloned().collect();
            let to: Vec<Arg> = b.of(P::Dest).take(1).cloned().collect();
            let to = if to.is_empty() { vec![lit(".")] } else { to };
            let (program, flags) = match (moves, recursive) {
                (true, _) => ("mv", vec![]),
                (false, true) => ("cp", vec![lit("-r")]),
                (false, false) => ("cp", vec![]),
            };
            posix(cx, &who, program, &flags, from, &to);
        }
        Act::Rename => {
            let from: Vec<Arg> = b.of(P::Path).take(1).cloned().collect();
            let mut to: Vec<Arg> = Vec::new();
            for d in b.of(P::Dest).take(1) {
                let folder = from
                    .first()
                    .and_then(|f| f.text.rsplit_once('/').map(|(d, _)| d.to_string()));
                let text = match folder {
                    Some(f) if !d.text.contains('/') => format!("{f}/{}", d.text),
                    _ => d.text.clone(),
                };
                to.push(Arg {
                    text,
                    dynamic: d.dynamic,
                });
            }
            posix(cx, &who, "mv", &[], from, &to);
        }
        Act::NewItem | Act::Mkdir => new_item(c, &b, &shown, cx),
        Act::List => {
            for a in b.of(P::Path) {
                match provider(&a.text) {
                    Some("environment") => out.env.push("*".into()),
                    Some(_) => {}
                    None => out.listed.push(path(a, cx)),
                }
            }
            if let Some(g) = listing_glob(c) {
                // What flows on is each item: `src/*.cs`, `src/**/*.cs`.
                out.listed = vec![path(&lit(&g), cx)];
            } else if b.of(P::Path).next().is_none() {
                out.listed.push(path(&lit("."), cx));
            }
            out.recursive = recursive;
            if out.env.iter().any(|e| e == "*") {
                // `Get-ChildItem Env:` prints every variable, as `printenv` does.
                cx.words("", vec![lit("printenv")], None);
            }
        }
        Act::Chdir => {
            let dir = b.of(P::Path).next().cloned();
            let r = dir
                .filter(|d| !d.dynamic)
                .map(|d| super::Res::lit(d.text).expand_user());
            cx.chdir(r, name);
        }
        Act::Web => web(&b, input, c, code, vars, &shown, cx, &mut out),
        Act::Eval => eval(c, &b, input, code, vars, downloads, cx),
        Act::Start => start(&b, &shown, cx),
        Act::Stop => {
            // `pkill -x NAME` / `kill ID` (`-9` with `-Force`).
            let force = b.has(Sw::Force);
            for a in b.of(P::Name) {
                let mut words = vec![lit("pkill")];
                if force {
                    words.push(lit("-9"));
                }
                words.extend([lit("-x"), a.clone()]);
                cx.words(&who, words, None);
            }
            let ids: Vec<Arg> = b.of(P::Id).cloned().collect();
            if !ids.is_empty() {
                let mut words = vec![lit("kill")];
                if force {
                    words.push(lit("-9"));
                }
                words.extend(ids);
                cx.words(&who, words, None);
            }
        }
        Act::ExecPolicy => {
            let policy = b.of(P::Name).next().map(|a| a.text.to_ascii_lowercase());
            let scope = b.of(P::Scope).next().map(|a| a.text.to_ascii_lowercase());
            let loose = matches!(policy.as_deref(), Some("bypass" | "unrestricted"));
            if loose && scope.as_deref() != Some("process") {
                cx.unsure(format!(
                    "`{shown}` lets every PowerShell script run, beyond this process"
                ));
            }
        }
        Act::Install => {
            let packages: Vec<Arg> = b.of(P::Name).cloned().collect();
            let source = b.of(P::Url).next().map(|a| a.text.clone());
            cx.push(What::Install {
                manager: "PowerShellGet".into(),
                packages,
                source,
            });
        }
        Act::System => cx.unsure(format!(
            "`{shown}` changes the Windows registry or the machine's security settings"
        )),
        Act::Pack => {
            // `zip -r DEST PATHS`.
            let dest: Vec<Arg> = b.of(P::Dest).take(1).cloned().collect();
            let from: Vec<Arg> = b.of(P::Path).cloned().collect();
            if let Some(d) = dest.first() {
                let mut words = vec![lit("zip"), lit("-r"), d.clone()];
                words.extend(from);
                cx.words(&who, words, None);
            }
        }
        Act::Unpack => {
            // `unzip ARCHIVE -d DEST`.
            let dest = b.of(P::Dest).next().cloned().unwrap_or_else(|| lit("."));
            for a in b.of(P::Path) {
                cx.words(
                    &who,
                    vec![lit("unzip"), a.clone(), lit("-d"), dest.clone()],
                    None,
                );
            }
        }
        Act::Compile => cx.unsure(format!("`{shown}` compiles and loads .NET code")),
        Act::Output => {
            let vals: Vec<&Arg> = b.of(P::Value).collect();
            if vals.iter().all(|a| !a.dynamic) {
                let t: Vec<&str> = vals.iter().map(|a| a.text.as_str()).collect();
                out.literal = Some(t.join("\n"));
            }
        }
        Act::Pure => {
            // Filters and formatters pass their input on (`… | Select-Object -First 5`).
            if let Some(f) = input {
                out = f.clone();
            }
            if c.name.text.eq_ignore_ascii_case("new-object")
                && shown.to_ascii_lowercase().contains("tcpclient")
            {
                dotnet::tcp_client(&shown, vars, cx);
            }
        }
    }
    // `Write-Output x > f`: the text is what the file gets.
    let text = (t.act == Act::Output)
        .then(|| out.literal.clone())
        .flatten();
    redirects(c, text, cx);
    out
}

/// A literal text a `Set-Content` / `Out-File` writes: its `-Value`, or a literal piped in.
fn literal_content(b: &Bound, input: Option<&Flow>) -> Option<String> {
    let vals: Vec<&Arg> = b.of(P::Value).collect();
    if vals.is_empty() {
        return input.and_then(|f| f.literal.clone());
    }
    if vals.iter().any(|a| a.dynamic) {
        return None;
    }
    let t: Vec<&str> = vals.iter().map(|a| a.text.as_str()).collect();
    Some(t.join("\n"))
}

/// `New-Item`: a file (written, with its `-Value`), a folder, or a link (its target read:
/// a link into `~/.ssh` is a way to it).
fn new_item(c: &Command<'_>, b: &Bound, shown: &str, cx: &mut Collect<'_>) {
    let kind = b
        .of(P::ItemType)
        .next()
        .map(|a| a.text.to_ascii_lowercase())
        .unwrap_or_default();
    let names: Vec<&Arg> = b.of(P::Name).collect();
    let mut paths: Vec<Arg> = Vec::new();
    let folders: Vec<Arg> = b.of(P::Path).cloned().collect();
    if names.is_empty() {
        paths = folders;
    } else {
        for n in &names {
            match folders.first() {
                Some(f) => paths.push(Arg {
                    text: format!("{}/{}", f.text.trim_end_matches('/'), n.text),
                    dynamic: f.dynamic || n.dynamic,
                }),
                None => paths.push((*n).clone()),
            }
        }
    }
    let value: Vec<&Arg> = b.of(P::Value).collect();
    let who =
        if c.name.text.eq_ignore_ascii_case("new-item") || c.name.text.eq_ignore_ascii_case("ni") {
            "New-Item"
        } else {
            "mkdir"
        };
    let files: Vec<Arg> = paths
        .iter()
        .filter(|a| provider(&a.text).is_none())
        .cloned()
        .collect();
    if matches!(kind.as_str(), "symboliclink" | "junction" | "hardlink") {
        let flags = if kind == "hardlink" {
            vec![]
        } else {
            vec![lit("-s")]
        };
        let mut targets: Vec<Arg> = value.iter().map(|v| (*v).clone()).take(1).collect();
        targets.extend(files.into_iter().take(1));
        posix(cx, who, "ln", &flags, targets, &[]);
        return;
    }
    if who == "mkdir" || kind == "directory" {
        posix(cx, who, "mkdir", &[lit("-p")], files, &[]);
        return;
    }
    for a in &paths {
        if provider(&a.text).is_some() {
            if provider(&a.text) == Some("registry") {
                cx.unsure(format!("`{shown}` changes the Windows registry"));
            }
            continue;
        }
        let content = (kind.is_empty() || kind == "file")
            .then(|| {
                (value.iter().all(|v| !v.dynamic)).then(|| {
                    value
                        .iter()
                        .map(|v| v.text.as_str())
                        .collect::<Vec<_>>()
                        .join("\n")
                })
            })
            .flatten();
        let k = cx.push(What::Write {
            path: path(a, cx),
            append: false,
            content: None,
        });
        cx.set_content(k, content.filter(|t| !t.is_empty()));
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

/// The redirections of a command's output to files; `content` is the text written, when
/// known.
fn redirects(c: &Command<'_>, content: Option<String>, cx: &mut Collect<'_>) {
    for e in &c.elements {
        let Element::Redirect(op, file) = e else {
            continue;
        };
        let t = file.text.to_ascii_lowercase();
        if t.is_empty() || t == "$null" || t == "nul" || t == "/dev/null" || op.contains('<') {
            continue;
        }
        let k = cx.push(What::Write {
            path: path(file, cx),
            append: op.ends_with(">>"),
            content: None,
        });
        cx.set_content(k, content.clone());
    }
}

/// A command that is no cmdlet: a program (`git`, `npm`, `cmd`), a script (`.\build.ps1`),
/// or a name known only at run time.
fn native(c: &Command<'_>, input: Option<&Flow>, shown: &str, cx: &mut Collect<'_>) {
    if c.name.dynamic {
        cx.unsure(format!(
            "`{shown}` runs a command whose name is known only at run time"
        ));
        return;
    }
    let mut words = vec![program_word(&c.name)];
    for e in &c.elements {
        match e {
            Element::Param(n, _) => words.push(lit(&format!("-{n}"))),
            Element::Value(_, vals) => words.extend(vals.iter().cloned()),
            Element::Redirect(..) => {}
        }
    }
    let stdin = input.and_then(|f| f.reads.first()).map(|p| Arg {
        text: p.text.clone(),
        dynamic: p.dynamic,
    });
    cx.words("", words, stdin);
}

/// A program name as the shell lens's table names it: `/` separators, no `.exe`.
pub(super) fn program_word(a: &Arg) -> Arg {
    let mut t = words::windows_path(&a.text);
    let lower = t.to_ascii_lowercase();
    for ext in [".exe", ".com"] {
        if lower.ends_with(ext) && !t.contains('/') {
            t.truncate(t.len() - ext.len());
        }
    }
    Arg {
        text: t,
        dynamic: a.dynamic,
    }
}

/// A literal word.
fn lit(t: &str) -> Arg {
    Arg {
        text: t.to_string(),
        dynamic: false,
    }
}

/// `Start-Process`: the program and its arguments, for the shell lens's table; `-Verb
/// RunAs` starts it as administrator.
fn start(b: &Bound, shown: &str, cx: &mut Collect<'_>) {
    let Some(program) = b.of(P::Program).next() else {
        return;
    };
    if program.dynamic {
        cx.unsure(format!(
            "`{shown}` starts a program whose name is known only at run time"
        ));
        return;
    }
    let mut words = vec![program_word(program)];
    for a in b.of(P::Args) {
        if a.dynamic {
            words.push(a.clone());
        } else {
            words.extend(cli::split_windows(&a.text).into_iter().map(|w| lit(&w)));
        }
    }
    if b.of(P::Verb).any(|v| v.text.eq_ignore_ascii_case("runas")) {
        cx.unsure(format!("`{shown}` starts a program as administrator"));
    }
    for a in b.of(P::OutFile) {
        cx.push(What::Write {
            path: path(a, cx),
            append: false,
            content: None,
        });
    }
    for a in b.of(P::InPath) {
        cx.push(What::Read(path(a, cx)));
    }
    cx.words("Start-Process", words, None);
}
