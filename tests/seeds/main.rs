//! The three seed notes (`docs/seeds/`), one test per rule the embedding API implements,
//! through the public API only: each test is named after the rule it pins.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests: a failed step stops the test with its message"
)]

mod async_handlers;
mod cancellation;
mod detached;
mod ergonomics;
mod example;
mod fail_closed;
mod final_value;
mod halt;
mod matchers;
mod nested;
mod presentation;
mod reducers;
mod registration;
mod shareable;
mod turns;
mod typed_events;
