//! trybuild UI tests of every macro error, with the compiler's messages pinned in `.stderr`
//! files (regenerate with `TRYBUILD=overwrite cargo test -p seamguard-macros --test
//! compiletest`, then review). Pinned to the toolchain of `rust-version` because rustc's
//! wording changes between releases.

#[rustversion::attr(not(stable(1.95)), ignore)]
#[cfg_attr(miri, ignore)]
#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass/*.rs");
    t.compile_fail("tests/ui/fail/*.rs");
}
