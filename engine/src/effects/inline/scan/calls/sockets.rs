//! Connections Perl, Ruby, PHP and Lua code opens, read by the token scanner:
//! `fsockopen(h, p)`, `stream_socket_client("tcp://h:p")`, `socket_connect($s, h, p)`,
//! `TCPSocket.new(h, p)`, `Socket.tcp(h, p)`, Lua's `socket.connect(h, p)`, Perl's
//! `inet_aton(h)` and `IO::Socket::INET->new(PeerAddr => "h:p")`.
//!
//! In: the argument tokens of the call. Out: a `send` to the host (and port) in [`Collect`],
//! judged as a Python socket's `connect` is; a host known only at run time is `unsure`.

use super::{Reader, Val};
use crate::effects::inline::{collect::Collect, resolve::Res, scan::lex::Tok};

impl Reader<'_> {
    /// A connection to the host `host` names (`tcp://h:p` and `h:p` give the port too), on
    /// the port `port` names.
    pub(super) fn connect(
        &self,
        name: &str,
        host: Option<&&[Tok]>,
        port: Option<&&[Tok]>,
        cx: &mut Collect<'_>,
    ) {
        let Some(Val::One(h)) = host.and_then(|h| self.value(h)) else {
            cx.unknown(name, "an address");
            return;
        };
        let h = h.split_once("://").map_or(h.as_str(), |(_, rest)| rest);
        let (h, in_host) = match h.rsplit_once(':') {
            Some((a, p)) if !a.contains(':') && p.parse::<u16>().is_ok() => {
                (a, Some(p.to_string()))
            }
            _ => (h, None),
        };
        let port = in_host.or_else(|| match port.and_then(|p| self.value(p)) {
            Some(Val::One(p)) if p.parse::<u16>().is_ok() => Some(p),
            _ => None,
        });
        cx.send_host(&Res::lit(h), port.as_deref(), Vec::new());
    }

    /// `IO::Socket::INET->new(PeerAddr => "h:p", PeerPort => p, …)` (`PeerHost` too) or
    /// `->new("h:p")`: a connection; a listening socket (`LocalPort`, `Listen`) is none.
    pub(super) fn perl_socket(&self, name: &str, args: &[&[Tok]], cx: &mut Collect<'_>) {
        if let [one] = args {
            self.connect(name, Some(one), None, cx);
            return;
        }
        let key = |a: &[Tok]| match a {
            [Tok::Name(n)] => Some(n.clone()),
            [Tok::Str { .. }] => match self.value(a) {
                Some(Val::One(s)) => Some(s),
                _ => None,
            },
            _ => None,
        };
        let mut host = None;
        let mut port = None;
        for pair in args.chunks(2) {
            if let [k, v] = pair {
                match key(k).as_deref() {
                    Some("PeerAddr" | "PeerHost") => host = Some(v),
                    Some("PeerPort") => port = Some(v),
                    _ => {}
                }
            }
        }
        if host.is_some() {
            self.connect(name, host, port, cx);
        }
    }
}
