//! `rtl-gen vortex`: bad input is refused in one line naming the flag, the value and what is
//! allowed, with exit status 2 and nothing written (no build starts).

mod common;

use common::{rtl_gen, stderr, stdout};
use std::path::Path;

/// The pinned Vortex copy, from a test's temporary folder.
fn vortex() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/third_party/vortex")
        .display()
        .to_string()
}

#[test]
fn bad_input_is_one_line_exit_2_and_nothing_written() {
    let tmp = tempfile::tempdir().unwrap();
    let user = tmp.path().join("mine");
    std::fs::create_dir(&user).unwrap();
    std::fs::write(user.join("Makefile"), "PROJECT := sgemm2\n").unwrap();
    let v = vortex();
    let cases: [(&[&str], &str); 7] = [
        (
            &["--kernels", "sort:-n8"],
            "--kernels sort:-n8: unknown kernel `sort`; the kernels are sgemm2, conv3",
        ),
        (
            &["--map", "vortex,xor9"],
            "--map xor9: unknown map; the maps are vortex",
        ),
        (&["--vortex", "nowhere"], "--vortex nowhere: does not exist"),
        (&["--vortex", "."], "--vortex .: is not a copy of Vortex"),
        (
            &["--threads", "12"],
            "--threads 12: must be a power of two from 1 to 32",
        ),
        (
            &["--configs", "-DNUM_THREADS=8", "--threads", "16"],
            "--threads 16: differs from --configs -DNUM_THREADS=8",
        ),
        (
            &["--kernel-dir", "mine"],
            "--kernel-dir mine: names its PROJECT `sgemm2`, the name of a kernel",
        ),
    ];
    for (args, expected) in cases {
        let mut all = vec!["vortex", "run", "--out", "vx"];
        all.extend(args);
        if !args.contains(&"--vortex") {
            all.extend(["--vortex", &v]);
        }
        let o = rtl_gen(tmp.path(), &all);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
        assert_eq!(e.lines().count(), 1, "{args:?}: {e}");
        assert!(
            e.starts_with(&format!("error: {expected}")),
            "{args:?}: {e}"
        );
        assert!(!tmp.path().join("vx").exists(), "{args:?} wrote its output");
    }
}

#[test]
fn the_kernel_list_names_every_kernel() {
    let tmp = tempfile::tempdir().unwrap();
    let o = rtl_gen(tmp.path(), &["vortex", "kernels"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let list = stdout(&o);
    for name in ["sgemm2", "conv3", "sgemm", "vecadd"] {
        assert!(list.lines().any(|l| l.starts_with(name)), "{list}");
    }
}
