//! The file actions: readers and writers by role, `tar`, copies and moves, `find`,
//! permission changes and `chattr`.

use super::git::git_files;
use super::out::{Out, delete, delete_as, load, path, read, script, write};
use super::request::send_remote;
use crate::effects::model::{BodySource, Gone, What};
use crate::effects::programs::sed::{NewText, new_text};
use crate::effects::programs::{Fallback, Parsed, Role, Switch, is_remote};
use crate::shell::{Arg, SimpleCommand};

/// The new text of an in-place edit whose script is visible (`sed -i '1i …'`): `None` when
/// the script is known only at run time, read from a file (`-f`) or not read here.
fn edit_text(p: &Parsed) -> Option<NewText> {
    let scripts: Vec<&Arg> = p
        .values_of(Role::EditScript)
        .chain(p.operands_of(Role::EditScript))
        .collect();
    if scripts.is_empty()
        // `sed -f FILE`: the script is in a file.
        || p.values_of(Role::Read).next().is_some()
        || scripts.iter().any(|a| a.dynamic || a.text.trim().is_empty())
    {
        return None;
    }
    let texts: Vec<&str> = scripts.iter().map(|a| a.text.as_str()).collect();
    new_text(&texts)
}

/// A file an in-place edit rewrites: its content is the edit's new text when the lines it
/// writes are whole; when they are fragments of lines it keeps (`s/a/b/`), the write is
/// not visible and the fragments are written too, so what they run is still read.
fn write_edited(a: &Arg, edited: Option<&NewText>, c: &SimpleCommand, out: &mut Out) {
    let Some(p) = path(a, c) else { return };
    match edited {
        Some(n) if n.whole => out.push(What::Write {
            path: p,
            append: false,
            content: Some(n.text.clone()),
        }),
        Some(n) if !n.text.trim().is_empty() => {
            out.push(What::Write {
                path: p.clone(),
                append: false,
                content: None,
            });
            out.push(What::Write {
                path: p,
                append: false,
                content: Some(n.text.clone()),
            });
        }
        _ => out.push(What::Write {
            path: p,
            append: false,
            content: None,
        }),
    }
}

/// The search roots of a command: its read operands, or the working directory it falls
/// back to.
fn roots(p: &Parsed) -> Vec<Arg> {
    let read: Vec<Arg> = p.operands_of(Role::Read).cloned().collect();
    let falls_back = match p.row.fallback {
        Fallback::None => false,
        Fallback::Cwd => true,
        Fallback::CwdIfRecursive => p.has(Switch::Recursive),
    };
    if read.is_empty() && falls_back {
        vec![Arg {
            text: ".".into(),
            dynamic: false,
        }]
    } else {
        read
    }
}

