//! One simple command through the program table: its option values, its shell text and
//! code, then the effects of the row's [`Action`]; the SQL a database client runs; the
//! resources a cloud CLI's operation destroys; languages the table does not parse (`ruby -e`,
//! `php -r`) by their markers.

use super::files::{chattr, container_copy, copy, files, find, permission};
use super::git::{git_config, scheduled_jobs};
use super::install::install;
use super::out::{Out, delete, load, read, write};
use super::pipes::code_reads_environment;
use super::privilege::{engine_socket_opened, escaped_shell, grants, host_mount, machine_grants};
use super::request::{send_host, send_url};
use super::send::{connect, http_items, send, socat};
use super::signals::{service, signal};
use crate::effects::model::What;
use crate::effects::programs::database::{Sql, client, local_dev_of, without_meta};
use crate::effects::programs::infra::destroys;
use crate::effects::programs::{Action, Role, Switch, parse};
use crate::effects::sql;
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
];

/// What code in a language without a parser here writes to run text as code.
const UNPARSED_EVAL_MARKERS: &[&str] = &[
    "eval",
    "instance_eval",
    "class_eval",
    "create_function",
    "assert(",
];

/// Ruby, Perl and PHP code is not parsed here (PowerShell is: `inline::powershell`): code that names a network
/// connection and also reads the whole environment (`ruby -e 'Net::HTTP.post(URI("https://…"),
/// ENV.to_h.to_s)'`) may send it, and code that names one and evaluates text (`php -r
/// "eval(file_get_contents('https://…'));"`) may run what it
/// fetches: both are unsure.
fn unparsed_code_effects(c: &SimpleCommand, out: &mut Out) {
    let lang = match c.basename() {
        "ruby" => "Ruby",
        "perl" | "perl5" => "Perl",
        "php" => "PHP",
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
        "git" => {
            git_config(c, out);
            if super::git::git_send_email(c, out) {
                return;
            }
        }
        "crontab" | "at" | "batch" => scheduled_jobs(c, out),
        "ruby" | "perl" | "perl5" | "php" => unparsed_code_effects(c, out),
        _ => {}
    }
    // Database clients: the SQL they run.
    database(c, out);
    // Cloud and infrastructure CLIs: the operation of their command model.
    if let Some(d) = destroys(c) {
        out.push(What::Destroy {
            cli: d.cli,
            service: d.service,
            operation: d.operation,
            targets: d.targets,
        });
    }
    // `redis-cli $(…)`: a data-store command only known at run time.
    if let Some(why) = crate::effects::programs::infra::unknown_command(c) {
        out.push(What::Unsure(why));
    }
    // A folder served to the network (`python3 -m http.server`, `php -S 0.0.0.0:80`).
    super::serve::served_folder(c, out);
    // `findstr /s /i password *.*`: the grep(1) search of the same files and patterns.
    if let Some(grep) = super::search::findstr_as_grep(c) {
        program_effects(&grep, out);
        return;
    }
    if let Some(inner) = python_module(c) {
        program_effects(&inner, out);
        return;
    }
    let parsed = parse(c);
    escaped_shell(c, parsed.as_ref(), out);
    machine_grants(c, out);
    let Some(p) = parsed else {
        return;
    };
    let recursive = p.has(Switch::Recursive);
    grants(c, &p, out);
    engine_socket_opened(c, &p, out);
    // Option values with a path or script role.
    for (role, v) in &p.values {
        match role {
            Role::Read => read(v, c, out),
            Role::Load => load(v, c, out),
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
    out.codes
        .extend(crate::effects::code_runs::code_runs(c, &p));
    match p.row.action {
        Action::Files => files(c, &p, out),
        Action::Copy { moves } => copy(c, &p, moves, out),
        Action::ContainerCopy => container_copy(c, &p, out),
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
        // A transient unit's shell as another user.
        Action::TransientUnit => super::transient::grants(c, &p, out),
        Action::Escalate { .. }
        | Action::EnterNamespaces
        | Action::Unshare
        | Action::SetCapability
        | Action::Pod
        | Action::JoinGroup
        | Action::Mount
        | Action::WindowsAccount
        | Action::Autostart
        | Action::WindowsRegistry
        | Action::Firewall
        | Action::WindowsProtection
        | Action::NetworkDown
        | Action::RunAs
        | Action::Tunnel => {}
        Action::WindowsPermission => super::windows::permission(c, out),
        Action::HtmlApplication => super::windows::html_application(c, out),
        Action::Transfer => super::send::windows_transfer(c, out),
        Action::Publish {
            registry,
            goals,
            needs,
        } => super::publish::publish(c, &p, (registry, goals, needs), out),
        Action::SecretScan => super::search::secret_scan(c, out),
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
    // Searches and dumps that print the secret files below their roots.
    super::search::secret_reach(c, &p, out);
}

/// Database clients: the SQL a client runs (`psql -c`, `mysql -e`, `sqlite3 DB SQL`, a
/// heredoc or pipe into one, `docker exec db psql -c …` once unwrapped) becomes `run`s of the
/// program `sql`, read by [`crate::effects::sql`] as for an MCP database tool; `-f FILE` is a
/// read of the file (whose statements the scripts pass reads). SQL only known at run time is
/// named as such.
fn database(c: &SimpleCommand, out: &mut Out) {
    let Some(row) = client(c) else {
        return;
    };
    let who = c.basename().to_string();
    for s in row.sql(c) {
        match s {
            Sql::File(f) => read(&f, c, out),
            Sql::Text(t) => {
                let text = if row.meta {
                    without_meta(&t.text)
                } else {
                    t.text.clone()
                };
                if text.trim().is_empty() {
                    continue;
                }
                let statements = sql::statements(&text, false).unwrap_or_default();
                if t.dynamic
                    && statements
                        .iter()
                        .all(|st| !st.destructive && !st.credentials)
                    && text.trim_start().starts_with('$')
                {
                    out.push(What::Unsure(format!(
                        "the SQL given to {who} is only known at run time"
                    )));
                }
                for st in statements {
                    if let Some(why) = st.unparsed(&who) {
                        out.push(What::Unsure(why));
                    }
                    let local = local_dev_of(c, st.database.as_deref());
                    out.push(What::Run(st.run(c.cwd.as_deref(), local)));
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
        // The module names above are lower case: their own name.
        folded: None,
        args: c.args.get(k + 2..).unwrap_or_default().to_vec(),
        ..c.clone()
    })
}
