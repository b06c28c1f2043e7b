//! The effect model: the value types every lens produces and every consumer reads.
//!
//! In: nothing; this module imports no other effects module, so any lens can depend on it
//! without depending on another lens. Out: [`Effect`] (what a call does, [`What`], with the
//! [`Route`] it came from) collected in [`Effects`], and the values inside one: [`PathRef`],
//! [`Send`] with its [`BodySource`]s and [`Endpoint`], [`Grant`] with its [`GrantKind`], and
//! the agent-settings [`SettingsChange`].

use std::fmt;
use std::net::IpAddr;

use crate::policy::EffectKind;
use crate::shell::{Arg, SimpleCommand};

/// The lens an effect came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lens {
    /// A shell command line of a shell tool (Bash, Codex `shell` / `exec_command`, text
    /// typed into a shell session with `write_stdin`).
    Shell,
    /// A file tool (`Read`, `Write`, `Edit`, …) or a patch (`apply_patch`).
    File,
    /// A web tool (`WebFetch`, `WebSearch`).
    Web,
    /// An MCP tool's arguments (a command inside one is analysed by the shell lens but
    /// keeps this lens: the route is the MCP tool).
    Mcp,
}

/// Where an effect came from: the tool, where in its input, and the wrappers it went
/// through.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Route {
    /// The tool name of the call (`Bash`, `Read`, `mcp__filesystem__read_text_file`).
    pub tool: String,
    /// The lens that saw it (`None` only for an empty default).
    pub lens: Option<Lens>,
    /// Where in the tool input: a JSON pointer (`/path`, `/options/target`) for file tools and
    /// MCP arguments; empty for a shell command line.
    pub argument: String,
    /// For shell effects, the simple command as run (`cat .env`, `curl -d @x http://h`).
    pub command: Option<String>,
    /// Wrappers the command came through, outermost first (`sudo`, `bash -c`, `xargs`).
    pub via: Vec<String>,
}

impl fmt::Display for Route {
    /// `Bash: `cat .env` via sudo`, `mcp__fs__read_file, argument `path``, `Read`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.tool)?;
        if let Some(c) = &self.command {
            write!(f, ": `{c}`")?;
        } else if !self.argument.is_empty() {
            write!(f, ", argument `{}`", self.argument)?;
        }
        if !self.via.is_empty() {
            write!(f, " via {}", self.via.join(", "))?;
        }
        Ok(())
    }
}

/// A path as the call names it: the text after quote removal, whether part of it is only
/// known at run time, and the working directory it is relative to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathRef {
    /// The path as written (`~/.ssh/id_rsa`, `../x`, `$HOME/.env`, `file.txt`).
    pub text: String,
    /// Part of it comes from an unresolved expansion.
    pub dynamic: bool,
    /// The working directory a relative path is resolved against (`cd` tracked), if known.
    pub cwd: Option<String>,
}

impl PathRef {
    /// A literal path relative to `cwd`.
    pub fn new(text: impl Into<String>, cwd: Option<&str>) -> PathRef {
        PathRef {
            text: text.into(),
            dynamic: false,
            cwd: cwd.map(str::to_string),
        }
    }

    /// From a shell argument word.
    pub fn from_arg(a: &Arg, cwd: Option<&str>) -> PathRef {
        PathRef {
            text: a.text.clone(),
            dynamic: a.dynamic,
            cwd: cwd.map(str::to_string),
        }
    }
}

/// Where the body of a request comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BodySource {
    /// A file (`curl -d @file`, `--data-binary @file`, `-T file`, `scp file host:`).
    File(PathRef),
    /// An environment variable (`"$AWS_SECRET_ACCESS_KEY"` in a body).
    Env(String),
    /// The whole environment, every variable in it (`env | curl --data-binary @- …`,
    /// `json=dict(os.environ)`, `JSON.stringify(process.env)`): a test on variable names
    /// matches it, whatever the names.
    Environment,
    /// Literal text in the call.
    Literal,
    /// Standard input (`… | curl -d @- …`, `nc host port < x`).
    Stdin,
}

