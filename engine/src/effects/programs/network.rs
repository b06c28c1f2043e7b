//! Senders: HTTP clients, raw connections (`nc`, `socat`), remote shells and their options.

use super::globals::KUBECTL;
use super::row::{Action, Program, ROW, Role, Switch};

/// `curl`'s options that take a value the effect model ignores.
const CURL_VALUED: &[&str] = &[
    "-m",
    "--max-time",
    "--connect-timeout",
    "-w",
    "--write-out",
    "-r",
    "--range",
    "-Y",
    "-y",
    "-z",
    "--retry",
    "--retry-delay",
    "--retry-max-time",
    "--limit-rate",
    "-C",
    "--continue-at",
    "-P",
    "--ftp-port",
    "--resolve",
    "--connect-to",
    "--interface",
    "--dns-servers",
    "-U",
    "--proxy-user",
    "-Q",
    "--quote",
    "--max-redirs",
    "--output-dir",
    "--ciphers",
    "--tls-max",
    "--proto",
    "--proto-redir",
    "--cert-type",
    "--key-type",
    "--pass",
    "--unix-socket",
    "--abstract-unix-socket",
    "--aws-sigv4",
    "--variable",
    "--expect100-timeout",
    "--happy-eyeballs-timeout-ms",
    "--keepalive-time",
    "--local-port",
    "--socks5",
    "--socks5-hostname",
    "--socks4",
    "--socks4a",
    "--noproxy",
    "--mail-from",
    "--mail-rcpt",
];

/// `curl`'s options whose value has a role.
const CURL_OPTIONS: &[(&str, Role)] = &[
    ("-X", Role::Method),
    ("--request", Role::Method),
    ("-d", Role::Data),
    ("--data", Role::Data),
    ("--data-ascii", Role::Data),
    ("--data-binary", Role::Data),
    ("--data-raw", Role::Data),
    ("--data-urlencode", Role::Urlencoded),
    ("--json", Role::Data),
    ("-F", Role::Form),
    ("--form", Role::Form),
    ("--form-string", Role::Form),
    ("-T", Role::BodyFile),
    ("--upload-file", Role::BodyFile),
    ("-H", Role::Header),
    ("--header", Role::Header),
    ("-u", Role::Header),
    ("--user", Role::Header),
    ("-b", Role::Header),
    ("--cookie", Role::Header),
    ("-A", Role::Header),
    ("--user-agent", Role::Header),
    ("-e", Role::Header),
    ("--referer", Role::Header),
    ("--oauth2-bearer", Role::Header),
    ("-o", Role::Write),
    ("--output", Role::Write),
    ("-c", Role::Write),
    ("--cookie-jar", Role::Write),
    ("-D", Role::Write),
    ("--dump-header", Role::Write),
    ("--trace", Role::Write),
    ("--trace-ascii", Role::Write),
    ("--stderr", Role::Write),
    ("--libcurl", Role::Write),
    ("-K", Role::Read),
    ("--config", Role::Read),
    ("-E", Role::Read),
    ("--cert", Role::Read),
    ("--key", Role::Read),
    ("--cacert", Role::Read),
    ("--capath", Role::Read),
    ("--netrc-file", Role::Read),
    ("--url", Role::Url),
    ("-x", Role::Host),
    ("--proxy", Role::Host),
    ("--preproxy", Role::Host),
];

/// `wget`'s options that take a value the effect model ignores.
const WGET_VALUED: &[&str] = &[
    "-P",
    "--directory-prefix",
    "-U",
    "--user-agent",
    "-t",
    "--tries",
    "-T",
    "--timeout",
    "-e",
    "--execute",
    "-l",
    "--level",
    "-w",
    "--wait",
    "-Q",
    "--quota",
    "-A",
    "--accept",
    "-R",
    "--reject",
    "-D",
    "--domains",
    "--limit-rate",
    "--bind-address",
    "--referer",
];

/// `wget`'s options whose value has a role.
const WGET_OPTIONS: &[(&str, Role)] = &[
    ("-O", Role::Write),
    ("--output-document", Role::Write),
    ("-o", Role::Write),
    ("--output-file", Role::Write),
    ("-a", Role::Append),
    ("--append-output", Role::Append),
    ("--save-cookies", Role::Write),
    ("--load-cookies", Role::Read),
    ("-i", Role::Read),
    ("--input-file", Role::Read),
    ("--post-data", Role::Data),
    ("--body-data", Role::Data),
    ("--post-file", Role::BodyFile),
    ("--body-file", Role::BodyFile),
    ("--method", Role::Method),
    ("--header", Role::Header),
    ("--user", Role::Header),
    ("--password", Role::Header),
    ("--http-user", Role::Header),
    ("--http-password", Role::Header),
    ("--certificate", Role::Read),
    ("--private-key", Role::Read),
    ("--ca-certificate", Role::Read),
];

