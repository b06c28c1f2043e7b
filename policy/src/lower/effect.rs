//! Effect tests: `when.runs`, `when.reads`, `when.writes`, `when.deletes`, `when.sends`,
//! `when.signals`, `when.changes_permission`, `when.installs`, `when.destroys`,
//! `when.configures`, `when.grants` (DESIGN.md
//! §3b).
//!
//! In: the spanned value of one effect key. Out: a [`Pred::Leaf`] whose test is
//! [`Test::Effect`], with every key that does not apply to the effect kind reported at its
//! span.

use super::session::*;
use super::shell_test::*;
use crate::model::*;

/// The shell-aware keys `runs` takes (today's `when.command` shell tests).
const RUN_KEYS: &[&str] = &[
    "program",
    "program_any",
    "subcommand",
    "flags_any",
    "flags_all",
    "flags_none",
    "args_any",
    "path_inside",
    "path_outside",
    "push_force",
    "push_force_unleased",
    "push_delete",
    "push_to",
    "lens",
    "via",
];
const PATH_KEYS: &[&str] = &["path_inside", "path_outside", "lens", "via"];
const WRITE_KEYS: &[&str] = &[
    "path_inside",
    "path_outside",
    "append",
    "content_regex",
    "earlier_fetch",
    "lens",
    "via",
];
const DELETE_KEYS: &[&str] = &[
    "path_inside",
    "path_outside",
    "recursive",
    "moved",
    "lens",
    "via",
];
const PERMISSION_KEYS: &[&str] = &[
    "path_inside",
    "path_outside",
    "recursive",
    "tightens",
    "mode",
    "lens",
    "via",
];
const SEND_KEYS: &[&str] = &[
    "host_in",
    "host_not_in",
    "ip_class",
    "scheme",
    "method",
    "body",
    "body_from",
    "body_from_env",
    "credential_in_url",
    "runs_response",
    "earlier_read_inside",
    "earlier_read_outside",
    "lens",
    "via",
];
const SIGNAL_KEYS: &[&str] = &["target", "by_pattern", "lens", "via"];
const INSTALL_KEYS: &[&str] = &["manager", "source_not_in", "near_name", "lens", "via"];
const DESTROY_KEYS: &[&str] = &["cli", "service", "operation", "lens", "via"];
const CONFIGURE_KEYS: &[&str] = &[
    "change",
    "agent",
    "path_inside",
    "path_outside",
    "lens",
    "via",
];
const GRANT_KEYS: &[&str] = &["grant", "path_inside", "path_outside", "lens", "via"];

/// The IP classes `ip_class` accepts.
pub(super) const IP_CLASSES: &[&str] = &["loopback", "private", "link-local", "metadata", "public"];
/// The body kinds `body` accepts.
pub(super) const BODY_KINDS: &[&str] = &["file", "env", "stdin", "literal"];
/// The lenses `lens` accepts.
pub(super) const LENSES: &[&str] = &["shell", "file", "web", "mcp"];
/// The settings changes `change` accepts.
pub(super) const CHANGES: &[&str] = &["blanket-allow", "bypass-approval", "guard-removed"];
/// The grant kinds `grant` accepts: a shell as root or another user, the host's namespaces
/// (process, IPC, UTS, user, mount: `nsenter`, `--pid=host`), the host's network, a
/// privileged container, a capability that reaches the host or a confinement switched off
/// (`--cap-add=SYS_ADMIN`, `seccomp=unconfined`), a network capability (`NET_ADMIN`), a bind
/// mount of a host path (its path), a host device (its path), a set-uid or set-gid bit, file
/// capabilities (`setcap`), write access for every user (`chmod 777`, `icacls … /grant
/// Everyone:F`), root in a new user namespace (`unshare -r`), a folder served to
/// the network (`python3 -m http.server`: its path), membership of an administrators' or a
/// container daemon's group, a local port published beyond the machine, an administrator's
/// role in a cloud account or a cluster, new credentials minted for a cloud identity, a file
/// system mounted over a path, a Windows local account made or added to a group, a program
/// registered to start by itself on Windows (logon, schedule, service), a protection of a
/// Windows machine switched off or weakened (Defender, UAC, the firewall, LSA protection).
pub const GRANTS: &[&str] = &[
    "privileged-shell",
    "host-namespace",
    "host-network",
    "privileged-container",
    "capability",
    "network-capability",
    "host-mount",
    "device",
    "setuid",
    "file-capability",
    "open-access",
    "user-namespace",
    "served-folder",
    "admin-group",
    "daemon-group",
    "published-port",
    "account-admin",
    "account-credentials",
    "mount",
    "local-account",
    "autostart",
    "security-control",
    "network-down",
];
/// The agents `agent` accepts.
pub(super) const AGENTS: &[&str] = &[
    "claude-code",
    "codex",
    "cursor",
    "gemini-cli",
    "copilot-cli",
];

/// The keys an effect test of `kind` accepts.
pub(super) fn keys_of(kind: EffectKind) -> &'static [&'static str] {
    match kind {
        EffectKind::Run => RUN_KEYS,
        EffectKind::Read | EffectKind::Load => PATH_KEYS,
        EffectKind::Write => WRITE_KEYS,
        EffectKind::Delete => DELETE_KEYS,
        EffectKind::ChangePermission => PERMISSION_KEYS,
        EffectKind::Send => SEND_KEYS,
        EffectKind::Signal => SIGNAL_KEYS,
        EffectKind::Install => INSTALL_KEYS,
        EffectKind::Destroy => DESTROY_KEYS,
        EffectKind::Configure => CONFIGURE_KEYS,
        EffectKind::Grant => GRANT_KEYS,
        EffectKind::Unsure => &[],
    }
}

