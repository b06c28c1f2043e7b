//! Writing an install and taking it back: each modified file is first copied to
//! `<file>.seamguard-backup`, every write is recorded in the [`Manifest`], and `--undo`
//! restores the backups byte for byte and removes what `init` created.
//!
//! In: planned [`Change`]s (install), or the manifest (undo). Out: the files on disk, one
//! report line per file, and the updated manifest.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::json_edit::{json_installed, parse_jsonc};
use super::layout::line_col;
use super::layout::{Layout, disp, io_err, real_path, write_atomic};
use super::manifest::{Entry, Manifest, sha256};
use super::options::Options;
use super::plan::{Change, Kind};
use super::toml_edit::parse_toml;
use super::unhook::{Before, Unhooked, unhook_json, unhook_toml};
use crate::report::exit_code;

/// Suffix of the backup copy of a modified file.
const BACKUP_SUFFIX: &str = ".seamguard-backup";

/// A backup name not taken yet: `<file>.seamguard-backup`, else `…-backup.2`, ….
fn free_backup(path: &Path) -> PathBuf {
    let base = format!("{}{BACKUP_SUFFIX}", path.display());
    let mut candidate = PathBuf::from(&base);
    let mut n = 2;
    while candidate.exists() || candidate.is_symlink() {
        candidate = PathBuf::from(format!("{base}.{n}"));
        n += 1;
    }
    candidate
}

/// Create `dir` and its missing parents, recording the ones created.
pub(super) fn create_dirs(
    layout: &Layout,
    dir: &Path,
    manifest: &mut Manifest,
) -> Result<(), String> {
    let mut missing = Vec::new();
    let mut cur = Some(dir);
    while let Some(d) = cur {
        if d.exists() {
            break;
        }
        missing.push(d.to_path_buf());
        cur = d.parent();
    }
    for d in missing.iter().rev() {
        std::fs::create_dir(d).map_err(|e| io_err(d, &e))?;
        let s = layout.store(d);
        if !manifest.dirs.contains(&s) {
            manifest.dirs.push(s);
        }
    }
    Ok(())
}

/// Apply one change (backing up the file first when it is new to the manifest); the report
/// line.
pub(super) fn apply_change(
    layout: &Layout,
    c: &Change,
    manifest: &mut Manifest,
) -> Result<String, String> {
    let stored = layout.store(&c.path);
    let idx = manifest.position(layout, &c.path);
    let Some(new) = &c.new else {
        std::fs::remove_file(&c.path).map_err(|e| io_err(&c.path, &e))?;
        if let Some(i) = idx {
            manifest.files.remove(i);
        }
        return Ok(format!("{}: {}", disp(&c.path), c.what));
    };
    let mut backup_note = String::new();
    match idx {
        Some(i) => {
            // Known file: its backup (or its creation) is recorded already.
            if let Some(e) = manifest.files.get_mut(i) {
                e.sha256 = sha256(new.as_bytes());
            }
        }
        None => {
            let mut entry = Entry {
                path: stored,
                kind: c.kind.name().into(),
                created: c.old.is_none(),
                backup: None,
                sha256: sha256(new.as_bytes()),
            };
            if c.old.is_some() {
                let backup = free_backup(&c.path);
                std::fs::copy(real_path(&c.path), &backup).map_err(|e| io_err(&backup, &e))?;
                backup_note = format!(" (backup: {})", disp(&backup));
                entry.backup = Some(layout.store(&backup));
            }
            manifest.files.push(entry);
        }
    }
    if let Some(parent) = c.path.parent() {
        create_dirs(layout, parent, manifest)?;
    }
    write_atomic(&c.path, new.as_bytes())?;
    Ok(format!("{}: {}{backup_note}", disp(&c.path), c.what))
}

