//! The program table of the effect model, read-only and as text: every program the shell
//! lens knows, the subcommands a row applies to, and what each operand, option value and
//! switch is to the effect model. The book's generated page "Programs the effect model
//! knows" is made from it (`seamguard docs gen`), so it is never kept by hand.
//!
//! In: the rows of the program table (the engine's `effects::programs`), in the order they
//! are tried. Out: one [`ProgramRow`] per row, each role and switch described in words.
//!
//! # Example
//!
//! ```
//! use seamguard_engine::program_table::rows;
//!
//! let clean = rows()
//!     .find(|r| r.names == ["git"] && r.subcommands == ["clean"])
//!     .expect("git clean is a row");
//! assert_eq!(clean.operands, Some("paths deleted"));
//! assert_eq!(clean.without_operands.as_deref(), Some("the working directory"));
//! assert!(clean.switches.iter().any(|(s, what)| *s == "--dry-run" && what.starts_with("only shows")));
//! ```

use crate::effects::language::Language;
use crate::effects::programs::{self, Action, Fallback, Program, Role, Switch};

/// One row of the program table, described in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgramRow {
    /// The names the program is called by (`["grep", "egrep", "fgrep"]`).
    pub names: Vec<&'static str>,
    /// The subcommands the row applies to, words joined by a space (`["pip install"]`);
    /// empty: every command line of the program not taken by an earlier row.
    pub subcommands: Vec<String>,
    /// What the program does to its operands (the effect family).
    pub family: &'static str,
    /// The leading operands, each with what it is (`("1st operand", "a pattern …")`).
    pub lead: Vec<(String, &'static str)>,
    /// What the other operands are; `None` where the effect family alone says it (a copy's
    /// sources and destination, a request's URL) and the row gives them no role.
    pub operands: Option<&'static str>,
    /// What the other operands are when an option gave the leading ones (`perl -e CODE
    /// FILES`), when that differs.
    pub operands_after_lead_option: Option<&'static str>,
    /// What the program works on when it is given no operand; `None`: standard input.
    pub without_operands: Option<&'static str>,
    /// Option spellings whose values have a role, with what the value is (the spellings of
    /// one role joined by `, `); options that give the leading operands say so; options
    /// whose values are ignored are described as such.
    pub options: Vec<(String, String)>,
    /// Switches that change what the operands are, with what they do.
    pub switches: Vec<(&'static str, &'static str)>,
    /// Options before the subcommand that take a value (`git -C DIR`).
    pub global_options: Vec<&'static str>,
    /// `key=value` operands with a role (`dd if=… of=…`).
    pub assignments: Vec<(String, &'static str)>,
    /// For a search program: what it reaches below its roots.
    pub search: Option<String>,
}

/// Every row of the program table, in the order rows are tried for a program's name (the
/// first matching subcommand row of a program wins; its general row comes last).
pub fn rows() -> impl Iterator<Item = ProgramRow> {
    programs::rows().map(describe)
}

/// One wrapper: a program that runs another program given as its trailing words
/// (`sudo`, `xargs`, `timeout 5`, `docker exec CONTAINER`). The shell lens peels it and judges
/// the wrapped command as if it were run directly, with the wrapper on its path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrapperRow {
    /// The names it is called by (`["sudo", "doas"]`).
    pub names: Vec<&'static str>,
    /// The subcommands that make the program a wrapper (`["exec", "compose exec"]`); empty:
    /// the program itself always is one.
    pub subcommands: Vec<&'static str>,
    /// Its options that take the next word as their value (`sudo -u root`).
    pub valued_options: Vec<&'static str>,
    /// How many words it reads after its options, before the command (`timeout 5` → 1).
    pub operands: usize,
    /// First words with which it runs nothing and only reports (`command -v`).
    pub queries: Vec<&'static str>,
    /// Whether a lone remaining word is a shell line, not a program (`watch 'rm -rf /'`).
    pub lone_word_is_script: bool,
    /// Whether the wrapped command gets the wrapper's standard input as its arguments
    /// (`… | xargs rm`).
    pub input_as_args: bool,
    /// Whether its first word is a package fetched and run by its command name (`npx
    /// rimraf@5 dist` runs `rimraf dist`).
    pub runs_package: bool,
}

