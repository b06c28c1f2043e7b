//! A process raising its own privilege: code that sets its user or group to root
//! (`os.setuid(0)`, `process.setuid(0)`, Perl `$< = 0` / `POSIX::setuid(0)`, Ruby
//! `Process::Sys.setuid(0)`, PHP `posix_setuid(0)`). It only succeeds for a process that may
//! (a set-uid interpreter, one with `CAP_SETUID`, a root parent), and then what follows runs
//! as root: the grant of `sudo -i`, whatever the language.
//!
//! In: the code and its [`Language`]. Out: the calls that make the process root, as they are
//! written, for a [`GrantKind::PrivilegedShell`](crate::effects::model::GrantKind) grant.
//! Calls to another user (`os.setuid(1000)`, dropping root) and queries (`os.getuid()`,
//! `process.geteuid()`) grant nothing. Written from Python's `os` module, Node's `process`,
//! perlvar (`$<`, `$>`, `$(`, `$)`) and POSIX, Ruby's `Process::Sys` / `Process::UID` and
//! PHP's POSIX functions.

use std::sync::LazyLock;

use regex::Regex;

use super::Language;

/// The calls of each language that set the process's user or group ids; any argument that is
/// root (`0`, `"root"`) makes the process root.
const SETTERS: &[(Language, &[&str])] = &[
    (
        Language::Python,
        &[
            "os.setuid",
            "os.seteuid",
            "os.setreuid",
            "os.setresuid",
            "os.setgid",
            "os.setegid",
            "os.setregid",
            "os.setresgid",
            "posix.setuid",
            "posix.setresuid",
        ],
    ),
    (
        Language::JavaScript,
        &[
            "process.setuid",
            "process.seteuid",
            "process.setgid",
            "process.setegid",
        ],
    ),
    (
        Language::TypeScript,
        &[
            "process.setuid",
            "process.seteuid",
            "process.setgid",
            "process.setegid",
        ],
    ),
    (
        Language::Perl,
        &[
            "POSIX::setuid",
            "POSIX::setgid",
            "POSIX::seteuid",
            "POSIX::setegid",
            "setuid",
            "setgid",
        ],
    ),
    (
        Language::Ruby,
        &[
            "Process::Sys.setuid",
            "Process::Sys.seteuid",
            "Process::Sys.setreuid",
            "Process::Sys.setresuid",
            "Process::Sys.setgid",
            "Process::Sys.setresgid",
            "Process::UID.change_privilege",
            "Process::UID.grant_privilege",
            "Process::GID.change_privilege",
        ],
    ),
    (
        Language::Php,
        &[
            "posix_setuid",
            "posix_seteuid",
            "posix_setgid",
            "posix_setegid",
        ],
    ),
];

/// A call's name and its argument list (up to the first `)`).
static CALL: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"([A-Za-z_][A-Za-z0-9_.:]*)\s*\(([^()]*)\)").ok());

/// Perl's ids as variables (perlvar): `$< = 0`, `$> = 0`, `($<, $>) = (0, 0)`, and the group
/// ids `$(`, `$)`; Ruby's `Process.uid = 0`, `Process.euid = 0`.
static ASSIGNED: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r#"(\$[<>()]\s*=\s*(0\b|"0"|'0')|\(\s*\$[<>]\s*,\s*\$[<>]\s*\)\s*=\s*\(\s*0\b|Process\.(e?uid|e?gid)\s*=\s*0\b)"#,
    )
    .ok()
});

/// Whether one argument names root (`0`, `"root"`, `'0'`).
fn is_root(arg: &str) -> bool {
    let a = arg.trim().trim_matches(|c| c == '"' || c == '\'');
    matches!(a, "0" | "root")
}

/// The calls in `code` that make its process root, as written (`os.setuid(0)`).
pub(super) fn raised(lang: Language, code: &str) -> Vec<String> {
    let names: &[&str] = SETTERS
        .iter()
        .find(|(l, _)| *l == lang)
        .map_or(&[], |(_, n)| n);
    let Some(call) = CALL.as_ref() else {
        return Vec::new();
    };
    let mut found: Vec<String> = call
        .captures_iter(code)
        .filter(|c| {
            let name = c.get(1).map_or("", |m| m.as_str());
            // `POSIX::setuid` and a bare `setuid` imported from POSIX; not `my_setuid`.
            names.contains(&name) && c.get(2).is_some_and(|a| a.as_str().split(',').any(is_root))
        })
        .filter_map(|c| c.get(0).map(|m| m.as_str().to_string()))
        .collect();
    if matches!(lang, Language::Perl | Language::Ruby)
        && let Some(assigned) = ASSIGNED.as_ref()
    {
        found.extend(assigned.find_iter(code).map(|m| m.as_str().to_string()));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_that_make_the_process_root() {
        let cases: &[(Language, &str, &[&str])] = &[
            (
                Language::Python,
                "import os; os.setuid(0); os.system('sh')",
                &["os.setuid(0)"],
            ),
            (
                Language::Python,
                "import os\nos.setgid(0)",
                &["os.setgid(0)"],
            ),
            (
                Language::Python,
                "os.setresuid(0, 0, 0)",
                &["os.setresuid(0, 0, 0)"],
            ),
            (
                Language::JavaScript,
                "process.setuid(0); require('child_process').execSync('id')",
                &["process.setuid(0)"],
            ),
            (
                Language::JavaScript,
                "process.setuid('root')",
                &["process.setuid('root')"],
            ),
            (
                Language::Perl,
                "$< = 0; $> = 0; exec '/bin/sh'",
                &["$< = 0", "$> = 0"],
            ),
            (
                Language::Perl,
                "use POSIX; POSIX::setuid(0); exec '/bin/sh'",
                &["POSIX::setuid(0)"],
            ),
            (
                Language::Perl,
                "($<, $>) = (0, 0); system 'id'",
                &["($<, $>) = (0"],
            ),
            (
                Language::Ruby,
                "Process::Sys.setuid(0); exec 'sh'",
                &["Process::Sys.setuid(0)"],
            ),
            (Language::Ruby, "Process.uid = 0", &["Process.uid = 0"]),
            (
                Language::Php,
                "posix_setuid(0); system('sh');",
                &["posix_setuid(0)"],
            ),
        ];
        for (lang, code, want) in cases {
            assert_eq!(raised(*lang, code), *want, "{code}");
        }
    }

    #[test]
    fn queries_and_other_users_grant_nothing() {
        let cases: &[(Language, &str)] = &[
            (
                Language::Python,
                "import os; print(os.getuid(), os.geteuid())",
            ),
            (Language::Python, "import os; os.setuid(1000)"),
            (Language::Python, "os.setuid(pwd.getpwnam('nobody').pw_uid)"),
            (Language::JavaScript, "console.log(process.getuid())"),
            (Language::JavaScript, "process.setuid(1000)"),
            (Language::Perl, "print $<, $>"),
            (Language::Perl, "my_setuid(0)"),
            (Language::Ruby, "puts Process.uid"),
            // A call of another language's name is not read in this one.
            (Language::Php, "os.setuid(0)"),
        ];
        for (lang, code) in cases {
            assert!(raised(*lang, code).is_empty(), "{code}");
        }
    }
}
