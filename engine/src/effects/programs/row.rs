//! The shape of a row: what an option value or an operand is ([`Role`]), the effect family of
//! a program ([`Action`]), the switches that change its operands, and the defaults every row
//! starts from.

use crate::effects::language::Language;

/// What an option value or an operand is to the effect model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// Nothing the effect model tracks (a pattern, a count, a name, a script's argument).
    Ignore,
    /// A stream editor's script (`sed '1i text'`, `sed -e 's/a/b/'`): with an in-place
    /// switch, the text its commands insert, append, change or substitute is the new content
    /// of the files it edits.
    EditScript,
    /// A path read.
    Read,
    /// The pattern a search prints the matches of (`grep PATTERN`, `rg -e PATTERN`).
    Pattern,
    /// A filter that narrows which files a search reads to a kind (`rg -t py`).
    Filter,
    /// A file loaded as environment values, not shown (`source .env`, `--env-file .env`).
    Load,
    /// A private key a program signs with (`ssh -i KEY`, `scp -i KEY`, `ssh-add KEY`): the key
    /// proves who connects, nothing of it is sent or shown, so it is no read. (The same key
    /// named as a file to copy or print is still read: `scp ~/.ssh/id_rsa host:`.)
    Identity,
    /// A file measured: its counts, size or metadata are printed, none of its content (`wc -l
    /// .env`, `stat .env`), so it is no read.
    Measured,
    /// A path written.
    Write,
    /// A path appended to.
    Append,
    /// A path deleted.
    Delete,
    /// A path whose permissions or owner change.
    Permission,
    /// The mode or owner a permission change sets.
    Mode,
    /// A URL (or `host:path` / `user@host`) a request goes to.
    Url,
    /// A request method (`-X POST`).
    Method,
    /// A request body (`-d @file`, `-d "$VAR"`, `--data-binary @-`).
    Data,
    /// A form field (`-F f=@file`).
    Form,
    /// URL-encoded request data: `name@file` and `@file` read a file
    /// (`--data-urlencode k@.env`).
    Urlencoded,
    /// A host (or proxy URL) a connection goes to (`curl -x proxy`, `ssh -J jump`,
    /// `openssl s_client -connect host:443`).
    Host,
    /// A path deleted whole, with everything below it: a device wiped (`mkfs /dev/sda1`), a
    /// folder removed by `rimraf DIR`.
    Wipe,
    /// A file uploaded as the body (`-T file`).
    BodyFile,
    /// A header, user or cookie sent with a request: sends the variables it names.
    Header,
    /// A package installed.
    Package,
    /// A registry, index or repository packages come from.
    Source,
    /// A signal sent.
    Signal,
    /// A process, process name or service signalled.
    Target,
    /// A glob that widens a search (`rg -g '*.env'`): read joined onto the search roots.
    Glob,
    /// A size; `0` truncates (`truncate -s 0`).
    Size,
    /// The destination folder of a copy or move (`cp -t DIR`).
    Dest,
    /// Shell text the program runs (`--pre CMD`, `-e PROG`).
    Shell,
    /// A bind mount `HOST:CONTAINER[:opts]` (`docker run -v ~/.ssh:/root/.ssh`): the host
    /// path is read and written.
    Mount,
    /// Code in a language the inline-code lens reads (`python3 -c CODE`, `node -e CODE`).
    Code(Language),
    /// The script a runtime runs, which may come from the network: a path (read), an
    /// `http(s)` URL it fetches and runs (`deno run https://…`, `bun https://…`), or a
    /// registry specifier it installs and runs (`deno run npm:cowsay`, `jsr:@scope/pkg`).
    Script,
    /// The user a command or shell runs as (`sudo -u postgres`, `su postgres`).
    User,
    /// A capability added to a container (`--cap-add SYS_ADMIN`).
    Capability,
    /// A security option of a container (`--security-opt seccomp=unconfined`).
    SecurityOpt,
    /// A host device given to a container (`--device /dev/sda`).
    Device,
    /// A namespace a container shares, the host's when the value is `host` (`--pid=host`).
    Namespace,
    /// The network a container joins, the host's when the value is `host` (`--net=host`).
    Network,
    /// A mount spec `type=bind,source=HOST,target=…` (`--mount`): a bind mount's host path
    /// is read and written, like [`Role::Mount`].
    MountSpec,
    /// A manifest or override as text (`kubectl run --overrides='{…}'`): what it grants is
    /// read from it (`privileged`, `hostPID`, `hostPath`).
    Manifest,
    /// A manifest file (`kubectl apply -f FILE`): `-` is standard input, read when it is a
    /// here-document known now.
    ManifestFile,
    /// A setting `KEY=VALUE` (or `KEY VALUE`) whose value runs as a shell line when its key
    /// is one that names a command: ssh(1) `-o ProxyCommand=CMD` / `LocalCommand` /
    /// `KnownHostsCommand`, tar(1) `--checkpoint-action=exec=CMD`; other keys are ignored.
    ShellSetting,
    /// A command in the program's own command language (vim/ex `-c CMD` and `+CMD`, less
    /// `+CMD`, gdb `-ex CMD`, sqlite3 dot-commands): only its shell escape runs a shell line
    /// (`!CMD`, `:!CMD`, `:%!CMD`, `:r !CMD`, gdb `shell CMD`, sqlite3 `.shell CMD` /
    /// `.system CMD`); other commands (`set ft=yaml`, `+42`, `bt`, `.tables`) run nothing.
    Escape,
    /// Groups a user joins, comma-separated (`usermod -G docker,wheel`, `gpasswd -a U GROUP`).
    Group,
    /// A remote port forward `[BIND:]PORT:HOST:HOSTPORT` or `[BIND:]PORT` (`ssh -R`): a local
    /// port published on the remote host.
    RemoteForward,
    /// The addresses a forwarded port listens on, comma-separated (`kubectl port-forward
    /// --address 0.0.0.0`): one beyond the loopback address publishes the port to the
    /// network this machine is on.
    ListenAddress,
}

