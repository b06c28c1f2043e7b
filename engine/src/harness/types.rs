//! Small shared items of the harness: the boxed future handlers, tools and wrappers return,
//! and the rule id of a cancelled run's deny.
//!
//! In: nothing. Out: [`BoxFuture`], [`CANCELLED_RULE`].

use std::future::Future;
use std::pin::Pin;

/// The rule id of the deny a cancelled run answers at `pre-tool` and `permission-request`
/// ([`Evaluated::is_cancelled`]).
pub const CANCELLED_RULE: &str = "seamguard:cancelled";

/// A boxed, sendable future (the shape of async handlers, tools and wrappers).
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;