/// A network request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Send {
    /// The URL as written, when there is one (`https://api.example.com/x?token=…`).
    pub url: Option<String>,
    /// The parsed destination (`None` when it is only known at run time).
    pub endpoint: Option<Endpoint>,
    /// The method, upper case (`GET`, `POST`, `PUT`), when known.
    pub method: Option<String>,
    /// Where the body comes from (empty: no body).
    pub body: Vec<BodySource>,
    /// Part of the destination is only known at run time.
    pub dynamic: bool,
    /// What comes back is run as code: piped into a shell or interpreter (`curl … | sh`,
    /// `wget -O- … | python3`).
    pub runs_response: bool,
}

impl Send {
    /// Where the request goes as written: its URL, else its endpoint's host; `None` when that
    /// is known only at run time.
    pub(crate) fn destination(&self) -> Option<String> {
        self.url
            .clone()
            .or_else(|| self.endpoint.as_ref().map(|e| e.host.clone()))
    }
}

/// The kind of privilege or capability a call grants (`when.grants = { grant = [...] }`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GrantKind {
    /// An interactive shell as root or another user (`sudo -i`, `sudo su -`, `pkexec sh`,
    /// `doas -s`, `su postgres`).
    PrivilegedShell,
    /// A process in the host's (or another process's) namespaces: `nsenter -t 1 …`,
    /// `docker run --pid=host`, `kubectl debug node/…`, a pod with `hostPID`.
    HostNamespace,
    /// A container on the host's network (`--net=host`, `hostNetwork: true`).
    HostNetwork,
    /// A privileged container or pod (`--privileged`, `privileged: true`).
    PrivilegedContainer,
    /// A capability that reaches the host, or a confinement switched off
    /// (`--cap-add=SYS_ADMIN`, `--cap-add=ALL`, `--security-opt seccomp=unconfined`).
    Capability,
    /// A capability over the network stack (`--cap-add=NET_ADMIN`, `NET_RAW`).
    NetworkCapability,
    /// A host path bind-mounted into a container or pod (the path: `-v /:/host`,
    /// `--mount type=bind,source=/var/run/docker.sock,…`, `hostPath`).
    HostMount,
    /// A host device given to a container (the path: `--device /dev/sda`).
    Device,
    /// A set-uid or set-gid bit on a file (the path: `chmod 4755 f`, `chmod u+s f`,
    /// `install -m 4755 a b`).
    Setuid,
    /// File capabilities on an executable (the path: `setcap cap_net_raw+ep f`).
    FileCapability,
    /// Write access to a file for every user (the path): a world-writable mode (`chmod 777
    /// f`, `chmod o+w f`, `chmod a+rwx f`, `os.chmod(p, 0o666)`), or on Windows full, modify
    /// or write access granted to everyone or every user (`icacls PATH /grant Everyone:F`,
    /// `/grant:r *S-1-1-0:(OI)(CI)F`, `Users:(M)`).
    OpenAccess,
    /// Root in a new user namespace (`unshare -r`, `unshare --map-root-user`).
    UserNamespace,
    /// A folder served to the network, to anyone who can reach the machine (the path:
    /// `python3 -m http.server --directory ~`, `php -S 0.0.0.0:8000 -t ~`).
    ServedFolder,
    /// Membership of an administrators' group (`usermod -aG sudo me`, `gpasswd -a me
    /// wheel`, `adduser me adm`): the group is in the detail.
    AdminGroup,
    /// Membership of a group whose daemon starts privileged containers or VMs for its
    /// members (`usermod -aG docker me`, `adduser me lxd`): root through the daemon's socket.
    DaemonGroup,
    /// A local port published beyond the machine through a relay or a remote host (`ssh -R
    /// 8080:localhost:3000 host`, `ngrok http 3000`, `cloudflared tunnel --url …`,
    /// `tailscale funnel 3000`).
    PublishedPort,
    /// An administrator's role or policy in a cloud account or a cluster given to someone
    /// (`aws iam attach-user-policy … AdministratorAccess`, `gcloud … add-iam-policy-binding
    /// --role=roles/owner`, `kubectl create clusterrolebinding … --clusterrole=cluster-admin`):
    /// the role in the detail.
    AccountAdmin,
    /// New credentials minted for a cloud identity (`aws iam create-access-key`, `gcloud iam
    /// service-accounts keys create`, `az ad sp credential reset`).
    AccountCredentials,
    /// A file system mounted, bind-mounted or re-mounted over a path (the mount point: `mount
    /// /dev/sda1 /mnt`, `mount --bind / /tmp/x`, `mount -o remount,rw /`).
    Mount,
    /// A local account made, enabled or added to a local group on Windows (`net user NAME
    /// PASS /add`, `net localgroup administrators NAME /add`, `New-LocalUser`,
    /// `Add-LocalGroupMember`): a new login, or an administrator. The group is in the detail.
    LocalAccount,
    /// A program registered to start by itself on Windows: at logon (a registry `Run`,
    /// `RunOnce` or `Winlogon` value), on a schedule (`schtasks /create`,
    /// `Register-ScheduledTask`) or as a service (`sc create|config`, `New-Service`, a
    /// `Services` key).
    Autostart,
    /// A protection of the machine switched off or weakened on Windows: Microsoft Defender's
    /// policy or preferences (`DisableAntiSpyware`, `Set-MpPreference
    /// -DisableRealtimeMonitoring $true`, an exclusion), User Account Control (`EnableLUA`,
    /// `ConsentPromptBehaviorAdmin`), the firewall (its policy key, `netsh advfirewall set …
    /// state off`, `Set-NetFirewallProfile -Enabled False`), the LSA's protection of
    /// credentials (`RunAsPPL`, `DisableRestrictedAdmin`, WDigest). What is changed is in the
    /// detail.
    SecurityControl,
    /// The machine's network taken down: an interface switched off or deleted (`ip link set
    /// eth0 down`, `ifdown`, `nmcli networking off`, `netsh interface set interface … disable`,
    /// `Disable-NetAdapter`), its addresses or default route removed (`ip addr flush`, `ip
    /// route del default`), a radio blocked (`rfkill block`), a firewall set to drop everything
    /// going out (`ufw default deny outgoing`, `iptables -P OUTPUT DROP`). What goes down is in
    /// the detail.
    NetworkDown,
}