/// The effect family of a program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Action {
    /// Its operands and option values are paths with the roles the row gives.
    Files,
    /// Sources to a destination (`cp`, `install`, `ln`, `scp`, `rsync`): the last operand is
    /// written (or sent to when remote), the others read; `moves` deletes the sources too.
    Copy {
        /// The sources go away (`mv`).
        moves: bool,
    },
    /// `docker cp SRC DEST`, `kubectl cp SRC DEST`: a `CONTAINER:PATH` (`[NS/]POD:PATH`)
    /// operand is a path in the container, read there when it is the source (as `docker exec
    /// CTR cat PATH` reads it); a host destination is written, a host source read. `-` is
    /// standard input or output.
    ContainerCopy,
    /// A network request to its URL operands and `Url` option values.
    Send,
    /// A connection to `host [port]` (`nc`, `telnet`) whose body is standard input.
    Connect,
    /// An HTTPie-style request: `[METHOD] URL [items]`.
    HttpItems,
    /// `socat ADDRESS ADDRESS`.
    Socat,
    /// Processes or services signalled.
    Signal,
    /// `service NAME ACTION`.
    Service,
    /// Permissions or ownership change.
    Permission,
    /// `chattr [-R] +i PATHS`: the mode looks like an option.
    Chattr,
    /// Packages installed; the manager is the program's name.
    Install,
    /// `find START… EXPRESSION`: the operands end at the expression.
    Find,
    /// Names looked up or probed (`dig`, `ping`): a `send` to each host-like operand.
    Resolve,
    /// Runs a command as another user (`sudo`, `doas`, `pkexec`, `run0`, `su`): a shell
    /// when a [`Switch::RunsShell`] is given with no command, or, with `bare_shell`, when no
    /// command is given at all (`pkexec`, `su`).
    Escalate {
        /// With no command it starts the user's shell.
        bare_shell: bool,
    },
    /// Runs a command now in a transient systemd unit (`systemd-run`): as root for the system
    /// manager unless `--uid` / `-p User=` names another user, as the caller with `--user` or
    /// `--scope`; a timer option schedules it instead. With a terminal (`--pty`, `--pipe`) a
    /// shell given nothing to run, or `--shell`, is an interactive shell as that user.
    TransientUnit,
    /// Enters another process's namespaces (`nsenter -t 1 -m -u -i -n -p`).
    EnterNamespaces,
    /// Runs a command in new namespaces (`unshare -r`): root in a new user namespace with
    /// [`Switch::MapRoot`].
    Unshare,
    /// Sets file capabilities: `setcap CAPS FILE [CAPS FILE…]` (`-r` removes them).
    SetCapability,
    /// A pod or a debugging container (`kubectl run`, `kubectl apply -f -`,
    /// `kubectl debug node/…`): what its flags, overrides and manifest grant.
    Pod,
    /// Adds a user to groups (`usermod -aG`, `gpasswd -a`, `adduser USER GROUP`): a grant
    /// when a group holds root.
    JoinGroup,
    /// Publishes a local port through a relay (`ngrok http 3000`, `cloudflared tunnel --url`,
    /// `lt --port`, `bore local`, `tailscale funnel`).
    Tunnel,
    /// Mounts a file system over a path (`mount DEV DIR`, `mount --bind OLD NEW`, `mount -o
    /// remount,rw /`): a grant naming the mount point; with no operand it lists the mounts.
    Mount,
    /// A Windows transfer tool (`certutil -urlcache -f URL FILE`, `bitsadmin /transfer JOB
    /// URL FILE`): a request to each URL operand, the local file written (or read and sent
    /// with `/upload`).
    Transfer,
    /// A secret scanner (`trufflehog filesystem DIR`, `gitleaks dir -v DIR`, `gitleaks detect
    /// --no-git -v`): the values it finds are printed, so a scan of the files below a folder
    /// that may hold secret files reads them; a scan of git history or one that prints only a
    /// count reads none.
    SecretScan,
    /// A Windows account tool (`net user NAME PASS /add`, `net localgroup GROUP NAME /add`,
    /// `net user NAME /active:yes`): a `local-account` grant; listings (`net user`, `net
    /// localgroup administrators`) and other verbs (`net use`) grant nothing. Switches are
    /// words after `/`, in any case.
    WindowsAccount,
    /// A Windows start-up tool (`schtasks /create`, `sc create|config`): an `autostart`
    /// grant; queries (`schtasks /query`, `sc query`) grant nothing.
    Autostart,
    /// The Windows registry tool (`reg add|delete|copy|restore|load KEY`): a start-up key
    /// written (`Run`, `RunOnce`, `Winlogon`, `Services`) is an `autostart` grant, a key that
    /// holds a protection of the machine written or deleted (Defender, UAC, the firewall
    /// policy, LSA) a `security-control` grant; `reg query` and `reg export` grant nothing.
    WindowsRegistry,
    /// The Windows firewall tool (`netsh advfirewall set PROFILE state off`, `netsh firewall
    /// set opmode disable`): a `security-control` grant; `netsh advfirewall show` and rules
    /// added grant nothing.
    Firewall,
    /// A Windows protection tool: bcdedit(1) `/set [{ID}] SETTING VALUE` of a setting that
    /// switches off recovery, boot-failure checks, driver signing or early-launch
    /// anti-malware (`recoveryenabled no`, `bootstatuspolicy ignoreallfailures`), wevtutil(1)
    /// `cl|clear-log LOG` (an audit log emptied) or `sl LOG /e:false` (a log switched off): a
    /// `security-control` grant; `bcdedit /enum` and `wevtutil qe|el|gl` grant nothing.
    WindowsProtection,
    /// A tool that takes the machine's network down (ip(8) `link set DEV down`, `route del
    /// default`, ifconfig(8) `DEV down`, ifdown(8), nmcli(1) `networking off`, rfkill(8)
    /// `block`, ufw(8) `default deny outgoing`, iptables(8) `-P OUTPUT DROP`): a
    /// `network-down` grant; listings and bringing things up grant nothing.
    NetworkDown,
    /// A Windows permission tool: icacls(1) `PATH /grant|/deny|/remove|/setowner|/reset|
    /// /inheritance:…|/restore …` (with `/t`, below the path too) and takeown(1) `/f PATH [/r]`:
    /// a change of the path's permissions or owner; `icacls PATH` alone lists them.
    WindowsPermission,
    /// runas(1) `[/user:NAME] PROGRAM`: a command line run as another user, read as a cmd.exe
    /// line; a shell given nothing to run (`runas /user:Administrator cmd`) is a shell as that
    /// user.
    RunAs,
    /// mshta(1) `URL|vbscript:CODE|javascript:CODE|FILE`: an HTML application run. A URL is
    /// fetched and run, inline script code is not read here (unsure), a local file is read.
    HtmlApplication,
    /// Uploads a package, a build or an image to a registry ([`programs::publish`](super::publish)):
    /// the artifacts named (`Role::BodyFile` operands), else the project folder, sent to the
    /// registry a `Role::Source` option names or else the row's; a [`Switch::DryRun`] sends
    /// nothing.
    Publish {
        /// Where it uploads when no option names a registry.
        registry: Registry,
        /// For a build tool without subcommand rows (`mvn`, `gradle`): the goals or tasks of
        /// which one publishes (`deploy`; a `*` stands for any text, `publish*Repository`);
        /// empty: the row's subcommand publishes.
        goals: &'static [&'static str],
        /// The switches that together make the command a publish (`gh repo create --public
        /// --push`: a private repository, or one created without the push, publishes
        /// nothing); empty: the row's subcommand always publishes.
        needs: &'static [Switch],
    },
}

