//! Privilege: programs that run a command or a shell as another user (`sudo`, `doas`,
//! `pkexec`, `run0`, `su`), enter or create namespaces (`nsenter`, `unshare`), set file
//! capabilities (`setcap`), and start pods (`kubectl run|apply|create|debug`). What they grant
//! is read by the shell lens's privilege action; container runtimes (`docker run`) are rows of
//! [`super::cloud`] with the grant roles.
//!
//! Group membership (`usermod`, `useradd`, `gpasswd`, `adduser`, `addgroup`, `dseditgroup`)
//! is read by the same action: joining a group that holds root is a grant.
//!
//! Written from sudo(8), doas(1), pkexec(1), run0(1), su(1), runuser(1), nsenter(1),
//! unshare(1), setcap(8), `kubectl run|apply|debug --help`, usermod(8), useradd(8),
//! gpasswd(1), adduser(8) and dseditgroup(8).

use super::row::{Action, Program, ROW, Role, Switch};
use super::runtimes::{LUA_NAMES, PYTHON_NAMES};

/// The options of `sudo` that take a value, besides `-u`.
const SUDO_VALUED: &[&str] = &[
    "-g",
    "--group",
    "-C",
    "--close-from",
    "-h",
    "--host",
    "-p",
    "--prompt",
    "-U",
    "--other-user",
    "-r",
    "--role",
    "-t",
    "--type",
    "-D",
    "--chdir",
    "-T",
    "--command-timeout",
    "-R",
    "--chroot",
];

/// The options of `run0` that take a value, besides `-u`.
const RUN0_VALUED: &[&str] = &[
    "-g",
    "--group",
    "--nice",
    "-D",
    "--chdir",
    "--setenv",
    "--unit",
    "--property",
    "--description",
    "--slice",
    "--slice-inherit",
    "--machine",
    "--background",
    "--shell-prompt-prefix",
];

/// How the inline-code lens names, in a route's `via`, a call of code that runs a shell line
/// as root (AppleScript's `do shell script … with administrator privileges`, JavaScript for
/// Automation's `doShellScript(…, {administratorPrivileges: true})`): an escalation written in
/// code, judged as the escalation rows are.
pub(crate) const ADMIN_SHELL: &str = "do shell script with administrator privileges";

/// Whether a systemd-run(1) option starts the command later, from a timer, path or socket
/// unit (`--on-calendar=hourly`, `--on-active=30`, `--on-clock-change`, `--path-property=…`),
/// instead of now: every `--on-*` option is a timer's.
pub(crate) fn transient_timer(option: &str) -> bool {
    option.starts_with("--on-")
        || matches!(
            option,
            "--timer-property" | "--path-property" | "--socket-property"
        )
}

/// systemd-run(1)'s options that take a value (the program row's and the shell analyser's
/// wrapper row's).
pub(crate) const SYSTEMD_RUN_VALUED: &[&str] = &[
    "--uid",
    "-p",
    "--property",
    "-u",
    "--unit",
    "--description",
    "--slice",
    "-E",
    "--setenv",
    "--gid",
    "--nice",
    "-M",
    "--machine",
    "-H",
    "--host",
    "--service-type",
    "--working-directory",
    "-C",
    "--capsule",
    "--json",
    "--on-active",
    "--on-boot",
    "--on-startup",
    "--on-unit-active",
    "--on-unit-inactive",
    "--on-calendar",
    "--timer-property",
    "--path-property",
    "--socket-property",
];

