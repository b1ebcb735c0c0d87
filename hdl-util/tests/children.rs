//! `hdl_util::children`: an interrupt ends every running tool with its children, and no tool
//! starts after it. A test binary of its own: `terminate_all` ends and refuses the tools of the
//! whole process, so it must not share one with tests that run tools.

use hdl_util::children::{output, spawn, terminate_all};
use std::io;
use std::process::Command;
use std::time::{Duration, Instant};

#[test]
fn a_running_tool_and_its_children_are_ended_and_no_tool_starts_after() {
    // A shell that starts a child of its own and waits on it.
    let mut running = spawn(Command::new("sh").args(["-c", "sleep 30 & wait"])).unwrap();
    let group = running.child().id() as i32;
    terminate_all(Duration::from_millis(300));
    let status = running.child().wait().unwrap();
    assert!(!status.success());
    // SAFETY: probing the group (signal 0); once it is gone, nothing is signalled.
    let start = Instant::now();
    while unsafe { libc::kill(-group, 0) } == 0 {
        assert!(start.elapsed() < Duration::from_secs(5), "sleep survived");
        std::thread::sleep(Duration::from_millis(10));
    }
    let refused = output(Command::new("sh").args(["-c", "echo hi"])).unwrap_err();
    assert_eq!(refused.kind(), io::ErrorKind::Interrupted);
}