/// Operands with path roles, switches applied; the program-specific readings of `tar`,
/// `truncate` and `git`.
pub(super) fn files(c: &SimpleCommand, p: &Parsed, out: &mut Out) {
    let base = c.basename();
    if matches!(base, "tar" | "gtar" | "bsdtar") {
        tar(c, p, out);
        return;
    }
    if base == "git" && git_files(c, p, out) {
        return;
    }
    let in_place = p.has(Switch::InPlace);
    let edited = in_place.then(|| edit_text(p)).flatten();
    let append = p.has(Switch::Append);
    let recursive =
        p.has(Switch::Recursive) || (base == "git" && p.sub.first().is_some_and(|s| s == "clean"));
    // `truncate -s 0 f` (and `-s0`, `--size=0`, `0K`) empties the file.
    let empties = p.values_of(Role::Size).any(|s| {
        !s.dynamic
            && s.text.starts_with('0')
            && s.text
                .trim_start_matches('0')
                .chars()
                .all(|ch| ch.is_ascii_alphabetic())
    });
    // `git clean -n` only lists.
    let dry = base == "git" && dry_run(p);
    // `uniq IN OUT`, `xxd IN OUT`: the second operand is written.
    let second_written = matches!(base, "uniq" | "xxd");
    let roots = roots(p);
    // A search that prints only names, counts or its exit status (`grep -c '' .env`, `grep -l
    // KEY .env`, `grep -q`) shows no line of the files it reads.
    let names_only = p.row.search.is_some() && p.has(Switch::NamesOnly);
    let mut reads = 0;
    for (role, a) in &p.operands {
        match role {
            Role::Read if names_only => {}
            Role::Read => {
                reads += 1;
                if second_written && reads == 2 {
                    write(a, false, c, out);
                    continue;
                }
                // An awk `var=value` operand is an assignment, not a file.
                if matches!(base, "awk" | "gawk" | "mawk" | "nawk") && is_assignment(&a.text) {
                    continue;
                }
                // `zip -m out.zip src`, `7z a -sdel out.7z src`: stored, then deleted.
                if p.has(Switch::RemovesInputs) {
                    read(a, c, out);
                    delete(a, true, c, out);
                    continue;
                }
                // An in-place edit (`sed -i`, `perl -pi`) rewrites the file and shows none of
                // it: a write.
                if in_place {
                    write_edited(a, edited.as_ref(), c, out);
                } else {
                    read(a, c, out);
                }
            }
            Role::Load => load(a, c, out),
            Role::Write if empties => delete(a, false, c, out),
            Role::Write => write(a, append, c, out),
            Role::Append => write(a, true, c, out),
            Role::Wipe => delete(a, true, c, out),
            Role::Script => script(a, c, out),
            Role::Delete if dry => {}
            Role::Delete => delete(a, recursive, c, out),
            _ => {}
        }
    }
    if p.row.rest == Role::Read && !names_only && p.operands.iter().all(|(r, _)| *r != Role::Read) {
        for r in &roots {
            read(r, c, out);
        }
    }
    if p.row.fallback == Fallback::Cwd
        && p.operands_of(Role::Delete).next().is_none()
        && p.row.rest == Role::Delete
    {
        // `git clean`: everything untracked below the working directory.
        if !dry {
            delete(
                &Arg {
                    text: ".".into(),
                    dynamic: false,
                },
                true,
                c,
                out,
            );
        }
    }
    // `rg -g '*.env'`, `grep --include=.env*`: the glob joined onto each search root.
    for g in p.values_of(Role::Glob) {
        if g.text.starts_with('!') {
            continue;
        }
        for r in &roots {
            let joined = join_glob(&r.text, &g.text);
            read(
                &Arg {
                    text: joined,
                    dynamic: r.dynamic || g.dynamic,
                },
                c,
                out,
            );
        }
    }
}

/// Whether a word is a `NAME=value` assignment.
fn is_assignment(t: &str) -> bool {
    t.split_once('=').is_some_and(|(n, _)| {
        !n.is_empty()
            && !n.starts_with(|ch: char| ch.is_ascii_digit())
            && n.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
    })
}

/// A search glob joined onto a root: `./**/*.env`, an absolute glob as is.
fn join_glob(root: &str, g: &str) -> String {
    let base = root.trim_end_matches('/');
    if g.starts_with('/') || g.starts_with('~') {
        g.to_string()
    } else if g.starts_with("**/") {
        format!("{base}/{g}")
    } else {
        format!("{base}/**/{g}")
    }
}

/// `-n` / `--dry-run` among the flags (`git clean -n`, `-fdn`, `--dry-run -fdx`).
fn dry_run(p: &Parsed) -> bool {
    p.has(Switch::DryRun)
}