/// The privilege rows, in the order they are tried.
pub(super) static ROWS: &[Program] = &[
    // `sudo -i`, `sudo -s`, `sudo -u bob -i`: the target user's shell; `sudo CMD` runs the
    // command (the shell analyser unwraps it: a shell run through sudo is judged as such).
    Program {
        names: &["sudo"],
        action: Action::Escalate { bare_shell: false },
        valued: SUDO_VALUED,
        options: &[("-u", Role::User), ("--user", Role::User)],
        switches: &[
            ("-i", Switch::RunsShell),
            ("--login", Switch::RunsShell),
            ("-s", Switch::RunsShell),
            ("--shell", Switch::RunsShell),
        ],
        options_end: true,
        ..ROW
    },
    Program {
        names: &["doas"],
        action: Action::Escalate { bare_shell: false },
        valued: &["-C"],
        options: &[("-u", Role::User)],
        switches: &[("-s", Switch::RunsShell)],
        options_end: true,
        ..ROW
    },
    // `gsudo CMD` (Windows) runs CMD elevated; with no command, or `-s`/`--system` and no
    // command, it starts an elevated shell (the current one).
    Program {
        names: &["gsudo"],
        action: Action::Escalate { bare_shell: true },
        valued: &["-i", "--integrity"],
        options: &[("-u", Role::User), ("--user", Role::User)],
        options_end: true,
        ..ROW
    },
    // `pkexec` and `run0` with no command start root's shell.
    Program {
        names: &["pkexec"],
        action: Action::Escalate { bare_shell: true },
        options: &[("--user", Role::User)],
        options_end: true,
        ..ROW
    },
    Program {
        names: &["run0"],
        action: Action::Escalate { bare_shell: true },
        valued: RUN0_VALUED,
        options: &[("-u", Role::User), ("--user", Role::User)],
        options_end: true,
        ..ROW
    },
    // `su [-] [USER]` starts USER's shell (root by default); `su -c CMD [USER]` runs CMD
    // through it (analysed as a line of its own).
    Program {
        names: &["su", "runuser"],
        action: Action::Escalate { bare_shell: true },
        valued: &[
            "-s",
            "--shell",
            "-g",
            "--group",
            "-G",
            "--supp-group",
            "-w",
            "--whitelist-environment",
        ],
        options: &[
            ("-c", Role::Shell),
            ("--command", Role::Shell),
            ("--session-command", Role::Shell),
            ("-u", Role::User),
            ("--user", Role::User),
        ],
        lead: &[Role::User],
        ..ROW
    },
    // `systemd-run [--uid=U] [-p User=U] [--pty] CMD` (systemd-run(1)): the command now, in a
    // transient unit ([`transient_unit`]); the shell analyser unwraps it.
    Program {
        names: &["systemd-run"],
        action: Action::TransientUnit,
        valued: SYSTEMD_RUN_VALUED,
        options_end: true,
        ..ROW
    },
    // `setpriv --reuid=0 --regid=0 --init-groups CMD` (setpriv(1)): the command as the user
    // and group given; with no user given it changes no user.
    Program {
        names: &["setpriv"],
        action: Action::Escalate { bare_shell: false },
        valued: &[
            "--regid",
            "--rgid",
            "--egid",
            "--groups",
            "--inh-caps",
            "--ambient-caps",
            "--bounding-set",
            "--securebits",
            "--pdeathsig",
            "--selinux-label",
            "--apparmor-profile",
            "--landlock-access",
            "--landlock-rule",
        ],
        options: &[
            ("--reuid", Role::User),
            ("--ruid", Role::User),
            ("--euid", Role::User),
        ],
        options_end: true,
        ..ROW
    },
    // `chroot DIR [CMD…]` (chroot(8)): only root may; with no command, or a shell given
    // nothing to run, root's shell in DIR.
    Program {
        names: &["chroot"],
        action: Action::Escalate { bare_shell: true },
        options: &[("--userspec", Role::User)],
        valued: &["--groups"],
        lead: &[Role::Ignore],
        options_end: true,
        ..ROW
    },
    // `mount [-t TYPE] [-o OPTS] [SOURCE] [DIR]`, `mount --bind OLD NEW`, `mount -o
    // remount,rw /`, `mount -a` (mount(8)); with no operand and no `-a` it lists the mounts.
    Program {
        names: &["mount"],
        action: Action::Mount,
        valued: &[
            "-t",
            "--types",
            "-o",
            "--options",
            "-O",
            "--test-opts",
            "-L",
            "--label",
            "-U",
            "--uuid",
            "-N",
            "--namespace",
            "--source",
            "--target",
            "--target-prefix",
            "-T",
            "--fstab",
            "--options-mode",
            "--options-source",
            "--map-users",
            "--map-groups",
        ],
        ..ROW
    },
    // `nsenter -t PID …`: a command in another process's namespaces (PID 1's are the host's).
    Program {
        names: &["nsenter"],
        action: Action::EnterNamespaces,
        valued: &["-S", "--setuid", "-G", "--setgid"],
        options: &[("-t", Role::Target), ("--target", Role::Target)],
        options_end: true,
        ..ROW
    },
    Program {
        names: &["unshare"],
        action: Action::Unshare,
        valued: &[
            "--map-user",
            "--map-group",
            "--map-users",
            "--map-groups",
            "-S",
            "--setuid",
            "-G",
            "--setgid",
            "-R",
            "--root",
            "-w",
            "--wd",
            "--propagation",
            "--setgroups",
        ],
        switches: &[
            ("-r", Switch::MapRoot),
            ("--map-root-user", Switch::MapRoot),
        ],
        options_end: true,
        ..ROW
    },
    Program {
        names: &["setcap"],
        action: Action::SetCapability,
        valued: &["-n"],
        ..ROW
    },
    // Pods: `kubectl run --privileged`, `--overrides='{…}'`, `kubectl patch -p '{…}'`, a
    // manifest fed on standard input (`kubectl apply -f - <<EOF`) or in a file, `kubectl debug
    // node/NAME` (host namespaces, the host's root at /host), `kubectl debug
    // --profile=sysadmin` (privileged).
    Program {
        names: &["kubectl", "oc"],
        subs: &[
            &["run"],
            &["apply"],
            &["create"],
            &["replace"],
            &["patch"],
            &["debug"],
        ],
        global: &[
            "-n",
            "--namespace",
            "--context",
            "--kubeconfig",
            "--cluster",
            "--user",
            "-s",
            "--server",
            "--as",
            "--as-group",
            "--token",
        ],
        action: Action::Pod,
        valued: &[
            "-n",
            "--namespace",
            "--context",
            "--kubeconfig",
            "--image",
            "--env",
            "--labels",
            "-l",
            "--port",
            "--restart",
            "--command",
            "-c",
            "--container",
            "--target",
            "--attach",
            "--image-pull-policy",
            "--copy-to",
            "-o",
            "--output",
            "--field-manager",
            "--dry-run",
            "--custom-profile",
            "--type",
        ],
        options: &[
            ("--overrides", Role::Manifest),
            ("-p", Role::Manifest),
            ("--patch", Role::Manifest),
            ("--patch-file", Role::ManifestFile),
            ("-f", Role::ManifestFile),
            ("--filename", Role::ManifestFile),
            ("--profile", Role::SecurityOpt),
        ],
        switches: &[("--privileged", Switch::Privileged)],
        ..ROW
    },
    // usermod(8): `-G GROUPS` (with `-a`, added to the user's groups; without, they replace
    // them: joined all the same) and `-g GROUP`; useradd(8) the same for a new user.
    Program {
        names: &["usermod", "useradd"],
        action: Action::JoinGroup,
        valued: USER_VALUED,
        options: &[
            ("-G", Role::Group),
            ("--groups", Role::Group),
            ("-g", Role::Group),
            ("--gid", Role::Group),
        ],
        ..ROW
    },
    // gpasswd(1): `-a USER GROUP` adds, `-M USER,… GROUP` sets the members, `-A USER,…
    // GROUP` the administrators; `-d USER GROUP` removes (no grant).
    Program {
        names: &["gpasswd"],
        action: Action::JoinGroup,
        valued: &[
            "-a",
            "--add",
            "-d",
            "--delete",
            "-M",
            "--members",
            "-A",
            "--administrators",
            "-Q",
            "--root",
        ],
        rest: Role::Group,
        ..ROW
    },
    // adduser(8) and addgroup(8) (Debian, BusyBox): `adduser USER GROUP` adds an existing
    // user to a group; `adduser --ingroup GROUP USER` and BusyBox `adduser -G GROUP USER`
    // make a user in it. dseditgroup(8) (macOS): `-o edit -a USER -t user GROUP`.
    Program {
        names: &["adduser", "addgroup"],
        action: Action::JoinGroup,
        valued: &[
            "--home",
            "--shell",
            "--uid",
            "--gid",
            "--firstuid",
            "--lastuid",
            "--gecos",
            "--conf",
            "--comment",
            "-h",
            "-g",
            "-s",
            "-k",
            "-u",
        ],
        options: &[("--ingroup", Role::Group), ("-G", Role::Group)],
        ..ROW
    },
    Program {
        names: &["dseditgroup"],
        action: Action::JoinGroup,
        valued: &[
            "-o", "-a", "-d", "-t", "-n", "-u", "-P", "-i", "-g", "-r", "-c", "-s", "-T", "-L",
            "-m",
        ],
        rest: Role::Group,
        ..ROW
    },
    // Windows accounts: net(1) `user NAME [PASS] /add`, `user NAME /active:yes`, `localgroup
    // GROUP NAME /add`, `group GROUP NAME /add` (Windows Commands reference; `net1` is the
    // same program). Switches are `/` words in any case, read by the action.
    Program {
        names: &["net", "net1"],
        action: Action::WindowsAccount,
        ..ROW
    },
];

