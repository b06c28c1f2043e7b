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

/// Word parts of an environment variable's name that make it a secret's, wherever they stand
/// (`SECRET_KEY_BASE`, `GITHUB_TOKEN`, `PGPASSWORD` is caught by [`secret_name`]).
const SECRET_WORDS: &[&str] = &[
    "APIKEY",
    "ACCESSKEY",
    "AUTHKEY",
    "CREDENTIAL",
    "CREDENTIALS",
    "PASSPHRASE",
    "PASSWD",
    "PASSWORD",
    "PRIVATEKEY",
    "SECRET",
    "SECRETKEY",
    "SECRETS",
    "TOKEN",
];

/// Two word parts in a row that make a secret's name (`STRIPE_SECRET_KEY`, `OPENAI_API_KEY`).
const SECRET_PAIRS: &[(&str, &str)] = &[
    ("ACCESS", "KEY"),
    ("API", "KEY"),
    ("AUTH", "KEY"),
    ("ENCRYPTION", "KEY"),
    ("MASTER", "KEY"),
    ("PRIVATE", "KEY"),
    ("SECRET", "KEY"),
    ("SIGNING", "KEY"),
];

/// Last word parts that say the variable describes a secret rather than holds it
/// (`POSTGRES_PASSWORD_FILE` names a file, `AWS_ACCESS_KEY_ID` the key's public half,
/// `TOKEN_URL` where a token is obtained), or counts or bounds something named like one
/// (`TOKEN_COUNT`, `TOKEN_LIMIT`, `PASSWORD_MIN_LENGTH` of a language model or a form).
const DESCRIBES: &[&str] = &[
    "BUDGET", "COUNT", "DIR", "ENDPOINT", "EXPIRY", "FILE", "HOST", "ID", "LEN", "LENGTH", "LIMIT",
    "MAX", "MIN", "NAME", "PATH", "SIZE", "TIMEOUT", "TTL", "TYPE", "URI", "URL", "USAGE",
];

/// Whether an environment variable's name says it holds a secret, by its word parts (split at
/// anything but letters and digits, any case): a [`SECRET_WORDS`] part (`TOKEN`, `SECRET`,
/// `PASSWORD`, `API_KEY` …), a [`SECRET_PAIRS`] pair (`SECRET_KEY`, `PRIVATE_KEY`), or `AUTH`
/// as the last part (`NPM_AUTH`, `BASIC_AUTH`), unless the last part says the variable
/// describes the secret ([`DESCRIBES`]: `_FILE`, `_ID`, `_URL` …); and every name
/// [`secret_name`] counts but `PWD` (the working directory). `AUTH` elsewhere (`SSH_AUTH_SOCK`, `GIT_AUTHOR_NAME`) and words
/// that only begin like one (`TOKENIZERS_PARALLELISM`, `KEYBOARD`) are not secrets.
///
/// ```
/// use seamguard_engine::audit::secret_variable;
///
/// assert!(secret_variable("STRIPE_SECRET_KEY"));
/// assert!(secret_variable("GITHUB_TOKEN"));
/// assert!(!secret_variable("TOKENIZERS_PARALLELISM"));
/// assert!(!secret_variable("SSH_AUTH_SOCK"));
/// ```
pub fn secret_variable(name: &str) -> bool {
    let parts: Vec<String> = name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|p| !p.is_empty())
        .map(str::to_ascii_uppercase)
        .collect();
    let Some(last) = parts.last() else {
        return false;
    };
    let worded = parts.iter().any(|p| SECRET_WORDS.contains(&p.as_str()))
        || parts
            .windows(2)
            .any(|w| SECRET_PAIRS.contains(&(w[0].as_str(), w[1].as_str())))
        || last == "AUTH";
    // `PWD` is the working directory, whatever a field of that name holds.
    (secret_name(name) && parts != ["PWD"]) || (worded && !DESCRIBES.contains(&last.as_str()))
}

#[cfg(test)]
mod tests {
    use super::{secret_name, secret_query_param, secret_variable};

    #[test]
    fn a_variable_is_a_secret_by_its_word_parts() {
        for n in [
            "GITHUB_TOKEN",
            "NPM_TOKEN",
            "AWS_SECRET_ACCESS_KEY",
            "AWS_SESSION_TOKEN",
            "STRIPE_SECRET_KEY",
            "SECRET_KEY_BASE",
            "OPENAI_API_KEY",
            "ANTHROPIC_APIKEY",
            "DB_PASSWORD",
            "PGPASSWORD",
            "MYSQL_PASSWD",
            "GPG_PASSPHRASE",
            "JWT_PRIVATE_KEY",
            "GOOGLE_CREDENTIALS",
            "TAILSCALE_AUTHKEY",
            "NPM_AUTH",
            "HTTP_BASIC_AUTH",
            "CLIENT_SECRET",
            "SLACK_SIGNING_KEY",
            "github_token",
        ] {
            assert!(secret_variable(n), "{n}");
        }
        for n in [
            "TOKENIZERS_PARALLELISM",
            "GIT_AUTHOR_NAME",
            "GIT_AUTHOR_EMAIL",
            "KEYBOARD",
            "SSH_AUTH_SOCK",
            "AUTH_DOMAIN",
            "HOME",
            "PATH",
            "PWD",
            "DEBUG",
            "AWS_ACCESS_KEY_ID",
            "POSTGRES_PASSWORD_FILE",
            "SECRET_NAME",
            "OAUTH_TOKEN_URL",
            "MAX_TOKENS",
            "TOKEN_COUNT",
            "PROMPT_TOKEN_LIMIT",
            "TOKEN_BUDGET",
            "PASSWORD_MIN_LENGTH",
            "",
        ] {
            assert!(!secret_variable(n), "{n}");
        }
    }

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
