//! Folders served to the network: `python3 -m http.server`, `php -S ADDR -t DIR`, `ruby -run
//! -e httpd DIR`, `http-server DIR`, read by the program table's [`SERVERS`]. A server that
//! listens on more than the loopback address grants anyone who reaches the machine the files
//! of its folder: a [`GrantKind::ServedFolder`] grant with the folder's path.

use super::out::Out;
use crate::effects::model::{Grant, GrantKind, PathRef, What};
use crate::effects::programs::network::{SERVERS, Server};
use crate::effects::programs::{option_value, split_long};
use crate::shell::{Arg, SimpleCommand};

/// Whether an address (`127.0.0.1`, `localhost:8000`, `[::1]:80`) is the loopback one.
pub(super) fn loopback(addr: &str) -> bool {
    let host = if let Some(rest) = addr.strip_prefix('[') {
        rest.split(']').next().unwrap_or(rest)
    } else if addr.matches(':').count() == 1 {
        addr.split(':').next().unwrap_or(addr)
    } else {
        addr
    };
    matches!(host, "localhost" | "::1" | "ip6-localhost") || host.starts_with("127.")
}

/// Where the marker of `server` starts in `args`, if they hold it.
fn marker_at(server: &Server, args: &[Arg]) -> Option<usize> {
    if server.marker.is_empty() {
        return Some(0);
    }
    args.windows(server.marker.len()).position(|w| {
        w.iter()
            .zip(server.marker)
            .all(|(a, m)| !a.dynamic && a.text == *m)
    })
}

/// The folder a server command serves and whether it listens beyond the loopback address.
fn served(server: &Server, c: &SimpleCommand) -> Option<(Arg, bool)> {
    let at = marker_at(server, &c.args)?;
    let mut i = at + server.marker.len();
    let mut bind: Option<Arg> = None;
    if server.marker_binds {
        bind = c.args.get(i).cloned();
        i += 1;
    }
    let mut folder: Option<Arg> = None;
    while let Some(a) = c.args.get(i) {
        i += 1;
        let t = a.text.as_str();
        let (name, inline) = split_long(t);
        let value = |i: &mut usize| option_value(a, inline, &c.args, i);
        if server.folder.contains(&name) {
            folder = value(&mut i);
        } else if server.bind.contains(&name) {
            bind = value(&mut i);
        } else if server.valued.contains(&name) {
            if inline.is_none() {
                i += 1;
            }
        } else if t.starts_with('-') && t.len() > 1 {
        } else if server.folder_operand
            && folder.is_none()
            && !t.chars().all(|ch| ch.is_ascii_digit())
        {
            folder = Some(a.clone());
        }
    }
    let network = match &bind {
        Some(b) => b.dynamic || !loopback(&b.text),
        None => server.all_by_default,
    };
    let folder = folder.unwrap_or(Arg {
        text: ".".into(),
        dynamic: false,
    });
    Some((folder, network))
}

/// The folder a command serves to the network, as a grant.
pub(super) fn served_folder(c: &SimpleCommand, out: &mut Out) {
    let base = c.basename();
    let Some((folder, true)) = SERVERS
        .iter()
        .filter(|s| s.names.contains(&base))
        .find_map(|s| served(s, c))
    else {
        return;
    };
    let path = PathRef::from_arg(&folder, c.cwd.as_deref());
    out.push(What::Grant(Grant {
        kind: GrantKind::ServedFolder,
        detail: format!("the folder {} served to the network", folder.text),
        path: Some(path),
    }));
}