/// Groups whose members hold root or read every secret without a password: the
/// administrators (`sudo`, `wheel`, `admin`, `root`), the log and shadow readers (`adm`,
/// `shadow`), raw disk and memory (`disk`, `kmem`).
pub(crate) const ADMIN_GROUPS: &[&str] = &[
    "sudo", "wheel", "admin", "root", "adm", "shadow", "disk", "kmem",
];

/// Groups whose daemon starts a privileged container or a VM with the host's disk for any
/// member (Docker's documentation: "The docker group grants root-level privileges").
pub(crate) const DAEMON_GROUPS: &[&str] = &["docker", "lxd", "lxc", "libvirt", "incus-admin"];

/// The options of `usermod` and `useradd` that take a value, besides the groups.
const USER_VALUED: &[&str] = &[
    "-c",
    "--comment",
    "-d",
    "--home",
    "-e",
    "--expiredate",
    "-f",
    "--inactive",
    "-k",
    "--skel",
    "-K",
    "--key",
    "-l",
    "--login",
    "-p",
    "--password",
    "-P",
    "--prefix",
    "-R",
    "--root",
    "-s",
    "--shell",
    "-u",
    "--uid",
    "-Z",
    "--selinux-user",
    "-v",
    "--add-subuids",
    "-V",
    "--del-subuids",
    "-w",
    "--add-subgids",
    "-W",
    "--del-subgids",
];