/// Every wrapper the shell lens peels, in the order they are tried. `env` (its own reading
/// of options, assignments and `-S`) and `find -exec` (whose `{}` stands for the files found)
/// are peeled by routines of their own and are not rows.
///
/// # Example
///
/// ```
/// use seamguard_engine::program_table::wrappers;
///
/// let timeout = wrappers().find(|w| w.names == ["timeout"]).expect("timeout is a wrapper");
/// assert_eq!(timeout.operands, 1);
/// assert!(wrappers().any(|w| w.names.contains(&"xargs") && w.input_as_args));
/// ```
pub fn wrappers() -> impl Iterator<Item = WrapperRow> {
    crate::shell::wrappers::rows().iter().map(|w| WrapperRow {
        names: w.names.to_vec(),
        subcommands: w.sub.split('|').filter(|s| !s.is_empty()).collect(),
        valued_options: w.valued.to_vec(),
        operands: w.operands,
        queries: w.queries.to_vec(),
        lone_word_is_script: w.lone_word_is_script,
        input_as_args: w.input_as_args,
        runs_package: w.package_word,
    })
}

/// The row `p` in words.
fn describe(p: &Program) -> ProgramRow {
    let mut options: Vec<(String, String)> = Vec::new();
    for (o, r) in p.options {
        let what = format!("its value: {}", role(*r));
        // Spellings of one role share a line (`-o, --output`).
        match options.iter_mut().find(|(_, w)| *w == what) {
            Some((spellings, _)) => {
                spellings.push_str(", ");
                spellings.push_str(o);
            }
            None => options.push(((*o).to_string(), what)),
        }
    }
    for (o, r) in p.pairs {
        options.push((
            format!("{o} NAME VALUE"),
            format!("takes two values; the second: {}", role(*r)),
        ));
    }
    for o in p.lead_options {
        options.push((
            (*o).to_string(),
            "its value is the leading operand (the operands after it are all of the other kind)"
                .to_string(),
        ));
    }
    if !p.valued.is_empty() {
        options.push((
            p.valued.join(", "),
            "take a value the effect model ignores".to_string(),
        ));
    }
    let ordinal = |i: usize| match i {
        0 => "1st operand".to_string(),
        1 => "2nd operand".to_string(),
        2 => "3rd operand".to_string(),
        n => format!("{}th operand", n + 1),
    };
    ProgramRow {
        names: p.names.to_vec(),
        subcommands: p.subs.iter().map(|s| s.join(" ")).collect(),
        family: family(p.action),
        lead: p
            .lead
            .iter()
            .enumerate()
            .map(|(i, r)| (ordinal(i), role(*r)))
            .collect(),
        operands: (p.rest != Role::Ignore || p.action == Action::Files).then(|| role(p.rest)),
        operands_after_lead_option: p.rest_given.filter(|r| *r != p.rest).map(role),
        without_operands: match p.fallback {
            Fallback::None => None,
            Fallback::Cwd => Some("the working directory"),
            Fallback::CwdIfRecursive => Some("the working directory, when recursive"),
        },
        options,
        switches: p.switches.iter().map(|(s, w)| (*s, switch(*w))).collect(),
        global_options: p.global.to_vec(),
        assignments: p
            .assigns
            .iter()
            .map(|(k, r)| (format!("{k}=…"), role(*r)))
            .collect(),
        search: p.search.map(|s| {
            let mut parts = Vec::new();
            parts.push(if s.hidden {
                "reads hidden files (`.env`) by default"
            } else {
                "reads hidden files only when told to"
            });
            parts.push(if s.needs_recursive {
                "walks folders only when recursive"
            } else {
                "always walks folders"
            });
            if s.cwd {
                parts.push("searches the working directory when given no path");
            }
            parts.join("; ")
        }),
    }
}

