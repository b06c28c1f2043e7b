//! Progress on stderr while a long replay runs.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// Progress on stderr for long runs: only when stderr is a terminal, after one second.
pub(super) struct Progress {
    on: bool,
    start: Instant,
    last: Instant,
    shown: bool,
}

impl Progress {
    pub(super) fn new() -> Progress {
        let now = Instant::now();
        Progress {
            on: std::io::stderr().is_terminal(),
            start: now,
            last: now,
            shown: false,
        }
    }

    pub(super) fn tick(&mut self, file_i: usize, files: usize, events: usize, name: &str) {
        if !self.on || !events.is_multiple_of(256) {
            return;
        }
        let now = Instant::now();
        if now.duration_since(self.start) < Duration::from_secs(1)
            || now.duration_since(self.last) < Duration::from_millis(200)
        {
            return;
        }
        self.last = now;
        self.shown = true;
        let rate = events as f64 / now.duration_since(self.start).as_secs_f64().max(1e-9);
        let name: String = name
            .chars()
            .rev()
            .take(40)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        eprint!("\r\x1b[2K[{file_i}/{files}] {events} events ({rate:.0}/s) {name}");
    }

    pub(super) fn done(&mut self) {
        if self.shown {
            eprint!("\r\x1b[2K");
        }
    }
}
