//! Reading code once per element of its loops over literal sequences
//! (`for f in ['a.json', 'b.json']`), shared by the Python and JavaScript walkers.
//!
//! In: a walker ([`Rounds`]) and the nodes of its code. Out: what each round found, in
//! [`Collect`].

use tree_sitter::Node;

use super::collect::Collect;
use super::resolve::Bindings;

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

/// A walker that can read its code again with loop names bound ([`read_in_rounds`]).
pub(super) trait Rounds<'t> {
    /// The loops over literal sequences found, by loop name.
    fn choices(&self) -> &[(String, Vec<Node<'t>>)];
    /// The walker's bindings.
    fn bindings(&mut self) -> &mut Bindings<'t>;
    /// Read the calls of the code.
    fn read(&mut self, all: &[Node<'t>], cx: &mut Collect<'_>);
}

/// [`Rounds`] for a walker with `choices` and `bind` fields and a `calls` method.
macro_rules! rounds_from_fields {
    ($walker:ident) => {
        impl<'t> super::Rounds<'t> for $walker<'t, '_> {
            fn choices(&self) -> &[(String, Vec<Node<'t>>)] {
                &self.choices
            }

            fn bindings(&mut self) -> &mut super::Bindings<'t> {
                &mut self.bind
            }

            fn read(&mut self, all: &[Node<'t>], cx: &mut super::Collect<'_>) {
                self.calls(all, cx);
            }
        }
    };
}
pub(super) use rounds_from_fields;

/// Read code once per round of its loops over literal sequences ([`choice_rounds`]), each
/// loop name bound to that round's element and the working directory as it was; what an
/// earlier round found is not added again. Without such loops, read once.
pub(super) fn read_in_rounds<'t>(w: &mut impl Rounds<'t>, all: &[Node<'t>], cx: &mut Collect<'_>) {
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
