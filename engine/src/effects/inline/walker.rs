//! What the shared walks read from a language's walker (the Python `Py`, the JavaScript `Js`):
//! its bindings, step budget, loops over literal sequences, node text, full names and values,
//! and the one reading of its calls; and [`walker_from_fields!`], which implements it from the
//! fields and methods both walkers have.
//!
//! In: a walker. Out: its state, for the loop rounds ([`super::rounds`]) and the body and
//! download walks ([`super::sources`]).

use tree_sitter::Node;

use super::collect::Collect;
use super::resolve::{Bindings, Budget, Res};

/// The state and the readings a walker shares with the walks over any language's code.
pub(super) trait Walker<'t> {
    /// The loops over literal sequences found, by loop name.
    fn choices(&self) -> &[(String, Vec<Node<'t>>)];
    /// The names bound in the code.
    fn bound(&self) -> &Bindings<'t>;
    /// The names bound in the code, to bind more.
    fn bindings(&mut self) -> &mut Bindings<'t>;
    /// The walker's step budget.
    fn budget(&self) -> &Budget;
    /// The text of a node.
    fn node_text(&self, n: Node<'_>) -> &str;
    /// The full name of a callee (`urllib.request.urlopen`, `fetch`).
    fn full_name(&self, n: Node<'t>, depth: usize) -> Option<String>;
    /// The value of an expression, when it resolves.
    fn value_of(&self, n: Node<'t>, depth: usize) -> Option<Res>;
    /// Read the calls of the code.
    fn read(&mut self, all: &[Node<'t>], cx: &mut Collect<'_>);

    /// Record a binding of the name written at `name` (to `value`, when it is one
    /// expression; `None`: bound to something not known here).
    fn bind_node(&mut self, name: Node<'t>, value: Option<Node<'t>>) {
        let id = self.node_text(name).to_string();
        self.bindings().bind(&id, value);
    }
}

/// [`Walker`] for a walker with `choices`, `bind` and `budget` fields and `t` (text), `qual`
/// (full name), `res` (value) and `calls` methods.
macro_rules! walker_from_fields {
    ($walker:ident) => {
        impl<'t> super::Walker<'t> for $walker<'t, '_> {
            fn choices(&self) -> &[(String, Vec<Node<'t>>)] {
                &self.choices
            }

            fn bound(&self) -> &super::Bindings<'t> {
                &self.bind
            }

            fn bindings(&mut self) -> &mut super::Bindings<'t> {
                &mut self.bind
            }

            fn budget(&self) -> &super::Budget {
                &self.budget
            }

            fn node_text(&self, n: Node<'_>) -> &str {
                self.t(n)
            }

            fn full_name(&self, n: Node<'t>, depth: usize) -> Option<String> {
                self.qual(n, depth)
            }

            fn value_of(&self, n: Node<'t>, depth: usize) -> Option<super::Res> {
                self.res(n, depth)
            }

            fn read(&mut self, all: &[Node<'t>], cx: &mut super::Collect<'_>) {
                self.calls(all, cx);
            }
        }
    };
}
pub(super) use walker_from_fields;
