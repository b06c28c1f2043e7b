//! The calls of Perl, Ruby, PHP, Lua, awk, R and Julia that the token scanner reads, one table per
//! language: what each does with its arguments ([`Runs`]), from `perlfunc`, Ruby's `Kernel`,
//! `Process`, `IO`, `Open3` and `Socket`, PHP's program execution, file system and socket
//! functions, the Lua reference manual and POSIX awk.
//!
//! In: a [`Language`]. Out: its table, searched by the reader for each name it meets.

use crate::effects::language::Language;

/// What a call does with its arguments.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Runs {
    /// `system LIST`: one string is a shell line, several are the words; the first `skip`
    /// arguments are not part of the command (`open3($w, $r, $e, CMD)`).
    List(usize),
    /// The first argument is a shell line, or the words when it is a list
    /// (`IO.popen([…])`, `proc_open([…])`).
    First,
    /// Perl's `open`: a pipe open (`"cmd |"`, `"| cmd"`, `'-|', CMD…`) runs a command.
    PerlOpen,
    /// Ruby's `open("|cmd")`.
    PipeOpen,
    /// PHP's `pcntl_exec(path, [args])`: the program and its words.
    PathArgs,
    /// The first argument is a file read (`File.read`, `file_get_contents`, `io.lines`).
    Read,
    /// The first argument is a file written (`File.write`, `file_put_contents`).
    Write,
    /// The first argument is a file opened in the mode of the second, read by default
    /// (`File.open`, `fopen`, `io.open`).
    Open,
    /// A permission change: the mode, then the files (Perl `chmod MODE, LIST`, Ruby
    /// `File.chmod`), or the file, then the mode (PHP `chmod(PATH, MODE)`).
    Chmod {
        /// The mode is the first argument.
        mode_first: bool,
    },
    /// A connection to the host at argument `host` (`tcp://h:p` or `h:p` as well), the port
    /// at the next one when given: `fsockopen(h, p)`, `TCPSocket.new(h, p)`,
    /// `socket.connect(h, p)`, Perl's `inet_aton(h)` (the address a socket connects to).
    Connect {
        /// Where the host is.
        host: usize,
    },
    /// Perl's `IO::Socket::INET->new(PeerAddr => "h:p", …)` / `->new("h:p")`.
    PerlSocket,
    /// A standard stream reopened on another descriptor (Ruby's `STDIN.reopen(c)`).
    Streams,
    /// Lua's `load(TEXT)` / `loadstring(TEXT)`: TEXT runs as Lua code; the output of a
    /// command (`io.popen(CMD):read("*a")`) is run as `CMD | lua` is, a URL's body as a
    /// download run.
    Load,
    /// Lua's `dofile(PATH)`: the file runs as `lua PATH` does.
    DoFile,
    /// The arguments are files deleted (R's `unlink`, `file.remove`, Julia's `rm`), with
    /// everything below them when a `recursive` argument is true (R's second one too).
    Remove,
    /// The first argument is a file read and the second one written (R's `file.copy`,
    /// `file.rename`, Julia's `cp`, `mv`): a secret copied is a secret read.
    Copy,
    /// The first argument is a file read when it names a path (Julia's `read`, `readlines`,
    /// `eachline`, `open`); an unbound name is an open stream (`read(f, String)` in an
    /// `open(…) do f` block, `eachline(stdin)`) and reads no file of its own.
    ReadIfPath,
}

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

/// R's calls that run commands, or delete, read, write, copy or change the mode of files
/// (R's `base` and `fs` packages).
const R: &[(&str, Runs)] = &[
    ("system", Runs::First),
    ("shell", Runs::First),
    ("pipe", Runs::First),
    ("system2", Runs::PathArgs),
    ("processx::run", Runs::PathArgs),
    ("base::system", Runs::First),
    ("base::system2", Runs::PathArgs),
    ("unlink", Runs::Remove),
    ("base::unlink", Runs::Remove),
    ("file.remove", Runs::Remove),
    ("base::file.remove", Runs::Remove),
    ("fs::file_delete", Runs::Remove),
    ("fs::dir_delete", Runs::Remove),
    ("readLines", Runs::Read),
    ("writeLines", Runs::Write),
    ("file.copy", Runs::Copy),
    ("file.rename", Runs::Copy),
    ("Sys.chmod", Runs::Chmod { mode_first: false }),
];

/// Julia's calls that delete, copy, read or change the mode of files (`Base`,
/// `Base.Filesystem`); its commands are backtick literals.
const JULIA: &[(&str, Runs)] = &[
    ("rm", Runs::Remove),
    ("Base.rm", Runs::Remove),
    ("Base.Filesystem.rm", Runs::Remove),
    ("Filesystem.rm", Runs::Remove),
    ("cp", Runs::Copy),
    ("mv", Runs::Copy),
    ("Base.cp", Runs::Copy),
    ("Base.mv", Runs::Copy),
    ("chmod", Runs::Chmod { mode_first: false }),
    ("Base.chmod", Runs::Chmod { mode_first: false }),
    ("read", Runs::ReadIfPath),
    ("readlines", Runs::ReadIfPath),
    ("readline", Runs::ReadIfPath),
    ("eachline", Runs::ReadIfPath),
    ("open", Runs::ReadIfPath),
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
        Language::R => R,
        Language::Julia => JULIA,
        _ => &[],
    }
}