/// `--undo`: take back what `init` did. Settings files first: one nobody edited since gets
/// its backup back byte for byte (or is removed when `init` created it); one edited since
/// keeps the edits and loses exactly what `init` added ([`unhook`]). Only when no settings
/// file still runs seamguard are the policy files removed (one edited since is kept and named
/// unless `--force`), then the folders `init` created when empty. Exit 1 when a settings file
/// could not be undone (its hooks would keep running seamguard on the built-in library).
pub(super) fn undo(opts: &Options) -> Result<ExitCode, String> {
    let layout = Layout::new(opts)?;
    let path = layout.manifest_path();
    let Some(mut manifest) = Manifest::read(&path)? else {
        return Err(format!(
            "nothing to undo: no {} (it records what `seamguard init` did)",
            disp(&path)
        ));
    };
    say!(
        "seamguard init --undo{}",
        if opts.dry_run { " (dry run)" } else { "" }
    );
    let (configs, policies): (Vec<Entry>, Vec<Entry>) = std::mem::take(&mut manifest.files)
        .into_iter()
        .partition(|e| e.kind == Kind::Config.name());
    let mut kept = Vec::new();
    let mut still_hooked = Vec::new();
    for e in configs {
        let file = layout.load(&e.path);
        if let Err(err) = undo_config(&layout, &e, opts.dry_run) {
            eprintln!("seamguard init: {err}");
            still_hooked.push(disp(&file));
            kept.push(e);
        }
    }
    let mut failed = !still_hooked.is_empty();
    if failed {
        // Removing the policies would leave hooks that run seamguard on the built-in library.
        say!(
            "  kept the policy files: {} still run(s) seamguard; fix it and run `seamguard init --undo` again",
            still_hooked.join(", ")
        );
        kept.extend(policies);
    } else {
        for e in policies {
            match undo_policy(&layout, e, opts) {
                Ok(None) => {}
                Ok(Some(e)) => kept.push(e),
                Err(e) => {
                    failed = true;
                    kept.push(e);
                }
            }
        }
    }
    manifest.files = kept;
    if opts.dry_run {
        return Ok(exit_code(failed));
    }
    // Created folders, deepest first, when empty (the manifest itself goes first).
    let dirs = std::mem::take(&mut manifest.dirs);
    if manifest.files.is_empty() {
        let _ = std::fs::remove_file(&path);
    }
    let mut left = Vec::new();
    for d in dirs.iter().rev() {
        let dir = layout.load(d);
        let empty = std::fs::read_dir(&dir).is_ok_and(|mut r| r.next().is_none());
        if empty && std::fs::remove_dir(&dir).is_ok() {
            continue;
        }
        if dir.exists() {
            left.push(d.clone());
        }
    }
    left.reverse();
    manifest.dirs = left;
    if !manifest.files.is_empty() {
        manifest.write(&layout)?;
    }
    Ok(exit_code(failed))
}

/// Undo one settings file `init` wrote (see [`undo`]).
///
/// # Errors
/// The file or its backup cannot be read or written, or the file no longer parses: `init`'s
/// hooks are still in it.
fn undo_config(layout: &Layout, e: &Entry, dry_run: bool) -> Result<(), String> {
    let file = layout.load(&e.path);
    let backup = e.backup.as_ref().map(|b| layout.load(b));
    let Some(cur) = std::fs::read(&file).ok() else {
        say!(
            "  {} is gone already{}",
            disp(&file),
            backup
                .as_ref()
                .map(|b| format!("; its original is in {}", disp(b)))
                .unwrap_or_default()
        );
        return Ok(());
    };
    if sha256(&cur) == e.sha256 {
        return match &backup {
            Some(b) => restore(b, &file, dry_run),
            None => remove(&file, "", dry_run),
        };
    }
    // Edited since: take out what `init` added, keep the rest.
    let original = match &backup {
        Some(b) => Some(std::fs::read_to_string(b).map_err(|err| io_err(b, &err))?),
        None => None,
    };
    let cur = String::from_utf8(cur).map_err(|_| format!("{}: not UTF-8", disp(&file)))?;
    let u = unhook(&file, &cur, original.as_deref())
        .map_err(|err| format!("could not take seamguard's hooks out of {err}"))?;
    if u.empty {
        return remove(
            &file,
            " (changed since init, nothing of the user's in it)",
            dry_run,
        );
    }
    if let (Some(b), Some(o)) = (&backup, &original)
        && u.text == *o
    {
        return restore(b, &file, dry_run);
    }
    let what = if u.removed.is_empty() {
        "nothing of init's left in it".to_string()
    } else {
        format!("took out {}", u.removed.join(" and "))
    };
    if dry_run {
        say!(
            "  would edit {} ({what}; edits since init kept)",
            disp(&file)
        );
        return Ok(());
    }
    if u.text != cur {
        write_atomic(&file, u.text.as_bytes())?;
    }
    if let Some(b) = &backup {
        std::fs::remove_file(b).map_err(|err| io_err(b, &err))?;
    }
    say!(
        "  edited {}: {what}; edits since init kept{}",
        disp(&file),
        backup
            .as_ref()
            .map(|b| format!(" ({} removed)", disp(b)))
            .unwrap_or_default()
    );
    Ok(())
}

/// Take `init`'s additions out of `current`, the text of `path` (a hooks JSON file, or a Codex
/// `config.toml` by its extension); `original` is the text before `init` (`None`: `init`
/// created the file). See [`super::unhook`].
///
/// # Errors
/// `current` or `original` does not parse: `file:line:col` and the parser's message.
fn unhook(path: &Path, current: &str, original: Option<&str>) -> Result<Unhooked, String> {
    if path.extension().is_some_and(|x| x == "toml") {
        let mut doc = parse_toml(path, current)?;
        let before = original.map(|t| parse_toml(path, t)).transpose()?;
        let removed = unhook_toml(&mut doc, before.as_ref());
        return Ok(Unhooked {
            text: doc.to_string(),
            removed,
            empty: false,
        });
    }
    let doc = match original {
        Some(t) if !t.trim().is_empty() => parse_jsonc(path, t)?,
        _ => serde_json::Value::Object(serde_json::Map::new()),
    };
    let had = json_installed(&doc);
    let before = Before {
        doc: &doc,
        had: &had,
        created: original.is_none(),
    };
    unhook_json(current, &before, super::is_handler).map_err(|(offset, msg)| {
        let (l, c) = line_col(current, offset);
        format!("{}:{l}:{c}: {msg}", disp(path))
    })
}

