//! Writing folders and files atomically under a recognisable staging name, and swapping them
//! into place under the folder's lock without replacing anything rtl-gen did not write.

use super::cleanup::{self, Registered};
use super::lock::DirLock;
use super::ownership::{self, check_replaceable, file_state, folder_state, Found, MARKER_FILE};
use crate::Error;
use std::fs;
use std::path::{Path, PathBuf};

/// A folder being written: created under a staging name in its destination's parent and renamed
/// into place by [`Staging::commit`]. Dropped without a commit, it is removed.
pub struct Staging {
    staged: Registered,
    out_dir: PathBuf,
    name: String,
    /// The folders created for `out_dir`, removed with the staging folder unless committed.
    created: cleanup::CreatedFolders,
}

impl Staging {
    /// Starts writing the block folder `<out_dir>/<name>` (its marker is the manifest the caller
    /// writes into it); creates `out_dir` if needed. Refuses, before creating anything, when
    /// `<out_dir>/<name>` is something rtl-gen did not write.
    pub fn new(out_dir: &Path, name: &str) -> Result<Self, Error> {
        Self::start(out_dir, name, false)
    }

    /// Starts writing the folder `<out_dir>/<name>` that is not a block (a search result): like
    /// [`Staging::new`], and the folder gets the marker file [`MARKER_FILE`].
    pub fn folder(out_dir: &Path, name: &str) -> Result<Self, Error> {
        Self::start(out_dir, name, true)
    }

    /// Checks, writing nothing, that the folder `<out_dir>/<name>` could be written: what is
    /// there (if anything) is rtl-gen's, or `--force` was given.
    pub fn check(out_dir: &Path, name: &str) -> Result<(), Error> {
        OutputFolder::check(out_dir)?;
        let destination = out_dir.join(name);
        check_replaceable(&destination, &folder_state(&destination))
    }

    fn start(out_dir: &Path, name: &str, marker: bool) -> Result<Self, Error> {
        Self::check(out_dir, name)?;
        let created = cleanup::create_folder(out_dir).map_err(Error::io(out_dir))?;
        cleanup::remove_stale(out_dir);
        let staged = Registered::new(cleanup::staging_path(out_dir, name));
        let writing = cleanup::writing();
        fs::create_dir(staged.path()).map_err(Error::io(staged.path()))?;
        drop(writing);
        let staging = Self {
            staged,
            out_dir: out_dir.to_path_buf(),
            name: name.to_string(),
            created,
        };
        if marker {
            staging.write(MARKER_FILE, &ownership::marker_text())?;
        }
        Ok(staging)
    }

    /// The staging folder (files written here appear in the destination on commit).
    pub fn path(&self) -> &Path {
        self.staged.path()
    }

    /// Writes `contents` to `relative` inside the folder, creating subfolders.
    pub fn write(&self, relative: &str, contents: &str) -> Result<(), Error> {
        let path = self.path().join(relative);
        let _writing = cleanup::writing();
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(Error::io(parent))?;
        }
        fs::write(&path, contents).map_err(Error::io(&path))
    }

    /// Moves the finished folder into place, replacing an earlier one that rtl-gen wrote (or,
    /// with `--force`, whatever is there), and returns its path. Runs under the lock of the
    /// parent folder, so a concurrent run into the same destination waits for its turn.
    pub fn commit(mut self) -> Result<PathBuf, Error> {
        let destination = self.out_dir.join(&self.name);
        let lock = DirLock::acquire(&self.out_dir)?;
        let found = folder_state(&destination);
        check_replaceable(&destination, &found)?;
        let aside = swap_in(self.path(), &destination, &self.out_dir, &self.name, &found)?;
        self.created.keep();
        drop(lock);
        if let Some(aside) = aside {
            cleanup::remove(aside.path()).map_err(Error::io(aside.path()))?;
        }
        Ok(destination)
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        // After a commit the staging path no longer exists; otherwise this discards it.
        let _ = cleanup::remove(self.path());
    }
}

/// Renames `staged` to `destination`, first moving what `found` says is there aside under a
/// staging name (returned, registered, for the caller to delete outside the lock).
fn swap_in(
    staged: &Path,
    destination: &Path,
    dir: &Path,
    name: &str,
    found: &Found,
) -> Result<Option<Registered>, Error> {
    let _writing = cleanup::writing();
    let aside = if *found == Found::Absent {
        None
    } else {
        let aside = Registered::new(cleanup::staging_path(dir, name));
        fs::rename(destination, aside.path()).map_err(Error::io(destination))?;
        Some(aside)
    };
    fs::rename(staged, destination).map_err(Error::io(destination))?;
    Ok(aside)
}