/// How a program run as root or another user hands out a shell of its own: the escape is the
/// program's (a `!sh` command, a shell window, a prompt), so running it through `sudo` is the
/// grant `sudo -i` is. Written from GTFOBins' "sudo" entries and each program's manual.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ShellEscape {
    /// Always: a terminal multiplexer or recorder starts a shell (`screen`, `tmux`,
    /// `script`), a pager or a debugger runs `!sh` (`less FILE`, `man man`, `gdb`).
    Always,
    /// An editor with no file to edit (`vim`: `:!sh`), or with editor commands on its line
    /// (`vim -c ':!sh'`, `vim +'!sh'`, `emacs --eval …`). Editing a named file is judged by
    /// the file (`sudo vim /etc/hosts`).
    Editor,
    /// An interpreter: its prompt when given no script and nothing on standard input
    /// (`python3`, `irb`, `node`), or inline code (`perl -e …`) or an interactive switch
    /// (`python3 -i`, `php -a`). A script or a module is judged by what it is (`python3 -m
    /// pip --version`).
    Interpreter,
    /// A report shown in a pager (`!sh`) when only its whole-log display options are given
    /// (`journalctl`, `journalctl -xe`, `systemctl status`); a narrowed report (`-u nginx -n
    /// 50`, `status nginx`) or `--no-pager` is not.
    Report,
    /// A command-line tool that pages with a switch (`git -p …`) or opens a manual (`git help
    /// …`).
    Paginated,
    /// `chroot DIR` with no command: the shell inside DIR (a command given is unwrapped and
    /// judged as such).
    Chroot,
}

/// One program's shell escape.
#[derive(Debug)]
pub(crate) struct Escape {
    /// The names it is called by.
    pub(crate) names: &'static [&'static str],
    /// How it hands out a shell.
    pub(crate) kind: ShellEscape,
    /// Options that give it commands or a prompt (`vim -c`, `python3 -i`, `git -p`); a long
    /// one may carry its value after `=`.
    pub(crate) commands: &'static [&'static str],
    /// Other options that take the next word as their value.
    pub(crate) valued: &'static [&'static str],
    /// [`ShellEscape::Report`]: the words that do not narrow the report;
    /// [`ShellEscape::Paginated`]: the subcommands that open a manual. Otherwise, words with
    /// which it only reports and starts nothing (`tmux ls`, `screen -ls`).
    pub(crate) words: &'static [&'static str],
}

/// vim(1) options that run a file of editor commands. The commands given on the line
/// (`-c`, `--cmd`, `+CMD`) are read by the program row's escape role, which finds a shell
/// escape among them (`-c ':!sh'`) and leaves `-c 'set ft=nginx'` alone.
const VIM_COMMANDS: &[&str] = &["-S", "-u", "-s", "-U"];

