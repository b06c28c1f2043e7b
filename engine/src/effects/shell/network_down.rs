//! The machine's network taken down: an interface switched off or deleted, its addresses or
//! default route removed, a radio blocked, NetworkManager switched off, a firewall set to drop
//! everything that goes out. The machine, and a session that reaches it over that network,
//! loses its connection; a remote machine may not come back.
//!
//! In: one simple command of an [`Action::NetworkDown`](crate::effects::programs::Action) row
//! (ip(8), ifconfig(8), ifdown(8), nmcli(1), networksetup(8), rfkill(8), ufw(8),
//! iptables(8), route(8), dhclient(8), dhcpcd(8), ipconfig, iw(8), wpa_cli(8)), reached by
//! any route, or `netsh interface …` (Windows Commands reference),
//! which `Disable-NetAdapter` is spelled as. Out: [`What::Grant`] effects of
//! [`GrantKind::NetworkDown`] naming what goes down. Listings (`ip addr`, `ip -br link`,
//! `nmcli con show`, `rfkill list`, `ufw status`, `networksetup -listallnetworkservices`) and
//! bringing things up grant nothing.

use super::out::Out;
use crate::effects::model::{Grant, GrantKind, What};
use crate::shell::SimpleCommand;

fn push(detail: String, out: &mut Out) {
    out.push(What::Grant(Grant {
        kind: GrantKind::NetworkDown,
        path: None,
        detail,
    }));
}

/// Whether `word` is `full` or an abbreviation of it at least `min` letters long, as ip(8)
/// and nmcli(1) accept their objects and commands (`l`, `li`, `link`; `con`, `connection`).
fn abbrev(word: &str, full: &str, min: usize) -> bool {
    word.len() >= min && full.starts_with(word)
}

/// ip(8)'s global options that take a value (`-n NETNS`, `-b FILE`).
const IP_VALUED: &[&str] = &[
    "-n", "-netns", "-b", "-batch", "-rc", "-rcvbuf", "-f", "-family", "-l", "-loops",
];

/// nmcli(1)'s global options that take a value (`-f FIELDS`, `-w SECONDS`).
const NMCLI_VALUED: &[&str] = &[
    "-m",
    "--mode",
    "-f",
    "--fields",
    "-g",
    "--get-values",
    "-c",
    "--colors",
    "-e",
    "--escape",
    "-w",
    "--wait",
];

/// The words after the program's global options (`ip -4 -n ns link …` → `link …`), lower
/// case; a word known only at run time is kept as it is written.
fn after_globals(c: &SimpleCommand, valued: &[&str]) -> Vec<String> {
    let mut rest = Vec::new();
    let mut words = c.args.iter();
    while let Some(a) = words.next() {
        if !rest.is_empty() || !a.text.starts_with('-') {
            rest.push(a.text.to_ascii_lowercase());
        } else if valued.contains(&a.text.as_str()) {
            words.next();
        }
    }
    rest
}

/// Whether a route operand is the default route (`default`, `0.0.0.0/0`, `::/0`).
fn default_route(word: &str) -> bool {
    matches!(word, "default" | "0.0.0.0/0" | "::/0" | "0/0")
}

/// `ip link set DEV down`, `ip link delete DEV`, `ip addr flush dev DEV`, `ip route del
/// default`, `ip route flush [table T]` (not `flush cache`).
fn ip(c: &SimpleCommand, out: &mut Out) {
    let w = after_globals(c, IP_VALUED);
    let [object, verb, rest @ ..] = w.as_slice() else {
        return;
    };
    let shown = c.display_words();
    let deletes = abbrev(verb, "delete", 1) && !abbrev(verb, "dev", 3);
    let detail = if abbrev(object, "link", 1) {
        if abbrev(verb, "set", 1) && rest.iter().any(|r| r == "down") {
            Some("a network interface taken down")
        } else if deletes {
            Some("a network interface deleted")
        } else {
            None
        }
    } else if abbrev(object, "address", 1) && abbrev(verb, "flush", 1) {
        Some("the addresses of a network interface flushed")
    } else if abbrev(object, "route", 1) {
        if deletes && rest.iter().any(|r| default_route(r)) {
            Some("the default route deleted")
        } else if abbrev(verb, "flush", 1) && !rest.iter().any(|r| r == "cache") {
            Some("a routing table flushed")
        } else {
            None
        }
    } else {
        None
    };
    if let Some(detail) = detail {
        push(format!("{detail} (`{shown}`)"), out);
    }
}

