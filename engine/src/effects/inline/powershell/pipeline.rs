//! The effects of PowerShell code: each pipeline's commands in order with what flows between
//! them, the .NET calls, and code made from text with `[scriptblock]::Create`.
//!
//! In: a parsed tree and its text. Out, through [`Collect`]: the effects of each cmdlet the
//! table knows by the role of its parameters, the redirections, and each other command as a
//! program for the shell lens's table.

use tree_sitter::{Node, Tree};

use super::binding::{Bound, bind, bindings, item_scopes, listing_glob, rebind};
use super::cmdlets::{Act, P, Sw, cmdlet};
use super::dotnet;
use super::model::{Command, Element, Flow, lit, path, posix, program_word, read_command};
use super::requests::{download_in, download_variables, eval, evaluated, web};
use super::syntax::refused;
use super::words::{Vars, provider, ps_values, split_windows};
use crate::effects::inline::{Collect, Res, nodes, text};
use crate::effects::model::What;
use crate::shell::Arg;

/// Read the effects of PowerShell code; `true` when a budget ran out.
pub(in crate::effects::inline) fn effects(tree: &Tree, code: &str, cx: &mut Collect<'_>) -> bool {
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

/// `Select-String` as the grep(1) search of the same files: its paths, or the items of a
/// recursive listing piped into it (`Get-ChildItem -Recurse | Select-String KEY`: every file
/// below the listed folder, of the listing's kind when it has a filter), below its paths too
/// with `-Recurse`. Case is ignored unless `-CaseSensitive` (`-i`); `-NotMatch` is `-v`,
/// `-Quiet` prints no line (`-q`). The pattern is one `--regexp=` word, as PowerShell passes
/// it (no word splitting), so a pattern known only at run time is not taken for a file.
fn search(b: &Bound, input: Option<&Flow>, files: Vec<Arg>, who: &str, cx: &mut Collect<'_>) {
    let pattern = b.of(P::Pattern).next().cloned().unwrap_or_else(|| lit(""));
    let mut flags = vec![Arg {
        text: format!("--regexp={}", pattern.text),
        dynamic: pattern.dynamic,
    }];
    for (sw, flag) in [(Sw::NotMatch, "-v"), (Sw::Quiet, "-q")] {
        if b.has(sw) {
            flags.push(lit(flag));
        }
    }
    if !b.has(Sw::CaseSensitive) {
        flags.push(lit("-i"));
    }
    if b.has(Sw::Recurse) {
        flags.push(lit("-r"));
    }
    if !files.is_empty() || b.of(P::Path).next().is_some() {
        posix(cx, who, "grep", &flags, files, &[]);
        return;
    }
    // `Get-ChildItem -Recurse [-Filter *.rs] | Select-String KEY`: each listed item is
    // `FOLDER/**/FILTER`.
    let Some(listing) = input.filter(|f| f.recursive) else {
        return;
    };
    for item in &listing.listed {
        let (folder, filter) = item.text.split_once("**/").unwrap_or((&item.text, "*"));
        let folder = folder.trim_end_matches('/');
        let mut flags = flags.clone();
        if !b.has(Sw::Recurse) {
            flags.push(lit("-r"));
        }
        if filter != "*" {
            flags.push(lit(&format!("--include={filter}")));
        }
        let root = Arg {
            text: if folder.is_empty() { "." } else { folder }.to_string(),
            dynamic: item.dynamic,
        };
        posix(cx, who, "grep", &flags, vec![root], &[]);
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
            } else {
                search(&b, input, files, &who, cx);
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
                    Some("registry") => super::admin::remove_key(a, &shown, &who, cx),
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
                .map(|d| Res::lit(d.text).expand_user());
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
        Act::Admin(kind) => super::admin::admin(kind, c, &b, &shown, &who, cx),
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
            // A native program gets the token as written (`--from`, not `-from`).
            Element::Param(_, _, raw) => words.push(lit(raw)),
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
            words.extend(split_windows(&a.text).into_iter().map(|w| lit(&w)));
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