impl GrantKind {
    /// Every kind, in the order of the policy language's list.
    pub const ALL: &'static [GrantKind] = &[
        GrantKind::PrivilegedShell,
        GrantKind::HostNamespace,
        GrantKind::HostNetwork,
        GrantKind::PrivilegedContainer,
        GrantKind::Capability,
        GrantKind::NetworkCapability,
        GrantKind::HostMount,
        GrantKind::Device,
        GrantKind::Setuid,
        GrantKind::FileCapability,
        GrantKind::OpenAccess,
        GrantKind::UserNamespace,
        GrantKind::ServedFolder,
        GrantKind::AdminGroup,
        GrantKind::DaemonGroup,
        GrantKind::PublishedPort,
        GrantKind::AccountAdmin,
        GrantKind::AccountCredentials,
        GrantKind::Mount,
        GrantKind::LocalAccount,
        GrantKind::Autostart,
        GrantKind::SecurityControl,
        GrantKind::NetworkDown,
    ];

    /// Its name in the policy language (`grant = ["privileged-shell"]`).
    pub fn name(self) -> &'static str {
        match self {
            GrantKind::PrivilegedShell => "privileged-shell",
            GrantKind::HostNamespace => "host-namespace",
            GrantKind::HostNetwork => "host-network",
            GrantKind::PrivilegedContainer => "privileged-container",
            GrantKind::Capability => "capability",
            GrantKind::NetworkCapability => "network-capability",
            GrantKind::HostMount => "host-mount",
            GrantKind::Device => "device",
            GrantKind::Setuid => "setuid",
            GrantKind::FileCapability => "file-capability",
            GrantKind::OpenAccess => "open-access",
            GrantKind::UserNamespace => "user-namespace",
            GrantKind::ServedFolder => "served-folder",
            GrantKind::AdminGroup => "admin-group",
            GrantKind::DaemonGroup => "daemon-group",
            GrantKind::PublishedPort => "published-port",
            GrantKind::AccountAdmin => "account-admin",
            GrantKind::AccountCredentials => "account-credentials",
            GrantKind::Mount => "mount",
            GrantKind::LocalAccount => "local-account",
            GrantKind::Autostart => "autostart",
            GrantKind::SecurityControl => "security-control",
            GrantKind::NetworkDown => "network-down",
        }
    }
}

