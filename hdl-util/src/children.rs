//! The external tools this process has running, so that an interrupt ends them too.
//!
//! A tool (Verilator with its make and C++ compiler, Yosys, Icarus) is started in a process
//! group of its own, recorded while it runs, and [`terminate_all`] ends every recorded group:
//! a SIGTERM sent to rtl-gen alone would otherwise leave them running, orphaned, writing into
//! folders that the interrupted command is about to clean up.

use std::io;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Output, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Process group ids of the tools running now, and whether [`terminate_all`] has run (then
/// no tool may start: the process is about to exit and would leave it orphaned).
static RUNNING: Mutex<(Vec<i32>, bool)> = Mutex::new((Vec::new(), false));

/// A tool started by [`spawn`]: its process, recorded until it is dropped.
pub struct Running {
    child: Child,
    record: Record,
}

/// The record of a running tool's process group, removed when dropped.
struct Record(i32);

impl Drop for Record {
    fn drop(&mut self) {
        let mut running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = running.0.iter().position(|g| *g == self.0) {
            running.0.swap_remove(i);
        }
    }
}

/// Starts `cmd` in a process group of its own and records the group until the returned
/// [`Running`] is dropped. Refused (`ErrorKind::Interrupted`) once [`terminate_all`] has run.
pub fn spawn(cmd: &mut Command) -> io::Result<Running> {
    // Hold the record while starting, so that an interrupt cannot fall between the start and
    // the record.
    let mut running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    if running.1 {
        return Err(io::Error::new(
            io::ErrorKind::Interrupted,
            "the process is being interrupted",
        ));
    }
    let child = cmd.process_group(0).spawn()?;
    let group = i32::try_from(child.id()).unwrap_or(i32::MAX);
    running.0.push(group);
    Ok(Running {
        child,
        record: Record(group),
    })
}

/// Runs `cmd` to its end as [`spawn`] does, collecting its output like [`Command::output`].
pub fn output(cmd: &mut Command) -> io::Result<Output> {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let Running { child, record } = spawn(cmd)?;
    let out = child.wait_with_output();
    drop(record);
    out
}

impl Running {
    /// The tool's process.
    pub fn child(&mut self) -> &mut Child {
        &mut self.child
    }

    /// Ends the tool and everything it started (SIGKILL to its process group) and reaps it.
    pub fn kill(&mut self) {
        // SAFETY: signalling a process group this process created.
        unsafe { libc::kill(-self.record.0, libc::SIGKILL) };
        let _ = self.child.wait();
    }
}

/// Ends every running tool's process group: SIGTERM, then SIGKILL to whatever is left after
/// `grace`, and refuses every later [`spawn`] (a tool started after this, between two steps of
/// the interrupted command, would outlive the exit). For a signal handler about to exit the
/// process.
pub fn terminate_all(grace: Duration) {
    let mut guard = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    guard.1 = true;
    let running = &guard.0;
    // SAFETY: signalling process groups this process created.
    let signal = |group: i32, signal: i32| unsafe { libc::kill(-group, signal) == 0 };
    for group in running.iter() {
        signal(*group, libc::SIGTERM);
    }
    let start = Instant::now();
    while start.elapsed() < grace && running.iter().any(|g| signal(*g, 0)) {
        std::thread::sleep(Duration::from_millis(10));
    }
    for group in running.iter() {
        signal(*group, libc::SIGKILL);
    }
}
