//! Output safety (docs/OUTPUT.md): rtl-gen never deletes or overwrites what it did not write,
//! leaves no staging folder after an interrupt, lets two runs into one output both succeed, and
//! checks every input before it writes anything.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{rtl_gen, stderr};

/// Asserts a refusal: exit status 2 and one line on stderr containing each of `needles`.
fn assert_refused(o: &Output, needles: &[&str]) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    for n in needles {
        assert!(err.contains(n), "{n:?} missing in {err}");
    }
}

/// Every path under `dir` (folders too) with file contents, sorted.
fn tree(dir: &Path) -> Vec<(String, Option<Vec<u8>>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            let rel = path.strip_prefix(dir).unwrap().display().to_string();
            if path.is_dir() {
                stack.push(path);
                out.push((rel, None));
            } else {
                out.push((rel, Some(std::fs::read(&path).unwrap())));
            }
        }
    }
    out.sort();
    out
}

/// Names in `dir` that are staging folders or files.
fn staging_in(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with(".rtl-gen-staging."))
                .collect()
        })
        .unwrap_or_default()
}

const MOD: &[&str] = &[
    "hash",
    "--kind",
    "modulo",
    "--addr-bits",
    "14",
    "--banks",
    "32",
    "--out",
    "o",
];

#[test]
fn user_data_in_the_block_folder_is_refused_unless_forced() {
    let tmp = tempfile::tempdir().unwrap();
    let block = tmp.path().join("o/hash_mod_n14_b32");
    std::fs::create_dir_all(block.join("sub")).unwrap();
    std::fs::write(block.join("notes.txt"), "mine").unwrap();
    std::fs::write(block.join("sub/data.bin"), [1, 2, 3]).unwrap();
    let before = tree(tmp.path());
    let o = rtl_gen(tmp.path(), MOD);
    assert_refused(&o, &["o/hash_mod_n14_b32", "--force", "did not write"]);
    assert_eq!(tree(tmp.path()), before, "nothing changed");

    // --force replaces it; a later run replaces its own block without --force.
    let forced = [MOD, &["--force"]].concat();
    assert!(rtl_gen(tmp.path(), &forced).status.success());
    assert!(!block.join("notes.txt").exists());
    assert!(block.join("hash_mod_n14_b32.json").is_file());
    std::fs::write(block.join("extra.txt"), "in a block folder rtl-gen wrote").unwrap();
    let o = rtl_gen(tmp.path(), MOD);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        !block.join("extra.txt").exists(),
        "regeneration replaces the block"
    );
    assert!(staging_in(&tmp.path().join("o")).is_empty());
}

#[test]
fn a_regular_file_at_the_block_path_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join("o")).unwrap();
    std::fs::write(tmp.path().join("o/hash_mod_n14_b32"), "a file").unwrap();
    let before = tree(tmp.path());
    let o = rtl_gen(tmp.path(), MOD);
    assert_refused(&o, &["o/hash_mod_n14_b32", "a file"]);
    assert_eq!(
        tree(tmp.path()),
        before,
        "nothing changed, nothing hidden beside it"
    );
    let forced = [MOD, &["--force"]].concat();
    assert!(rtl_gen(tmp.path(), &forced).status.success());
    assert!(tmp.path().join("o/hash_mod_n14_b32").is_dir());
    assert_eq!(
        std::fs::read_dir(tmp.path().join("o")).unwrap().count(),
        1,
        "only the block"
    );
}