/// A privilege or capability a call grants.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    /// What kind.
    pub kind: GrantKind,
    /// The host path it is about, for a mount, a device, a set-uid bit or file capabilities.
    pub path: Option<PathRef>,
    /// What is granted, in words, naming the path when there is one (`a shell as root`,
    /// `the host's process namespace (--pid=host)`, `a bind mount of / into a container`).
    pub detail: String,
}

/// How a deleted path goes away: what a delete rule can excuse.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Gone {
    /// Removed: its content is lost as files (`rm -r`, `find -delete`, `tar --remove-files`,
    /// `zip -m`, `7z a -sdel`, `shutil.rmtree`).
    #[default]
    Removed,
    /// Moved: its files live on under a new name or in a new place (`mv`, `rsync
    /// --remove-source-files`, an MCP move, a patch's `*** Move to`).
    Moved,
    /// Made by an earlier command of the same line and missing now (`mkdir -p d/x && rm -rf
    /// d`): the line deletes only what it made, nothing that was there before the call.
    MadeOnLine,
}

/// What an effect does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum What {
    /// A program runs: the simple command (program, argv, wrapper path, working directory).
    Run(SimpleCommand),
    /// A path is read.
    Read(PathRef),
    /// A file's values are loaded into a process without being shown: the shell runs a
    /// dotenv file's assignments (`source .env`), a runtime or container gets it as its
    /// environment (`--env-file .env`).
    Load(PathRef),
    /// A path is written; `append` when it is only added to; `content` when the written data
    /// is visible in the call.
    Write {
        /// The path.
        path: PathRef,
        /// Only appended to (`>>`, `tee -a`).
        append: bool,
        /// The data written, when visible.
        content: Option<String>,
    },
    /// A path is deleted, emptied or moved away.
    Delete {
        /// The path.
        path: PathRef,
        /// Everything below it goes too.
        recursive: bool,
        /// How it goes: removed, moved to a new name, or only what the same line made.
        gone: Gone,
    },
    /// A network request.
    Send(Send),
    /// Processes are signalled or stopped.
    Signal {
        /// The targets as named (`sshd`, `1234`, `-1`, a unit name).
        targets: Vec<Arg>,
        /// The signal, when given (`9`, `KILL`, `stop`).
        signal: Option<String>,
        /// The targets are regular expressions over process names or command lines
        /// (`pkill -f 'seam.*'`, `killall -r`, a `pgrep` or a grep of a `ps` listing):
        /// each matches every process it could select.
        by_pattern: bool,
    },
    /// Permissions or ownership change.
    ChangePermission {
        /// The path.
        path: PathRef,
        /// The mode or owner as given (`777`, `u+s`, `root:root`).
        mode: Option<String>,
        /// Applied below it too (`-R`).
        recursive: bool,
    },
    /// A package is installed.
    Install {
        /// The package manager (`npm`, `pip`, `cargo`, `apt`).
        manager: String,
        /// The packages as named (may be URLs, paths or `git+…`).
        packages: Vec<Arg>,
        /// A registry / index / source other than the default, when given.
        source: Option<String>,
    },
    /// Cloud or infrastructure resources are destroyed by a CLI's operation (`aws ec2
    /// terminate-instances`, `gcloud compute instances delete`, `kubectl delete ns`,
    /// `terraform destroy`): the program table's command model.
    Destroy {
        /// The CLI (`aws`, `kubectl`).
        cli: String,
        /// The service or group path (`ec2`, `compute instances`, `namespace`), maybe empty.
        service: String,
        /// The operation (`terminate-instances`, `delete`, `destroy`).
        operation: String,
        /// The targets as named after the operation.
        targets: Vec<Arg>,
    },
    /// An agent's own settings change in a way that matters to the guard (blanket
    /// permission, approval switched off, seamguard's hook removed): see [`settings`](super::settings).
    Configure(SettingsChange),
    /// A privilege or capability is granted (see [`GrantKind`]).
    Grant(Grant),
    /// Part of the call could not be resolved.
    Unsure(String),
}

/// `lead` then the texts of `targets`, the empty ones left out (`svc web`, `aws ec2
/// terminate-instances i-1`).
pub(crate) fn named_words<'a>(lead: &[&'a str], targets: &'a [Arg]) -> Vec<&'a str> {
    lead.iter()
        .copied()
        .chain(targets.iter().map(|a| a.text.as_str()))
        .filter(|w| !w.is_empty())
        .collect()
}