/// Writes the file `path` atomically (a staging file renamed into place), creating its folder.
/// Refuses, before writing anything, to replace a file rtl-gen did not write
/// ([`ownership::file_state`]) unless `--force` was given.
pub fn write_file(path: &Path, contents: &[u8]) -> Result<(), Error> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    OutputFolder::check(dir)?;
    check_replaceable(path, &file_state(path))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| Error::NotOurs {
            path: path.to_path_buf(),
            what: "a path without a file name",
        })?;
    let mut created = cleanup::create_folder(dir).map_err(Error::io(dir))?;
    cleanup::remove_stale(dir);
    let staged = Registered::new(cleanup::staging_path(dir, &name));
    let result = (|| {
        {
            let _writing = cleanup::writing();
            fs::write(staged.path(), contents).map_err(Error::io(path))?;
        }
        let lock = DirLock::acquire(dir)?;
        let found = file_state(path);
        check_replaceable(path, &found)?;
        if found == Found::Foreign("a folder") {
            // Only with --force: a file cannot be renamed over a folder.
            let aside = swap_in(staged.path(), path, dir, &name, &found)?;
            drop(lock);
            if let Some(aside) = aside {
                cleanup::remove(aside.path()).map_err(Error::io(aside.path()))?;
            }
            return Ok(());
        }
        let _writing = cleanup::writing();
        fs::rename(staged.path(), path).map_err(Error::io(path))
    })();
    match result {
        Ok(()) => created.keep(),
        Err(_) => {
            let _ = cleanup::remove(staged.path());
        }
    }
    result
}

/// A folder rtl-gen writes files into one at a time (a sweep's output, the kernel traces, a
/// synthesis work folder): each file then goes through [`write_file`].
pub struct OutputFolder;

impl OutputFolder {
    /// Checks that `dir` can hold rtl-gen's files and creates it: absent or empty, it is created
    /// with the marker [`MARKER_FILE`] (so every file in it is rtl-gen's); a folder that
    /// already has a marker, or a user's folder (whose files are then never replaced unless
    /// they name rtl-gen), is used as it is. A file in the way is refused (without `--force`).
    pub fn open(dir: &Path) -> Result<PathBuf, Error> {
        Self::check(dir)?;
        let claim = match fs::metadata(dir) {
            Ok(m) if m.is_dir() => fs::read_dir(dir).is_ok_and(|mut e| e.next().is_none()),
            // A file or a dangling link, and --force (checked above).
            _ => {
                cleanup::remove(dir).map_err(Error::io(dir))?;
                true
            }
        };
        if claim {
            fs::create_dir_all(dir).map_err(Error::io(dir))?;
            let marker = dir.join(MARKER_FILE);
            fs::write(&marker, ownership::marker_text()).map_err(Error::io(&marker))?;
        }
        Ok(dir.to_path_buf())
    }

    /// The check of [`OutputFolder::open`] alone, writing nothing: a file where the folder goes
    /// is refused without `--force` (a link to a folder is followed). What is not there when
    /// first looked at is looked at again without following links: a dangling link is refused,
    /// while a folder that appeared in between (another job of the same sweep creating it) is
    /// accepted.
    pub fn check(dir: &Path) -> Result<(), Error> {
        match fs::metadata(dir) {
            Ok(m) if m.is_dir() => Ok(()),
            Ok(_) => check_replaceable(dir, &Found::Foreign("a file")),
            Err(_) => match fs::symlink_metadata(dir) {
                Ok(m) if m.file_type().is_symlink() => {
                    check_replaceable(dir, &Found::Foreign("a dangling symbolic link"))
                }
                Ok(m) if m.is_dir() => Ok(()),
                Ok(_) => check_replaceable(dir, &Found::Foreign("a file")),
                Err(_) => Ok(()),
            },
        }
    }

    /// Checks, writing nothing, that each of `files` could be written by [`write_file`].
    pub fn check_files<'a>(files: impl IntoIterator<Item = &'a Path>) -> Result<(), Error> {
        files
            .into_iter()
            .try_for_each(|f| check_replaceable(f, &file_state(f)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder's check: nothing there or a folder is accepted, a dangling link or a file is
    /// refused (without `--force`, the default).
    #[test]
    fn a_dangling_link_is_refused_and_a_folder_accepted() {
        let tmp = tempfile::tempdir().unwrap();
        let absent = tmp.path().join("absent");
        assert!(OutputFolder::check(&absent).is_ok());
        let folder = tmp.path().join("folder");
        fs::create_dir(&folder).unwrap();
        assert!(OutputFolder::check(&folder).is_ok());
        let link = tmp.path().join("link");
        std::os::unix::fs::symlink(tmp.path().join("nowhere"), &link).unwrap();
        let refused = OutputFolder::check(&link).unwrap_err().to_string();
        assert!(refused.contains("a dangling symbolic link"), "{refused}");
        let file = tmp.path().join("file");
        fs::write(&file, "a user's file").unwrap();
        let refused = OutputFolder::check(&file).unwrap_err().to_string();
        assert!(refused.contains("a file"), "{refused}");
    }
}
