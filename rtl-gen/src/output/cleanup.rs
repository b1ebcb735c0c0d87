//! Staging names, and their removal: by a signal handler when the process is interrupted, and by
//! the next run when the process that made them was killed outright.

use rand::Rng;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, RwLock, RwLockReadGuard};
use std::time::Duration;

/// The prefix of every staging name: `.rtl-gen-staging.<name>.<pid>.<random>`.
pub const STAGING_PREFIX: &str = ".rtl-gen-staging.";

/// Staging folders and files this process has under way, removed if a signal ends it.
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Output folders this process created and has not yet filled: removed, innermost first and
/// each only while empty, if a signal ends the process ([`CreatedFolders`]).
static CREATED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Held shared by every write into a staging path and every swap of a result into place, and
/// taken exclusively by the signal handler: a writer blocked on it can no longer recreate a
/// staging folder the handler removed (`create_dir_all` would), nor leave a swap half done.
static WRITING: RwLock<()> = RwLock::new(());

/// Set by the signal handler before it takes [`WRITING`]: a write that has not started waits
/// for the exit (the lock alone would let a reader in between two holders).
static STOPPING: AtomicBool = AtomicBool::new(false);

/// Waits for the exit when a signal is being handled (its handler ends the process with the
/// signal's status): a command whose tool the handler ended must not exit first with an error
/// of its own. Returns at once otherwise.
pub fn await_signal_exit() {
    if STOPPING.load(Ordering::SeqCst) {
        loop {
            std::thread::park();
        }
    }
}

/// The shared hold on [`WRITING`] for one write or swap; never nest two in one thread. Once a
/// signal is being handled, it never returns: the process is about to exit.
pub fn writing() -> RwLockReadGuard<'static, ()> {
    let guard = WRITING.read().unwrap_or_else(|e| e.into_inner());
    if STOPPING.load(Ordering::SeqCst) {
        drop(guard);
        loop {
            std::thread::park();
        }
    }
    guard
}

/// A fresh staging path for `name` in `dir`: `.rtl-gen-staging.<name>.<pid>.<8 hex digits>`.
pub fn staging_path(dir: &Path, name: &str) -> PathBuf {
    let random: u32 = rand::thread_rng().gen();
    dir.join(format!(
        "{STAGING_PREFIX}{name}.{}.{random:08x}",
        std::process::id()
    ))
}

/// The process id in a staging name, if `file_name` is one.
pub fn staging_pid(file_name: &str) -> Option<u32> {
    let rest = file_name.strip_prefix(STAGING_PREFIX)?;
    let mut parts = rest.rsplitn(3, '.');
    let random = parts.next()?;
    let pid = parts.next()?;
    let name = parts.next()?;
    (random.len() == 8 && random.bytes().all(|b| b.is_ascii_hexdigit()) && !name.is_empty())
        .then(|| pid.parse().ok())
        .flatten()
}

/// A staging path registered for removal on a signal; unregistered when dropped.
pub struct Registered {
    path: PathBuf,
}

impl Registered {
    /// Registers `path` (not yet created) for removal if a signal ends the process.
    pub fn new(path: PathBuf) -> Self {
        LIVE.lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(path.clone());
        Self { path }
    }

    /// The registered path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        let mut live = LIVE.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = live.iter().position(|p| *p == self.path) {
            live.swap_remove(i);
        }
    }
}

/// The folders [`create_folder`] made for one output (innermost first). Until
/// [`CreatedFolders::keep`] (the output is in place), a signal that ends the process, or
/// dropping them (the output failed), removes each one that is still empty, so an interrupted
/// or failed run leaves no empty output folder behind.
pub struct CreatedFolders {
    folders: Vec<PathBuf>,
}

impl CreatedFolders {
    /// The output is in place: the folders stay.
    pub fn keep(&mut self) {
        let mut created = CREATED.lock().unwrap_or_else(|e| e.into_inner());
        created.retain(|p| !self.folders.contains(p));
        self.folders.clear();
    }
}

impl Drop for CreatedFolders {
    fn drop(&mut self) {
        let folders = std::mem::take(&mut self.folders);
        let mut created = CREATED.lock().unwrap_or_else(|e| e.into_inner());
        created.retain(|p| !folders.contains(p));
        drop(created);
        for folder in &folders {
            // Fails, leaving it, when something is in it (another run's output).
            let _ = std::fs::remove_dir(folder);
        }
    }
}