/// One effect of a tool call with the route it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Effect {
    /// What it does.
    pub what: What,
    /// Where it came from.
    pub route: Route,
}

impl Effect {
    /// Its kind.
    pub fn kind(&self) -> EffectKind {
        match &self.what {
            What::Run(_) => EffectKind::Run,
            What::Read(_) => EffectKind::Read,
            What::Load(_) => EffectKind::Load,
            What::Write { .. } => EffectKind::Write,
            What::Delete { .. } => EffectKind::Delete,
            What::Send(_) => EffectKind::Send,
            What::Signal { .. } => EffectKind::Signal,
            What::ChangePermission { .. } => EffectKind::ChangePermission,
            What::Install { .. } => EffectKind::Install,
            What::Destroy { .. } => EffectKind::Destroy,
            What::Configure(_) => EffectKind::Configure,
            What::Grant(_) => EffectKind::Grant,
            What::Unsure(_) => EffectKind::Unsure,
        }
    }

    /// A write to a path known before the call runs: the path as written, the same path
    /// absolute (against the call's folder and `home`), whether it only appends, and the data
    /// written when the call shows it. `None` for another effect, or a path known only at run
    /// time.
    pub(crate) fn static_write(
        &self,
        home: &str,
    ) -> Option<(&PathRef, String, bool, Option<&str>)> {
        let What::Write {
            path,
            append,
            content,
        } = &self.what
        else {
            return None;
        };
        if path.dynamic {
            return None;
        }
        let abs = crate::paths::normalize(&path.text, path.cwd.as_deref(), home)?;
        Some((path, abs, *append, content.as_deref()))
    }

    /// The path it acts on (read, write, delete, change-permission).
    pub fn path(&self) -> Option<&PathRef> {
        match &self.what {
            What::Read(p)
            | What::Load(p)
            | What::Write { path: p, .. }
            | What::Delete { path: p, .. }
            | What::ChangePermission { path: p, .. } => Some(p),
            _ => None,
        }
    }
}

impl fmt::Display for Effect {
    /// `reads ~/.ssh/id_rsa (Bash: `cat ~/.ssh/id_rsa`)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.kind().verb();
        match &self.what {
            What::Run(c) => write!(f, "{v} `{}`", c.display_words())?,
            What::Read(p) | What::Load(p) => write!(f, "{v} {}", p.text)?,
            What::Write { path, append, .. } => write!(
                f,
                "{} {}",
                if *append { "appends to" } else { v },
                path.text
            )?,
            What::Delete {
                path, recursive, ..
            } => write!(
                f,
                "{v} {}{}",
                path.text,
                if *recursive { " recursively" } else { "" }
            )?,
            What::Send(s) => {
                let to = s
                    .destination()
                    .unwrap_or_else(|| "an address known only at run time".into());
                write!(f, "sends to {to}")?;
                for b in &s.body {
                    match b {
                        BodySource::File(p) => write!(f, " the file {}", p.text)?,
                        BodySource::Env(n) => write!(f, " the variable ${n}")?,
                        BodySource::Environment => f.write_str(" the whole environment")?,
                        BodySource::Stdin => f.write_str(" standard input")?,
                        BodySource::Literal => {}
                    }
                }
                if s.runs_response {
                    f.write_str(" and runs what comes back")?;
                }
            }
            What::Signal {
                targets, signal, ..
            } => {
                let t: Vec<&str> = targets.iter().map(|a| a.text.as_str()).collect();
                write!(f, "{v} {}", t.join(" "))?;
                if let Some(s) = signal {
                    write!(f, " ({s})")?;
                }
            }
            What::ChangePermission {
                path,
                mode,
                recursive,
            } => {
                write!(f, "{v} {}", path.text)?;
                if let Some(m) = mode {
                    write!(f, " to {m}")?;
                }
                if *recursive {
                    f.write_str(" recursively")?;
                }
            }
            What::Install {
                manager,
                packages,
                source,
            } => {
                let p: Vec<&str> = packages.iter().map(|a| a.text.as_str()).collect();
                write!(f, "{v} {} with {manager}", p.join(" "))?;
                if let Some(src) = source {
                    write!(f, " from {src}")?;
                }
            }
            What::Destroy {
                cli,
                service,
                operation,
                targets,
            } => {
                // `destroys svc web with `kubectl delete``.
                let words = named_words(&[service], targets);
                let what = if words.is_empty() {
                    "resources".to_string()
                } else {
                    words.join(" ")
                };
                write!(f, "{v} {what} with `{cli} {operation}`")?;
            }
            What::Configure(c) => write!(f, "{c}")?,
            What::Grant(g) => write!(f, "{v} {}", g.detail)?,
            What::Unsure(why) => write!(f, "{v}: {why}")?,
        }
        write!(f, " ({})", self.route)
    }
}

