//! Writing an install and taking it back: each modified file is first copied to
//! `<file>.seamguard-backup`, every write is recorded in the [`Manifest`], and `--undo`
//! restores the backups byte for byte and removes what `init` created.
//!
//! In: planned [`Change`]s (install), or the manifest (undo). Out: the files on disk, one
//! report line per file, and the updated manifest.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::Options;
use super::layout::{Layout, disp, io_err};
use super::manifest::{Entry, Manifest, sha256};
use super::plan::Change;
use crate::report::exit_code;

/// Suffix of the backup copy of a modified file.
const BACKUP_SUFFIX: &str = ".seamguard-backup";

/// The file a write goes to: the target of a symlink (dotfile managers link settings files).
fn real_path(path: &Path) -> PathBuf {
    if path.is_symlink() {
        path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
    } else {
        path.to_path_buf()
    }
}

/// Write through a temporary file and a rename, keeping the old file's permissions.
pub(super) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let path = real_path(path);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.seamguard-tmp"));
    std::fs::write(&tmp, bytes).map_err(|e| io_err(&tmp, &e))?;
    if let Ok(meta) = std::fs::metadata(&path) {
        let _ = std::fs::set_permissions(&tmp, meta.permissions());
    }
    std::fs::rename(&tmp, &path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io_err(&path, &e)
    })
}

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

/// `--undo`: restore the backups, remove the files `init` created, then the folders it
/// created when empty; files edited since are kept (and named) unless `--force`.
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
    let mut kept = Vec::new();
    let mut failed = false;
    for e in std::mem::take(&mut manifest.files) {
        let file = layout.load(&e.path);
        let cur = std::fs::read(&file).ok();
        let unchanged = cur.as_deref().is_some_and(|c| sha256(c) == e.sha256);
        let result = match (&e.backup, unchanged || opts.force) {
            (backup, false) if cur.is_none() => {
                say!(
                    "  {} is gone already{}",
                    disp(&file),
                    backup
                        .as_ref()
                        .map(|b| format!("; its original is in {}", disp(&layout.load(b))))
                        .unwrap_or_default()
                );
                Ok(())
            }
            (_, false) => {
                say!(
                    "  kept {}: changed since init wrote it{}; --force to undo anyway",
                    disp(&file),
                    e.backup
                        .as_ref()
                        .map(|b| format!(" (the original is in {})", disp(&layout.load(b))))
                        .unwrap_or_default()
                );
                kept.push(e);
                continue;
            }
            (Some(b), true) => {
                let backup = layout.load(b);
                restore(&backup, &file, opts.dry_run)
            }
            (None, true) => {
                if opts.dry_run {
                    say!("  would remove {}", disp(&file));
                    Ok(())
                } else {
                    std::fs::remove_file(&file)
                        .map(|()| say!("  removed {}", disp(&file)))
                        .map_err(|err| io_err(&file, &err))
                }
            }
        };
        if let Err(err) = result {
            eprintln!("seamguard init: {err}");
            failed = true;
            kept.push(e);
        }
    }
    manifest.files = kept;
    if opts.dry_run {
        return Ok(ExitCode::SUCCESS);
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