/// `nmcli networking off`, `nmcli radio all|wifi|wwan off`, `nmcli device disconnect|down
/// DEV`, `nmcli connection down|delete ID`, by any prefix nmcli accepts.
fn nmcli(c: &SimpleCommand, out: &mut Out) {
    let w = after_globals(c, NMCLI_VALUED);
    let [object, verb, rest @ ..] = w.as_slice() else {
        return;
    };
    let off = verb == "off" || rest.iter().any(|r| r == "off");
    let detail = if abbrev(object, "networking", 1) && off {
        Some("NetworkManager switched off")
    } else if abbrev(object, "radio", 1) && off {
        Some("a radio switched off")
    } else if abbrev(object, "device", 1)
        && (abbrev(verb, "disconnect", 3) || verb == "down" || abbrev(verb, "delete", 3))
    {
        Some("a network device disconnected")
    } else if abbrev(object, "connection", 1) && (verb == "down" || abbrev(verb, "delete", 3)) {
        Some("a network connection taken down")
    } else {
        None
    };
    if let Some(detail) = detail {
        push(format!("{detail} (`{}`)", c.display_words()), out);
    }
}

/// networksetup(8) (macOS) options that take a service or device down when their last value
/// is `off`, and those that do so whatever follows.
const NETWORKSETUP_OFF: &[&str] = &["-setairportpower", "-setnetworkserviceenabled"];
const NETWORKSETUP_DOWN: &[&str] = &["-setv4off", "-removenetworkservice"];

/// `netsh interface set interface [name=]NAME [admin=]disable[d]`, `netsh wlan disconnect`.
fn netsh(c: &SimpleCommand, out: &mut Out) {
    let w: Vec<String> = c.args.iter().map(|a| a.text.to_ascii_lowercase()).collect();
    let disables = |rest: &[String]| {
        rest.iter().any(|r| {
            let value = r.strip_prefix("admin=").unwrap_or(r);
            matches!(value, "disable" | "disabled")
        })
    };
    let detail = match w.as_slice() {
        [context, set, object, rest @ ..]
            if abbrev(context, "interface", 3)
                && set == "set"
                && abbrev(object, "interface", 3)
                && disables(rest) =>
        {
            Some("a network interface disabled")
        }
        [context, verb, ..] if context == "wlan" && verb == "disconnect" => {
            Some("the wireless network disconnected")
        }
        _ => None,
    };
    if let Some(detail) = detail {
        push(format!("{detail} (`{}`)", c.display_words()), out);
    }
}

/// What each program of an [`Action::NetworkDown`](crate::effects::programs::Action) row, or
/// `netsh`, takes down; see the module's documentation.
pub(super) fn grants(c: &SimpleCommand, out: &mut Out) {
    let words: Vec<String> = c.args.iter().map(|a| a.text.to_ascii_lowercase()).collect();
    let has = |w: &str| words.iter().any(|x| x == w);
    let shown = c.display_words();
    let detail = match c.basename() {
        "ip" => return ip(c, out),
        "nmcli" => return nmcli(c, out),
        "netsh" => return netsh(c, out),
        "ifconfig" if has("down") => "a network interface taken down",
        "ifdown" if !has("-n") && !has("--no-act") && !has("--help") => {
            "a network interface taken down"
        }
        "networksetup"
            if words
                .iter()
                .any(|w| NETWORKSETUP_DOWN.contains(&w.as_str()))
                || (words.last().is_some_and(|l| l == "off")
                    && words.iter().any(|w| NETWORKSETUP_OFF.contains(&w.as_str()))) =>
        {
            "a network service or device switched off"
        }
        "rfkill" if words.first().is_some_and(|w| w == "block") => "a radio blocked",
        // route(8) (net-tools, BSD and macOS; Windows `route delete 0.0.0.0`): the default
        // route removed. Another route removed is routine setup.
        "route"
            if words.iter().any(|w| matches!(w.as_str(), "del" | "delete"))
                && words.iter().any(|w| {
                    matches!(w.as_str(), "default" | "0.0.0.0" | "0.0.0.0/0" | "::/0")
                }) =>
        {
            "the default route deleted"
        }
        // dhclient(8) `-r`, dhcpcd(8) `-k`/`--release`, Windows `ipconfig /release`: the
        // interface's address given back, the machine without one.
        "dhclient" if has("-r") => "the address lease released",
        "dhcpcd" if has("-k") || has("--release") => "the address lease released",
        "ipconfig" if has("/release") || has("/release6") => "the address lease released",
        // iw(8) `dev DEV disconnect`, wpa_cli(8) `disconnect`: the wireless link dropped.
        "iw" | "wpa_cli" if has("disconnect") => "a wireless connection dropped",
        // `ufw default deny|reject outgoing`: every connection out refused.
        "ufw"
            if words.windows(3).any(|t| {
                t[0] == "default"
                    && matches!(t[1].as_str(), "deny" | "reject")
                    && t[2].starts_with("out")
            }) =>
        {
            "every connection going out refused by the firewall"
        }
        // `iptables -P OUTPUT DROP`: every packet going out dropped.
        _ if words.windows(3).any(|t| {
            matches!(t[0].as_str(), "-p" | "--policy")
                && t[1] == "output"
                && matches!(t[2].as_str(), "drop" | "reject")
        }) =>
        {
            "every packet going out dropped by the firewall"
        }
        _ => return,
    };
    push(format!("{detail} (`{shown}`)"), out);
}