/// Every effect of one tool call, in the order the lenses found them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Effects {
    /// The effects.
    pub list: Vec<Effect>,
}

impl Effects {
    /// The effects of one kind.
    pub fn of(&self, kind: EffectKind) -> impl Iterator<Item = &Effect> {
        self.list.iter().filter(move |e| e.kind() == kind)
    }

    /// The first reason part of the call could not be resolved, if any.
    pub fn unsure(&self) -> Option<&str> {
        self.list.iter().find_map(|e| match &e.what {
            What::Unsure(w) => Some(w.as_str()),
            _ => None,
        })
    }

    /// Add an effect.
    pub fn push(&mut self, what: What, route: Route) {
        self.list.push(Effect { what, route });
    }
}

/// A parsed destination.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint {
    /// Lower-case scheme (`https`, `file`, `ssh`); `http` for a bare `host[:port][/path]`,
    /// `ssh` for scp-style `user@host:path`.
    pub scheme: String,
    /// Normalized host: lower case, IDNA (punycode), no trailing dot, IP literals in
    /// canonical form (IPv6 without brackets; an IPv4-mapped IPv6 address as its IPv4
    /// address). `s3://bucket` and `gs://bucket` name the storage service's virtual host
    /// (`bucket.s3.amazonaws.com`, `bucket.storage.googleapis.com`). Empty for a local
    /// `file://` URL.
    pub host: String,
    /// The port, explicit or the scheme's default.
    pub port: Option<u16>,
    /// The host as an IP address, when it is one (in any notation).
    pub ip: Option<IpAddr>,
    /// The query's parameter names, decoded, in order.
    pub query_keys: Vec<String>,
    /// The path (for `file://` URLs: the local path, percent-decoded; for scp-style
    /// addresses: the remote path as written).
    pub path: String,
    /// The user name of the userinfo (`user` in `https://user:pw@host/`), decoded.
    pub user: Option<String>,
    /// The userinfo carries a non-empty password.
    pub password: bool,
    /// The names of query parameters that look like secrets (`token`, `api_key`,
    /// `X-Amz-Signature`, …) and have a non-empty value, as written.
    pub secret_params: Vec<String>,
    /// A value shaped like a well-known credential anywhere in the URL (path, query value,
    /// fragment, host): its kind, e.g. `a GitHub token`. See [`token_kind`](super::url::token_kind).
    pub token: Option<&'static str>,
}

/// A class of IP address or host.
///
/// The classes are exclusive and tested in this order: metadata, loopback, link-local,
/// private, public. An IP is classed by its address; a name by what it is reserved for
/// (`localhost`, `*.internal`, …); any other name is `Public` (what it resolves to is only
/// known at run time).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IpClass {
    /// `127.0.0.0/8`, `0.0.0.0/8` (Linux connects `0.0.0.0` to the local host), `::1`, `::`;
    /// the names `localhost`, `*.localhost`, `localhost.localdomain`, `ip6-localhost`,
    /// `ip6-loopback`; the local side of a `file://` URL (empty host).
    Loopback,
    /// Every address that is not globally reachable and not one of the other classes:
    /// RFC 1918 (`10/8`, `172.16/12`, `192.168/16`), shared address space `100.64/10`,
    /// `192.0.0/24`, benchmarking `198.18/15`, documentation ranges, multicast, `240/4`,
    /// broadcast, `fc00::/7`, `fec0::/10`, `ff00::/8`, `2001:db8::/32`, `::/96`; and the
    /// names of local networks: `*.internal`, `*.local` (mDNS), `*.lan`, `*.home.arpa`,
    /// `*.localdomain`, `*.intranet`, `*.corp`, `*.svc.cluster.local`, and single-label
    /// names (`db`, `redis`: resolved by search domains or container networks, never on
    /// the public internet).
    Private,
    /// `169.254.0.0/16`, `fe80::/10` (other than the metadata addresses).
    LinkLocal,
    /// Cloud metadata endpoints: `169.254.169.254` (AWS, GCP, Azure, OCI, DigitalOcean…),
    /// `169.254.170.2` (ECS task metadata), `fd00:ec2::254` (AWS IPv6),
    /// `100.100.100.200` (Alibaba), `192.0.0.192` (OCI legacy), and the names
    /// `metadata.google.internal`, `metadata.goog`, `metadata`, `instance-data`,
    /// `instance-data.ec2.internal`.
    Metadata,
    /// Anything else.
    Public,
}

