//! URLs and hosts: parsing, host normalization and IP classes, shared by every lens that
//! sends.
//!
//! In: a URL or a bare host as an agent wrote it. Out: an [`Endpoint`]: scheme, normalized
//! host, port, the IP address when the host is one, and the query's parameter names.
//!
//! Parsing is the WHATWG URL parser of the `url` crate. Hosts are normalized the way a
//! resolver sees them, so a rule written for `169.254.169.254` or `example.com` also holds
//! for `0xa9.0xfe.0xa9.0xfe`, `2852039166`, `[::ffff:169.254.169.254]`, `EXAMPLE.com.` or an
//! internationalized name: lower case, IDNA to ASCII (punycode), trailing dots removed, IPv4 in
//! every notation `inet_aton` accepts (hex, octal, decimal, fewer than four parts), IPv6 in
//! canonical form, and an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) as the IPv4 address it
//! reaches. Non-special schemes (`ssh://`, `git://`, …), scheme-less hosts and scp-style
//! `user@host:path` get the same host normalization.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use percent_encoding::percent_decode_str;
use url::{Host, Url};

use super::model::{BodySource, Effects, PathRef, Route, Send, What};
pub use super::model::{Endpoint, IpClass};

/// Parse a URL, a bare `host[:port][/path]` (as curl and wget take it: `http`) or an
/// scp-style `[user@]host:path` (`ssh`).
///
/// Returns `None` for what names no host: a local path, an option, a `mailto:` or `data:`
/// URL, text with spaces. A `file://` URL has an empty host and its local path in
/// [`Endpoint::path`].
///
/// # Examples
///
/// ```
/// use seamguard_engine::effects::url::parse;
/// use seamguard_engine::effects::IpClass;
///
/// let e = parse("http://0xa9.0xfe.0xa9.0xfe/latest/meta-data/").unwrap();
/// assert_eq!(e.host, "169.254.169.254");
/// assert_eq!(e.class(), IpClass::Metadata);
/// let g = parse("git@github.com:org/repo.git").unwrap();
/// assert_eq!((g.scheme.as_str(), g.host.as_str(), g.port), ("ssh", "github.com", Some(22)));
/// ```
pub fn parse(s: &str) -> Option<Endpoint> {
    let s = s.trim();
    if s.is_empty() || s.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return None;
    }
    if let Some(scheme) = scheme_of(s) {
        if scheme.eq_ignore_ascii_case("file") {
            return from_url(&Url::parse(s).ok()?);
        }
        let special = ["http", "https", "ws", "wss", "ftp"]
            .iter()
            .any(|x| scheme.eq_ignore_ascii_case(x));
        if special || s[scheme.len()..].starts_with("://") {
            return from_url(&Url::parse(s).ok()?);
        }
        if NOT_HOSTS.iter().any(|n| scheme.eq_ignore_ascii_case(n)) {
            return None;
        }
    }
    if s.starts_with("//") {
        return from_url(&Url::parse(&format!("http:{s}")).ok()?);
    }
    // Paths (`/x`, `./x`, `~/x`, `C:\\x`, `C:/x`), options and variables are not hosts.
    let drive = s.len() > 2 && s.as_bytes()[0].is_ascii_alphabetic() && s.as_bytes()[1] == b':';
    if s.starts_with(['/', '.', '~', '-', '$', '\\', '@', ':'])
        || s.contains('\\')
        || (drive && s[2..].starts_with('/'))
    {
        return None;
    }
    if let Some(e) = scp_style(s) {
        return Some(e);
    }
    let e = from_url(&Url::parse(&format!("http://{s}")).ok()?)?;
    (e.ip.is_some() || e.host.chars().any(|c| c.is_ascii_alphanumeric())).then_some(e)
}

/// URI schemes without an authority (`data:`, `mailto:`): what follows them is no host.
const NOT_HOSTS: &[&str] = &[
    "data",
    "mailto",
    "javascript",
    "vbscript",
    "about",
    "blob",
    "tel",
    "sms",
    "urn",
    "news",
    "magnet",
    "file",
    "http",
    "https",
];