/// `ssh`'s options that take a value the effect model ignores.
const SSH_VALUED: &[&str] = &[
    "-p", "-l", "-o", "-L", "-R", "-D", "-b", "-c", "-e", "-I", "-m", "-O", "-Q", "-S", "-W", "-w",
    "-B", "-P",
];

/// `ssh` / `scp` / `sftp` options that name a file: `-i` the identity signed with (used, not
/// read), `-F` a configuration read.
pub(super) const SSH_OPTIONS: &[(&str, Role)] = &[
    ("-i", Role::Identity),
    ("-F", Role::Read),
    ("-E", Role::Write),
    ("-J", Role::Host),
    ("-o", Role::ShellSetting),
];

/// The network rows, in the order they are tried.
/// Options of `gh` issue, pull request and release commands that take a value the effect
/// model ignores.
const GH_VALUED: &[&str] = &[
    "-t",
    "--title",
    "-b",
    "--body",
    "-n",
    "--notes",
    "-a",
    "--assignee",
    "-l",
    "--label",
    "-m",
    "--milestone",
    "-p",
    "--project",
    "-R",
    "--repo",
    "-B",
    "--base",
    "-H",
    "--head",
    "-T",
    "--template",
    "-r",
    "--reviewer",
    "--target",
    "--discussion-category",
    "--notes-start-tag",
    "-d",
    "--desc",
    "--description",
    "--add-label",
    "--remove-label",
    "--add-assignee",
    "--remove-assignee",
    "--add-reviewer",
    "--remove-reviewer",
    "--add-project",
    "--remove-project",
    "--recover",
];