impl IpClass {
    /// The policy language's name of the class (`loopback`, `private`, `link-local`,
    /// `metadata`, `public`).
    pub fn name(self) -> &'static str {
        match self {
            IpClass::Loopback => "loopback",
            IpClass::Private => "private",
            IpClass::LinkLocal => "link-local",
            IpClass::Metadata => "metadata",
            IpClass::Public => "public",
        }
    }

    /// The class of a policy name ([`IpClass::name`]; `link_local` and `linklocal` too).
    pub fn from_name(s: &str) -> Option<IpClass> {
        match s.to_ascii_lowercase().as_str() {
            "loopback" | "localhost" => Some(IpClass::Loopback),
            "private" => Some(IpClass::Private),
            "link-local" | "link_local" | "linklocal" => Some(IpClass::LinkLocal),
            "metadata" => Some(IpClass::Metadata),
            "public" => Some(IpClass::Public),
            _ => None,
        }
    }
}

/// The agents whose settings the lens reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agent {
    /// Claude Code (`.claude/settings*.json`, managed settings).
    ClaudeCode,
    /// OpenAI Codex (`.codex/config.toml`, `hooks.json`, `requirements.toml`).
    Codex,
    /// Cursor (`.cursor/hooks.json`).
    Cursor,
    /// Gemini CLI (`.gemini/settings.json`, `/etc/gemini-cli/settings.json`).
    GeminiCli,
    /// GitHub Copilot CLI (`.github/hooks/*.json`, `~/.copilot/hooks/*.json`).
    CopilotCli,
}

impl Agent {
    /// The name policies use (`claude-code`, `codex`).
    pub fn name(self) -> &'static str {
        match self {
            Agent::ClaudeCode => "claude-code",
            Agent::Codex => "codex",
            Agent::Cursor => "cursor",
            Agent::GeminiCli => "gemini-cli",
            Agent::CopilotCli => "copilot-cli",
        }
    }
}

/// What a settings change does to the guard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Every command of a shell tool, or every tool, is allowed without asking.
    BlanketAllow,
    /// Approval is switched off (bypass-permissions mode, `approval_policy = "never"`, no
    /// sandbox).
    BypassApproval,
    /// seamguard's hook entry is removed, changed or switched off.
    GuardRemoved,
}

impl Change {
    /// Every change with its policy name, in the order `change = [...]` lists them.
    pub const NAMES: &'static [(&'static str, Change)] = &[
        ("blanket-allow", Change::BlanketAllow),
        ("bypass-approval", Change::BypassApproval),
        ("guard-removed", Change::GuardRemoved),
    ];

    /// The name policies use (`blanket-allow`, `bypass-approval`, `guard-removed`).
    pub fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(_, c)| *c == self)
            .map_or("", |(n, _)| n)
    }

    /// How reasons say it.
    pub(crate) fn phrase(self) -> &'static str {
        match self {
            Change::BlanketAllow => "grants blanket permission",
            Change::BypassApproval => "switches approval off",
            Change::GuardRemoved => "removes or changes seamguard's hook",
        }
    }
}

/// One change to an agent's settings that matters to the guard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsChange {
    /// The settings file (or hook script) as the call names it.
    pub file: PathRef,
    /// Whose settings.
    pub agent: Agent,
    /// What the change does.
    pub change: Change,
    /// The setting as changed (`` `Bash(*)` added to permissions.allow ``).
    pub detail: String,
}

impl fmt::Display for SettingsChange {
    /// `grants blanket permission in .claude/settings.json: `Bash(*)` added to permissions.allow`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} in {}: {}",
            self.change.phrase(),
            self.file.text,
            self.detail
        )
    }
}
