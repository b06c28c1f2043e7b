//! Parsing code for the inline-code lens: bounded in size and time, with the position of the
//! first syntax error.
//!
//! In: code text and its [`Language`]. Out: a tree-sitter tree, or why the code is not read.

use std::time::{Duration, Instant};

use tree_sitter::{Node, ParseOptions, Parser, Tree};

use super::resolve::{nodes, text};
use crate::effects::language::Language;

/// Largest code parsed, in bytes (256 KiB); longer code is `unsure`.
pub(crate) const MAX_CODE: usize = 256 * 1024;

/// Longest time a parse may take; a slower parse is stopped and the code is `unsure`.
pub(crate) const PARSE_BUDGET: Duration = Duration::from_millis(500);

/// JavaScript parsed as this lens parses it (bounded in size and time), for readers of code
/// that is not on a command line (Codex code mode, `readers::code_mode`).
pub(crate) fn parse_javascript(code: &str) -> Result<Tree, String> {
    parse(Language::JavaScript, code)
}

/// Parse `code`, bounded in size and time.
pub(super) fn parse(lang: Language, code: &str) -> Result<Tree, String> {
    if code.len() > MAX_CODE {
        return Err(format!(
            "is longer than {} KiB and is not read",
            MAX_CODE / 1024
        ));
    }
    let mut parser = Parser::new();
    let grammar = lang
        .grammar()
        .ok_or_else(|| "has no grammar here".to_string())?;
    parser
        .set_language(&grammar)
        .map_err(|e| format!("cannot be read: {e}"))?;
    let start = Instant::now();
    let bytes = code.as_bytes();
    let mut input = |at: usize, _| bytes.get(at..).unwrap_or_default();
    // Returning `true` stops the parse.
    let mut over_time = |_: &tree_sitter::ParseState| start.elapsed() > PARSE_BUDGET;
    let options = ParseOptions::new().progress_callback(&mut over_time);
    parser
        .parse_with_options(&mut input, None, Some(options))
        .ok_or_else(|| {
            format!(
                "took longer than {} ms to parse and was not read",
                PARSE_BUDGET.as_millis()
            )
        })
}

/// Whether a name in the code is a shell expansion left in it (`$CODE`, `$1`): in
/// JavaScript `$` starts a name, so it parses.
pub(super) fn shell_variable_in_code(tree: &Tree, code: &str) -> bool {
    nodes(tree.root_node()).into_iter().any(|n| {
        matches!(
            n.kind(),
            "identifier" | "shorthand_property_identifier" | "property_identifier"
        ) && text(n, code).starts_with('$')
    })
}

/// Where the first syntax error of a tree is, if it has one.
pub(crate) fn first_error(root: Node<'_>) -> Option<tree_sitter::Point> {
    if !root.has_error() {
        return None;
    }
    first_error_outside(root, |_| false).or(Some(root.start_position()))
}

/// Where the first error or missing node of a tree is, in source order, not looking inside
/// the nodes `skip` holds for.
pub(super) fn first_error_outside(
    root: Node<'_>,
    skip: impl Fn(&Node<'_>) -> bool,
) -> Option<tree_sitter::Point> {
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if skip(&n) {
            continue;
        }
        if n.is_error() || n.is_missing() {
            return Some(n.start_position());
        }
        if n.has_error() {
            let mut c = n.walk();
            let kids: Vec<Node<'_>> = n.children(&mut c).collect();
            stack.extend(kids.into_iter().rev());
        }
    }
    None
}