/// The scheme of `s` (`https` in `https://…`), when it starts with one.
fn scheme_of(s: &str) -> Option<&str> {
    let end = s.find(':')?;
    let scheme = &s[..end];
    let mut chars = scheme.chars();
    let first = chars.next()?;
    (first.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
    .then_some(scheme)
}

/// `[user@]host:path` as scp, rsync and git take it (no `//`, the part after the colon not a
/// port, the host not a drive letter).
fn scp_style(s: &str) -> Option<Endpoint> {
    let (user, rest) = match s.split_once('@') {
        Some((u, r)) if !u.is_empty() && !u.contains(['/', ':']) => (Some(u), r),
        Some(_) => return None,
        None => (None, s),
    };
    let (host, path) = if let Some(r) = rest.strip_prefix('[') {
        let (h, after) = r.split_once(']')?;
        (format!("[{h}]"), after.strip_prefix(':')?)
    } else {
        let (h, p) = rest.split_once(':')?;
        (h.to_string(), p)
    };
    if host.is_empty()
        || host.contains('/')
        || NOT_HOSTS.iter().any(|n| host.eq_ignore_ascii_case(n))
    {
        return None;
    }
    // `host:8080` and `host:8080/x` are ports (curl); `C:\x` and `C:/x` are drive letters.
    let port_like = path
        .split('/')
        .next()
        .is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    if port_like
        || (host.len() == 1 && host.as_bytes()[0].is_ascii_alphabetic())
            && path.starts_with(['\\', '/'])
    {
        return None;
    }
    let (host, ip) = normalize_host_text(&host)?;
    Some(Endpoint {
        scheme: "ssh".into(),
        host,
        port: Some(22),
        ip,
        query_keys: Vec::new(),
        path: path.to_string(),
        user: user.map(decode),
        password: false,
        secret_params: Vec::new(),
        token: token_kind(&decode(s)),
    })
}

fn decode(s: &str) -> String {
    percent_decode_str(s).decode_utf8_lossy().into_owned()
}

/// Normalize a host as written (percent-encoded, Unicode, any IP notation, `[v6]`).
fn normalize_host_text(h: &str) -> Option<(String, Option<IpAddr>)> {
    let trimmed = h.trim_end_matches('.');
    if trimmed.is_empty() {
        return None;
    }
    match Host::parse(trimmed) {
        Ok(host) => Some(normalize_host(&host)),
        // Not a valid special-scheme host (an opaque host with characters the WHATWG host
        // parser forbids): keep its decoded lower-case text.
        Err(_) => {
            let d = decode(trimmed).to_lowercase();
            (!d.is_empty() && !d.contains(['/', '\\', ' ', '@'])).then_some((d, None))
        }
    }
}

/// The canonical text and address of a parsed host.
fn normalize_host<S: AsRef<str>>(h: &Host<S>) -> (String, Option<IpAddr>) {
    match h {
        Host::Ipv4(a) => (a.to_string(), Some(IpAddr::V4(*a))),
        Host::Ipv6(a) => match a.to_ipv4_mapped() {
            Some(v4) => (v4.to_string(), Some(IpAddr::V4(v4))),
            None => (a.to_string(), Some(IpAddr::V6(*a))),
        },
        Host::Domain(d) => {
            let d = d.as_ref().trim_end_matches('.');
            // A trailing dot can hide an IPv4 literal from the parser (`1.2.3.4.`).
            match Host::parse(d) {
                Ok(Host::Ipv4(a)) => (a.to_string(), Some(IpAddr::V4(a))),
                Ok(Host::Domain(x)) => (x.trim_end_matches('.').to_string(), None),
                _ => (d.to_ascii_lowercase(), None),
            }
        }
    }
}

/// The default port of a scheme.
fn default_port(scheme: &str) -> Option<u16> {
    Some(match scheme {
        "http" | "ws" => 80,
        "https" | "wss" | "s3" | "gs" => 443,
        "ftp" => 21,
        "ftps" => 990,
        "ssh" | "sftp" | "scp" | "git+ssh" | "ssh+git" => 22,
        "git" => 9418,
        "rsync" => 873,
        "telnet" => 23,
        "smtp" => 25,
        "smtps" => 465,
        "imap" => 143,
        "imaps" => 993,
        "pop3" => 110,
        "ldap" => 389,
        "ldaps" => 636,
        "redis" => 6379,
        "rediss" => 6380,
        "postgres" | "postgresql" => 5432,
        "mysql" => 3306,
        "mongodb" => 27017,
        "amqp" => 5672,
        "mqtt" => 1883,
        _ => return None,
    })
}

/// An [`Endpoint`] from a parsed URL.
fn from_url(u: &Url) -> Option<Endpoint> {
    let scheme = u.scheme().to_ascii_lowercase();
    let (mut host, ip) = match u.host() {
        None if scheme == "file" => (String::new(), None),
        None => return None,
        Some(Host::Domain(d)) if scheme == "file" && d.eq_ignore_ascii_case("localhost") => {
            (String::new(), None)
        }
        // Special schemes (`http`, `ws`, `ftp`, `file`) were normalized by the parser; an
        // opaque host (`ssh://`, `git://`, `s3://`) is normalized here.
        Some(Host::Domain(d)) if !u.is_special() => normalize_host_text(d)?,
        Some(h) => normalize_host(&h),
    };
    let mut path = u.path().to_string();
    if scheme == "file" {
        path = decode(&path);
    }
    match scheme.as_str() {
        "s3" => {
            host = format!("{host}.s3.amazonaws.com");
        }
        "gs" => {
            host = format!("{host}.storage.googleapis.com");
        }
        _ => {}
    }
    let mut query_keys = Vec::new();
    let mut secret_params = Vec::new();
    for (k, v) in u.query_pairs() {
        if !v.is_empty()
            && crate::secret_names::secret_query_param(&k)
            && !secret_params.contains(&k.to_string())
        {
            secret_params.push(k.to_string());
        }
        query_keys.push(k.into_owned());
    }
    Some(Endpoint {
        port: u.port().or_else(|| default_port(&scheme)),
        scheme,
        host,
        ip,
        query_keys,
        path,
        user: (!u.username().is_empty()).then(|| decode(u.username())),
        password: u.password().is_some_and(|p| !p.is_empty()),
        secret_params,
        token: token_kind(&decode(u.as_str())),
    })
}

/// Formats of well-known credentials (GitHub, GitLab, OpenAI / Anthropic, Slack, AWS access
/// key ids, npm, Google API keys and OAuth tokens, Stripe, Hugging Face, SendGrid, JWTs),
/// with the kind each names.
const TOKEN_FORMATS: &[(&str, &str)] = &[
    (
        r"gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}",
        "a GitHub token",
    ),
    (r"glpat-[A-Za-z0-9_-]{20,}", "a GitLab token"),
    (
        r"sk-(?:proj-|ant-[a-z]+\d*-)?[A-Za-z0-9_-]{20,}",
        "an AI provider API key",
    ),
    (r"xox[abposr]-[A-Za-z0-9-]{10,}", "a Slack token"),
    (
        r"(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}",
        "an AWS access key id",
    ),
    (r"npm_[A-Za-z0-9]{36}", "an npm token"),
    (r"AIza[0-9A-Za-z_-]{35}", "a Google API key"),
    (r"ya29\.[0-9A-Za-z_-]{20,}", "a Google OAuth token"),
    (r"(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}", "a Stripe key"),
    (r"hf_[A-Za-z0-9]{30,}", "a Hugging Face token"),
    (
        r"SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}",
        "a SendGrid key",
    ),
    (
        r"eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}",
        "a JSON Web Token",
    ),
];

/// The kind of well-known credential `text` holds, if any (ASCII boundaries: a token is not
/// part of a longer word).
pub fn token_kind(text: &str) -> Option<&'static str> {
    static SET: std::sync::LazyLock<Option<regex::RegexSet>> = std::sync::LazyLock::new(|| {
        regex::RegexSet::new(
            TOKEN_FORMATS
                .iter()
                .map(|(p, _)| format!(r"(?-u:\b)(?:{p})(?-u:\b)")),
        )
        .ok()
    });
    let set = SET.as_ref()?;
    // The fast test first: which pattern matched is only asked of a URL that holds one.
    if !set.is_match(text) {
        return None;
    }
    let hit = set.matches(text).into_iter().next()?;
    TOKEN_FORMATS.get(hit).map(|(_, kind)| *kind)
}

