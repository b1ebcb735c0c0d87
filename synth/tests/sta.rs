//! OpenSTA on netlists small enough to time by hand (`tests/data/hand.lib`, `hand_ram.lib`).
//!
//! Tests print a note and pass when OpenSTA (`sta`) cannot be found.

use std::path::Path;

use synth::sdc::{Constraints, WireLoad};
use synth::{time_netlist, StaReport};

fn sta_available() -> bool {
    let prog = std::env::var_os("STA").unwrap_or_else(|| "sta".into());
    let ok = std::process::Command::new(prog)
        .arg("-version")
        .stdin(std::process::Stdio::null())
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        println!("note: OpenSTA not found (apt-get install -y opensta, or set STA); test skipped");
    }
    ok
}

fn data(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// a_i -> u1 -> u2 -> state_q.D; state_q.Q -> u3 -> y_o; s_i -> u4 -> z_o (s_i static); with
/// `ram`, u1 also drives the macro's addr0 and its dout0 -> u5 -> w_o.
fn netlist(ram: bool) -> String {
    let (ports, cells) = if ram {
        (
            ", w_o",
            "  output w_o;\n  wire d;\n  RAM u_ram (.clk0(clk_i), .addr0(n1), .dout0(d));\n  \
             INV u5 (.A(d), .Y(w_o));\n",
        )
    } else {
        ("", "")
    };
    format!(
        "module top (clk_i, a_i, s_i, y_o, z_o{ports});\n  input clk_i;\n  input a_i;\n  \
         input s_i;\n  output y_o;\n  output z_o;\n  wire n1, n2, q;\n  \
         INV u1 (.A(a_i), .Y(n1));\n  INV u2 (.A(n1), .Y(n2));\n  \
         DFF state_q (.D(n2), .CK(clk_i), .Q(q));\n  INV u3 (.A(q), .Y(y_o));\n  \
         INV u4 (.A(s_i), .Y(z_o));\n{cells}endmodule\n"
    )
}

fn time(ram: bool, period_ps: f64) -> Option<(tempfile::TempDir, StaReport)> {
    if !sta_available() {
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("netlist.v"), netlist(ram)).unwrap();
    let constraints = Constraints {
        clock_port: Some("clk_i".into()),
        period_ps,
        static_inputs: vec!["s_i".into()],
        wire_load: WireLoad::Library,
    };
    let macros = if ram {
        vec![data("hand_ram.lib")]
    } else {
        vec![]
    };
    let r = time_netlist(dir.path(), "top", &data("hand.lib"), &macros, &constraints).unwrap();
    Some((dir, r))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 0.01
}

#[test]
fn slack_paths_and_the_smallest_period_by_hand() {
    let Some((_dir, r)) = time(false, 100.0) else {
        return;
    };
    assert!(r.tool.starts_with("OpenSTA "), "{}", r.tool);
    // a_i -> D: u1 drives u2 (1 fF): 12 ps; u2 drives D (3 fF): 16 ps; 28 ps against
    // 100 - 8 (setup) = 92: slack 64.
    let a = r.group("a_i").unwrap();
    assert!(
        close(a.arrival_ps, 28.0) && close(a.slack_ps, 64.0),
        "{a:?}"
    );
    assert!(close(a.setup_ps, 8.0) && a.clock_to_q_ps.is_none(), "{a:?}");
    assert_eq!((a.start.as_str(), a.end.as_str(), a.cells), ("a_i", "q", 2));
    // state_q.Q drives u3 (1 fF): 31 ps; u3 drives the output (no load): 10 ps; 41 ps against
    // 100: slack 59, the worst. The register is named by the net it drives (q).
    let f = r.group("flip-flops").unwrap();
    assert!(
        close(f.arrival_ps, 41.0) && close(f.slack_ps, 59.0),
        "{f:?}"
    );
    assert_eq!(f.clock_to_q_ps.map(|c| close(c, 31.0)), Some(true), "{f:?}");
    assert_eq!((f.start.as_str(), f.end.as_str(), f.cells), ("q", "y_o", 1));
    assert_eq!(r.critical_path.as_ref(), Some(f));
    assert_eq!(r.worst_slack_ps.map(|s| close(s, 59.0)), Some(true));
    // s_i is static: a false path, reported (10 ps) but not counted.
    let s = r.group("s_i").unwrap();
    assert!(s.false_path && close(s.delay_ps, 10.0), "{s:?}");
    // The smallest period is the worst path's 41 ps (a_i's needs 28 + 8 = 36).
    assert_eq!(r.min_period_ps.map(|p| close(p, 41.0)), Some(true), "{r:?}");
    assert!(r.meets && r.clock_pin_checks.is_empty() && r.black_boxes.is_empty());
    // At 40 ps the same netlist misses by 1 ps, and the smallest period stays 41 ps.
    let (_dir, tight) = time(false, 40.0).unwrap();
    assert_eq!(tight.worst_slack_ps.map(|s| close(s, -1.0)), Some(true));
    assert!(!tight.meets);
    assert_eq!(tight.min_period_ps.map(|p| close(p, 41.0)), Some(true));
}

#[test]
fn a_macro_by_hand_half_cycle_read_and_clock_pin_limits() {
    let Some((dir, r)) = time(true, 100.0) else {
        return;
    };
    // The macro's read data leaves at the falling edge (50 ps) + 21 ps (u5's 1 fF), then u5:
    // 10 ps: 81 ps against 100, slack 19, the worst.
    let m = r.group("macros").unwrap();
    assert!(
        close(m.arrival_ps, 81.0) && close(m.slack_ps, 19.0),
        "{m:?}"
    );
    assert!(close(m.delay_ps, 31.0), "{m:?}");
    assert_eq!(m.clock_to_q_ps.map(|c| close(c, 21.0)), Some(true), "{m:?}");
    assert_eq!((m.start.as_str(), m.end.as_str()), ("u_ram", "w_o"));
    // u1 now drives u2 and addr0 (1 + 2 fF): 16 ps; into addr0 with its 5 ps setup.
    let a = r.group("a_i").unwrap();
    assert!(close(a.slack_ps, 64.0 - 4.0), "{a:?}");
    // The read path is a half-cycle path: it fits from a period of 2 x 31 = 62 ps. The macro
    // itself needs 150 ps (minimum_period) and a 60 ps high pulse (120 ps at a 50 % duty),
    // which OpenSTA checks from the attributes restated in the working copy.
    let kinds: Vec<(&str, f64, f64)> = r
        .clock_pin_checks
        .iter()
        .map(|k| (k.check.as_str(), k.slack_ps, k.min_period_ps))
        .collect();
    assert_eq!(kinds.len(), 2, "{kinds:?}");
    for (check, slack, period) in kinds {
        match check {
            "min_period" => assert!(close(slack, -50.0) && close(period, 150.0)),
            "min_pulse_width" => assert!(close(slack, -10.0) && close(period, 120.0)),
            other => panic!("{other}"),
        }
    }
    assert_eq!(
        r.min_period_ps.map(|p| close(p, 150.0)),
        Some(true),
        "{r:?}"
    );
    assert!(!r.meets, "the clock-pin checks fail at 100 ps");
    let copy = std::fs::read_to_string(dir.path().join("macro_hand_ram.lib")).unwrap();
    assert!(copy.contains("min_period : 150 ;") && copy.contains("min_pulse_width_high : 60 ;"));
    // Without its liberty file the macro is a black box, its paths untimed.
    let (_d, bb) = {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("netlist.v"), netlist(true)).unwrap();
        let c = Constraints {
            clock_port: Some("clk_i".into()),
            period_ps: 100.0,
            static_inputs: vec![],
            wire_load: WireLoad::None,
        };
        let r = time_netlist(dir.path(), "top", &data("hand.lib"), &[], &c).unwrap();
        (dir, r)
    };
    assert_eq!(bb.black_boxes, ["RAM"]);
    assert!(bb.group("macros").is_none());
}

#[test]
fn an_error_line_is_a_failure() {
    if !sta_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // OpenSTA 2.0.17 rejects a concatenation on the left of an assign, and exits 0.
    std::fs::write(
        dir.path().join("netlist.v"),
        "module top (a_i, b_i, y_o, z_o);\n  input a_i, b_i;\n  output y_o, z_o;\n  \
         assign { y_o, z_o } = { a_i, b_i };\nendmodule\n",
    )
    .unwrap();
    let c = Constraints {
        clock_port: None,
        period_ps: 100.0,
        static_inputs: vec![],
        wire_load: WireLoad::Library,
    };
    let e = time_netlist(dir.path(), "top", &data("hand.lib"), &[], &c).unwrap_err();
    let msg = e.to_string();
    assert!(matches!(e, synth::Error::Sta { .. }), "{msg}");
    assert!(msg.contains("Error:") && msg.contains("sta.log"), "{msg}");
}
