//! Trust: a project-scope `run` action does not execute until its file is trusted.

use seamguard_engine::{Scope, Verdict, load_str};

use crate::support::bash;

use super::{Tmp, engine_of, pre, q, warned};

#[test]
fn project_run_action_needs_trust() {
    let tmp = Tmp::new("trust");
    let marker = tmp.join("ran");
    let src = format!(
        "[[rule]]\nid = \"project-hook\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nrun = {{ command = {} }}\n",
        q(&format!("touch {}", marker.display()))
    );
    let p = load_str(&src, ".seamguard/project.toml", Scope::Project, 0);
    assert!(!p.has_errors());
    assert!(!p.meta.trusted, "project policies start untrusted");
    let e = engine_of(p.clone());
    let o = pre(&e, &bash(&tmp.s(), "ls"));
    assert!(!marker.exists(), "an untrusted project hook ran");
    assert!(o.hook_runs.is_empty());
    assert!(
        o.warnings
            .iter()
            .any(|w| w.contains("project-hook")
                && w.contains("seamguard trust .seamguard/project.toml")),
        "{:?}",
        o.warnings
    );
    let mut trusted = p;
    trusted.meta.trusted = true;
    let e = engine_of(trusted);
    let o = pre(&e, &bash(&tmp.s(), "ls"));
    assert!(marker.exists(), "a trusted project hook did not run");
    assert_eq!(o.hook_runs.len(), 1);

    // A trusted project hook may still not loosen: its `allow` is not honoured.
    let allow = tmp.script(
        "allow.sh",
        "#!/bin/sh\ncat >/dev/null\nprintf '%s' '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\"}}'\n",
    );
    let src = format!(
        "[[rule]]\nid = \"project-allow\"\nseam = \"pre-tool\"\ntool = \"Bash\"\nrun = {{ command = {} }}\n",
        q(&allow.display().to_string())
    );
    let mut p = load_str(&src, ".seamguard/project.toml", Scope::Project, 0);
    p.meta.trusted = true;
    let o = pre(&engine_of(p), &bash(&tmp.s(), "ls"));
    assert_eq!(o.verdict(), Verdict::Abstain);
    assert!(
        warned(&o, "its `allow` is not honoured"),
        "{:?}",
        o.warnings
    );
}