pub(super) static ROWS: &[Program] = &[
    // `gh api ENDPOINT`: a request to the GitHub API; `-F field=@file` reads the field's
    // value from the file and `--input FILE` sends the file as the body (gh-api(1)); `-f`
    // values are literal.
    Program {
        names: &["gh"],
        subs: &[&["api"]],
        action: Action::Send,
        valued: &[
            "-f",
            "--raw-field",
            "-q",
            "--jq",
            "-t",
            "--template",
            "-p",
            "--preview",
            "--cache",
        ],
        options: &[
            ("-F", Role::Form),
            ("--field", Role::Form),
            ("--input", Role::BodyFile),
            ("-X", Role::Method),
            ("--method", Role::Method),
            ("-H", Role::Header),
            ("--header", Role::Header),
            ("--hostname", Role::Host),
        ],
        lead: &[Role::Ignore],
        ..ROW
    },
    // `gh issue|pr create --body-file FILE` (`-F FILE`; `-` is standard input): the file is
    // the text posted.
    Program {
        names: &["gh"],
        subs: &[
            &["issue", "create"],
            &["issue", "new"],
            &["issue", "comment"],
            &["issue", "edit"],
            &["pr", "create"],
            &["pr", "new"],
            &["pr", "comment"],
            &["pr", "edit"],
            &["pr", "review"],
        ],
        action: Action::Send,
        valued: GH_VALUED,
        options: &[("-F", Role::BodyFile), ("--body-file", Role::BodyFile)],
        ..ROW
    },
    // `gh release create|upload TAG FILES…`: the files are uploaded as assets, the notes
    // file posted (`-F`, `--notes-file`).
    Program {
        names: &["gh"],
        subs: &[
            &["release", "create"],
            &["release", "upload"],
            &["release", "edit"],
        ],
        action: Action::Send,
        valued: GH_VALUED,
        options: &[("-F", Role::BodyFile), ("--notes-file", Role::BodyFile)],
        lead: &[Role::Ignore],
        rest: Role::BodyFile,
        ..ROW
    },
    // `gh gist create FILES…` (`-` is standard input).
    Program {
        names: &["gh"],
        subs: &[&["gist", "create"], &["gist", "new"], &["gist", "edit"]],
        action: Action::Send,
        valued: &["-d", "--desc", "-f", "--filename", "-a", "--add"],
        rest: Role::BodyFile,
        ..ROW
    },
    // Windows transfer tools, read by their own action (options spelled `-word` or `/word`,
    // any case): certutil(1) `-urlcache -split -f URL [FILE]`, `-verifyctl -f URL`;
    // bitsadmin `/transfer JOB [/download|/upload] [/priority P] URL FILE`.
    Program {
        names: &["certutil", "bitsadmin"],
        action: Action::Transfer,
        word_options: true,
        ..ROW
    },
    // Relay transfers: the files named go to a relay server for another machine to fetch
    // (croc(1) `croc send FILE…`, magic-wormhole `wormhole send FILE…`, ffsend `ffsend upload
    // FILE…`); the relay is the default one unless named (`--relay`, `--relay-url`, `--host`).
    Program {
        names: &["croc"],
        subs: &[&["send"]],
        action: Action::Send,
        valued: &[
            "--code",
            "-c",
            "--pass",
            "--hash",
            "--text",
            "--transfers",
            "--port",
            "--ports",
            "--socks5",
            "--connect",
            "--exclude",
            "--throttleUpload",
            "--relay6",
        ],
        options: &[("--relay", Role::Host)],
        rest: Role::BodyFile,
        ..ROW
    },
    Program {
        names: &["wormhole"],
        subs: &[&["send"], &["tx"]],
        action: Action::Send,
        valued: &[
            "--code",
            "-c",
            "--code-length",
            "--text",
            "--appid",
            "--transit-helper",
        ],
        options: &[("--relay-url", Role::Host)],
        rest: Role::BodyFile,
        ..ROW
    },
    Program {
        names: &["ffsend"],
        subs: &[&["upload"], &["up"], &["u"]],
        action: Action::Send,
        valued: &[
            "--name",
            "-n",
            "--password",
            "-p",
            "--downloads",
            "-d",
            "--expiry",
            "-e",
            "--archive-format",
        ],
        options: &[("--host", Role::Host), ("-H", Role::Host)],
        rest: Role::BodyFile,
        ..ROW
    },
    // Senders.
    Program {
        names: &["curl", "curlie"],
        action: Action::Send,
        valued: CURL_VALUED,
        options: CURL_OPTIONS,
        switches: &[
            ("-G", Switch::Get),
            ("--get", Switch::Get),
            ("-O", Switch::RemoteName),
            ("--remote-name", Switch::RemoteName),
            ("--remote-name-all", Switch::RemoteName),
        ],
        rest: Role::Url,
        ..ROW
    },
    Program {
        names: &["wget", "wget2"],
        action: Action::Send,
        valued: WGET_VALUED,
        options: WGET_OPTIONS,
        rest: Role::Url,
        ..ROW
    },
    // libwww-perl's request programs, named by their method in capitals (`GET URL`,
    // `POST URL < body`). Not `HEAD`: where names are case-insensitive (macOS) libwww-perl
    // cannot install it beside `head`, so `HEAD .env` is `head .env` there; `HEAD` is read as
    // `head`, which only misreads a URL as a file name it cannot open.
    Program {
        names: &["GET", "POST", "PUT", "lwp-request"],
        action: Action::Send,
        valued: &["-m", "-b", "-t", "-i", "-c", "-p", "-o"],
        options: &[("-H", Role::Header), ("-C", Role::Header)],
        rest: Role::Url,
        ..ROW
    },
    Program {
        names: &["http", "https", "httpie", "xh", "xhs"],
        action: Action::HttpItems,
        valued: &[
            "--auth-type",
            "-A",
            "--pretty",
            "-s",
            "--style",
            "-p",
            "--print",
            "--timeout",
            "--proxy",
            "--verify",
            "--cert",
            "--cert-key",
            "--session",
            "--session-read-only",
        ],
        options: &[
            ("-a", Role::Header),
            ("--auth", Role::Header),
            ("-o", Role::Write),
            ("--output", Role::Write),
        ],
        ..ROW
    },
    Program {
        names: &["nc", "ncat", "netcat", "telnet", "openssl-s_client"],
        action: Action::Connect,
        valued: &[
            "-p",
            "-s",
            "-w",
            "-i",
            "-q",
            "-x",
            "-X",
            "-I",
            "-O",
            "-T",
            "-V",
            "-P",
            "-W",
            "--source-port",
            "--source",
            "--wait",
            "--proxy",
            "--proxy-type",
        ],
        options: &[
            ("-e", Role::Shell),
            ("--exec", Role::Shell),
            ("-c", Role::Shell),
            ("--sh-exec", Role::Shell),
            ("--lua-exec", Role::Read),
            ("-o", Role::Write),
            ("--output", Role::Write),
        ],
        ..ROW
    },
    Program {
        names: &["socat"],
        action: Action::Socat,
        valued: &["-d", "-lf", "-t", "-T", "-b", "-L", "-W"],
        ..ROW
    },
    // ssh(1) `-R [BIND:]PORT:HOST:HOSTPORT` publishes a local port on the remote host.
    Program {
        names: &["ssh", "autossh"],
        action: Action::Connect,
        valued: SSH_VALUED,
        options: &[
            ("-i", Role::Identity),
            ("-F", Role::Read),
            ("-E", Role::Write),
            ("-J", Role::Host),
            ("-R", Role::RemoteForward),
            ("-o", Role::ShellSetting),
        ],
        ..ROW
    },
    // kubectl-port-forward(1) `--address` (`localhost` by default): a cluster's port
    // forwarded onto another address of this machine is published to its network.
    Program {
        names: &["kubectl", "oc"],
        subs: &[&["port-forward"]],
        global: KUBECTL,
        valued: &["-n", "--namespace", "--context", "--pod-running-timeout"],
        options: &[("--address", Role::ListenAddress)],
        ..ROW
    },
    Program {
        names: &["sftp", "mosh", "ftp", "lftp", "tftp"],
        action: Action::Connect,
        valued: SSH_VALUED,
        options: SSH_OPTIONS,
        ..ROW
    },
    // Relays that publish a local port on a public address: `ngrok http 3000` (ngrok(1)
    // `http|tcp|tls|start|tunnel`), `cloudflared tunnel --url http://localhost:8000` or
    // `cloudflared tunnel run NAME`, localtunnel's `lt --port 3000`, `bore local 3000 --to
    // bore.pub`, `tailscale funnel 3000`. Their reports and set-up verbs (`ngrok config`,
    // `cloudflared tunnel list`, `tailscale funnel status`) are not rows.
    Program {
        names: &["ngrok"],
        subs: &[&["http"], &["tcp"], &["tls"], &["start"], &["tunnel"]],
        action: Action::Tunnel,
        ..ROW
    },
    Program {
        names: &["cloudflared"],
        subs: &[&["tunnel"]],
        action: Action::Tunnel,
        valued: &[
            "--url",
            "--config",
            "--loglevel",
            "--logfile",
            "--hostname",
            "--name",
            "--origincert",
        ],
        ..ROW
    },
    Program {
        names: &["lt", "localtunnel", "bore"],
        action: Action::Tunnel,
        valued: &[
            "-p",
            "--port",
            "-s",
            "--subdomain",
            "-h",
            "--host",
            "-l",
            "--local-host",
            "-t",
            "--to",
            "--secret",
        ],
        ..ROW
    },
    Program {
        names: &["tailscale"],
        subs: &[&["funnel"]],
        action: Action::Tunnel,
        valued: &["--https", "--tcp", "--tls-terminated-tcp", "--set-path"],
        ..ROW
    },
    Program {
        names: &["sshpass"],
        options: &[("-f", Role::Read)],
        valued: &["-p", "-d", "-P"],
        ..ROW
    },
    Program {
        // `dig NAME`, `ping HOST`: the name is looked up (its servers see it).
        names: &[
            "dig",
            "nslookup",
            "host",
            "drill",
            "ping",
            "ping6",
            "traceroute",
            "tracepath",
            "mtr",
            "whois",
            "arping",
            "fping",
            "hping3",
            "nmap",
        ],
        action: Action::Resolve,
        valued: &[
            "-c", "-i", "-W", "-w", "-t", "-p", "-s", "-I", "-q", "-b", "-f", "-m", "-x", "-k",
            "-y", "-l", "-Q", "-S", "-T", "-h",
        ],
        rest: Role::Host,
        ..ROW
    },
];