#[test]
fn search_never_wipes_a_user_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let trace = tmp.path().join("t.trace");
    std::fs::write(&trace, "ld 0 32 64 96\nld 1 2 3 4\n").unwrap();
    std::fs::create_dir_all(tmp.path().join("mydata/sub")).unwrap();
    std::fs::write(tmp.path().join("mydata/sub/keep.txt"), "mine").unwrap();
    let args = [
        "search",
        "--trace",
        "t.trace",
        "--addr-bits",
        "8",
        "--banks",
        "4",
        "--kind",
        "bitvector-xor",
        "--heuristic",
        "exhaustive",
        "--out",
        "mydata",
    ];
    let before = tree(tmp.path());
    let o = rtl_gen(tmp.path(), &args);
    assert_refused(&o, &["mydata", "--force"]);
    assert_eq!(tree(tmp.path()), before);

    // A fresh folder gets a marker, so the next run may replace it.
    let args = args.map(|a| if a == "mydata" { "results" } else { a });
    let o = rtl_gen(tmp.path(), &args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(tmp.path().join("results/.rtl-gen-output").is_file());
    let o = rtl_gen(tmp.path(), &args);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn single_files_of_users_are_not_overwritten() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("mine.h"), "int mine;\n").unwrap();
    let cuda = [
        "cuda", "layout", "--layout", "rap", "--w", "8", "--out", "mine.h",
    ];
    assert_refused(&rtl_gen(tmp.path(), &cuda), &["mine.h"]);
    assert_eq!(
        std::fs::read(tmp.path().join("mine.h")).unwrap(),
        b"int mine;\n"
    );
    let cuda = cuda.map(|a| if a == "mine.h" { "gen.h" } else { a });
    assert!(rtl_gen(tmp.path(), &cuda).status.success());
    assert!(
        rtl_gen(tmp.path(), &cuda).status.success(),
        "its own file is replaced"
    );

    // Kernel traces: a user's file of the same name stops the run before any trace is written.
    std::fs::create_dir(tmp.path().join("k")).unwrap();
    std::fs::write(tmp.path().join("k/fwt.trace"), "ld 1\n").unwrap();
    let before = tree(tmp.path());
    assert_refused(
        &rtl_gen(tmp.path(), &["kernels", "--out", "k"]),
        &["k/fwt.trace"],
    );
    assert_eq!(tree(tmp.path()), before);

    // A plot path that is a user's file is refused before the simulation runs.
    std::fs::write(tmp.path().join("plot.svg"), "<svg/>").unwrap();
    let congestion = [
        "congestion",
        "--w",
        "16",
        "--trials",
        "10",
        "--quiet",
        "--plot",
        "plot.svg",
    ];
    assert_refused(&rtl_gen(tmp.path(), &congestion), &["plot.svg"]);
    let congestion = congestion.map(|a| if a == "plot.svg" { "new.svg" } else { a });
    assert!(rtl_gen(tmp.path(), &congestion).status.success());
    assert!(rtl_gen(tmp.path(), &congestion).status.success());
}

/// Starts a generation big enough to be interrupted while it writes.
fn start_big_generation(dir: &Path) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_rtl-gen"))
        .args([
            "hash",
            "--kind",
            "xor-matrix",
            "--addr-bits",
            "64",
            "--banks",
            "32",
            "--rows",
            "0x3,0x5,0x9,0x11,0x21",
            "--vectors",
            "500000",
            "--out",
            "o",
        ])
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// Sends `signal` to a process (this test's own child).
fn send(pid: u32, signal: i32) {
    // SAFETY: signalling a child process of this test.
    assert_eq!(
        unsafe { libc::kill(pid as i32, signal) },
        0,
        "signal {signal}"
    );
}

/// The state letter of process `pid` in `/proc/<pid>/stat` (`R`, `S`, `T` stopped, `Z` ended
/// but not yet reaped), or `None` when there is no such process.
fn process_state(pid: u32) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name in parentheses may hold spaces: the state follows its closing one.
    stat.rsplit_once(") ")?.1.chars().next()
}

/// Whether process `pid` exists and has not ended (a zombie has ended).
fn running(pid: u32) -> bool {
    process_state(pid).is_some_and(|s| s != 'Z')
}

