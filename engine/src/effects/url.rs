//! URLs and hosts: parsing, host normalization and IP classes, shared by every lens that
//! sends.
//!
//! In: a URL or a bare host as an agent wrote it. Out: an [`Endpoint`]: scheme, normalized
//! host, port, the IP address when the host is one, and the query's parameter names.

use std::net::IpAddr;

use super::{BodySource, Effects, Route, Send, What};

/// A parsed destination.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint {
    /// Lower-case scheme (`https`, `file`, `ssh`); empty for a bare host.
    pub scheme: String,
    /// Normalized host: lower case, IDNA (punycode), no trailing dot, IP literals in
    /// canonical form.
    pub host: String,
    /// The port, explicit or the scheme's default.
    pub port: Option<u16>,
    /// The host as an IP address, when it is one (in any notation).
    pub ip: Option<IpAddr>,
    /// The query's parameter names, as written.
    pub query_keys: Vec<String>,
    /// The path (for `file://` URLs: the local path).
    pub path: String,
}

/// A class of IP address or host.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IpClass {
    /// `127.0.0.0/8`, `::1`, `localhost`.
    Loopback,
    /// RFC 1918, `fc00::/7`.
    Private,
    /// `169.254.0.0/16`, `fe80::/10`.
    LinkLocal,
    /// Cloud metadata endpoints (`169.254.169.254`, `fd00:ec2::254`,
    /// `metadata.google.internal`, …).
    Metadata,
    /// Anything else.
    Public,
}

impl Endpoint {
    /// The class of the destination.
    pub fn class(&self) -> IpClass {
        IpClass::Public
    }

    /// Whether the host matches `pattern`.
    pub fn host_matches(&self, pattern: &str) -> bool {
        self.host == pattern
    }

    /// The credential the URL carries, if any.
    pub fn credential_in_url(&self) -> Option<String> {
        None
    }
}

/// Parse a URL (or `host[:port]`).
pub fn parse(s: &str) -> Option<Endpoint> {
    let _ = s;
    None
}

/// Push a `send` effect for a URL (or the `read` of a `file://` URL).
pub(crate) fn push_url(
    url: &str,
    method: Option<String>,
    body: Vec<BodySource>,
    route: Route,
    fx: &mut Effects,
) {
    fx.push(
        What::Send(Send {
            url: Some(url.to_string()),
            endpoint: parse(url),
            method,
            body,
            dynamic: false,
        }),
        route,
    );
}