/// `tar`: the archive (`-f`) is written when creating (`c`, `r`, `u`), read otherwise; the
/// other operands are read when creating and written (extracted) otherwise, `-C DIR` the
/// same way; listing (`t`) writes nothing. The old form `tar czf out.tgz dir` too.
fn tar(c: &SimpleCommand, p: &Parsed, out: &mut Out) {
    let mut flags = String::new();
    let mut archives: Vec<Arg> = Vec::new();
    let mut dirs: Vec<Arg> = Vec::new();
    let mut operands: Vec<&Arg> = Vec::new();
    // Values owed by the letters of a bundle (`czf out.tgz`: `f` takes the next word).
    let mut owed: Vec<char> = Vec::new();
    let mut i = 0;
    while let Some(a) = c.args.get(i) {
        i += 1;
        let t = a.text.as_str();
        let part = |v: &str| Arg {
            text: v.to_string(),
            dynamic: a.dynamic,
        };
        if let Some(letter) = (!owed.is_empty()).then(|| owed.remove(0)) {
            if letter == 'f' {
                archives.push(a.clone());
            } else {
                dirs.push(a.clone());
            }
            continue;
        }
        if let Some(long) = t.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((n, v)) => (n, Some(part(v))),
                None => (long, None),
            };
            let value = || value.clone().or_else(|| c.args.get(i).cloned());
            match name {
                "file" | "directory" => {
                    if let Some(v) = value() {
                        if name == "file" {
                            archives.push(v);
                        } else {
                            dirs.push(v);
                        }
                    }
                    if !long.contains('=') {
                        i += 1;
                    }
                }
                "create" | "append" | "update" => flags.push('c'),
                "list" => flags.push('t'),
                _ if !long.contains('=') && p.row.valued.contains(&t) => i += 1,
                _ => {}
            }
            continue;
        }
        let bundle = if let Some(b) = t.strip_prefix('-') {
            Some(b)
        } else if i == 1 && !t.is_empty() && t.chars().all(|ch| ch.is_ascii_alphabetic()) {
            // `tar czf …`: a first word of letters is a bundle.
            Some(t)
        } else {
            None
        };
        match bundle {
            Some(b) if !b.is_empty() => {
                for (k, ch) in b.char_indices() {
                    flags.push(ch);
                    if ch == 'f' || ch == 'C' {
                        let rest = &b[k + 1..];
                        if t.starts_with('-') && !rest.is_empty() {
                            let v = part(rest);
                            if ch == 'f' {
                                archives.push(v)
                            } else {
                                dirs.push(v)
                            }
                            break;
                        }
                        owed.push(ch);
                    }
                }
                if t.starts_with('-') && p.row.valued.contains(&t) {
                    i += 1;
                }
            }
            _ => operands.push(a),
        }
    }
    let creates = flags.contains(['c', 'r', 'u']);
    let lists = flags.contains('t') && !creates;
    for a in &archives {
        if creates {
            write(a, false, c, out);
        } else {
            read(a, c, out);
        }
    }
    if lists {
        return;
    }
    let removes = creates && p.has(Switch::RemovesInputs);
    for a in dirs.iter().chain(operands.iter().copied()) {
        if removes && !dirs.iter().any(|d| std::ptr::eq(d, a)) {
            // `tar cf x.tar --remove-files src`: stored, then deleted.
            read(a, c, out);
            delete(a, true, c, out);
        } else if creates {
            read(a, c, out);
        } else {
            write(a, false, c, out);
        }
    }
}

/// `cp`/`install`/`ln`/`mv`/`scp`/`rsync SOURCES… DEST`: sources read (sent when the
/// destination is remote, deleted by `mv`), the destination written (fetched into when a
/// source is remote); `rsync --delete` deletes in the destination.
pub(super) fn copy(c: &SimpleCommand, p: &Parsed, moves: bool, out: &mut Out) {
    let ops: Vec<&Arg> = p.operands.iter().map(|(_, a)| a).collect();
    // `install -m MODE`: what it writes gets the mode.
    let mode = p.values_of(Role::Mode).next();
    let set_mode = |a: &Arg, out: &mut Out| {
        if let (Some(m), Some(pr)) = (mode, path(a, c)) {
            out.push(What::ChangePermission {
                path: pr,
                mode: Some(m.text.clone()),
                recursive: false,
            });
        }
    };
    if p.has(Switch::AllWritten) {
        for a in ops {
            write(a, false, c, out);
            set_mode(a, out);
        }
        return;
    }
    let dest_opt: Option<&Arg> = p.values_of(Role::Dest).next();
    let (sources, dest): (Vec<&Arg>, Option<&Arg>) = match (dest_opt, ops.split_last()) {
        (Some(d), _) => (ops.clone(), Some(d)),
        (None, Some((last, rest))) if !rest.is_empty() => (rest.to_vec(), Some(*last)),
        (None, _) => (ops.clone(), None),
    };
    let dest_remote = dest.is_some_and(|d| is_remote(&d.text));
    let removes_sources = moves || p.has(Switch::Operation);
    let mut sent: Vec<BodySource> = Vec::new();
    for s in &sources {
        if is_remote(&s.text) {
            out.push(send_remote(s, Vec::new()));
            continue;
        }
        read(s, c, out);
        if removes_sources {
            // `mv notes.txt dir/` moves one file away; `mv ~/Documents /tmp/x` a folder
            // and everything in it. `rsync --remove-source-files -a` empties source trees.
            // A folder renamed where it is (`mv app app-v2`) keeps everything in it: only
            // its old name goes.
            let in_place =
                moves && sources.len() == 1 && dest.is_some_and(|d| renamed_in_place(s, d));
            // Either way its files live on where they went: a move, not a removal.
            let recursive = !in_place && (!moves || may_be_folder(s));
            delete_as(s, recursive, Gone::Moved, c, out);
        }
        if let Some(pr) = path(s, c) {
            sent.push(BodySource::File(pr));
        }
    }
    if let Some(d) = dest {
        if dest_remote {
            out.push(send_remote(d, sent));
        } else {
            if p.has(Switch::Delete) {
                delete(d, true, c, out);
            }
            write(d, false, c, out);
            set_mode(d, out);
        }
    }
}