/// Stops `pid` (SIGSTOP) and waits until it is stopped or has ended; true when it is stopped.
/// A stopped process does no work, so whatever was true of it when it stopped is still true
/// when the signal that follows is sent: the test knows the state it interrupts.
fn stop(pid: u32) -> bool {
    send(pid, libc::SIGSTOP);
    let start = Instant::now();
    loop {
        match process_state(pid) {
            Some('T') | Some('t') => return true,
            Some('Z') | None => return false,
            _ => {}
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{pid} did not stop"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Waits (at most `limit`) until `ready` holds.
fn wait_until(limit: Duration, what: &str, mut ready: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(start.elapsed() < limit, "{what} after {limit:?}");
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Starts the big generation in `dir` and sends it `signal` while it is known to be writing:
/// once its staging folder exists, the process is stopped, and the signal goes only if the
/// stopped process still has its staging folder (it has not swapped its result into place),
/// then the process continues and handles it. A generation that finished before it could be
/// stopped is started again (at most three times), so the outcome never depends on timing.
fn interrupt_big_generation(dir: &Path, signal: i32) -> std::process::Child {
    let out = dir.join("o");
    for _ in 0..3 {
        let mut child = start_big_generation(dir);
        wait_until(Duration::from_secs(120), "no staging folder", || {
            !staging_in(&out).is_empty() || child.try_wait().unwrap().is_some()
        });
        if stop(child.id()) && !staging_in(&out).is_empty() {
            send(child.id(), signal);
            send(child.id(), libc::SIGCONT);
            return child;
        }
        send(child.id(), libc::SIGCONT);
        assert!(child.wait().unwrap().success());
        std::fs::remove_dir_all(&out).unwrap();
    }
    panic!("the generation finished before it could be interrupted, three times");
}

#[test]
fn interrupted_generations_leave_no_staging_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("o");
    for (signal, code) in [(libc::SIGINT, 130), (libc::SIGTERM, 143)] {
        let mut child = interrupt_big_generation(tmp.path(), signal);
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(code), "signal {signal}: {status}");
        assert_eq!(staging_in(&out), Vec::<String>::new());
        // The output folder the interrupted run created is not left behind empty (issue 35).
        assert!(!out.exists(), "signal {signal} left {}", out.display());
    }

    // SIGKILL cannot be handled: the staging folder stays until the next run into the folder.
    let mut child = interrupt_big_generation(tmp.path(), libc::SIGKILL);
    assert!(child.wait().unwrap().code().is_none());
    assert_eq!(staging_in(&out).len(), 1);
    assert!(!out.join("hash_xormat_n64_b32").exists());
    let o = rtl_gen(tmp.path(), MOD);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(staging_in(&out), Vec::<String>::new());
}

/// Processes (other than this test) whose command line or working folder lies under `dir`.
fn processes_under(dir: &Path) -> Vec<String> {
    let dir = dir.canonicalize().unwrap();
    let me = std::process::id().to_string();
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .bytes()
                .all(|b| b.is_ascii_digit())
        })
        .filter(|e| e.file_name().to_string_lossy() != me)
        .filter_map(|e| {
            let cmdline = std::fs::read(e.path().join("cmdline")).ok()?;
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            let cwd = std::fs::read_link(e.path().join("cwd")).ok();
            (cmdline.contains(&*dir.to_string_lossy()) || cwd.is_some_and(|c| c.starts_with(&dir)))
                .then_some(cmdline)
        })
        .collect()
}