/// Creates `dir` and the folders above it that are missing, as `create_dir_all` does, and
/// returns those this call created, registered for removal ([`CreatedFolders`]). A folder
/// another process creates at the same time is not counted as this one's.
pub fn create_folder(dir: &Path) -> std::io::Result<CreatedFolders> {
    let mut missing: Vec<&Path> = dir
        .ancestors()
        .take_while(|d| !d.as_os_str().is_empty() && std::fs::symlink_metadata(d).is_err())
        .collect();
    missing.reverse();
    let mut created = CreatedFolders {
        folders: Vec::new(),
    };
    let _writing = writing();
    for folder in missing {
        match std::fs::create_dir(folder) {
            Ok(()) => {
                created.folders.insert(0, folder.to_path_buf());
                CREATED
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(folder.to_path_buf());
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
    }
    std::fs::create_dir_all(dir)?;
    Ok(created)
}

/// Removes a folder or file, whichever `path` is; nothing if it is gone.
pub fn remove(path: &Path) -> std::io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
        Ok(m) if m.is_dir() => match std::fs::remove_dir_all(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            other => other,
        },
        Ok(_) => match std::fs::remove_file(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            other => other,
        },
    }
}

/// Whether a process with id `pid` exists.
fn alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: signal 0 only checks that the process exists and may be signalled.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// Removes the staging folders and files in `dir` whose process is gone (left by a run that was
/// killed or crashed). Best effort: what cannot be removed now is left for a later run.
pub fn remove_stale(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(staging_pid) else {
            continue;
        };
        if pid != std::process::id() && !alive(pid) {
            let _ = remove(&entry.path());
        }
    }
}

/// Removes every registered staging path, then every output folder this process created that
/// is left empty ([`create_folder`]), once no thread writes into one: the exclusive hold
/// on [`WRITING`] waits for the writes under way and is kept until the process exits.
fn remove_live() {
    let stopped = WRITING.write().unwrap_or_else(|e| e.into_inner());
    let live = LIVE.lock().unwrap_or_else(|e| e.into_inner());
    for path in live.iter() {
        let _ = remove(path);
    }
    let created = CREATED.lock().unwrap_or_else(|e| e.into_inner());
    for folder in created.iter().rev() {
        let _ = std::fs::remove_dir(folder);
    }
    std::mem::forget(stopped);
}

/// Installs handlers for SIGINT, SIGTERM and SIGHUP that end the tools this process runs
/// (Verilator, Icarus, Yosys: [`hdl_util::children`]), remove its staging folders and files,
/// then exit with status 128 + the signal's number (130 for SIGINT, 143 for
/// SIGTERM), as a shell reports a process killed by it. Call once, early in `main`.
pub fn install_signal_handlers() -> std::io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::Builder::new()
        .name("rtl-gen-signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                STOPPING.store(true, Ordering::SeqCst);
                hdl_util::children::terminate_all(Duration::from_secs(2));
                remove_live();
                std::process::exit(128 + signal);
            }
        })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn staging_names_carry_the_pid() {
        let p = staging_path(Path::new("/x"), "hash_mod.v1");
        let name = p.file_name().unwrap().to_str().unwrap();
        assert!(name.starts_with(".rtl-gen-staging.hash_mod.v1."), "{name}");
        assert_eq!(staging_pid(name), Some(std::process::id()));
        assert_eq!(staging_pid(".rtl-gen-staging.a.12.0000000g"), None);
        assert_eq!(staging_pid(".rtl-gen-staging.12.0000000a"), None);
        assert_eq!(staging_pid(".hash.abc"), None);
    }

    #[test]
    fn stale_entries_of_dead_processes_are_removed() {
        let tmp = tempfile::tempdir().unwrap();
        // A pid above Linux's maximum (2^22) is never alive.
        let dead = tmp.path().join(".rtl-gen-staging.blk.4999999.0badcafe");
        std::fs::create_dir_all(dead.join("tb")).unwrap();
        let mine = staging_path(tmp.path(), "blk");
        std::fs::create_dir(&mine).unwrap();
        let user = tmp.path().join(".rtl-gen-staging-notes");
        std::fs::write(&user, "x").unwrap();
        remove_stale(tmp.path());
        assert!(!dead.exists());
        assert!(mine.exists() && user.exists());
    }
}