/// What an operand or option value with role `r` is.
fn role(r: Role) -> &'static str {
    match r {
        Role::Ignore => "nothing the effect model tracks (a pattern, a count, a name, an argument)",
        Role::EditScript => {
            "a stream editor's script (in place: the text it inserts or substitutes is written)"
        }
        Role::Read => "paths read",
        Role::Pattern => "the pattern a search prints the matches of",
        Role::Filter => "a filter narrowing which files a search reads to a kind",
        Role::Load => "a file loaded as environment values (read, not shown)",
        Role::Measured => "a file measured (counts, size or metadata printed, not its content)",
        Role::Identity => "a private key signed with (used, not read: nothing of it is sent)",
        Role::Write => "paths written",
        Role::Append => "paths appended to",
        Role::Delete => "paths deleted",
        Role::Permission => "paths whose permissions or owner change",
        Role::Mode => "the mode or owner a permission change sets",
        Role::Url => "a URL (or `host:path`, `user@host`) a request goes to",
        Role::Method => "a request method",
        Role::Data => "a request body (`@file` reads the file, `$VAR` sends the variable)",
        Role::Form => "a form field (`f=@file` reads the file)",
        Role::Urlencoded => "URL-encoded request data (`name@file` and `@file` read the file)",
        Role::Host => "a host or proxy a connection goes to",
        Role::Wipe => {
            "a path deleted whole, with everything below it (a device wiped, `rimraf DIR`)"
        }
        Role::BodyFile => "a file uploaded as the request body",
        Role::Header => "a header, user or cookie sent (sends the variables it names)",
        Role::Package => "packages installed",
        Role::Source => "the registry, index or repository packages come from",
        Role::Signal => "the signal sent",
        Role::Target => "processes, process names or services signalled",
        Role::Glob => "a glob that widens a search (read below the search roots)",
        Role::Size => "a size (`0` truncates)",
        Role::Dest => "the destination folder of a copy or move",
        Role::Shell => "shell text the program runs",
        Role::Mount => "a bind mount `HOST:CONTAINER` (the host path is read and written)",
        Role::Code(Language::Python) => "Python code (read by the inline-code lens)",
        Role::Code(Language::JavaScript) => "JavaScript code (read by the inline-code lens)",
        Role::Code(Language::TypeScript) => "TypeScript code (read by the inline-code lens)",
        Role::Code(Language::PowerShell) => "PowerShell code (read by the inline-code lens)",
        Role::Code(Language::Cmd) => "a cmd.exe line",
        Role::Code(Language::Perl) => "Perl code (read by the inline-code lens)",
        Role::Code(Language::Ruby) => "Ruby code (read by the inline-code lens)",
        Role::Code(Language::Php) => "PHP code (read by the inline-code lens)",
        Role::Code(Language::Lua) => "Lua code (read by the inline-code lens)",
        Role::Code(Language::Awk) => "an awk program (read by the inline-code lens)",
        Role::Code(Language::R) => "R code (read by the inline-code lens)",
        Role::Code(Language::Julia) => "Julia code (read by the inline-code lens)",
        Role::Code(Language::AppleScript) => "AppleScript code (read by the inline-code lens)",
        Role::Script => {
            "the script run: a path (read), an `http(s)` URL fetched and run, or a registry specifier installed and run"
        }
        Role::User => "the user the command runs as",
        Role::Capability => "a capability added to a container",
        Role::SecurityOpt => "a security option of a container",
        Role::Device => "a host device given to a container",
        Role::Namespace => "a namespace a container shares (`host`: the host's)",
        Role::Network => "the network a container joins (`host`: the host's)",
        Role::MountSpec => {
            "a mount spec `type=bind,source=HOST,…` (a bind mount's host path is read and written)"
        }
        Role::Manifest => "a manifest or override as text (what it grants is read from it)",
        Role::ManifestFile => {
            "a manifest file (`-`: standard input, read when it is a here-document)"
        }
        Role::Group => "groups a user joins (a grant when one holds root)",
        Role::Escape => {
            "a command in the program's own language; its shell escape (`!CMD`, `shell CMD`, `.shell CMD`) runs as a shell line"
        }
        Role::ShellSetting => {
            "a setting whose value runs as a shell line when its key names a command (`ProxyCommand=`, `exec=`)"
        }
        Role::RemoteForward => "a remote port forward (a local port published on the remote host)",
        Role::ListenAddress => {
            "the addresses a forwarded port listens on (published beyond the loopback address)"
        }
    }
}