/// A stand-in for a tool (a simulator or its build) that never ends by itself: it answers
/// `--version` and `-V` with a version line; otherwise it starts a child of its own (`sleep`,
/// in its process group, as make starts g++), writes its own and the child's process ids to
/// `pids` and waits. Bounded: the sleep ends after two minutes should a test fail before it
/// is interrupted.
fn hanging_tool(dir: &Path, name: &str, pids: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    let script = format!(
        "#!/bin/sh\n\
         case \"$1\" in --version|-V) echo \"{name} 5.006 (stand-in)\"; exit 0;; esac\n\
         sleep 120 &\n\
         echo \"$$ $!\" > {pids}.part && mv {pids}.part {pids}\n\
         wait\n",
        pids = pids.display()
    );
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// Runs rtl-gen with `args` in `dir`, the tool that `variable` names stood in by a
/// [`hanging_tool`] called `name`; once the stand-in and its child run, sends SIGTERM and checks
/// that rtl-gen exits with 143 and that the stand-in and its child are ended (their group was
/// signalled before the exit). `label` names the case in failure messages.
fn interrupt_while_tool_runs(
    dir: &Path,
    args: &[&str],
    (variable, name): (&str, &str),
    label: &str,
) {
    let pids = dir.join(format!("{label}.pids"));
    let tool = hanging_tool(dir, name, &pids);
    let mut child = Command::new(env!("CARGO_BIN_EXE_rtl-gen"))
        .args(args)
        .env(variable, &tool)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let tool_pids = started_tool(&pids);
    send(child.id(), libc::SIGTERM);
    assert_eq!(child.wait().unwrap().code(), Some(143), "{label}");
    wait_until(Duration::from_secs(10), "the stand-in still runs", || {
        !tool_pids.iter().any(|&p| running(p))
    });
}

/// Waits until a [`hanging_tool`] has written `pids`; returns its and its child's process ids,
/// both running.
fn started_tool(pids: &Path) -> Vec<u32> {
    wait_until(
        Duration::from_secs(120),
        "the stand-in did not start",
        || pids.exists(),
    );
    let tool_pids: Vec<u32> = std::fs::read_to_string(pids)
        .unwrap()
        .split_whitespace()
        .map(|p| p.parse().unwrap())
        .collect();
    assert_eq!(tool_pids.len(), 2, "{tool_pids:?}");
    assert!(tool_pids.iter().all(|&p| running(p)), "{tool_pids:?}");
    tool_pids
}

/// An interrupted cosim ends the tool it runs, whichever step it is in: the build (Verilator's,
/// stood in by a tool that never ends) or the simulation (Icarus' `vvp`, stood in likewise).
/// The stand-ins make the interrupt land while a tool is known to be running, every time; the
/// real tools then build and pass the same block.
#[test]
fn an_interrupted_cosim_ends_its_simulator() {
    let tmp = tempfile::tempdir().unwrap();
    assert!(rtl_gen(tmp.path(), &["rap", "--w", "32", "--out", "o"])
        .status
        .success());
    let block = tmp.path().join("o/rap_w32");
    for (step, variable, simulator) in [
        ("build", "VERILATOR", "verilator"),
        ("simulation", "VVP", "iverilog"),
    ] {
        interrupt_while_tool_runs(
            tmp.path(),
            &["cosim", "o/rap_w32", "--simulator", simulator],
            (variable, &simulator.replace("iverilog", "vvp")),
            step,
        );
        assert_eq!(processes_under(tmp.path()), Vec::<String>::new(), "{step}");
        assert_eq!(staging_in(&tmp.path().join("o")), Vec::<String>::new());
        assert_eq!(staging_in(&block), Vec::<String>::new());
    }
    // The next run, with the real tools, builds again and passes.
    for simulator in ["verilator", "iverilog"] {
        let o = rtl_gen(
            tmp.path(),
            &["cosim", "o/rap_w32", "--simulator", simulator],
        );
        assert!(o.status.success(), "{simulator}: {}", stderr(&o));
    }
}

/// An interrupted proof ends its Yosys (stood in by a tool that never ends), as cosim does.
#[test]
fn an_interrupted_proof_ends_its_yosys() {
    let tmp = tempfile::tempdir().unwrap();
    assert!(rtl_gen(tmp.path(), MOD).status.success());
    interrupt_while_tool_runs(
        tmp.path(),
        &["prove", "o/hash_mod_n14_b32"],
        ("YOSYS", "yosys"),
        "prove",
    );
}

#[test]
fn concurrent_runs_into_one_output_both_succeed() {
    let tmp = tempfile::tempdir().unwrap();
    let fig5 = common::FIG5_HASH;
    // The reference: the same command alone, in another folder (the manifest records it).
    std::fs::create_dir(tmp.path().join("alone")).unwrap();
    let reference = tmp.path().join("alone/o");
    assert!(
        rtl_gen(&tmp.path().join("alone"), &[&fig5[..], &["o"]].concat())
            .status
            .success()
    );
    let out = tmp.path().join("o");
    for round in 0..4 {
        let spawn = || {
            Command::new(env!("CARGO_BIN_EXE_rtl-gen"))
                .args(fig5)
                .arg("o")
                .current_dir(tmp.path())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        };
        let (a, b) = (spawn(), spawn());
        for child in [a, b] {
            let o = child.wait_with_output().unwrap();
            assert!(o.status.success(), "round {round}: {}", stderr(&o));
        }
        assert_eq!(staging_in(&out), Vec::<String>::new(), "round {round}");
        assert_eq!(tree(&out), tree(&reference), "round {round}");
    }
}

#[test]
fn sweep_flow_and_synth_refuse_before_writing() {
    let tmp = tempfile::tempdir().unwrap();
    let p = tmp.path();
    let cases: [&[&str]; 5] = [
        &[
            "sweep", "hash", "--banks", "4,3", "--kinds", "modulo", "--out", "s",
        ],
        &["sweep", "structures", "--banks", "3", "--out", "s"],
        &["flow", "--simulator", "foo", "--out", "s"],
        &["flow", "--liberty", "missing.lib", "--out", "s"],
        &[
            "sweep",
            "hash",
            "--kinds",
            "modulo",
            "--banks",
            "4",
            "--liberty",
            "missing.lib",
            "--out",
            "s",
        ],
    ];
    for args in cases {
        let o = rtl_gen(p, args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert_eq!(stderr(&o).lines().count(), 1, "{args:?}: {}", stderr(&o));
        assert!(!p.join("s").exists(), "{args:?} wrote s/");
    }

    // synth with a liberty file that is not one: no synth/ folder, no synth.json.
    assert!(rtl_gen(p, MOD).status.success());
    std::fs::write(p.join("bad.lib"), "not a liberty file\n").unwrap();
    let block = p.join("o/hash_mod_n14_b32");
    let before = tree(&block);
    let o = rtl_gen(p, &["synth", "o/hash_mod_n14_b32", "--liberty", "bad.lib"]);
    assert_refused(&o, &["bad.lib"]);
    assert_eq!(tree(&block), before);
}

/// Issue 35: a user's `synth.json` in a block folder stops `synth` before Yosys runs (no
/// `synth/`); a second sweep into a user's folder replaces its own results; a block whose
/// vector file is missing or truncated is refused naming the file, before anything is built.
#[test]
fn refusals_come_before_any_work_and_reruns_recognise_their_own_files() {
    let tmp = tempfile::tempdir().unwrap();
    let p = tmp.path();
    assert!(rtl_gen(p, MOD).status.success());
    let block = p.join("o/hash_mod_n14_b32");
    std::fs::write(block.join("synth.json"), "{\"mine\": true}\n").unwrap();
    let before = tree(&block);
    let o = rtl_gen(p, &["synth", "o/hash_mod_n14_b32"]);
    assert_refused(&o, &["synth.json", "rtl-gen did not write it"]);
    assert_eq!(tree(&block), before);
    std::fs::remove_file(block.join("synth.json")).unwrap();

    std::fs::create_dir(p.join("mine")).unwrap();
    std::fs::write(p.join("mine/notes.txt"), "a user's notes").unwrap();
    let sweep = [
        "sweep",
        "hash",
        "--kinds",
        "modulo",
        "--addr-bits",
        "8",
        "--banks",
        "4",
        "--out",
        "mine",
        "--quiet",
    ];
    for round in 0..2 {
        let o = rtl_gen(p, &sweep);
        assert!(o.status.success(), "round {round}: {}", stderr(&o));
    }
    assert_eq!(
        std::fs::read_to_string(p.join("mine/notes.txt")).unwrap(),
        "a user's notes"
    );
    // A user's CSV with no rtl-gen JSON beside it is still refused, in words that read.
    std::fs::write(p.join("mine/results.json"), "{}\n").unwrap();
    let o = rtl_gen(p, &sweep);
    assert_refused(
        &o,
        &["mine/results.csv: a file without rtl-gen's author line is in the way"],
    );

    let expected = block.join("tb/hash_mod_n14_b32.expect.hex");
    let text = std::fs::read_to_string(&expected).unwrap();
    for (contents, needle) in [
        (None, "expected vectors cannot be read"),
        (Some(&text[..text.len() / 3]), "fewer than the 16384"),
    ] {
        match contents {
            Some(c) => std::fs::write(&expected, c).unwrap(),
            None => std::fs::remove_file(&expected).unwrap(),
        }
        for simulator in ["verilator", "iverilog"] {
            let o = rtl_gen(
                p,
                &["cosim", "o/hash_mod_n14_b32", "--simulator", simulator],
            );
            assert_refused(&o, &["hash_mod_n14_b32.expect.hex", needle]);
            assert!(!block.join("build").exists(), "{simulator} built");
        }
    }
}

/// The staging name and marker conventions the docs promise.
#[test]
fn outputs_carry_their_markers() {
    let tmp = tempfile::tempdir().unwrap();
    assert!(rtl_gen(tmp.path(), MOD).status.success());
    let manifest: PathBuf = tmp.path().join("o/hash_mod_n14_b32/hash_mod_n14_b32.json");
    let text = std::fs::read_to_string(manifest).unwrap();
    assert!(text.contains("\"generator\": \"rtl-gen "), "{text}");
}

/// `rtl-gen ... | head`: a reader that closed its end before rtl-gen printed. rtl-gen ends
/// quietly (killed by SIGPIPE, as other command-line tools are), with no panic on stderr.
#[cfg(unix)]
#[test]
fn a_closed_stdout_ends_rtl_gen_quietly() {
    use std::os::fd::{FromRawFd, OwnedFd};
    use std::os::unix::process::ExitStatusExt;
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe(2) writes.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: both descriptors were just opened by pipe(2) and are owned here alone.
    let (reader, writer) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    drop(reader);
    let o = Command::new(env!("CARGO_BIN_EXE_rtl-gen"))
        .args(["swizzle", "show", "--layout", "cute:Swizzle<3,4,3>"])
        .args(["--elem-bytes", "2", "--tile", "64x64", "--json"])
        .stdout(Stdio::from(writer))
        .output()
        .unwrap();
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.is_empty(), "nothing on stderr: {err}");
    assert_eq!(o.status.signal(), Some(libc::SIGPIPE), "{:?}", o.status);
}
