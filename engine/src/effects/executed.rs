//! Files that run by themselves: shell start-up files, git hooks, `.envrc`, cron tables,
//! systemd units, `package.json` lifecycle scripts, editor tasks, launchd property lists,
//! Python start-up files (`.pth` files, `sitecustomize.py`, IPython and Jupyter start-up).
//!
//! In: an absolute path. Out: how the file keeps the commands that run from it ([`Runs`]), if
//! it is one; the commands of a cron table ([`cron_commands`]). A leaf: the content lens reads what such a file will run, the session memory
//! keeps the content of files written there.

/// How a file that runs keeps its commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Runs {
    /// The whole file is a shell script.
    Shell,
    /// A cron table: the command after the schedule (and the user, in system tables).
    Crontab { user_field: bool },
    /// A systemd unit: the values of its `Exec*=` lines.
    SystemdUnit,
    /// `package.json`: the lifecycle scripts npm runs on install.
    PackageJson,
    /// `.vscode/tasks.json`: tasks that run when the folder opens.
    EditorTasks,
    /// A launchd property list (`~/Library/LaunchAgents/*.plist`): its `ProgramArguments`
    /// (or `Program`), run at load.
    LaunchdPlist,
    /// Python code run when an interpreter or a notebook kernel starts: `sitecustomize.py`,
    /// `usercustomize.py`, IPython start-up files, Jupyter configuration files.
    Python,
    /// A `.pth` file of a `site-packages` folder: its lines that start with `import` are run
    /// by every interpreter of that environment (the `site` module's documentation).
    Pth,
}

/// Files that run by themselves, as case-insensitive globs over the absolute path.
const EXECUTED: &[(&str, Runs)] = &[
    ("**/.bashrc", Runs::Shell),
    ("**/.bash_profile", Runs::Shell),
    ("**/.bash_login", Runs::Shell),
    ("**/.bash_logout", Runs::Shell),
    ("**/.profile", Runs::Shell),
    ("**/.zshrc", Runs::Shell),
    ("**/.zshenv", Runs::Shell),
    ("**/.zprofile", Runs::Shell),
    ("**/.zlogin", Runs::Shell),
    ("**/.zlogout", Runs::Shell),
    ("**/.kshrc", Runs::Shell),
    ("**/.mkshrc", Runs::Shell),
    ("**/.config/fish/config.fish", Runs::Shell),
    ("**/.config/fish/conf.d/*.fish", Runs::Shell),
    ("/etc/profile", Runs::Shell),
    ("/etc/profile.d/*", Runs::Shell),
    ("/etc/bash.bashrc", Runs::Shell),
    ("/etc/bashrc", Runs::Shell),
    ("/etc/zshrc", Runs::Shell),
    ("/etc/zsh/*", Runs::Shell),
    ("/etc/rc.local", Runs::Shell),
    ("**/.envrc", Runs::Shell),
    ("**/.git/hooks/*", Runs::Shell),
    ("**/.husky/*", Runs::Shell),
    ("/etc/crontab", Runs::Crontab { user_field: true }),
    ("/etc/cron.d/*", Runs::Crontab { user_field: true }),
    ("/var/spool/cron/**", Runs::Crontab { user_field: false }),
    ("/etc/cron.hourly/*", Runs::Shell),
    ("/etc/cron.daily/*", Runs::Shell),
    ("/etc/cron.weekly/*", Runs::Shell),
    ("/etc/cron.monthly/*", Runs::Shell),
    ("**/systemd/**/*.service", Runs::SystemdUnit),
    ("**/package.json", Runs::PackageJson),
    ("**/.vscode/tasks.json", Runs::EditorTasks),
    ("**/library/launchagents/*.plist", Runs::LaunchdPlist),
    ("**/library/launchdaemons/*.plist", Runs::LaunchdPlist),
    ("**/sitecustomize.py", Runs::Python),
    ("**/usercustomize.py", Runs::Python),
    ("**/site-packages/*.pth", Runs::Pth),
    ("**/dist-packages/*.pth", Runs::Pth),
    ("**/.ipython/profile_*/startup/*.{py,ipy}", Runs::Python),
    ("**/.jupyter/jupyter_*config.py", Runs::Python),
    ("/etc/jupyter/jupyter_*config.py", Runs::Python),
];

/// How `path` runs, if it is a file that runs by itself.
pub(crate) fn runs_of(path: &str) -> Option<Runs> {
    let folded = path.to_lowercase();
    EXECUTED
        .iter()
        .find(|(g, _)| fast_glob::glob_match(g, &folded))
        .map(|(_, r)| *r)
}

/// Whether the file at the absolute `path` runs by itself (a start-up file, a git hook, a
/// cron table, a unit, …).
pub(crate) fn runs_by_itself(path: &str) -> bool {
    runs_of(path).is_some()
}

/// The command of every job line of a cron table (`user_field`: system tables name a user
/// before the command): after the five schedule fields or an `@reboot`-style nickname;
/// comments and `NAME=value` lines skipped.
pub(crate) fn cron_commands(content: &str, user_field: bool) -> Vec<String> {
    content
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        // `NAME=value` lines set the environment of the jobs.
        .filter(|l| {
            let first = l.split_whitespace().next().unwrap_or("");
            !first.contains('=') || first.starts_with('@')
        })
        .filter_map(|l| {
            let fields = if l.starts_with('@') { 1 } else { 5 };
            let skip = fields + usize::from(user_field);
            let mut rest = l;
            for _ in 0..skip {
                rest = rest.trim_start();
                let end = rest.find(char::is_whitespace)?;
                rest = &rest[end..];
            }
            let cmd = rest.trim();
            (!cmd.is_empty()).then(|| cmd.to_string())
        })
        .collect()
}
