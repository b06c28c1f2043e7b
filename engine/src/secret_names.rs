//! The one list of names that say "this holds a secret": a key of a tool's input, a flag, a
//! header or an assignment (`password`, `api_key`, `--token`), and a URL's query parameter
//! (`?key=`, `X-Amz-Security-Token`). The audit log masks what such a name holds
//! ([`secret_name`]); the URL lens counts a query parameter so named as a credential in the
//! URL ([`secret_query_param`]).
//!
//! A few names count in one place only: `key`, `session` and `bearer` are secrets in a query
//! string but ordinary keys of a tool's input (`key` of an object store, the payload's own
//! `session_id`), and a name ending in `cookie` or `authorization` is masked in the log but
//! is no credential in a URL.
//!
//! In: a name. Out: whether it names a secret there.

/// Where a name of the lists counts as a secret's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Only {
    /// Everywhere.
    Both,
    /// In a URL's query string only.
    Query,
    /// In a key, flag, header or assignment only (the audit log).
    Field,
}

/// Names that are a secret's name as a whole (after folding, see [`secret_name`]).
const EXACT: &[(&str, Only)] = &[
    ("auth", Only::Both),
    ("authorization", Only::Both),
    ("bearer", Only::Query),
    ("jwt", Only::Both),
    ("key", Only::Query),
    ("pass", Only::Both),
    ("passwd", Only::Both),
    ("password", Only::Both),
    ("pwd", Only::Both),
    ("secret", Only::Both),
    ("session", Only::Query),
    ("sessionid", Only::Query),
    ("sig", Only::Both),
    ("xamzcredential", Only::Both),
    ("xamzsecuritytoken", Only::Both),
    ("xgoogcredential", Only::Both),
];

/// Endings of a secret's name (`github_token`, `db-password`, `client_secret`).
const SUFFIXES: &[(&str, Only)] = &[
    ("accesskey", Only::Both),
    ("apikey", Only::Both),
    ("authkey", Only::Query),
    ("authorization", Only::Field),
    ("cookie", Only::Field),
    ("credential", Only::Both),
    ("credentials", Only::Both),
    ("passwd", Only::Both),
    ("password", Only::Both),
    ("privatekey", Only::Both),
    ("secret", Only::Both),
    ("secretkey", Only::Query),
    ("sessionkey", Only::Query),
    ("signature", Only::Both),
    ("token", Only::Both),
];

/// Names that end like a secret's but are not: pagination cursors and limits.
const NOT: &[&str] = &[
    "continuationtoken",
    "cursortoken",
    "maxtokens",
    "nextpagetoken",
    "nexttoken",
    "pagetoken",
    "synctoken",
];

/// Whether `name` names a secret where `here` is: case, `-`, `_`, `.` and brackets ignored,
/// it is one of the [`EXACT`] names or ends in one of the [`SUFFIXES`] that count there, and
/// is not one of the [`NOT`] names.
fn names_secret(name: &str, here: Only) -> bool {
    let n: String = name
        .chars()
        .filter(|c| !matches!(c, '-' | '_' | '.' | '[' | ']'))
        .flat_map(char::to_lowercase)
        .collect();
    let counts = |only: &Only| *only == Only::Both || *only == here;
    !NOT.contains(&n.as_str())
        && (EXACT.iter().any(|(e, o)| counts(o) && n == *e)
            || SUFFIXES.iter().any(|(s, o)| counts(o) && n.ends_with(s)))
}

/// Whether a key, flag, header or assignment name names a secret (the audit log masks its
/// value): `pwd`, `pass`, `auth`, `sig`, `jwt`, or a name ending in `password`, `passwd`,
/// `secret`, `token`, `apikey`, `accesskey`, `privatekey`, `credential(s)`,
/// `authorization`, `cookie` or `signature`; pagination cursors (`page_token`,
/// `next_token`) are not.
///
/// ```
/// use seamguard_engine::audit::secret_name;
///
/// assert!(secret_name("GITHUB_TOKEN"));
/// assert!(secret_name("--db-password"));
/// assert!(secret_name("Cookie"));
/// assert!(!secret_name("page_token"));
/// assert!(!secret_name("session_id"));
/// assert!(!secret_name("key"));
/// ```
pub fn secret_name(name: &str) -> bool {
    names_secret(name, Only::Field)
}

/// Whether a URL's query parameter name carries a secret: the names of [`secret_name`]
/// but those ending in `cookie` or `authorization`, and also `key`, `session(id)`,
/// `bearer` and names ending in `secretkey`, `authkey` or `sessionkey`.
pub(crate) fn secret_query_param(name: &str) -> bool {
    names_secret(name, Only::Query)
}

#[cfg(test)]
mod tests {
    use super::{secret_name, secret_query_param};

    #[test]
    fn a_name_counts_where_its_entry_says() {
        let both = [
            "password",
            "X-Amz-Security-Token",
            "client_secret",
            "api-key",
            "sig",
        ];
        for n in both {
            assert!(secret_name(n) && secret_query_param(n), "{n}");
        }
        for n in [
            "key",
            "session",
            "sessionid",
            "bearer",
            "aws_secret_key",
            "sessionKey",
        ] {
            assert!(!secret_name(n) && secret_query_param(n), "{n}");
        }
        for n in ["Cookie", "set_cookie", "proxy_authorization"] {
            assert!(secret_name(n) && !secret_query_param(n), "{n}");
        }
        for n in [
            "page_token",
            "nextPageToken",
            "max_tokens",
            "username",
            "session_id",
        ] {
            assert!(!secret_name(n), "{n}");
        }
        assert!(secret_query_param("session_id"));
        assert!(!secret_query_param("page_token"));
    }
}
