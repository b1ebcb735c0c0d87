//! `rtl-gen completions` and `rtl-gen man`: scripts a shell accepts, pages that name every
//! command, and one-line refusals of what does not exist.

mod common;

use common::{rtl_gen, stderr, stdout};
use std::process::Command;

#[test]
fn completion_scripts_register_with_their_shell() {
    let tmp = tempfile::tempdir().unwrap();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let o = rtl_gen(tmp.path(), &["completions", shell]);
        assert!(o.status.success(), "{shell}: {}", stderr(&o));
        let script = stdout(&o);
        for word in ["cosim", "simulator", "completions"] {
            assert!(script.contains(word), "{shell} script lacks {word}");
        }
        // bash, zsh and fish also complete an option's values.
        if ["bash", "zsh", "fish"].contains(&shell) {
            assert!(script.contains("iverilog"), "{shell} script lacks iverilog");
        }
    }
    // bash loads the script and then completes rtl-gen with it.
    let o = rtl_gen(tmp.path(), &["completions", "bash"]);
    std::fs::write(tmp.path().join("rtl-gen.bash"), &o.stdout).unwrap();
    let bash = Command::new("bash")
        .args(["-c", "source ./rtl-gen.bash && complete -p rtl-gen"])
        .current_dir(tmp.path())
        .output()
        .expect("bash runs");
    assert!(bash.status.success(), "{}", stderr(&bash));
    assert!(stdout(&bash).contains("rtl-gen"), "{}", stdout(&bash));
    let o = rtl_gen(tmp.path(), &["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.contains("'tcsh'") && e.contains("bash"), "{e}");
}

#[test]
fn man_pages_of_rtl_gen_and_each_command() {
    let tmp = tempfile::tempdir().unwrap();
    let o = rtl_gen(tmp.path(), &["man"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let page = stdout(&o);
    assert!(page.contains(".TH rtl-gen 1"), "{}", &page[..200]);
    for command in [
        "hash",
        "rap",
        "d2ma",
        "cosim",
        "synth",
        "flow",
        "completions",
        "man",
    ] {
        assert!(page.contains(command), "the page lists {command}");
        let o = rtl_gen(tmp.path(), &["man", command]);
        assert!(o.status.success(), "{command}: {}", stderr(&o));
        let sub = stdout(&o);
        assert!(
            sub.contains(&format!(".TH rtl-gen-{command} 1")),
            "{command}"
        );
    }
    let cosim = stdout(&rtl_gen(tmp.path(), &["man", "cosim"]));
    assert!(
        cosim.contains("simulator") && cosim.contains("Exit status"),
        "{cosim}"
    );
    let o = rtl_gen(tmp.path(), &["man", "bogus"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.contains("bogus") && e.contains("cosim"), "{e}");
}