/// Where a publisher uploads when no option names a registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Registry {
    /// A public registry's upload host (`registry.npmjs.org`, `crates.io`, `upload.pypi.org`).
    Host(&'static str),
    /// The registry an image reference names before its first `/` (`ghcr.io/o/app`,
    /// `localhost:5000/app`), Docker Hub when it names none (`app:1`, `library/app`).
    Image,
    /// The repository the build's own configuration names (`mvn deploy`: the POM's
    /// `distributionManagement`; `gradle publish`: the build script's repositories): known
    /// only when the build runs.
    Build,
}

/// A switch that changes what a program's operands are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Switch {
    /// Applies below the paths too (`-r`, `-R`, `--recursive`).
    Recursive,
    /// Appends instead of writing (`tee -a`).
    Append,
    /// Edits the file operands in place (`sed -i`, `perl -i`); consumes the rest of a short
    /// bundle (`-i.bak`).
    InPlace,
    /// Deletes what it acts on (`find -delete`, `rsync --delete`, `shred -u`).
    Delete,
    /// Deletes its inputs once they are stored in the archive (`tar --remove-files`,
    /// `zip -m`, `7z a -sdel`): each input is deleted, folders with what they hold.
    RemovesInputs,
    /// Sends the data in the query instead of a body (`curl -G`).
    Get,
    /// Every operand is created (`install -d`, `mkdir`).
    AllWritten,
    /// Selects the install operation (`pacman -S`, `pacman -U`).
    Operation,
    /// Saves each URL to the file its path ends in (`curl -O`).
    RemoteName,
    /// The remaining operands are arguments, not files (`jq --args`).
    ArgsFollow,
    /// The script is standard input and the operands are its arguments (`bash -s -- --yes`).
    StdinScript,
    /// Only shows what it would do (`git clean -n`, `--dry-run`): nothing is deleted.
    DryRun,
    /// Starts the target user's shell (`sudo -i`, `sudo -s`, `doas -s`).
    RunsShell,
    /// A privileged container (`--privileged`).
    Privileged,
    /// Maps the caller to root in a new user namespace (`unshare -r`).
    MapRoot,
    /// A search reads hidden files too (`rg --hidden`, `rg -.`, `git grep --no-index`).
    Hidden,
    /// A search reads the files its ignore files leave out (`rg --no-ignore`).
    NoIgnore,
    /// `rg -u`: once, [`Switch::NoIgnore`]; twice (`-uu`), [`Switch::Hidden`] too.
    Unrestricted,
    /// A search prints only names or counts, not the lines it matches (`grep -l`, `-c`,
    /// `-q`).
    NamesOnly,
    /// A search prints the lines that do NOT match (`grep -v`).
    Invert,
    /// A search ignores case (`grep -i`).
    IgnoreCase,
    /// Tests what it made, running the test command it is given (`zip -T -TT CMD`).
    Test,
    /// What it creates is readable by anyone (`gh repo create --public`).
    Public,
    /// Pushes the project's history to what it creates (`gh repo create --push`).
    Push,
}

