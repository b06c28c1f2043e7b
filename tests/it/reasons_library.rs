//! Issue 16 item 8: the reasons the bundled library gives read at a glance. Every example of
//! both profiles and every recorded session, judged by the whole profile at once (as a user
//! runs it, so several rules fire together): each reason is one line and one sentence, with
//! no doubled spaces, and no rule's reason and no cause of an unresolved part is said twice.

use crate::support::{recorded_engine, root};
use seamguard_engine::readers::{EventReader, Item, collect_files};
use seamguard_engine::{CANNOT_RULE_OUT, Dialect, HookEvent, Outcome, Scope, load_dir};

/// What is wrong with a reason, if anything.
fn fault(reason: &str, rule_reasons: &[String]) -> Option<String> {
    if reason.contains('\n') {
        return Some("more than one line".into());
    }
    if reason.contains("  ") {
        return Some("a doubled space".into());
    }
    // A sentence ends at `. `, `! ` or `? ` before a capital, outside quoted command text.
    let mut quoted = false;
    let chars: Vec<char> = reason.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        if *c == '`' {
            quoted = !quoted;
        }
        if !quoted
            && matches!(c, '.' | '!' | '?')
            && chars.get(i + 1) == Some(&' ')
            && chars.get(i + 2).is_some_and(|n| n.is_uppercase())
        {
            return Some(format!(
                "a second sentence at {}",
                chars[i..].iter().take(40).collect::<String>()
            ));
        }
    }
    for r in rule_reasons {
        if reason.matches(r.as_str()).count() > 1 {
            return Some(format!("the reason {r:?} twice"));
        }
    }
    // What seamguard could not check: said once for all the rules it concerns.
    let mut heads: Vec<String> = Vec::new();
    for (at, _) in reason.match_indices(CANNOT_RULE_OUT) {
        let before: String = reason[..at].chars().rev().take(60).collect();
        if heads.contains(&before) {
            return Some("the same unresolved part twice".into());
        }
        heads.push(before);
    }
    None
}

fn check(rule_reasons: &[String], o: &Outcome, at: &str, faults: &mut Vec<String>) {
    let reason = o.reason_text();
    if let Some(f) = fault(&reason, rule_reasons) {
        faults.push(format!("{at}: {f}: {reason}"));
    }
}

#[test]
fn every_reason_of_the_library_is_one_sentence_said_once() {
    let mut faults = Vec::new();
    let mut judged = 0usize;
    for profile in ["policies", "policies/strict"] {
        let loaded = load_dir(&root().join(profile), Scope::User, 0);
        let rule_reasons: Vec<String> = loaded
            .iter()
            .flat_map(|p| p.rules.iter().filter_map(|r| r.action.reason.clone()))
            .collect();
        let tests: Vec<_> = loaded.iter().flat_map(|p| p.tests.clone()).collect();
        let engine = recorded_engine(loaded);
        for t in &tests {
            let Ok(event) = HookEvent::from_value(&t.payload) else {
                continue;
            };
            let dialect = t.dialect.unwrap_or_else(|| Dialect::detect(&t.payload));
            let o = engine.evaluate(event.seam(), &t.payload, dialect);
            judged += 1;
            let at = format!(
                "{profile} example {:?} ({}:{})",
                t.name, t.source.file, t.source.line
            );
            check(&rule_reasons, &o, &at, &mut faults);
        }
        for file in collect_files(&[root().join("data/recorded")]) {
            for item in EventReader::open(&file) {
                let Item::Event(ev) = item else { continue };
                let o = engine.evaluate(ev.seam, &ev.payload, ev.dialect);
                if o.reasons.is_empty() {
                    continue;
                }
                judged += 1;
                let at = format!("{profile} {}", ev.location());
                check(&rule_reasons, &o, &at, &mut faults);
            }
        }
    }
    assert!(judged > 500, "{judged}");
    assert!(
        faults.is_empty(),
        "{} reason(s) to fix:\n{}",
        faults.len(),
        faults.join("\n")
    );
}
