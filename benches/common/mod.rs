//! What the `harness = false` benches share: Instant-based medians for their summaries and
//! the Criterion run around `bench_all`.

#![allow(dead_code)]

use std::time::{Duration, Instant};

use criterion::Criterion;

/// The median of `v` (zero when empty).
pub(crate) fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v.get(v.len() / 2).copied().unwrap_or_default()
}

/// The median wall time of `n` calls of `f`, after `warm_up` calls that are not timed.
pub(crate) fn measure(n: usize, warm_up: usize, mut f: impl FnMut()) -> Duration {
    for _ in 0..warm_up {
        f();
    }
    median(
        (0..n)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed()
            })
            .collect(),
    )
}

/// A Criterion of the given measurement time and sample size (both overridable from the
/// command line).
pub(crate) fn criterion(measurement: Duration, samples: usize) -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(measurement)
        .sample_size(samples)
        .configure_from_args()
}

/// Runs `bench_all` under `c`, then `summary` unless this is a test or list run (`modes`:
/// `(test_mode, listing)`) or `SEAMGUARD_BENCH_NO_SUMMARY` is set.
pub(crate) fn run(
    mut c: Criterion,
    (test_mode, listing): (bool, bool),
    bench_all: impl FnOnce(&mut Criterion),
    summary: impl FnOnce(),
) {
    bench_all(&mut c);
    c.final_summary();
    if !test_mode && !listing && std::env::var_os("SEAMGUARD_BENCH_NO_SUMMARY").is_none() {
        summary();
    }
}

/// Criterion's own rule for `(test_mode, listing)`: without `--bench` (i.e. `cargo test
/// --benches`) it is test mode; `--list` and `--profile-time` runs list or profile only.
pub(crate) fn modes() -> (bool, bool) {
    let args: Vec<String> = std::env::args().collect();
    let has = |a: &str| args.iter().any(|x| x == a);
    (
        !has("--bench") || has("--test"),
        has("--list") || args.iter().any(|a| a.starts_with("--profile-time")),
    )
}
