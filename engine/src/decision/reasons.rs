//! Reasons of several rules joined into the one sentence a decision carries: the same reason
//! said once with all its rules, reasons about what seamguard could not check under one head.

/// How an engine reason about something seamguard could not check joins what it could not
/// check and the rule's own reason: `{why}; seamguard cannot rule out: {reason}`.
pub const CANNOT_RULE_OUT: &str = "; seamguard cannot rule out: ";

/// Reasons with their rules, under what seamguard could not check (`None`: a reason of
/// its own).
type ReasonGroup<'a> = (Option<String>, Vec<(String, Vec<&'a str>)>);

/// Reasons of several rules (`(text, rule)`, in rule order) joined into one sentence a person
/// reads at a glance:
///
/// * whitespace runs (line breaks of a multi-line command, doubled spaces) become one space;
/// * the same reason from several rules (a final full stop aside) is said once, with every
///   rule: `text [a, b]`;
/// * reasons about the same thing seamguard could not check say it once:
///   `{why}; seamguard cannot rule out: A [a], B [b]`;
/// * distinct reasons are joined by `; `.
///
/// ```
/// use seamguard_engine::join_reasons;
///
/// let r = join_reasons([
///     ("No  secrets\nhere.", "a"),
///     ("No secrets here", "b"),
///     ("Asks first", "c"),
/// ].into_iter());
/// assert_eq!(r, "No secrets here. [a, b]; Asks first [c]");
/// ```
pub fn join_reasons<'a>(reasons: impl Iterator<Item = (&'a str, &'a str)>) -> String {
    join_reasons_as(reasons, true)
}

/// [`join_reasons`], with the ` [rules]` only when `with_rules`
/// ([`plain_reasons`](super::plain_reasons): not).
pub(super) fn join_reasons_as<'a>(
    reasons: impl Iterator<Item = (&'a str, &'a str)>,
    with_rules: bool,
) -> String {
    // (what could not be checked, reasons with their rules), in order of first appearance; a
    // reason without a head is a group of its own.
    let mut parts: Vec<ReasonGroup<'a>> = Vec::new();
    for (text, rule) in reasons {
        let text = one_line(text);
        let (head, body) = match text.split_once(CANNOT_RULE_OUT) {
            Some((h, b)) => (Some(h.to_string()), b.to_string()),
            None => (None, text),
        };
        // The same reason with or without a final full stop.
        let alike = |b: &str| b.trim_end_matches('.') == body.trim_end_matches('.');
        let same = |(h, items): &ReasonGroup<'_>| match (h, &head) {
            (Some(h), Some(head)) => h == head,
            (None, None) => items.iter().any(|(b, _)| alike(b)),
            _ => false,
        };
        match parts.iter_mut().find(|p| same(p)) {
            Some((_, items)) => match items.iter_mut().find(|(b, _)| alike(b)) {
                Some((_, rules)) => {
                    if !rules.contains(&rule) {
                        rules.push(rule);
                    }
                }
                None => items.push((body, vec![rule])),
            },
            None => parts.push((head, vec![(body, vec![rule])])),
        }
    }
    // A reason another one says in full (`A: x` next to `A; it may be a secret: x`): said
    // once, by the longer one, with both rules.
    for (_, items) in &mut parts {
        subsume(items);
    }
    let mut i = 0;
    while i < parts.len() {
        let Some((None, mine)) = parts.get(i).cloned() else {
            i += 1;
            continue;
        };
        let Some((text, rules)) = mine.first() else {
            i += 1;
            continue;
        };
        let by = parts.iter().position(|(h, its)| {
            h.is_none() && its.first().is_some_and(|(t, _)| t != text && says(t, text))
        });
        match by.and_then(|j| parts.get_mut(j)) {
            Some((_, its)) => {
                if let Some((_, rs)) = its.first_mut() {
                    for r in rules {
                        if !rs.contains(r) {
                            rs.push(r);
                        }
                    }
                }
                parts.remove(i);
            }
            None => i += 1,
        }
    }
    // Distinct reasons about the same part of the call name it once, at the end:
    // `A [a]; B [b]: rm -rf /`.
    let shared = shared_tail(&parts);
    let shared = shared.as_deref();
    let mut out = String::new();
    for (head, items) in parts {
        if !out.is_empty() {
            out.push_str("; ");
        }
        if let Some(h) = head {
            out.push_str(&h);
            out.push_str(CANNOT_RULE_OUT);
        }
        for (i, (body, rules)) in items.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(shared.map_or(body.as_str(), |t| &body[..body.len() - t.len()]));
            if with_rules {
                out.push_str(" [");
                out.push_str(&rules.join(", "));
                out.push(']');
            }
        }
    }
    if let Some(t) = shared {
        out.push_str(t);
    }
    out
}

/// The part of the call every reason of `parts` ends with after a `: ` (the longest), when
/// there are several reasons and none is about something seamguard could not check.
fn shared_tail(parts: &[ReasonGroup<'_>]) -> Option<String> {
    if parts.len() < 2
        || parts
            .iter()
            .any(|(h, items)| h.is_some() || items.len() != 1)
    {
        return None;
    }
    let first = &parts.first()?.1.first()?.0;
    first
        .match_indices(": ")
        .map(|(at, _)| &first[at..])
        .find(|tail| {
            parts.iter().all(|(_, items)| {
                items
                    .first()
                    .is_some_and(|(b, _)| b.len() > tail.len() && b.ends_with(tail))
            })
        })
        .map(str::to_string)
}

/// Whether reason `long` says all of reason `short`: it starts with what `short` says before
/// one of its `: ` and ends with what follows it (`A: x` in `A; it may be a secret: x`).
fn says(long: &str, short: &str) -> bool {
    long.len() > short.len()
        && short.match_indices(": ").any(|(at, _)| {
            let (head, tail) = short.split_at(at);
            long.starts_with(head) && long.ends_with(tail)
        })
}

/// Merge the reasons of one group that another of the group says in full.
fn subsume(items: &mut Vec<(String, Vec<&str>)>) {
    let mut i = 0;
    while i < items.len() {
        let Some((text, rules)) = items.get(i).cloned() else {
            break;
        };
        match items.iter().position(|(t, _)| says(t, &text)) {
            Some(j) => {
                if let Some((_, rs)) = items.get_mut(j) {
                    for r in rules {
                        if !rs.contains(&r) {
                            rs.push(r);
                        }
                    }
                }
                items.remove(i);
            }
            None => i += 1,
        }
    }
}

/// `text` on one line: every run of ASCII whitespace one space, trimmed.
fn one_line(text: &str) -> String {
    text.split([' ', '\t', '\n', '\r'])
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}