impl Endpoint {
    /// The class of the destination: by its address when the host is an IP (or a
    /// wildcard-DNS name that spells one: `169.254.169.254.nip.io`, `10-0-0-1.sslip.io`),
    /// else by the reserved names (see [`IpClass`]).
    pub fn class(&self) -> IpClass {
        if self.scheme == "file" && self.host.is_empty() {
            return IpClass::Loopback;
        }
        match self.ip.or_else(|| embedded_ip(&self.host)) {
            Some(ip) => ip_class(ip),
            None => host_class(&self.host),
        }
    }

    /// Whether the host matches a host pattern:
    ///
    /// - `example.com`: the host and its subdomains (`api.example.com`), not
    ///   `badexample.com`;
    /// - `*.example.com`: subdomains only; `.example.com`: like `example.com`; `*`: every
    ///   host;
    /// - an IP (`10.0.0.1`, `::1`, `[::1]`, in any notation) or a CIDR block
    ///   (`10.0.0.0/8`, `fd00::/8`): the address is in it;
    /// - `localhost`: every loopback destination (`localhost`, `127.0.0.1`, `[::1]`, …);
    /// - any of these with `:port` (`localhost:3000`, `[::1]:8080`): the port too.
    ///
    /// Patterns are normalized like hosts (case, IDNA, trailing dot).
    pub fn host_matches(&self, pattern: &str) -> bool {
        let p = pattern.trim();
        if p == "*" {
            return true;
        }
        if let Some((net, bits)) = p.split_once('/') {
            return self.in_cidr(net, bits);
        }
        // A trailing `:port`, when the rest is not a bare IPv6 address.
        let (p, port) = match p.rsplit_once(':') {
            Some((h, n))
                if !n.is_empty()
                    && n.bytes().all(|b| b.is_ascii_digit())
                    && (h.ends_with(']') || !h.contains(':')) =>
            {
                match n.parse::<u16>() {
                    Ok(n) => (h, Some(n)),
                    Err(_) => return false,
                }
            }
            _ => (p, None),
        };
        if port.is_some() && port != self.port {
            return false;
        }
        let (wild, p) = match p.strip_prefix("*.") {
            Some(rest) => (true, rest),
            // `.example.com` (as in `no_proxy`): the host and its subdomains.
            None => (false, p.strip_prefix('.').unwrap_or(p)),
        };
        let text = if p.contains(':') && !p.starts_with('[') {
            format!("[{p}]")
        } else {
            p.to_string()
        };
        let Some((host, ip)) = normalize_host_text(&text) else {
            return false;
        };
        if let Some(ip) = ip {
            return !wild && self.ip.is_some_and(|mine| same_ip(mine, ip));
        }
        if !wild && host == "localhost" && self.class() == IpClass::Loopback {
            return true;
        }
        let sub = self
            .host
            .strip_suffix(host.as_str())
            .is_some_and(|pre| pre.ends_with('.'));
        sub || (!wild && self.host == host)
    }

