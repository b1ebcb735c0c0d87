//! Atomic output: a block is written into a hidden temporary folder beside its destination and
//! renamed into place only when every file is complete, so a failure leaves nothing behind.

use crate::Error;
use std::fs;
use std::path::{Path, PathBuf};

/// A block folder being written.
pub struct Staging {
    tmp: tempfile::TempDir,
    destination: PathBuf,
}

impl Staging {
    /// Starts writing `<out_dir>/<name>`; creates `out_dir` if needed.
    pub fn new(out_dir: &Path, name: &str) -> Result<Self, Error> {
        fs::create_dir_all(out_dir).map_err(Error::io(out_dir))?;
        let tmp = tempfile::Builder::new()
            .prefix(&format!(".{name}."))
            .tempdir_in(out_dir)
            .map_err(Error::io(out_dir))?;
        Ok(Self {
            tmp,
            destination: out_dir.join(name),
        })
    }

    /// The temporary folder (files written here appear in the destination on commit).
    pub fn path(&self) -> &Path {
        self.tmp.path()
    }

    /// Writes `contents` to `relative` inside the block, creating subfolders.
    pub fn write(&self, relative: &str, contents: &str) -> Result<(), Error> {
        let path = self.tmp.path().join(relative);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(Error::io(parent))?;
        }
        fs::write(&path, contents).map_err(Error::io(&path))
    }

    /// Moves the finished block into place, replacing an older block of the same name.
    pub fn commit(self) -> Result<PathBuf, Error> {
        let staged = self.tmp.keep();
        let destination = self.destination;
        if destination.exists() {
            let old = staged.with_extension("old");
            fs::rename(&destination, &old).map_err(Error::io(&destination))?;
            fs::rename(&staged, &destination).map_err(Error::io(&destination))?;
            fs::remove_dir_all(&old).map_err(Error::io(&old))?;
        } else {
            fs::rename(&staged, &destination).map_err(Error::io(&destination))?;
        }
        Ok(destination)
    }
}