/// Lower `when.<key> = { … }` (an empty table: any effect of the kind).
pub(super) fn lower_effect(ctx: &mut Lowering<'_>, key: &str, v: &TomlValue<'_>) -> Option<Pred> {
    let kind = EffectKind::from_key(key)?;
    let what = format!("`{key}`");
    let t = want_table(ctx, v, &what)?;
    let allowed = keys_of(kind);
    if !check_keys(ctx, t, &what, allowed) {
        return None;
    }
    let mut test = EffectTest::new(kind);
    let mut ok = true;
    for (k, val) in t.iter() {
        let k: &str = k.get_ref();
        let label = format!("`{key}.{k}`");
        match k {
            "recursive" | "moved" | "append" | "by_pattern" | "tightens" => {
                match want_bool(ctx, val, &label) {
                    Some(b) if k == "recursive" => test.recursive = Some(b),
                    Some(b) if k == "tightens" => test.tightens = Some(b),
                    Some(b) if k == "moved" => test.moved = Some(b),
                    Some(b) if k == "by_pattern" => test.by_pattern = Some(b),
                    Some(b) => test.append = Some(b),
                    None => ok = false,
                }
            }
            "credential_in_url" | "runs_response" | "earlier_fetch" => {
                match want_bool(ctx, val, &label) {
                    Some(true) if k == "runs_response" => test.runs_response = true,
                    // The session took in a page from the network earlier (session memory): taint.
                    Some(true) if k == "earlier_fetch" => test.earlier_fetch = true,
                    Some(true) => test.credential_in_url = true,
                    Some(false) => {
                        ctx.error(
                            val.span(),
                            format!("{label} = false tests nothing; remove it or use `not`"),
                        );
                        ok = false;
                    }
                    None => ok = false,
                }
            }
            "content_regex" => {
                let Some(items) = want_list_items(ctx, val, &label) else {
                    ok = false;
                    continue;
                };
                for (p, span) in &items {
                    if crate::lists::reference(p).is_none() {
                        ok &= check_regex(ctx, p, span.clone(), &label);
                    }
                }
                test.content_regex = items.into_iter().map(|(s, _)| s).collect();
            }
            "body_from" => match want_list_items(ctx, val, &label)
                .and_then(|items| path_specs(ctx, val, items))
            {
                Some(specs) => test.body_from = specs.into(),
                None => ok = false,
            },
            // Paths the session read in earlier calls (session memory): taint.
            "earlier_read_inside" | "earlier_read_outside" => {
                match want_list_items(ctx, val, &label)
                    .and_then(|items| path_specs(ctx, val, items))
                {
                    Some(specs) if k == "earlier_read_inside" => {
                        test.earlier_read_inside = specs.into()
                    }
                    Some(specs) => test.earlier_read_outside = specs.into(),
                    None => ok = false,
                }
            }
            k if k != "lens"
                && k != "via"
                && (kind == EffectKind::Run || k == "path_inside" || k == "path_outside") =>
            {
                ok &= lower_shell_key(ctx, k, val, &mut test.shell);
            }
            _ => {
                let Some(items) = want_list_items(ctx, val, &label) else {
                    ok = false;
                    continue;
                };
                let mut strings = Vec::new();
                for (s, span) in items {
                    let allowed_words = match k {
                        "ip_class" => Some(IP_CLASSES),
                        "lens" => Some(LENSES),
                        "body" => Some(BODY_KINDS),
                        "change" => Some(CHANGES),
                        "agent" => Some(AGENTS),
                        "grant" => Some(GRANTS),
                        _ => None,
                    };
                    if let Some(words) = allowed_words
                        && crate::lists::reference(&s).is_none()
                        && !words.contains(&s.as_str())
                    {
                        let hint = suggest(&s, words);
                        ctx.error(
                            span,
                            format!(
                                "{label}: unknown value `{s}`; expected one of: {}{hint}",
                                words.join(", ")
                            ),
                        );
                        ok = false;
                        continue;
                    }
                    strings.push(match k {
                        "method" => s.to_ascii_uppercase(),
                        "scheme" | "host_in" | "host_not_in" | "source_not_in" | "near_name" => {
                            s.to_ascii_lowercase()
                        }
                        _ => s,
                    });
                }
                let slot = match k {
                    "host_in" => &mut test.host_in,
                    "host_not_in" => &mut test.host_not_in,
                    "ip_class" => &mut test.ip_class,
                    "scheme" => &mut test.scheme,
                    "method" => &mut test.method,
                    "body_from_env" => &mut test.body_from_env,
                    "target" => &mut test.targets,
                    "manager" => &mut test.managers,
                    "cli" => &mut test.clis,
                    "service" => &mut test.services,
                    "operation" => &mut test.operations,
                    "source_not_in" => &mut test.source_not_in,
                    "near_name" => &mut test.near_names,
                    "mode" => &mut test.modes,
                    "body" => &mut test.body_kinds,
                    "change" => &mut test.changes,
                    "agent" => &mut test.agents,
                    "grant" => &mut test.grants,
                    "via" => &mut test.via,
                    _ => &mut test.lenses,
                };
                slot.extend(strings);
            }
        }
    }
    ok.then(|| {
        Pred::Leaf(Leaf {
            field: Field {
                name: key.to_string(),
                pointers: Vec::new(),
            },
            test: Test::Effect(std::sync::Arc::new(test)),
        })
    })
}