    /// Whether the address is inside `net/bits`.
    fn in_cidr(&self, net: &str, bits: &str) -> bool {
        let Some(mine) = self.ip else {
            return false;
        };
        let Ok(bits) = bits.parse::<u32>() else {
            return false;
        };
        let net = net.trim_start_matches('[').trim_end_matches(']');
        let net: Option<IpAddr> = net
            .parse()
            .ok()
            .or_else(|| normalize_host_text(net).and_then(|(_, ip)| ip));
        match (mine, net) {
            (IpAddr::V4(a), Some(IpAddr::V4(n))) if bits <= 32 => {
                let mask = u32::MAX.checked_shl(32 - bits).unwrap_or(0);
                u32::from(a) & mask == u32::from(n) & mask
            }
            (IpAddr::V6(a), Some(IpAddr::V6(n))) if bits <= 128 => {
                let mask = u128::MAX.checked_shl(128 - bits).unwrap_or(0);
                u128::from(a) & mask == u128::from(n) & mask
            }
            // `::ffff:0:0/96` style blocks against an address kept as IPv4.
            (IpAddr::V4(a), Some(IpAddr::V6(n))) if bits <= 128 => {
                let mask = u128::MAX.checked_shl(128 - bits).unwrap_or(0);
                u128::from(a.to_ipv6_mapped()) & mask == u128::from(n) & mask
            }
            _ => false,
        }
    }

