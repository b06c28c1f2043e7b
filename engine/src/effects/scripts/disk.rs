//! Script files as found on disk: read within bounds, binaries told apart from scripts, and
//! the interpreter a script's `#!` line names.
//!
//! In: an absolute path, or a script's text. Out: a [`Disk`] reading, an [`Interp`].

use std::io::Read;

use super::jobs::{Lang, SHELLS, is_python};

/// Largest script read, in bytes (256 KiB).
pub(crate) const MAX_SCRIPT: u64 = 256 * 1024;

/// What the interpreter of a script's `#!` line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Interp {
    Shell,
    Code(Lang),
    Other,
}

/// The interpreter a script names on its `#!` line (a shell when it has none: the shell runs
/// a text file the kernel cannot execute).
pub(super) fn interpreter(text: &str) -> Interp {
    let Some(line) = text.strip_prefix("#!") else {
        return Interp::Shell;
    };
    let line = line.lines().next().unwrap_or("");
    let mut words = line.split_whitespace();
    let mut prog = words.next().unwrap_or("");
    if prog.rsplit('/').next() == Some("env") {
        prog = words
            .find(|w| !w.starts_with('-') && !w.contains('='))
            .unwrap_or("");
    }
    let base = prog.rsplit('/').next().unwrap_or(prog);
    if SHELLS.contains(&base) {
        Interp::Shell
    } else if is_python(base) {
        Interp::Code(Lang::Python)
    } else if matches!(base, "node" | "nodejs" | "deno" | "bun" | "tsx" | "ts-node") {
        Interp::Code(Lang::JavaScript)
    } else if base == "Rscript" {
        Interp::Code(Lang::R)
    } else if base == "julia" {
        Interp::Code(Lang::Julia)
    } else if base == "osascript" {
        // `#!/usr/bin/osascript -l JavaScript`: JavaScript for Automation.
        let rest: Vec<&str> = line.split_whitespace().collect();
        if rest
            .windows(2)
            .any(|w| w[0] == "-l" && w[1].eq_ignore_ascii_case("javascript"))
        {
            Interp::Code(Lang::JavaScript)
        } else {
            Interp::Code(Lang::AppleScript)
        }
    } else {
        Interp::Other
    }
}

/// A script file as found on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Disk {
    /// Not there (or a folder): nothing runs from it.
    Missing,
    /// A program, not a script.
    Binary,
    /// Its text.
    Text(String),
    /// It cannot be judged: why.
    Problem(String),
}

/// Executable formats by their first bytes: ELF, Mach-O (32/64-bit, both byte orders, fat),
/// PE (`MZ`), WebAssembly.
pub(super) const BINARY_MAGIC: &[&[u8]] = &[
    b"\x7fELF",
    b"\xfe\xed\xfa\xce",
    b"\xce\xfa\xed\xfe",
    b"\xfe\xed\xfa\xcf",
    b"\xcf\xfa\xed\xfe",
    b"\xca\xfe\xba\xbe",
    b"MZ",
    b"\0asm",
];

/// Read the script at the absolute path `abs` (`shown`: as the call names it): only a
/// regular file (symlinks followed), a binary recognised by its first bytes, at most
/// [`MAX_SCRIPT`] bytes of text.
pub(crate) fn read_script(abs: &str, shown: &str) -> Disk {
    let meta = match std::fs::metadata(abs) {
        Ok(m) => m,
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) =>
        {
            return Disk::Missing;
        }
        Err(e) => return Disk::Problem(format!("cannot read the script `{shown}`: {e}")),
    };
    if meta.is_dir() {
        return Disk::Missing;
    }
    if !meta.is_file() {
        return Disk::Problem(format!(
            "`{shown}` is not a regular file (a FIFO, a device or a socket): what it runs cannot be read"
        ));
    }
    let mut f = match std::fs::File::open(abs) {
        Ok(f) => f,
        Err(e) => return Disk::Problem(format!("cannot read the script `{shown}`: {e}")),
    };
    let mut head = Vec::with_capacity(8192);
    if let Err(e) = (&mut f).take(8192).read_to_end(&mut head) {
        return Disk::Problem(format!("cannot read the script `{shown}`: {e}"));
    }
    if BINARY_MAGIC.iter().any(|m| head.starts_with(m)) || head.contains(&0) {
        return Disk::Binary;
    }
    if meta.len() > MAX_SCRIPT {
        return Disk::Problem(format!(
            "the script `{shown}` is larger than {} KiB: what it runs is not read",
            MAX_SCRIPT / 1024
        ));
    }
    let mut all = head;
    if let Err(e) = f.take(MAX_SCRIPT + 1).read_to_end(&mut all) {
        return Disk::Problem(format!("cannot read the script `{shown}`: {e}"));
    }
    if all.len() as u64 > MAX_SCRIPT {
        return Disk::Problem(format!(
            "the script `{shown}` is larger than {} KiB: what it runs is not read",
            MAX_SCRIPT / 1024
        ));
    }
    Disk::Text(String::from_utf8_lossy(&all).into_owned())
}