/// What a search program reaches below its roots (`grep -r`, `rg`, `git grep`): with a
/// pattern that looks for secret values, or with none that narrows, it prints the secret files
/// it reaches (`.env` below the project root).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Search {
    /// It reads hidden files (`.env`) by default (`grep -r`); otherwise only with
    /// [`Switch::Hidden`] or `-uu` (`rg`, `ag`, `git grep`).
    pub(crate) hidden: bool,
    /// It only walks folders with [`Switch::Recursive`] (`grep -r`); otherwise always.
    pub(crate) needs_recursive: bool,
    /// With no path it searches the working directory (`rg KEY`, `git grep KEY`).
    pub(crate) cwd: bool,
}

/// Which operand the program falls back to when none is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fallback {
    /// None: the program reads standard input.
    None,
    /// The working directory (`rg KEY`, `git clean`).
    Cwd,
    /// The working directory when recursive (`grep -r KEY`).
    CwdIfRecursive,
}

/// One program's command line, as data.
#[derive(Debug)]
pub(crate) struct Program {
    /// The names it is called by.
    pub(crate) names: &'static [&'static str],
    /// The subcommand words this row applies to (`["pip", "install"]` for `uv pip install`),
    /// any of `subs`; empty: any command line of the program.
    pub(crate) subs: &'static [&'static [&'static str]],
    /// Options before the subcommand that take a value (`git -C DIR`).
    pub(crate) global: &'static [&'static str],
    /// The effect family.
    pub(crate) action: Action,
    /// Options that take a value the effect model ignores.
    pub(crate) valued: &'static [&'static str],
    /// Options that take a value with a role.
    pub(crate) options: &'static [(&'static str, Role)],
    /// Options that take two values, the second with a role (`jq --rawfile NAME FILE`).
    pub(crate) pairs: &'static [(&'static str, Role)],
    /// Switches that change the meaning of the operands.
    pub(crate) switches: &'static [(&'static str, Switch)],
    /// The roles of the leading operands (a pattern, a script, a mode).
    pub(crate) lead: &'static [Role],
    /// Options that give the leading operands instead (`grep -e PAT`, `sed -f FILE`).
    pub(crate) lead_options: &'static [&'static str],
    /// The role of the other operands.
    pub(crate) rest: Role,
    /// The role of the other operands when a `lead_options` option gave the lead (`perl -ne
    /// CODE FILES` reads FILES; `perl SCRIPT ARGS` does not); `None`: `rest`.
    pub(crate) rest_given: Option<Role>,
    /// `key=value` operands with a role (`dd if=… of=…`).
    pub(crate) assigns: &'static [(&'static str, Role)],
    /// Options spelled with one dash and a whole word (`find -delete`, `-fprint`).
    pub(crate) word_options: bool,
    /// What it operates on when given no operand.
    pub(crate) fallback: Fallback,
    /// Its options end at the first operand: the words after it are the command it runs
    /// (`sudo -u root CMD -l`: `-l` is the command's).
    pub(crate) options_end: bool,
    /// A search program: what it reaches below its roots.
    pub(crate) search: Option<Search>,
    /// The role of a `+VALUE` word (`vim +CMD`, `less +CMD`), read as an option's value;
    /// [`Role::Ignore`]: a `+` word is an operand like any other.
    pub(crate) plus: Role,
    /// The switch without which the shell text of its options does not run (`zip -TT CMD`
    /// runs CMD only with `-T`); `None`: it always runs.
    pub(crate) scripts_need: Option<Switch>,
}