    /// The credential the URL carries, if any: `userinfo password` for a password in the
    /// userinfo (`https://u:pw@host/`), else the name of the first query parameter that
    /// looks like a secret and has a value (`token`, `access_token`, `api_key`, `apikey`,
    /// `key`, `secret`, `password`, `auth`, `sig`, `signature`, `client_secret`,
    /// `X-Amz-Signature`, `X-Amz-Security-Token`, …; case, `-` and `_` ignored), else the
    /// kind of a value shaped like a well-known credential anywhere in the URL
    /// (`https://x.example/?t=ghp_…` → `a GitHub token`).
    pub fn credential_in_url(&self) -> Option<String> {
        if self.password {
            return Some("userinfo password".into());
        }
        self.secret_params
            .first()
            .cloned()
            .or_else(|| self.token.map(str::to_string))
    }
}

/// Two addresses are the same destination (an IPv4-mapped IPv6 address is its IPv4
/// address).
fn same_ip(a: IpAddr, b: IpAddr) -> bool {
    let canon = |x: IpAddr| match x {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(x, IpAddr::V4),
        v4 => v4,
    };
    canon(a) == canon(b)
}

/// The address a wildcard-DNS name spells (`1.2.3.4.nip.io`, `app.10-0-0-1.sslip.io`,
/// `a9fea9fe.nip.io`), or the loopback address of the public names that resolve to it
/// (`localtest.me`, `lvh.me`).
fn embedded_ip(host: &str) -> Option<IpAddr> {
    const LOOPBACK_NAMES: &[&str] = &["localtest.me", "lvh.me", "vcap.me", "localhost.direct"];
    for n in LOOPBACK_NAMES {
        if host == *n || host.ends_with(&format!(".{n}")) {
            return Some(IpAddr::V4(Ipv4Addr::LOCALHOST));
        }
    }
    let rest = ["nip.io", "sslip.io", "xip.io", "traefik.me"]
        .iter()
        .find_map(|s| host.strip_suffix(s)?.strip_suffix('.'))?;
    let labels: Vec<&str> = rest.split('.').collect();
    if labels.len() >= 4 {
        let dotted = labels[labels.len() - 4..].join(".");
        if let Ok(a) = dotted.parse::<Ipv4Addr>() {
            return Some(IpAddr::V4(a));
        }
    }
    let last = labels.last()?;
    // `name-10-0-0-1` / `10-0-0-1`: the last four dash-separated numbers.
    let parts: Vec<&str> = last.split('-').collect();
    if parts.len() >= 4 {
        let dotted = parts[parts.len() - 4..].join(".");
        if let Ok(a) = dotted.parse::<Ipv4Addr>() {
            return Some(IpAddr::V4(a));
        }
    }
    // `a9fea9fe`: eight hex digits.
    let hex = last.rsplit('-').next()?;
    if hex.len() == 8 {
        return u32::from_str_radix(hex, 16)
            .ok()
            .map(|n| IpAddr::V4(Ipv4Addr::from(n)));
    }
    None
}

/// The class of an address.
fn ip_class(ip: IpAddr) -> IpClass {
    match ip {
        IpAddr::V4(a) => v4_class(a),
        IpAddr::V6(a) => {
            // IPv4-mapped and NAT64 (`64:ff9b::/96`) addresses reach the IPv4 address.
            if let Some(v4) = a.to_ipv4_mapped() {
                return v4_class(v4);
            }
            let s = a.segments();
            if s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
                return v4_class(Ipv4Addr::from(u128::from(a) as u32));
            }
            v6_class(a)
        }
    }
}

