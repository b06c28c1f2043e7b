//! Panic containment: nothing a handler, tool, wrapper, approver or cleanup does escapes
//! the harness.
//!
//! In: a handler adapter and its input, a boxed future, a cleanup fn. Out: the value, or
//! the panic message / error text as a `String` (`"panicked: …"`), which the callers turn
//! into a [`HandlerFailure`](super::HandlerFailure), an error
//! [`ToolResult`](super::ToolResult) or a [`CleanupError`](super::CleanupError).

use std::any::Any;
use std::cell::Cell;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::Once;
use std::task::{Context, Poll};

use super::BoxFuture;

thread_local! {
    /// Depth of harness containment on this thread: a panic inside is caught and reported
    /// through the harness (failures, error results), so the panic hook stays quiet. Read
    /// only by the panic hook (whether to print); no decision reads it.
    static CONTAINED: Cell<u32> = const { Cell::new(0) };
}

static QUIET_HOOK: Once = Once::new();

/// Install (once per process) a panic hook that stays silent for panics the harness
/// contains and reports itself, and hands every other panic to the hook that was there.
pub(super) fn install_quiet_hook() {
    QUIET_HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if CONTAINED.with(Cell::get) == 0 {
                previous(info);
            }
        }));
    });
}

/// Run `f` with a panic caught (and not printed: the caller reports it).
pub(super) fn contained<R>(f: impl FnOnce() -> R) -> std::thread::Result<R> {
    CONTAINED.with(|c| c.set(c.get() + 1));
    let r = catch_unwind(AssertUnwindSafe(f));
    CONTAINED.with(|c| c.set(c.get().saturating_sub(1)));
    r
}

/// The message of a caught panic payload: `panicked: <message>`, or `panicked`.
pub(super) fn panic_message(p: Box<dyn Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        format!("panicked: {s}")
    } else if let Some(s) = p.downcast_ref::<String>() {
        format!("panicked: {s}")
    } else {
        "panicked".to_string()
    }
}

/// Polls a boxed future inside `catch_unwind`.
pub(super) struct CatchUnwind<'a, T>(pub(super) BoxFuture<'a, T>);

impl<T> Future for CatchUnwind<'_, T> {
    type Output = Result<T, String>;
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let fut = &mut self.get_mut().0;
        match contained(|| fut.as_mut().poll(cx)) {
            Ok(Poll::Ready(v)) => Poll::Ready(Ok(v)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(p) => Poll::Ready(Err(panic_message(p))),
        }
    }
}

/// Run a descriptor's cleanup fn with a panic contained.
pub(super) fn catch_cleanup(f: fn() -> Result<(), String>) -> Result<(), String> {
    contained(f).unwrap_or_else(|p| Err(panic_message(p)))
}
