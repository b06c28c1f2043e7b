//! The assignment that reaches one use of a name bound more than once (`path = join(d, f)`
//! read in the same loop body, `for path, n in missing:` after the loop): Python's reading of
//! names in straight-line code, without running it.
//!
//! In: a use of a name and the module's identifiers by name. Out: the value node of the
//! assignment that reaches the use, when one surely does.

use tree_sitter::Node;

use super::Py;

impl<'t> Py<'t, '_> {
    /// The value of the assignment `name = value` that reaches `use_`: the last binding of the
    /// name before the use is that plain assignment, in a block that holds the use, and no other
    /// binding can run between it and the use (none after it and before the use, none after the
    /// use inside a loop that holds the use). Every binding the walker counted must be found
    /// here, or the name is left unknown.
    pub(super) fn reaching(&self, use_: Node<'t>) -> Option<Node<'t>> {
        let name = self.t(use_);
        let sites: Vec<Node<'t>> = self
            .refs
            .get(name)?
            .iter()
            .copied()
            .filter(|r| r.id() != use_.id() && binds(*r))
            .collect();
        if sites.len() != self.bind.map.get(name).map_or(0, Vec::len) {
            return None;
        }
        let before = |r: &Node<'t>| r.start_byte() < use_.start_byte();
        let last = *sites.iter().rfind(|r| before(r))?;
        let assign = last
            .parent()
            .filter(|p| p.kind() == "assignment")
            .filter(|p| {
                p.child_by_field_name("left")
                    .is_some_and(|l| l.id() == last.id())
            })?;
        // The assignment's statement sits in a block that holds the use: it runs before it.
        let block = assign.parent().and_then(|s| s.parent())?;
        if !holds(block, use_) {
            return None;
        }
        let loops: Vec<Node<'t>> = ancestors(use_)
            .filter(|a| matches!(a.kind(), "for_statement" | "while_statement"))
            .collect();
        let later_in_loop = sites
            .iter()
            .filter(|r| !before(r))
            .any(|r| loops.iter().any(|l| holds(*l, *r)));
        (!later_in_loop)
            .then(|| assign.child_by_field_name("right"))
            .flatten()
    }
}

/// Whether identifier `r` is bound where it stands (as the walker's `collect` counts bindings).
fn binds(r: Node<'_>) -> bool {
    let mut child = r;
    for a in ancestors(r) {
        let field_is = |f: &str| {
            a.child_by_field_name(f)
                .is_some_and(|x| x.id() == child.id())
        };
        match a.kind() {
            "assignment" | "augmented_assignment" => return field_is("left"),
            "for_statement" | "for_in_clause" => return field_is("left"),
            "as_pattern" => return field_is("alias"),
            "named_expression" => return field_is("name"),
            "function_definition" | "class_definition" => return field_is("name"),
            "parameters" | "lambda_parameters" | "global_statement" | "nonlocal_statement" => {
                return true;
            }
            "pattern_list"
            | "tuple_pattern"
            | "list_pattern"
            | "as_pattern_target"
            | "parenthesized_expression"
            | "list_splat_pattern" => {}
            _ => return false,
        }
        child = a;
    }
    false
}

/// The ancestors of a node, nearest first.
fn ancestors<'t>(n: Node<'t>) -> impl Iterator<Item = Node<'t>> {
    std::iter::successors(n.parent(), Node::parent)
}

/// Whether `outer` holds `inner`.
fn holds(outer: Node<'_>, inner: Node<'_>) -> bool {
    outer.start_byte() <= inner.start_byte() && inner.end_byte() <= outer.end_byte()
}