fn v4_class(a: Ipv4Addr) -> IpClass {
    const METADATA: [[u8; 4]; 4] = [
        [169, 254, 169, 254],
        [169, 254, 170, 2],
        [100, 100, 100, 200],
        [192, 0, 0, 192],
    ];
    let o = a.octets();
    if METADATA.contains(&o) {
        IpClass::Metadata
    } else if o[0] == 127 || o[0] == 0 {
        IpClass::Loopback
    } else if o[0] == 169 && o[1] == 254 {
        IpClass::LinkLocal
    } else if a.is_private()
        || (o[0] == 100 && (o[1] & 0xc0) == 64)
        || (o[0] == 192 && o[1] == 0 && o[2] == 0)
        || (o[0] == 198 && (o[1] & 0xfe) == 18)
        || a.is_documentation()
        || a.is_multicast()
        || o[0] >= 240
    {
        IpClass::Private
    } else {
        IpClass::Public
    }
}

fn v6_class(a: Ipv6Addr) -> IpClass {
    let s = a.segments();
    if a == Ipv6Addr::new(0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254) {
        IpClass::Metadata
    } else if a.is_loopback() || a.is_unspecified() {
        IpClass::Loopback
    } else if s[..6] == [0; 6] {
        // IPv4-compatible `::a.b.c.d` (deprecated, not routed).
        IpClass::Private
    } else if (s[0] & 0xffc0) == 0xfe80 {
        IpClass::LinkLocal
    } else if (s[0] & 0xfe00) == 0xfc00
        || (s[0] & 0xffc0) == 0xfec0
        || (s[0] & 0xff00) == 0xff00
        || (s[0] == 0x2001 && s[1] == 0x0db8)
        || s[..4] == [0x100, 0, 0, 0]
    {
        IpClass::Private
    } else {
        IpClass::Public
    }
}

/// The class of a host name that is not an IP.
fn host_class(host: &str) -> IpClass {
    const METADATA: &[&str] = &[
        "metadata.google.internal",
        "metadata.goog",
        "metadata",
        "instance-data",
        "instance-data.ec2.internal",
    ];
    const LOOPBACK: &[&str] = &[
        "localhost",
        "localhost.localdomain",
        "ip6-localhost",
        "ip6-loopback",
    ];
    const PRIVATE_SUFFIXES: &[&str] = &[
        ".internal",
        ".local",
        ".lan",
        ".home.arpa",
        ".localdomain",
        ".intranet",
        ".corp",
    ];
    if METADATA.contains(&host) {
        IpClass::Metadata
    } else if LOOPBACK.contains(&host) || host.ends_with(".localhost") {
        IpClass::Loopback
    } else if host.is_empty()
        || !host.contains('.')
        || PRIVATE_SUFFIXES.iter().any(|s| host.ends_with(s))
    {
        IpClass::Private
    } else {
        IpClass::Public
    }
}

/// Push a `send` effect for a URL, or the `read` of the local path of a `file://` URL.
pub(crate) fn push_url(
    url: &str,
    method: Option<String>,
    body: Vec<BodySource>,
    route: Route,
    fx: &mut Effects,
) {
    let endpoint = parse(url);
    if let Some(e) = &endpoint
        && e.scheme == "file"
        && e.host.is_empty()
    {
        fx.push(What::Read(PathRef::new(e.path.clone(), None)), route);
        return;
    }
    fx.push(
        What::Send(Send {
            url: Some(url.to_string()),
            endpoint,
            method,
            body,
            dynamic: false,
            runs_response: false,
        }),
        route,
    );
}

/// A `send` to `host` (and `port`) with no URL (`nc host 80`, a socket's `connect`): the
/// endpoint parsed from `host[:port]`, an IPv6 host in brackets; none when the host is known
/// only at run time (`dynamic`).
pub(crate) fn send_host(
    host: &str,
    port: Option<&str>,
    dynamic: bool,
    body: Vec<BodySource>,
) -> What {
    let target = match port {
        Some(p) if host.contains(':') && !host.starts_with('[') => format!("[{host}]:{p}"),
        Some(p) => format!("{host}:{p}"),
        None => host.to_string(),
    };
    What::Send(Send {
        url: None,
        endpoint: if dynamic { None } else { parse(&target) },
        method: None,
        body,
        dynamic,
        runs_response: false,
    })
}

#[cfg(test)]
#[path = "url_tests.rs"]
mod tests;