/// The programs that hand out a shell when run as another user.
pub(crate) static SHELL_ESCAPES: &[Escape] = &[
    Escape {
        names: &["screen", "byobu"],
        kind: ShellEscape::Always,
        commands: &[],
        valued: &[],
        words: &["-ls", "-list", "-wipe", "-v"],
    },
    Escape {
        names: &["tmux"],
        kind: ShellEscape::Always,
        commands: &[],
        valued: &[],
        words: &[
            "ls",
            "list-sessions",
            "list-windows",
            "kill-server",
            "kill-session",
            "has-session",
            "-V",
        ],
    },
    // script(1): `script -c CMD` records CMD instead of a shell.
    Escape {
        names: &["script"],
        kind: ShellEscape::Always,
        commands: &[],
        valued: &[],
        words: &["-c", "--command"],
    },
    Escape {
        names: &[
            "less", "more", "most", "pg", "man", "info", "pinfo", "ftp", "gdb", "lldb",
        ],
        kind: ShellEscape::Always,
        commands: &[],
        valued: &[],
        words: &[],
    },
    Escape {
        names: &[
            "vi",
            "vim",
            "vim.basic",
            "vim.tiny",
            "vim.nox",
            "view",
            "ex",
            "nvim",
            "gvim",
        ],
        kind: ShellEscape::Editor,
        commands: VIM_COMMANDS,
        valued: &[
            "-c", "--cmd", "-i", "-T", "-w", "-W", "-t", "-q", "-r", "--listen", "--server",
        ],
        words: &[],
    },
    Escape {
        names: &["emacs"],
        kind: ShellEscape::Editor,
        commands: &[
            "--eval",
            "-l",
            "--load",
            "-f",
            "--funcall",
            "--script",
            "-x",
        ],
        valued: &["-L", "--directory", "-t", "--terminal", "-d", "--display"],
        words: &[],
    },
    Escape {
        names: &["ed", "red"],
        kind: ShellEscape::Editor,
        commands: &[],
        valued: &["-p", "--prompt"],
        words: &[],
    },
    Escape {
        names: PYTHON_NAMES,
        kind: ShellEscape::Interpreter,
        commands: &["-i"],
        valued: &["-W", "-X", "--check-hash-based-pycs"],
        words: &[],
    },
    Escape {
        names: &["perl", "perl5"],
        kind: ShellEscape::Interpreter,
        commands: &["-d"],
        valued: &["-I", "-M", "-m", "-r", "-F"],
        words: &[],
    },
    Escape {
        names: LUA_NAMES,
        kind: ShellEscape::Interpreter,
        commands: &["-i"],
        valued: &["-l"],
        words: &[],
    },
    Escape {
        names: &["ruby", "irb", "pry", "tclsh", "wish", "expect"],
        kind: ShellEscape::Interpreter,
        commands: &[],
        valued: &["-I", "-r", "-E", "-F"],
        words: &[],
    },
    Escape {
        names: &["node", "nodejs", "ipython", "ipython3", "bpython"],
        kind: ShellEscape::Interpreter,
        commands: &["-i", "--interactive"],
        valued: &["-r", "--require", "--import"],
        words: &[],
    },
    Escape {
        names: &["php"],
        kind: ShellEscape::Interpreter,
        commands: &["-a", "--interactive"],
        valued: &["-c", "-d", "-z"],
        words: &[],
    },
    Escape {
        names: &["journalctl"],
        kind: ShellEscape::Report,
        commands: &[],
        valued: &[],
        words: &[
            "-x",
            "-e",
            "-xe",
            "-ex",
            "-b",
            "-a",
            "-r",
            "-k",
            "-m",
            "--catalog",
            "--pager-end",
            "--all",
            "--reverse",
            "--dmesg",
            "--boot",
            "--merge",
        ],
    },
    Escape {
        names: &["systemctl"],
        kind: ShellEscape::Report,
        commands: &[],
        valued: &[],
        words: &[
            "status",
            "list-units",
            "list-unit-files",
            "list-timers",
            "list-sockets",
            "list-jobs",
            "-a",
            "--all",
        ],
    },
    Escape {
        names: &["git"],
        kind: ShellEscape::Paginated,
        commands: &["-p", "--paginate"],
        valued: &["-C", "-c", "--git-dir", "--work-tree", "--namespace"],
        words: &["help"],
    },
    Escape {
        names: &["chroot"],
        kind: ShellEscape::Chroot,
        commands: &[],
        valued: &["--userspec", "--groups"],
        words: &[],
    },
];

/// The shell escape of a program, by its base name.
pub(crate) fn shell_escape(name: &str) -> Option<&'static Escape> {
    SHELL_ESCAPES.iter().find(|e| e.names.contains(&name))
}
