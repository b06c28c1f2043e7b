//! The one name of a program: what the program table, the lenses and the `runs = { program = … }`
//! matcher of policy rules compare. In: a program word as the shell (or PowerShell, or an
//! argv) runs it. Out: its name.
//!
//! A program's name is the last component of its path, `/` or `\` separated
//! (`/usr/bin/git` → `git`, `C:\Windows\System32\net.exe` → `net`), without a Windows
//! executable's `.exe` or `.com` suffix in any case (`curl.EXE` → `curl`): Git Bash, MSYS2 and
//! WSL interop run `X.exe` as the program `X`. Windows and macOS (APFS, case-insensitive by
//! default) find a program whatever the case it is typed in, so `NET`, `Rm` and `Make` are the
//! programs `net`, `rm` and `make`: a name with capitals that no row of the program table
//! spells exactly is its lower-case form. A row spelled with capitals keeps winning
//! (`Rscript` is R's script runner, `GET` libwww-perl's request).
//!
//! There is no `HEAD` row: where names are case-insensitive libwww-perl's `HEAD` cannot sit
//! beside `head`, so `HEAD .env` is `head .env`. The builtins that change the shell's own
//! state (`cd`, `alias`, `read`) are matched as written by the shell analysis: bash finds a
//! builtin by its exact name, whatever the file system.
//!
//! A name with no capitals (nearly every one) is a slice of the word: nothing is allocated.

use std::borrow::Cow;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use crate::effects::programs;

/// The last component of a program path, `/` or `\` separated, without a Windows executable's
/// `.exe` or `.com` suffix in any case (`C:/Windows/System32/CMD.EXE` → `CMD`). A name that
/// is only the suffix (`.exe`) is kept. The case is as written: [`program_name`] folds it.
pub(crate) fn base(p: &str) -> &str {
    // Both separators are ASCII: the byte after one starts a character.
    let name = match p.bytes().rposition(|b| b == b'/' || b == b'\\') {
        Some(at) => p.get(at + 1..).unwrap_or(p),
        None => p,
    };
    let cut = name.len().saturating_sub(4);
    match name.get(cut..) {
        Some(ext)
            if cut > 0
                && (ext.eq_ignore_ascii_case(".exe") || ext.eq_ignore_ascii_case(".com")) =>
        {
            name.get(..cut).unwrap_or(name)
        }
        _ => name,
    }
}

/// The name of the program `p` runs: its [`base`] name, in lower case when it has capitals
/// and no row of the program table spells it exactly (`NET.EXE` → `net`, `Rm` → `rm`,
/// `Rscript` → `Rscript`). Borrowed unless it was folded.
pub(crate) fn program_name(p: &str) -> Cow<'_, str> {
    let name = base(p);
    match folded(name) {
        Some(lower) => Cow::Owned(lower),
        None => Cow::Borrowed(name),
    }
}

/// The lower-case form of base name `name` when it is not its name as is: it has capitals
/// and no row of the program table spells it exactly.
fn folded(name: &str) -> Option<String> {
    (name.bytes().any(|b| b.is_ascii_uppercase()) && !programs::has_name(name))
        .then(|| name.to_ascii_lowercase())
}

/// The name of program word `p` when it is not a slice of the word (see [`program_name`]):
/// kept with a command so that its name is made once.
pub(crate) fn folded_name(p: &str) -> Option<Box<str>> {
    folded(base(p)).map(String::into_boxed_str)
}

/// The name of a program as a policy rule lists it, when it differs from the listing: a
/// bare name with capitals or a Windows suffix (`curl.exe`, `CURL`, `Curl.EXE` → `curl`).
/// A listing with a folder (`./build.sh`, `/usr/bin/curl.exe`) names the program as written
/// only; `None` for it and for a listing that is its own name.
pub(crate) fn listed_name(listed: &str) -> Option<Cow<'_, str>> {
    if listed.contains(['/', '\\']) {
        return None;
    }
    Some(program_name(listed)).filter(|n| *n != listed)
}

/// Whether program name `listed`, as a policy rule lists it, names the program of a command
/// whose name is `name` ([`program_name`]) and whose word is `program`: as written, by its
/// name, or by the name of the listing ([`listed_name`]).
pub(crate) fn lists(listed: &str, name: &str, program: &str) -> bool {
    listed == name || listed == program || listed_name(listed).is_some_and(|n| n == name)
}

/// The program names a rule lists (`program_any = ["rm", "curl.exe", "./build.sh"]`), ready
/// to test commands against: [`lists`] of every listing, worked out once per list instead of
/// once per listing for every command of every evaluation.
#[derive(Debug, Clone, Default)]
pub(crate) struct ProgramNames {
    /// The names a command's name ([`program_name`]) is looked up in: every listing as
    /// written and, where it differs, its [`listed_name`].
    by_name: HashSet<Box<str>, BuildHasherDefault<Fnv>>,
    /// The listings, compared with a command's program word as written (a part of
    /// `by_name`).
    as_written: HashSet<Box<str>, BuildHasherDefault<Fnv>>,
}

/// FNV-1a over the bytes of a name: the names are short and looked up once per command and
/// test, and SipHash's defence against chosen keys buys nothing for a rule's own listings.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