/// `docker cp SRC DEST` / `kubectl cp SRC DEST`: the container side (`CTR:PATH`,
/// `NS/POD:PATH`) is a path in the container, read when it is the source; the host side is
/// read as a source, written as a destination; `-` (a tar stream on standard input or
/// output) is neither.
pub(super) fn container_copy(c: &SimpleCommand, p: &Parsed, out: &mut Out) {
    let ops: Vec<&Arg> = p.operands.iter().map(|(_, a)| a).collect();
    let [src, dest] = ops.as_slice() else {
        return;
    };
    match container_path(src) {
        Some(inside) => read(&inside, c, out),
        None if src.text != "-" => read(src, c, out),
        None => {}
    }
    if container_path(dest).is_none() && dest.text != "-" {
        write(dest, false, c, out);
    }
}

/// The path part of a `CONTAINER:PATH` operand (`svc:/app/.env` → `/app/.env`, `ns/pod:app/x`
/// → `app/x`), or `None` for a host path (`./x`, `/tmp/x`, `C:\x`).
fn container_path(a: &Arg) -> Option<Arg> {
    let (name, rest) = a.text.split_once(':')?;
    let host_like = name.is_empty()
        || name.starts_with(['.', '~', '/'])
        || (name.len() == 1 && name.chars().all(|ch| ch.is_ascii_alphabetic()));
    (!host_like).then(|| Arg {
        text: rest.to_string(),
        dynamic: a.dynamic,
    })
}

/// Whether a path operand may name a folder, as far as its text shows: anything but a last
/// component with a file extension (`notes.txt`, `.env.local`, `settings.json`). A trailing
/// `/`, `.`/`..`/`~`, a glob, a part only known at run time, or a name without extension
/// (`Documents`, `.ssh`, `/usr/bin/sudo`) may be a folder.
/// Whether `mv SRC DEST` gives `SRC` a new name in the folder it is in (`mv app app-v2`,
/// `mv ../app ../app-v2`): both known, the same folder, `DEST` no folder to move into
/// (`dir/`). A repository's `.git` renamed is history git no longer sees: not in place.
fn renamed_in_place(src: &Arg, dest: &Arg) -> bool {
    if src.dynamic || dest.dynamic || dest.text.ends_with('/') {
        return false;
    }
    let split = |t: &str| -> (String, String) {
        let t = t.trim_end_matches('/');
        match t.rsplit_once('/') {
            Some((dir, name)) => (dir.to_string(), name.to_string()),
            None => (".".to_string(), t.to_string()),
        }
    };
    let (src_dir, src_name) = split(&src.text);
    let (dest_dir, dest_name) = split(&dest.text);
    let plain = |n: &str| !n.is_empty() && n != "." && n != ".." && !n.contains(['*', '?', '[']);
    src_dir == dest_dir
        && plain(&src_name)
        && plain(&dest_name)
        && src_name != dest_name
        && src_name != ".git"
}

fn may_be_folder(a: &Arg) -> bool {
    let t = a.text.as_str();
    if a.dynamic || t.ends_with('/') || t.contains(['*', '?', '[']) {
        return true;
    }
    let last = t.rsplit('/').next().unwrap_or(t);
    match last.rfind('.') {
        Some(k) if k > 0 => {
            let ext = &last[k + 1..];
            !(1..=10).contains(&ext.len()) || !ext.chars().all(|ch| ch.is_ascii_alphanumeric())
        }
        _ => true,
    }
}