/// What a program of effect family `a` does.
fn family(a: Action) -> &'static str {
    match a {
        Action::Files => "acts on paths: its operands and option values have the roles listed",
        Action::Copy { moves: false } => {
            "copies sources to a destination: the last operand is written (or sent to when remote), the others read"
        }
        Action::Copy { moves: true } => {
            "moves sources to a destination: the last operand is written, the others read and deleted"
        }
        Action::ContainerCopy => {
            "copies between a container and the host: a `CONTAINER:PATH` is read in the container as source; a host destination is written, a host source read"
        }
        Action::Send => "sends a network request to its URL operands and URL option values",
        Action::Connect => "connects to `host [port]` and sends its standard input",
        Action::HttpItems => "sends an HTTPie-style request: `[METHOD] URL [items]`",
        Action::Socat => "relays between two addresses (`socat ADDRESS ADDRESS`)",
        Action::Signal => "signals processes or services",
        Action::Service => "acts on a service: `service NAME ACTION`",
        Action::Permission => "changes permissions or ownership",
        Action::Chattr => "changes file attributes: `chattr [-R] +i PATHS`",
        Action::Install => "installs packages (the manager is the program's name)",
        Action::Find => "walks folders from its start operands; the operands end at the expression",
        Action::Resolve => "looks up or probes names: a send to each host-like operand",
        Action::Escalate { bare_shell: false } => {
            "runs a command as another user (a shell when told to start one)"
        }
        Action::Escalate { bare_shell: true } => {
            "runs a command as another user (the user's shell when given no command)"
        }
        Action::TransientUnit => {
            "runs a command now in a transient systemd unit, as root for the system manager unless a user is named (a timer schedules it)"
        }
        Action::EnterNamespaces => "enters another process's namespaces",
        Action::Unshare => "runs a command in new namespaces",
        Action::SetCapability => "sets file capabilities: `setcap CAPS FILE …`",
        Action::Pod => {
            "starts a pod or debugging container: what its flags, overrides and manifest grant"
        }
        Action::JoinGroup => "adds a user to groups (a grant when one holds root)",
        Action::Tunnel => "publishes a local port beyond the machine through a relay",
        Action::Mount => "mounts a file system over a path (no operand: lists the mounts)",
        Action::Transfer => {
            "transfers a URL to or from a local file (`certutil -urlcache`, `bitsadmin /transfer`)"
        }
        Action::Publish { .. } => {
            "publishes to a registry: the artifacts named, else the project folder, sent to the registry an option names or else the program's own (a dry run sends nothing)"
        }
        Action::SecretScan => {
            "scans files for secrets and prints the values it finds (a scan of a folder that may hold secret files reads them)"
        }
        Action::WindowsAccount => {
            "makes, enables or adds a Windows account to a group (`net user NAME PASS /add`, `net localgroup GROUP NAME /add`): a local-account grant"
        }
        Action::Autostart => {
            "sets a Windows program to start by itself (`schtasks /create`, `sc create|config`): an autostart grant"
        }
        Action::WindowsRegistry => {
            "writes or deletes a Windows registry key: a Run, Winlogon or Services key written is an autostart grant, a Defender, UAC, firewall policy or LSA key a security-control grant"
        }
        Action::Firewall => {
            "switches the Windows firewall off (`netsh advfirewall set PROFILE state off`): a security-control grant"
        }
        Action::NetworkDown => {
            "takes the machine's network down (`ip link set DEV down`, `ip route del default`, `nmcli networking off`, `rfkill block`, `ufw default deny outgoing`, `iptables -P OUTPUT DROP`): a network-down grant"
        }
        Action::WindowsProtection => {
            "switches a Windows protection off (`bcdedit /set {default} recoveryenabled no`, `wevtutil cl Security`): a security-control grant"
        }
        Action::WindowsPermission => {
            "changes the permissions or owner of a Windows path (`icacls PATH /grant …`, `takeown /f PATH`; `/t`, `/r`: below it too)"
        }
        Action::RunAs => {
            "runs a command line as another user, read as a cmd.exe line (a shell when given nothing to run)"
        }
        Action::HtmlApplication => {
            "runs an HTML application: a URL is fetched and run, inline script code is not read"
        }
    }
}

/// What switch `s` does.
fn switch(s: Switch) -> &'static str {
    match s {
        Switch::Recursive => "applies below the paths too",
        Switch::Append => "appends instead of writing",
        Switch::InPlace => "edits the file operands in place",
        Switch::Delete => "deletes what it acts on",
        Switch::RemovesInputs => "deletes its inputs once stored in the archive",
        Switch::Get => "sends the data in the query instead of a body",
        Switch::AllWritten => "every operand is created",
        Switch::Operation => "selects the install operation",
        Switch::RemoteName => "saves each URL to the file its path ends in",
        Switch::ArgsFollow => "the remaining operands are arguments, not files",
        Switch::StdinScript => "the script is standard input and the operands its arguments",
        Switch::DryRun => "only shows what it would do: nothing is deleted",
        Switch::RunsShell => "starts the target user's shell",
        Switch::Privileged => "a privileged container",
        Switch::MapRoot => "maps the caller to root in a new user namespace",
        Switch::Hidden => "reads hidden files too",
        Switch::NoIgnore => "reads the files its ignore files leave out",
        Switch::Unrestricted => "once: ignore files are not read; twice: hidden files too",
        Switch::NamesOnly => "prints only names or counts, not the matching lines",
        Switch::Invert => "prints the lines that do not match",
        Switch::IgnoreCase => "ignores case",
        Switch::Test => "tests what it made, running the test command given",
        Switch::Public => "what it creates is readable by anyone",
        Switch::Push => "pushes the project's history to what it creates",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every row is described, with the names and the order of the table.
    #[test]
    fn every_row_is_described_in_table_order() {
        let described: Vec<Vec<&str>> = rows().map(|r| r.names).collect();
        let table: Vec<Vec<&str>> = programs::rows().map(|p| p.names.to_vec()).collect();
        assert_eq!(described, table);
        let cp = rows()
            .find(|r| r.names.contains(&"cp"))
            .map(|r| (r.family, r.operands));
        assert_eq!(
            cp,
            Some((
                "copies sources to a destination: the last operand is written (or sent to when remote), the others read",
                None
            ))
        );
    }
}