/// Remove a file `init` created; `note` follows its name in the report line.
fn remove(file: &Path, note: &str, dry_run: bool) -> Result<(), String> {
    if dry_run {
        say!("  would remove {}{note}", disp(file));
        return Ok(());
    }
    std::fs::remove_file(file).map_err(|err| io_err(file, &err))?;
    say!("  removed {}{note}", disp(file));
    Ok(())
}

/// Undo one policy file: removed when unchanged (or with `--force`), else kept and named.
/// `Ok(Some(entry))` when it stays in the manifest; `Err(entry)` when removing it failed (said
/// on stderr).
fn undo_policy(layout: &Layout, e: Entry, opts: &Options) -> Result<Option<Entry>, Entry> {
    let file = layout.load(&e.path);
    let Some(cur) = std::fs::read(&file).ok() else {
        say!("  {} is gone already", disp(&file));
        return Ok(None);
    };
    if sha256(&cur) != e.sha256 && !opts.force {
        say!(
            "  kept {}: changed since init wrote it; --force to remove it anyway",
            disp(&file)
        );
        return Ok(Some(e));
    }
    let result = match &e.backup {
        Some(b) => restore(&layout.load(b), &file, opts.dry_run),
        None => remove(&file, "", opts.dry_run),
    };
    match result {
        Ok(()) => Ok(None),
        Err(err) => {
            eprintln!("seamguard init: {err}");
            Err(e)
        }
    }
}

/// Put a backup back byte for byte and drop the backup.
fn restore(backup: &Path, file: &Path, dry_run: bool) -> Result<(), String> {
    let bytes = std::fs::read(backup).map_err(|e| io_err(backup, &e))?;
    if dry_run {
        say!("  would restore {} from {}", disp(file), disp(backup));
        return Ok(());
    }
    write_atomic(file, &bytes)?;
    std::fs::remove_file(backup).map_err(|e| io_err(backup, &e))?;
    say!("  restored {} from {}", disp(file), disp(backup));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const CMD: &str = "seamguard hook --dialect claude-code";

    fn group(cmd: &str) -> String {
        format!(r#"{{"hooks":[{{"type":"command","command":"{cmd}"}}]}}"#)
    }

    #[test]
    fn takes_out_what_init_added_and_keeps_the_users_edits() {
        use super::super::json_edit::{Shape, add_json_hooks};
        use std::collections::BTreeSet;
        let original = format!(
            "{{\n  \"model\": \"opus\",\n  \"hooks\": {{\n    \"PreToolUse\": [\n      {}\n    ]\n  }}\n}}\n",
            group("./mine.sh")
        );
        let shape = Shape::Grouped {
            block_on_failure: true,
            jsonc: false,
        };
        let (installed, added) = add_json_hooks(
            Path::new("s.json"),
            Some(&original),
            &["PreToolUse", "Stop"],
            &BTreeSet::new(),
            CMD,
            shape,
        )
        .unwrap()
        .unwrap();
        assert_eq!(added, ["PreToolUse", "Stop"]);
        // The user's edit after init: another model.
        let current = installed.replace("opus", "sonnet");
        let u = unhook(Path::new("s.json"), &current, Some(&original)).unwrap();
        assert_eq!(u.text, original.replace("opus", "sonnet"));
        assert_eq!(u.removed, ["2 seamguard handler(s)"]);
        assert!(!u.empty);
    }

    #[test]
    fn a_handler_the_user_had_before_stays_and_a_created_file_ends_empty() {
        let original = format!("{{\"hooks\":{{\"Stop\":[{}]}}}}", group(CMD));
        let current = format!(
            "{{\"hooks\":{{\"Stop\":[{}],\"PreToolUse\":[{}]}}}}",
            group(CMD),
            group(CMD)
        );
        let u = unhook(Path::new("s.json"), &current, Some(&original)).unwrap();
        assert_eq!(u.text, original);
        let created = format!(
            "{{\n  \"version\": 1,\n  \"hooks\": {{\n    \"preToolUse\": [{{\"command\": \"{CMD}\", \"failClosed\": true}}]\n  }}\n}}\n"
        );
        let u = unhook(Path::new("hooks.json"), &created, None).unwrap();
        assert_eq!((u.text.as_str(), u.empty), ("{}\n", true));
    }

    #[test]
    fn codex_features_flag_goes_back_to_false_and_broken_json_is_an_error() {
        let u = unhook(
            Path::new("config.toml"),
            "model = \"o3\"\n[features]\nhooks = true # on\n",
            Some("[features]\nhooks = false # on\n"),
        )
        .unwrap();
        assert_eq!(u.text, "model = \"o3\"\n[features]\nhooks = false # on\n");
        assert_eq!(u.removed, ["features.hooks = true"]);
        let e = unhook(Path::new("s.json"), "{\"hooks\": {", Some("{}")).unwrap_err();
        assert!(e.starts_with("s.json:1:"), "{e}");
    }
}