impl ProgramNames {
    /// The names of the listings `listed`.
    pub(crate) fn new<S: AsRef<str>>(listed: &[S]) -> ProgramNames {
        let mut out = ProgramNames::default();
        for l in listed {
            let l = l.as_ref();
            if let Some(n) = listed_name(l) {
                out.by_name.insert(n.into());
            }
            out.by_name.insert(l.into());
            out.as_written.insert(l.into());
        }
        out
    }

    /// Whether one of the listings names the program of a command whose name is `name` and
    /// whose word is `program`: what [`lists`] answers for some listing.
    pub(crate) fn name(&self, name: &str, program: &str) -> bool {
        // A word that is its own name (`rm`, nearly every one) needs one look-up: every
        // listing is also in `by_name`.
        self.by_name.contains(name) || (program != name && self.as_written.contains(program))
    }
}

#[cfg(test)]
mod tests {
    use super::{ProgramNames, base, listed_name, lists, program_name};

    #[test]
    fn a_windows_executable_is_named_without_its_folder_and_suffix() {
        assert_eq!(base("curl.exe"), "curl");
        assert_eq!(base("C:/Windows/System32/CMD.EXE"), "CMD");
        assert_eq!(base(r"C:\Windows\System32\net.exe"), "net");
        assert_eq!(base("/mnt/c/Windows/System32/wsl.exe"), "wsl");
        assert_eq!(base("format.com"), "format");
        assert_eq!(base("FORMAT.Com"), "FORMAT");
        assert_eq!(base("/usr/bin/git"), "git");
        // Only a whole suffix after a name: `.exe` alone and other extensions stay.
        assert_eq!(base(".exe"), ".exe");
        assert_eq!(base("build.sh"), "build.sh");
        assert_eq!(base("notes.exe.txt"), "notes.exe.txt");
        assert_eq!(base("dir/"), "");
        assert_eq!(base(r"C:\tools/bin\rg.EXE"), "rg");
        assert_eq!(base("/opt/ünï/çurl"), "çurl");
        // The base name of a command and the program a wrapper runs use it: `bash.exe -c` is a
        // shell re-entered, `rm.exe` the delete.
        assert_eq!(
            crate::shell::tests::cmds("bash.exe -c 'rm -rf x'"),
            vec!["bash.exe -c rm -rf x", "rm -rf x (via bash -c)"]
        );
    }

    #[test]
    fn a_name_with_capitals_is_its_lower_case_form_unless_a_row_spells_it() {
        assert_eq!(program_name("NET.EXE"), "net");
        assert_eq!(program_name(r"C:\Windows\System32\CURL.exe"), "curl");
        assert_eq!(program_name("Rm"), "rm");
        assert_eq!(program_name("Make"), "make");
        assert_eq!(program_name("/usr/local/bin/Git"), "git");
        // Rows spelled with capitals keep their name.
        assert_eq!(program_name("Rscript"), "Rscript");
        assert_eq!(program_name("/usr/bin/GET"), "GET");
        assert_eq!(program_name("POST"), "POST");
        // No row spells `HEAD`: where it runs at all beside `head`, it is `head`.
        assert_eq!(program_name("HEAD"), "head");
        // Without capitals, the name is a slice of the word.
        assert!(matches!(
            program_name("/usr/bin/rscript"),
            std::borrow::Cow::Borrowed("rscript")
        ));
        assert!(matches!(
            program_name("ls"),
            std::borrow::Cow::Borrowed("ls")
        ));
    }

    #[test]
    fn the_names_of_a_list_answer_what_each_listing_answers() {
        let listed = [
            "rm",
            "curl.exe",
            "CURL",
            "Rscript",
            "./build.sh",
            "/usr/bin/curl.exe",
            "Curl.EXE",
            "GET",
        ];
        let names = ProgramNames::new(&listed);
        let words = [
            "rm",
            "/bin/rm",
            "RM",
            "curl",
            "C:/Windows/System32/CURL.EXE",
            "curl.exe",
            "Rscript",
            "rscript",
            "./build.sh",
            "build.sh",
            "/usr/bin/curl.exe",
            "GET",
            "get",
            "wget",
            "",
        ];
        for w in words {
            let name = program_name(w);
            let each = listed.iter().any(|l| lists(l, &name, w));
            assert_eq!(names.name(&name, w), each, "{w}");
        }
        assert!(names.name("curl", "curl"));
        assert!(names.name("build.sh", "./build.sh"));
        assert!(!names.name("build.sh", "build.sh"));
        assert!(!names.name("wget", "wget"));
        assert!(!ProgramNames::new::<&str>(&[]).name("rm", "rm"));
    }

    #[test]
    fn a_rule_lists_a_program_by_its_name_or_as_written() {
        assert_eq!(listed_name("curl.exe").as_deref(), Some("curl"));
        assert_eq!(listed_name("CURL").as_deref(), Some("curl"));
        assert_eq!(listed_name("curl"), None);
        assert_eq!(listed_name("Rscript"), None);
        assert_eq!(listed_name("./build.sh"), None);
        assert!(lists("curl.exe", "curl", "C:/Windows/System32/CURL.EXE"));
        assert!(lists("rm", "rm", "/bin/Rm"));
        assert!(lists("./build.sh", "build.sh", "./build.sh"));
        assert!(!lists("./build.sh", "build.sh", "build.sh"));
        assert!(!lists("rmdir", "rm", "rm"));
    }
}