/// `chmod [-R] MODE PATHS`, `chown [-R] OWNER PATHS`, `setfacl -m ACL PATHS`.
pub(super) fn permission(c: &SimpleCommand, p: &Parsed, out: &mut Out) {
    let recursive = p.has(Switch::Recursive);
    let mut mode: Option<String> = p
        .operands_of(Role::Mode)
        .next()
        .or_else(|| p.values_of(Role::Mode).next())
        .map(|a| a.text.clone());
    // chown(1)'s and chgrp(1)'s first operand is an owner or a group, not a mode: said so,
    // so that an owner spelt in digits (`chown 666 f`, a user ID) reads as no mode.
    if let Some(m) = &mut mode {
        match c.basename() {
            "chown" => *m = format!("owner {m}"),
            "chgrp" => *m = format!("group {m}"),
            _ => {}
        }
    }
    let mut paths: Vec<&Arg> = p.operands_of(Role::Permission).collect();
    // `chmod -x f`: a mode spelled like an option; the word read as the mode is a path.
    if c.basename() == "chmod"
        && let Some(m) = p
            .other_flags
            .iter()
            .find(|f| f.text.len() > 1 && f.text[1..].chars().all(|ch| "rwxXst".contains(ch)))
    {
        if let Some(first) = p.operands_of(Role::Mode).next() {
            paths.insert(0, first);
        }
        mode = Some(m.text.clone());
    }
    for a in paths {
        if let Some(pr) = path(a, c) {
            out.push(What::ChangePermission {
                path: pr,
                mode: mode.clone(),
                recursive,
            });
        }
    }
}

/// `chattr [-R] [-v V] [-p P] +i|-a|=… PATHS`.
pub(super) fn chattr(c: &SimpleCommand, out: &mut Out) {
    let mut recursive = false;
    let mut modes: Vec<String> = Vec::new();
    let mut paths: Vec<&Arg> = Vec::new();
    let mut i = 0;
    while let Some(a) = c.args.get(i) {
        let t = a.text.as_str();
        match t {
            "-R" => recursive = true,
            "-V" | "-f" => {}
            "-v" | "-p" => i += 1,
            _ if t.starts_with(['+', '-', '=']) && t.len() > 1 => modes.push(t.to_string()),
            _ => paths.push(a),
        }
        i += 1;
    }
    let mode = (!modes.is_empty()).then(|| modes.join(" "));
    for a in paths {
        if let Some(pr) = path(a, c) {
            out.push(What::ChangePermission {
                path: pr,
                mode: mode.clone(),
                recursive,
            });
        }
    }
}

/// `find START… [EXPRESSION]`: with `-delete`, every start path goes, recursively.
pub(super) fn find(c: &SimpleCommand, p: &Parsed, out: &mut Out) {
    if !p.has(Switch::Delete) {
        return;
    }
    let mut starts: Vec<&Arg> = p.operands.iter().map(|(_, a)| a).collect();
    let dot = Arg {
        text: ".".into(),
        dynamic: false,
    };
    if starts.is_empty() {
        starts.push(&dot);
    }
    // `find . -name '*.pyc' -delete` deletes what matches below the start, not the start: a
    // name test (without `-o` or a negation, which widen it) names the entries.
    let args = &c.args;
    let widened = args
        .iter()
        .any(|a| matches!(a.text.as_str(), "-o" | "-or" | "!" | "-not"));
    let named = args.windows(2).find_map(|w| match w[0].text.as_str() {
        "-name" | "-iname" => Some(w[1].clone()),
        "-path" | "-ipath" | "-wholename" | "-iwholename" | "-regex" | "-iregex" => Some(Arg {
            text: "*".into(),
            dynamic: w[1].dynamic,
        }),
        _ => None,
    });
    for s in starts {
        match named.as_ref().filter(|_| !widened) {
            Some(name) => {
                let entries = Arg {
                    text: format!("{}/**/{}", s.text.trim_end_matches('/'), name.text),
                    dynamic: s.dynamic || name.dynamic,
                };
                delete(&entries, true, c, out);
            }
            None => delete(s, true, c, out),
        }
    }
}
