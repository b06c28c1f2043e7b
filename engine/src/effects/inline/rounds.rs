//! Reading code once per element of its loops over literal sequences
//! (`for f in ['a.json', 'b.json']`), shared by the Python and JavaScript walkers.
//!
//! In: a walker ([`Walker`]) and the nodes of its code. Out: what each round found, in
//! [`Collect`].

use tree_sitter::Node;

use super::collect::Collect;
use super::resolve::Bindings;
use super::walker::Walker;

/// The most rounds code is read in for its loops over literal sequences; with more
/// combinations the loop names stay unknown.
const MAX_ROUNDS: usize = 16;

/// The bindings of each round: one per combination of the elements of the loops over literal
/// sequences whose name no other statement binds. Empty when there is no such loop or the
/// combinations are more than [`MAX_ROUNDS`].
pub(super) fn choice_rounds<'t>(
    choices: &[(String, Vec<Node<'t>>)],
    bind: &Bindings<'t>,
) -> Vec<Vec<(String, Node<'t>)>> {
    let mut rounds: Vec<Vec<(String, Node<'t>)>> = vec![Vec::new()];
    for (name, values) in choices {
        if bind.map.get(name).map_or(0, Vec::len) != 1 || values.is_empty() {
            continue;
        }
        if rounds.len() * values.len() > MAX_ROUNDS {
            return Vec::new();
        }
        rounds = rounds
            .into_iter()
            .flat_map(|r| {
                values.iter().map(move |v| {
                    let mut r = r.clone();
                    r.push((name.clone(), *v));
                    r
                })
            })
            .collect();
    }
    if rounds.iter().all(Vec::is_empty) {
        return Vec::new();
    }
    rounds
}

/// Read code once per round of its loops over literal sequences ([`choice_rounds`]), each
/// loop name bound to that round's element and the working directory as it was; what an
/// earlier round found is not added again. Without such loops, read once.
pub(super) fn read_in_rounds<'t>(w: &mut impl Walker<'t>, all: &[Node<'t>], cx: &mut Collect<'_>) {
    let choices = w.choices().to_vec();
    let rounds = choice_rounds(&choices, w.bindings());
    if rounds.is_empty() {
        w.read(all, cx);
        return;
    }
    let start_cwd = cx.cwd.clone();
    for (k, round) in rounds.into_iter().enumerate() {
        for (name, value) in round {
            w.bindings().map.insert(name, vec![Some(value)]);
        }
        cx.cwd = start_cwd.clone();
        cx.rereading = k > 0;
        w.read(all, cx);
    }
    cx.rereading = false;
}
