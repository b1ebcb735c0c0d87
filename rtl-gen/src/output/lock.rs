//! An advisory lock on an output folder, held while a finished result is swapped into place, so
//! that two runs writing the same destination take turns instead of tripping over each other.
//!
//! The lock is taken on the folder itself (`flock` on its descriptor): no lock file is left
//! behind, and the operating system releases it when a process dies.

use crate::Error;
use fs2::FileExt;
use std::fs::File;
use std::path::Path;

/// An exclusive lock on a folder, released when dropped.
pub struct DirLock {
    file: File,
}

impl DirLock {
    /// Waits for and takes the exclusive lock on `dir`.
    pub fn acquire(dir: &Path) -> Result<Self, Error> {
        let file = File::open(dir).map_err(Error::io(dir))?;
        file.lock_exclusive().map_err(Error::io(dir))?;
        Ok(Self { file })
    }
}

impl Drop for DirLock {
    fn drop(&mut self) {
        // Closing the descriptor releases the lock anyway; unlocking first just says so.
        let _ = FileExt::unlock(&self.file);
    }
}