impl Program {
    /// Whether some option value or operand of the row has `role` (an option, a pair, a
    /// `key=value` operand, a leading or other operand, a `+` word): a role no word can take
    /// needs no reading after the words are sorted.
    pub(crate) fn gives(&self, role: Role) -> bool {
        self.options
            .iter()
            .chain(self.pairs)
            .chain(self.assigns)
            .any(|(_, r)| *r == role)
            || self.lead.contains(&role)
            || self.rest == role
            || self.rest_given == Some(role)
            || self.plus == role
    }
}

/// The defaults every row starts from.
pub(super) const ROW: Program = Program {
    names: &[],
    subs: &[],
    global: &[],
    action: Action::Files,
    valued: &[],
    options: &[],
    pairs: &[],
    switches: &[],
    lead: &[],
    lead_options: &[],
    rest: Role::Ignore,
    rest_given: None,
    assigns: &[],
    word_options: false,
    fallback: Fallback::None,
    options_end: false,
    search: None,
    plus: Role::Ignore,
    scripts_need: None,
};

/// `-r`, `-R`, `--recursive`.
pub(super) const RECURSIVE: &[(&str, Switch)] = &[
    ("-r", Switch::Recursive),
    ("-R", Switch::Recursive),
    ("--recursive", Switch::Recursive),
];