/// A program that serves a folder over HTTP: what makes it one, where it takes the folder
/// and the address it listens on.
#[derive(Debug)]
pub(crate) struct Server {
    /// The program names (`python3`, `php`).
    pub(crate) names: &'static [&'static str],
    /// Words that make it serve, in order (`-m http.server`, `-S`); empty: always.
    pub(crate) marker: &'static [&'static str],
    /// Options that give the folder (`--directory`, `-t`).
    pub(crate) folder: &'static [&'static str],
    /// The first operand after the marker that is not a port is the folder (`httpd DIR`).
    pub(crate) folder_operand: bool,
    /// Options that give the address it listens on (`--bind`, `-a`); the marker's own value
    /// for `php -S ADDR:PORT`.
    pub(crate) bind: &'static [&'static str],
    /// The marker takes the address as its value (`php -S 0.0.0.0:8000`).
    pub(crate) marker_binds: bool,
    /// With no address it listens on every interface (`python3 -m http.server`).
    pub(crate) all_by_default: bool,
    /// Options that take a value the reading skips (`-p PORT`).
    pub(crate) valued: &'static [&'static str],
}

/// Programs that serve a folder to the network (their documentation: Python's `http.server`
/// binds every interface unless `--bind`; `php -S` binds the address it is given, `-t` the
/// document root; Ruby's `un.rb httpd`, `http-server`, npm's `serve`, BusyBox `httpd` (`-p
/// [IP:]PORT`, `-h HOME`), `darkhttpd DIR` (`--addr`), Caddy's `file-server` (`--listen`,
/// `--root`) and Twisted's `twistd web` (`--path`, `--listen`) bind every interface by
/// default).
pub(crate) static SERVERS: &[Server] = &[
    Server {
        names: &["python", "python2", "python3", "pypy", "pypy3"],
        marker: &["-m", "http.server"],
        folder: &["-d", "--directory"],
        folder_operand: false,
        bind: &["-b", "--bind"],
        marker_binds: false,
        all_by_default: true,
        valued: &["--protocol", "-p"],
    },
    Server {
        names: &["python", "python2"],
        marker: &["-m", "SimpleHTTPServer"],
        folder: &[],
        folder_operand: false,
        bind: &[],
        marker_binds: false,
        all_by_default: true,
        valued: &[],
    },
    Server {
        names: &["php"],
        marker: &["-S"],
        folder: &["-t"],
        folder_operand: false,
        bind: &[],
        marker_binds: true,
        all_by_default: false,
        valued: &["-c", "-d"],
    },
    Server {
        names: &["ruby"],
        marker: &["-run", "-e", "httpd"],
        folder: &[],
        folder_operand: true,
        bind: &["-b", "--bind-address"],
        marker_binds: false,
        all_by_default: true,
        valued: &["-p", "--port"],
    },
    Server {
        names: &["busybox", "toybox"],
        marker: &["httpd"],
        folder: &["-h"],
        folder_operand: false,
        bind: &["-p"],
        marker_binds: false,
        all_by_default: true,
        valued: &["-c", "-r", "-u", "-d", "-e", "-m"],
    },
    Server {
        names: &["darkhttpd"],
        marker: &[],
        folder: &[],
        folder_operand: true,
        bind: &["--addr"],
        marker_binds: false,
        all_by_default: true,
        valued: &[
            "--port",
            "--maxconn",
            "--log",
            "--chroot",
            "--index",
            "--uid",
            "--gid",
            "--pidfile",
            "--mimetypes",
            "--default-mimetype",
            "--auth",
            "--header",
            "--forward",
        ],
    },
    Server {
        names: &["caddy"],
        marker: &["file-server"],
        folder: &["--root", "-r"],
        folder_operand: false,
        bind: &["--listen", "-l"],
        marker_binds: false,
        all_by_default: true,
        valued: &["--domain", "-d"],
    },
    Server {
        names: &["twistd"],
        marker: &["web"],
        folder: &["--path"],
        folder_operand: false,
        bind: &["--listen", "--port"],
        marker_binds: false,
        all_by_default: true,
        valued: &["--logfile", "--pidfile"],
    },
    Server {
        names: &["serve"],
        marker: &[],
        folder: &[],
        folder_operand: true,
        bind: &["-l", "--listen"],
        marker_binds: false,
        all_by_default: true,
        valued: &["-c", "--config", "--ssl-cert", "--ssl-key", "--ssl-pass"],
    },
    Server {
        names: &["http-server"],
        marker: &[],
        folder: &[],
        folder_operand: true,
        bind: &["-a"],
        marker_binds: false,
        all_by_default: true,
        valued: &[
            "-p", "--port", "-c", "-e", "--ext", "-s", "-P", "--proxy", "-C", "-K", "--cert",
            "--key", "-t",
        ],
    },
];
