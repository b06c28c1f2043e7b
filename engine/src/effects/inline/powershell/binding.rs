//! What names stand for in PowerShell code: variables bound once to a literal or to a listing
//! of files, `foreach` loop variables, `$_` in a script block fed by a listing, and the
//! parameters of one command bound to its elements.

use tree_sitter::Node;

use super::cmdlets::{Act, Cmdlet, P, Sw, cmdlet, param};
use super::model::{Command, Element, read_command};
use super::words::{Vars, join_path, provider, ps_values};
use crate::effects::inline::{nodes, text};
use crate::shell::Arg;

/// Variables bound once to a literal (`$p = "a.txt"`) or to a listing of files (`$fs =
/// Get-ChildItem src -Filter *.cs`: each item is `src/*.cs`, as a shell names a glob); one
/// bound twice or to another computed value is only known at run time. A `foreach ($f in
/// $fs)` binds `$f` to an item of what it loops over.
pub(super) fn bindings(all: &[Node<'_>], code: &str) -> Vars {
    let mut vars = Vars::new();
    // In the order of the code: a `foreach` binds its variable before its body reads it.
    for n in all {
        match n.kind() {
            "assignment_expression" => assign(*n, code, &mut vars),
            "foreach_statement" => loop_variable(*n, code, &mut vars),
            _ => {}
        }
    }
    vars
}

/// `$x = …`: bound to a literal, a listing's items or a path made of known values
/// (`Join-Path $dir (Split-Path $f -Leaf)`); a second assignment unbinds it.
fn assign(n: Node<'_>, code: &str, vars: &mut Vars) {
    let Some(left) = n.named_child(0) else {
        return;
    };
    let name = text(left, code).trim();
    let Some(name) = name.strip_prefix('$') else {
        return;
    };
    let name = name.to_ascii_lowercase();
    let value = n.child_by_field_name("value").and_then(|v| {
        if let Some(g) = listing_in(v, code) {
            return Some(g);
        }
        let t = text(v, code).trim();
        if let Some(j) = join_path(&format!("({t})"), vars) {
            return (!j.dynamic).then_some(j.text);
        }
        let has_command = nodes(v).iter().any(|k| k.kind() == "command");
        let vals = ps_values(t, &Vars::new());
        match vals.as_slice() {
            [one] if !has_command && !one.dynamic => Some(one.text.clone()),
            _ => None,
        }
    });
    let op = text(n, code);
    let plain = op.contains('=') && !op.contains("+=");
    vars.entry(name)
        .and_modify(|v| *v = None)
        .or_insert(if plain { value } else { None });
}

/// `foreach ($f in $fs) { … }`: `$f` is an item of what the loop goes over.
fn loop_variable(n: Node<'_>, code: &str, vars: &mut Vars) {
    let mut cur = n.walk();
    let kids: Vec<Node<'_>> = n.named_children(&mut cur).collect();
    let Some(v) = kids.iter().find(|k| k.kind() == "variable") else {
        return;
    };
    let name = text(*v, code)
        .trim()
        .trim_start_matches('$')
        .to_ascii_lowercase();
    let over = kids.iter().find(|k| k.kind() == "pipeline");
    let item = over.and_then(|o| {
        listing_in(*o, code).or_else(|| {
            let t = text(*o, code).trim();
            let bound = t.strip_prefix('$')?.to_ascii_lowercase();
            vars.get(&bound).cloned().flatten()
        })
    });
    let item = item.filter(|_| !vars.contains_key(&name));
    vars.insert(name, item);
}

/// The files a listing in `n` names, as a glob (`Get-ChildItem src -Recurse -Filter *.cs` is
/// `src/**/*.cs`), when `n` is one listing command.
pub(super) fn listing_in(n: Node<'_>, code: &str) -> Option<String> {
    let commands: Vec<Node<'_>> = nodes(n)
        .into_iter()
        .filter(|k| k.kind() == "command")
        .collect();
    let (first, rest) = commands.split_first()?;
    // Filters that pass items on as they are (`| Sort-Object LastWriteTime | Select-Object
    // -First 1`) keep them items of the listing.
    let passes_items = rest.iter().all(|k| {
        read_command(*k, code, &Vars::new()).is_some_and(|c| {
            let name = c.name.text.to_ascii_lowercase();
            let projects = c.elements.iter().any(|e| {
                matches!(e, Element::Param(p, ..)
                    if ["property", "expandproperty", "excludeproperty"]
                        .iter()
                        .any(|x| x.starts_with(&p.to_ascii_lowercase())))
            });
            match name.as_str() {
                "sort-object" | "sort" | "where-object" | "where" | "?" | "get-unique" => true,
                // A first positional value is the properties kept (`Select-Object Name`).
                "select-object" | "select" => {
                    !projects && !matches!(c.elements.first(), Some(Element::Value(..)))
                }
                _ => false,
            }
        })
    });
    if !passes_items {
        return None;
    }
    listing_glob(&read_command(*first, code, &Vars::new())?)
}

/// The glob of the items a listing command yields.
pub(super) fn listing_glob(c: &Command<'_>) -> Option<String> {
    let t = cmdlet(&c.name.text).filter(|t| t.act == Act::List)?;
    // Only `Get-ChildItem` and its aliases yield a folder's items; the other cmdlets of its
    // row (`Join-Path`, `Split-Path`, `Get-Item`, `Test-Path`) yield one path or a value.
    let name = c.name.text.to_ascii_lowercase();
    if !matches!(name.as_str(), "get-childitem" | "gci" | "ls" | "dir") {
        return None;
    }
    let b = bind(c, t);
    let folder = match b.of(P::Path).next() {
        Some(p) if p.dynamic || provider(&p.text).is_some() => return None,
        Some(p) => p.text.trim_end_matches('/').to_string(),
        None => ".".into(),
    };
    let filter = b
        .of(P::Filter)
        .next()
        .filter(|f| !f.dynamic)
        .map_or("*".to_string(), |f| f.text.clone());
    let inner = if b.has(Sw::Recurse) {
        format!("**/{filter}")
    } else {
        filter
    };
    Some(if folder == "." {
        inner
    } else {
        format!("{folder}/{inner}")
    })
}

/// The variables assigned inside `range` (a script block read once per item), bound with
/// what `vars` knows there: `$p = Join-Path $root $_` is the item's path in that round.
pub(super) fn rebind(
    all: &[Node<'_>],
    code: &str,
    range: &std::ops::Range<usize>,
    vars: &mut Vars,
) {
    for n in all
        .iter()
        .filter(|n| n.kind() == "assignment_expression" && range.contains(&n.start_byte()))
    {
        let Some(name) = n.named_child(0).and_then(|l| {
            text(l, code)
                .trim()
                .strip_prefix('$')
                .map(str::to_ascii_lowercase)
        }) else {
            continue;
        };
        let value = n.child_by_field_name("value").and_then(|v| {
            let t = text(v, code).trim();
            if let Some(j) = join_path(&format!("({t})"), vars) {
                return (!j.dynamic).then_some(j.text);
            }
            if nodes(v).iter().any(|k| k.kind() == "command") {
                return None;
            }
            match ps_values(t, vars).as_slice() {
                [one] if !one.dynamic => Some(one.text.clone()),
                _ => None,
            }
        });
        vars.insert(name, value);
    }
}

/// Most items of a literal array the code is read once for.
pub(super) const MAX_ARRAY_ITEMS: usize = 16;

/// The items of a literal array of constant strings (`@('a', "b")`, `'a','b'`), or of a
/// variable bound once to one; `None` for anything computed.
fn array_items(n: Node<'_>, all: &[Node<'_>], code: &str) -> Option<Vec<String>> {
    let t = text(n, code).trim();
    if let Some(name) = t.strip_prefix('$') {
        // `$paths | ForEach-Object …`: the one assignment of `$paths`.
        let mut values = all
            .iter()
            .filter(|a| a.kind() == "assignment_expression")
            .filter(|a| {
                a.named_child(0)
                    .is_some_and(|l| text(l, code).trim().eq_ignore_ascii_case(t))
            });
        let one = values.next()?;
        if values.next().is_some() || name.is_empty() {
            return None;
        }
        return array_items(one.child_by_field_name("value")?, all, code);
    }
    if nodes(n)
        .iter()
        .any(|k| matches!(k.kind(), "command" | "variable" | "sub_expression"))
    {
        return None;
    }
    let inner = t
        .strip_prefix("@(")
        .and_then(|r| r.strip_suffix(')'))
        .unwrap_or(t);
    let items: Vec<Arg> = ps_values(inner, &Vars::new())
        .into_iter()
        .flat_map(|a| {
            // `@(\n 'a'\n 'b'\n)`: one item per line too.
            a.text
                .lines()
                .map(|l| Arg {
                    text: l.trim().to_string(),
                    dynamic: a.dynamic,
                })
                .filter(|l| !l.text.is_empty())
                .collect::<Vec<_>>()
        })
        .collect();
    (!items.is_empty() && items.len() <= MAX_ARRAY_ITEMS && items.iter().all(|a| !a.dynamic))
        .then(|| items.into_iter().map(|a| a.text).collect())
}

/// A part of the code read once per item: what its names stand for in each round.
pub(super) struct ItemScope {
    /// The bytes of the part (a script block, a loop body).
    pub(super) range: std::ops::Range<usize>,
    /// The variables bound to the item (`$_` and `$PSItem`, or a `foreach` variable).
    pub(super) names: Vec<String>,
    /// The items.
    pub(super) items: Vec<String>,
}

/// The script blocks of `ForEach-Object` / `Where-Object` fed by a listing or a literal
/// array, with what `$_` stands for in them: the listing's glob
/// (`Get-ChildItem *.log | ForEach-Object { Remove-Item $_ }`), or each item of the array
/// (`@('a', 'b') | ForEach-Object { New-Item $_ }`), read once per item; and the bodies of
/// `foreach` loops over a literal array.
pub(super) fn item_scopes(all: &[Node<'_>], code: &str) -> Vec<ItemScope> {
    let item_of = |range: std::ops::Range<usize>, items: Vec<String>| ItemScope {
        range,
        names: vec!["_".into(), "psitem".into()],
        items,
    };
    let mut out = Vec::new();
    // `foreach ($f in @('a', 'b')) { … }`: the body once per item of a literal array.
    for n in all.iter().filter(|n| n.kind() == "foreach_statement") {
        let mut cur = n.walk();
        let kids: Vec<Node<'_>> = n.named_children(&mut cur).collect();
        let name = kids.iter().find(|k| k.kind() == "variable").map(|v| {
            text(*v, code)
                .trim()
                .trim_start_matches('$')
                .to_ascii_lowercase()
        });
        let over = kids.iter().find(|k| k.kind() == "pipeline");
        let body = kids.iter().find(|k| k.kind() == "statement_block");
        if let (Some(name), Some(over), Some(body)) = (name, over, body)
            && let Some(items) = array_items(*over, all, code)
        {
            out.push(ItemScope {
                range: body.byte_range(),
                names: vec![name],
                items,
            });
        }
    }
    for n in all.iter().filter(|n| n.kind() == "pipeline_chain") {
        let mut cur = n.walk();
        let kids: Vec<Node<'_>> = n.named_children(&mut cur).collect();
        if let [first, second, ..] = kids.as_slice()
            && first.kind() != "command"
            && second.kind() == "command"
            && let Some(b) = read_command(*second, code, &Vars::new())
            && matches!(
                b.name.text.to_ascii_lowercase().as_str(),
                "foreach-object" | "foreach" | "%" | "where-object" | "where" | "?"
            )
            && let Some(items) = array_items(*first, all, code)
        {
            out.push(item_of(second.byte_range(), items));
        }
        let cmds: Vec<Node<'_>> = kids
            .iter()
            .copied()
            .filter(|k| k.kind() == "command")
            .collect();
        for pair in cmds.windows(2) {
            let (Some(a), Some(b)) = (
                read_command(pair[0], code, &Vars::new()),
                read_command(pair[1], code, &Vars::new()),
            ) else {
                continue;
            };
            let each = matches!(
                b.name.text.to_ascii_lowercase().as_str(),
                "foreach-object" | "foreach" | "%" | "where-object" | "where" | "?"
            );
            if let (true, Some(g)) = (each, listing_glob(&a)) {
                out.push(item_of(pair[1].byte_range(), vec![g]));
            }
        }
    }
    out
}

/// The values of a command bound to its parameters: `(role, value)` pairs, and the switches.
pub(super) struct Bound {
    /// Each value with its role and the index of the element it came from (for the
    /// commands nested in it: `-Body (Get-Content .env)`).
    pub(super) values: Vec<(P, Arg, Vec<usize>)>,
    /// The switches given.
    pub(super) switches: Vec<Sw>,
    /// `-WhatIf`: the cmdlet only says what it would do.
    pub(super) whatif: bool,
}

/// Bind a command's elements to the parameters of `t`.
pub(super) fn bind(c: &Command<'_>, t: &'static Cmdlet) -> Bound {
    let mut b = Bound {
        values: Vec::new(),
        switches: Vec::new(),
        whatif: false,
    };
    let mut positional = t.positional.iter();
    let mut i = 0;
    while let Some(e) = c.elements.get(i) {
        match e {
            Element::Param(name, colon, _) => {
                let role = param(t, name).map(|p| p.role);
                match role {
                    Some(P::Switch(sw)) => {
                        // `-Recurse:$false` turns it off.
                        let off = *colon
                            && matches!(c.elements.get(i + 1), Some(Element::Value(_, v))
                                if v.first().is_some_and(|a| a.text.eq_ignore_ascii_case("false") || a.text == "0"));
                        if *colon {
                            i += 1;
                        }
                        if !off {
                            b.switches.push(sw);
                            b.whatif |= sw == Sw::WhatIf;
                        }
                    }
                    Some(role) => {
                        if let Some(Element::Value(_, vals)) = c.elements.get(i + 1) {
                            for v in vals {
                                b.values.push((role, v.clone(), vec![i + 1]));
                            }
                            i += 1;
                        }
                    }
                    // An unknown parameter is read as a switch: its value, if any, counts as
                    // a positional value (never fewer effects).
                    None => {}
                }
            }
            Element::Value(_, vals) => {
                let role = positional.next().copied().unwrap_or(P::Other);
                for v in vals {
                    b.values.push((role, v.clone(), vec![i]));
                }
            }
            Element::Redirect(..) => {}
        }
        i += 1;
    }
    b
}

impl Bound {
    /// The values of one role.
    pub(super) fn of(&self, role: P) -> impl Iterator<Item = &Arg> {
        self.values
            .iter()
            .filter(move |(r, _, _)| *r == role)
            .map(|(_, a, _)| a)
    }
    /// Whether a switch was given.
    pub(super) fn has(&self, sw: Sw) -> bool {
        self.switches.contains(&sw)
    }
}
