//! The calls of Perl, Ruby, PHP, Lua and awk that the token scanner reads, one table per
//! language: what each does with its arguments ([`Runs`]), from `perlfunc`, Ruby's `Kernel`,
//! `Process`, `IO`, `Open3` and `Socket`, PHP's program execution, file system and socket
//! functions, the Lua reference manual and POSIX awk.
//!
//! In: a [`Language`]. Out: its table, searched by the reader for each name it meets.

use super::Runs;
use crate::effects::language::Language;

/// Perl's calls that run commands (`perlfunc`, `IPC::Open2`, `IPC::Open3`).
const PERL: &[(&str, Runs)] = &[
    ("system", Runs::List(0)),
    ("exec", Runs::List(0)),
    ("CORE::system", Runs::List(0)),
    ("CORE::exec", Runs::List(0)),
    ("readpipe", Runs::First),
    ("open", Runs::PerlOpen),
    ("CORE::open", Runs::PerlOpen),
    ("open2", Runs::List(2)),
    ("IPC::Open2::open2", Runs::List(2)),
    ("open3", Runs::List(3)),
    ("IPC::Open3::open3", Runs::List(3)),
    ("chmod", Runs::Chmod { mode_first: true }),
    ("CORE::chmod", Runs::Chmod { mode_first: true }),
    ("inet_aton", Runs::Connect { host: 0 }),
    ("Socket::inet_aton", Runs::Connect { host: 0 }),
    ("IO::Socket::INET", Runs::PerlSocket),
    ("IO::Socket::IP", Runs::PerlSocket),
];

/// Ruby's calls that run commands (`Kernel`, `Process`, `IO`, `Open3`).
const RUBY: &[(&str, Runs)] = &[
    ("system", Runs::List(0)),
    ("exec", Runs::List(0)),
    ("spawn", Runs::List(0)),
    ("Kernel.system", Runs::List(0)),
    ("Kernel.exec", Runs::List(0)),
    ("Kernel.spawn", Runs::List(0)),
    ("Process.spawn", Runs::List(0)),
    ("Process.exec", Runs::List(0)),
    ("IO.popen", Runs::First),
    ("Open3.capture2", Runs::List(0)),
    ("Open3.capture2e", Runs::List(0)),
    ("Open3.capture3", Runs::List(0)),
    ("Open3.popen2", Runs::List(0)),
    ("Open3.popen2e", Runs::List(0)),
    ("Open3.popen3", Runs::List(0)),
    ("Open3.pipeline_r", Runs::List(0)),
    ("Open3.pipeline_w", Runs::List(0)),
    ("Open3.pipeline_rw", Runs::List(0)),
    ("open", Runs::PipeOpen),
    ("Kernel.open", Runs::PipeOpen),
    ("File.read", Runs::Read),
    ("File.binread", Runs::Read),
    ("File.readlines", Runs::Read),
    ("File.foreach", Runs::Read),
    ("IO.read", Runs::Read),
    ("IO.readlines", Runs::Read),
    ("IO.foreach", Runs::Read),
    ("File.open", Runs::Open),
    ("File.new", Runs::Open),
    ("File.write", Runs::Write),
    ("File.binwrite", Runs::Write),
    ("IO.write", Runs::Write),
    ("File.chmod", Runs::Chmod { mode_first: true }),
    ("File.lchmod", Runs::Chmod { mode_first: true }),
    ("FileUtils.chmod", Runs::Chmod { mode_first: true }),
    ("FileUtils.chmod_R", Runs::Chmod { mode_first: true }),
    ("TCPSocket.new", Runs::Connect { host: 0 }),
    ("TCPSocket.open", Runs::Connect { host: 0 }),
    ("Socket.tcp", Runs::Connect { host: 0 }),
    ("STDIN.reopen", Runs::Streams),
    ("STDOUT.reopen", Runs::Streams),
    ("STDERR.reopen", Runs::Streams),
];

/// PHP's program execution functions (names are case-insensitive; lower case here).
const PHP: &[(&str, Runs)] = &[
    ("system", Runs::First),
    ("exec", Runs::First),
    ("shell_exec", Runs::First),
    ("passthru", Runs::First),
    ("popen", Runs::First),
    ("proc_open", Runs::First),
    ("pcntl_exec", Runs::PathArgs),
    ("file_get_contents", Runs::Read),
    ("readfile", Runs::Read),
    ("file", Runs::Read),
    ("fopen", Runs::Open),
    ("file_put_contents", Runs::Write),
    ("chmod", Runs::Chmod { mode_first: false }),
    ("lchmod", Runs::Chmod { mode_first: false }),
    ("fsockopen", Runs::Connect { host: 0 }),
    ("pfsockopen", Runs::Connect { host: 0 }),
    ("stream_socket_client", Runs::Connect { host: 0 }),
    ("socket_connect", Runs::Connect { host: 1 }),
];

/// Lua's standard library calls that run commands.
const LUA: &[(&str, Runs)] = &[
    ("os.execute", Runs::First),
    ("io.popen", Runs::First),
    ("io.lines", Runs::Read),
    ("io.open", Runs::Open),
    ("socket.connect", Runs::Connect { host: 0 }),
    ("load", Runs::Load),
    ("loadstring", Runs::Load),
    ("dofile", Runs::DoFile),
];

/// awk's built-in `system(cmd)`.
const AWK: &[(&str, Runs)] = &[("system", Runs::First)];

/// The calls of `lang` that run commands.
pub(super) fn table(lang: Language) -> &'static [(&'static str, Runs)] {
    match lang {
        Language::Perl => PERL,
        Language::Ruby => RUBY,
        Language::Php => PHP,
        Language::Lua => LUA,
        Language::Awk => AWK,
        _ => &[],
    }
}
