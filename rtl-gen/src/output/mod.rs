//! Safe output: what rtl-gen may write, replace and delete, and how it writes so that an
//! interrupt, a crash or a second run at the same time never leaves a half-written or foreign
//! result behind.
//!
//! The rules (docs/OUTPUT.md):
//!
//! - **Never delete or overwrite what rtl-gen did not write.** A folder is rtl-gen's when it
//!   carries a marker: a block folder its manifest `<name>/<name>.json` (with `"generator":
//!   "rtl-gen ..."`), any other folder the file [`MARKER_FILE`]. A single file is rtl-gen's when
//!   its first lines name rtl-gen as their author ([`ownership`]), or when it lies in a folder
//!   that carries [`MARKER_FILE`]. Replacing anything else (a folder without a marker, a regular
//!   file where a folder goes, a user's file) is refused with one line and nothing changed,
//!   unless the user passes `--force` ([`set_force`]). An empty folder holds nothing to lose
//!   and may be replaced.
//! - **Atomic.** A folder or file is written under a staging name ([`staging`]) beside its
//!   destination and renamed into place only when complete.
//! - **Recognisable and cleaned.** Staging names are `.rtl-gen-staging.<name>.<pid>.<random>`;
//!   SIGINT, SIGTERM and SIGHUP remove the live ones before the process exits
//!   ([`cleanup::install_signal_handlers`]); one left by a killed process (SIGKILL, a crash) is
//!   removed by the next run that writes into the same folder, once its process is gone.
//! - **Concurrent runs** into one folder stage independently and swap their result into place
//!   one at a time under an advisory lock on the folder ([`lock`]): both succeed, and the last
//!   one's result (identical, since generation is deterministic) stays.

pub mod cleanup;
pub mod lock;
pub mod ownership;
pub mod staging;

use std::sync::atomic::{AtomicBool, Ordering};

pub use ownership::MARKER_FILE;
pub use staging::{write_file, OutputFolder, Staging};

/// Whether `--force` was given: replace what rtl-gen did not write.
static FORCE: AtomicBool = AtomicBool::new(false);

/// Allow (`true`) or refuse (`false`, the default) replacing folders and files that rtl-gen did
/// not write. Set once by the command line's `--force`; a process-wide setting so that every
/// writer below a command obeys it without threading a flag through each generator.
pub fn set_force(force: bool) {
    FORCE.store(force, Ordering::SeqCst);
}

/// Whether replacing what rtl-gen did not write is allowed ([`set_force`]).
pub fn force() -> bool {
    FORCE.load(Ordering::SeqCst)
}
