//! PowerShell code parsed for the lens: the tree-sitter parse (with quotes glued to a
//! parameter read as blanks when that is what parses), where its first syntax error is, and
//! whether PowerShell refuses to run it at all.
//!
//! In: PowerShell code. Out: its tree, or the first error's position, or whether it is refused.

use tree_sitter::{Node, Tree};

use crate::effects::inline::parse::{first_error_outside, parse};
use crate::effects::inline::{Language, text};

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

/// PowerShell code parsed for the lens. The grammar does not take a parameter glued to a
/// quoted value (`rg -g"*.rs" x`, which PowerShell passes to a program as `-g*.rs`): when
/// the code has such a value and does not parse, it is read with those quotes as blanks
/// (`-g *.rs`, the same length, so every node still spans its text in `code`), the value
/// then a word of its own. Nor does it take a bare word that starts with a variable and goes
/// on as a path (`-Recurse $env:windir\System32`): that is read as one bare word
/// ([`bare_paths`]).
pub(crate) fn parse_code(code: &str) -> Result<Tree, String> {
    let tree = parse(Language::PowerShell, code)?;
    if first_error(tree.root_node(), code).is_none() {
        return Ok(tree);
    }
    for rewrite in [unglue(code), bare_paths(code)].into_iter().flatten() {
        if let Ok(t) = parse(Language::PowerShell, &rewrite)
            && first_error(t.root_node(), &rewrite).is_none()
        {
            return Ok(t);
        }
    }
    Ok(tree)
}

/// `code` with each bare argument that starts with a variable and goes on as a path
/// (`$env:windir\System32`, `${env:SystemRoot}\System32`, `$HOME/proj`, which PowerShell
/// expands as one word and the grammar does not take) spelled with the variable's `$`, `{`
/// and `}` as `_`: one bare word of the same length, its text in `code` read and expanded by
/// the lens. `None` when it has none.
fn bare_paths(code: &str) -> Option<String> {
    rewrite(code, |b, i, out| {
        if b[i] != b'$' || !(i == 0 || b[i - 1].is_ascii_whitespace() || b[i - 1] == b',') {
            return None;
        }
        // The variable's name: `{…}`, or letters, digits, `_` and a scope's `:`.
        let end = if b.get(i + 1) == Some(&b'{') {
            b[i + 1..]
                .iter()
                .position(|x| *x == b'}')
                .map(|k| i + 2 + k)?
        } else {
            let mut j = i + 1;
            while b
                .get(j)
                .is_some_and(|x| x.is_ascii_alphanumeric() || matches!(x, b'_' | b':'))
            {
                j += 1;
            }
            (j > i + 1).then_some(j)?
        };
        if !matches!(b.get(end), Some(b'\\' | b'/')) {
            return None;
        }
        for byte in &mut out[i..end] {
            if matches!(*byte, b'$' | b'{' | b'}') {
                *byte = b'_';
            }
        }
        Some(end)
    })
}

/// `code` with the quotes of each value glued to a parameter (`-g"*.rs"`, `-name'x'`) as
/// blanks; `None` when it has none.
fn unglue(code: &str) -> Option<String> {
    rewrite(code, |b, i, out| {
        if b[i] != b'-'
            || !(i == 0 || b[i - 1].is_ascii_whitespace())
            || !b.get(i + 1).is_some_and(u8::is_ascii_alphabetic)
        {
            return None;
        }
        let mut j = i + 1;
        while b.get(j).is_some_and(|x| x.is_ascii_alphanumeric()) {
            j += 1;
        }
        let q = *b.get(j).filter(|q| **q == b'"' || **q == b'\'')?;
        let k = b[j + 1..].iter().position(|x| *x == q)?;
        out[j] = b' ';
        out[j + 1 + k] = b' ';
        Some(j + k + 2)
    })
}

/// `code` rewritten at the same length: `at(bytes, i, out)` is asked at each byte outside
/// quotes and, when it changes `out` there, says where the walk goes on. `None` when nothing
/// was changed.
fn rewrite(code: &str, at: impl Fn(&[u8], usize, &mut [u8]) -> Option<usize>) -> Option<String> {
    let b = code.as_bytes();
    let mut out = b.to_vec();
    let mut changed = false;
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == b'\'' || c == b'"' => quote = Some(c),
            None => {
                if let Some(next) = at(b, i, &mut out) {
                    changed = true;
                    i = next;
                    continue;
                }
            }
        }
        i += 1;
    }
    changed.then(|| String::from_utf8(out).ok()).flatten()
}

/// Where the first syntax error of a PowerShell tree is, if it has one outside a command's
/// arguments: the grammar does not take every bare word PowerShell does
/// (`$env:USERPROFILE\.ssh`), and the lens reads arguments from their text.
pub(in crate::effects::inline) fn first_error(
    root: Node<'_>,
    code: &str,
) -> Option<tree_sitter::Point> {
    if !root.has_error() || refused(root, code) {
        return None;
    }
    first_error_outside(root, |n| n.kind() == "command_elements")
}
