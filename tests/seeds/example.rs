//! `examples/shared_harness.rs` run as a test (issue 30, "Done when"): one harness shared
//! across tokio tasks, an extension registered and unregistered while calls are in flight,
//! async closures with state, TOML policies loaded with their errors handled, and a TOML
//! rule blocking a Rust rewrite.

#[path = "../../examples/shared_harness.rs"]
mod shared_harness;

use std::path::Path;

#[tokio::test]
async fn the_shared_harness_example_reports_what_each_call_saw() {
    let r = shared_harness::run(Path::new(env!("CARGO_MANIFEST_DIR")))
        .await
        .unwrap();
    assert_eq!(
        r.load_error,
        "inline.toml:3:8: error: unknown seam `pre-tol`; did you mean `pre-tool`?"
    );
    assert_eq!(
        r.unhandled,
        format!(
            "deny: seamguard policy inline.toml failed to load, so tool calls are denied until it is fixed: {}. Fix it (`seamguard check inline.toml`)",
            r.load_error
        )
    );
    assert_eq!(r.before_registration, "abstain");
    assert_eq!(r.in_flight_at_unregister, "ask: network access");
    assert_eq!(r.after_unregistration, "abstain");
    assert_eq!(
        r.team_policy,
        "deny: Publishing happens in CI, not from the agent: npm publish"
    );
    // before, in flight, after, npm publish: the rate limiter saw every call.
    assert_eq!(r.counted, 4);
    // The alias handler's rewrite is judged by the team policy's prompt rule.
    assert_eq!(
        r.rewritten_prompt,
        "block: Production deploys are not for the agent"
    );
}
