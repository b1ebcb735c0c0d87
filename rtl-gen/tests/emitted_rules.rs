//! The rules every emitted file keeps, checked over the committed snapshots of every family
//! (issue 34, "Done when"), and the rule that keeps Verilog in the emitter:
//!
//! - no line of a Verilog snapshot (a module or a testbench) is longer than 100 characters
//!   (lowRISC's style guide);
//! - every register of every snapshot, a signal a clocked `always` block assigns with `<=`, is
//!   named `_q` (memory arrays aside: their elements are words, not registers);
//! - no family writes Verilog text by hand: the source of a family's room holds no string with
//!   a Verilog construct (`assign `, `always @`, `endmodule`, ...), and no family builds a
//!   manifest (`Manifest {`) — the emitter (`rtl/`), the testbench writer (`testbenches`) and
//!   `block::render` do. The files that still do are listed in [`HAND_WRITTEN`] with why; the
//!   test fails when one of them no longer needs its entry, so the list only shrinks.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The longest line of an emitted Verilog file.
const WIDTH: usize = 100;

/// The family rooms of `src/` (tests/architecture.rs's families' layer and the system flows).
const FAMILY_ROOMS: &[&str] = &[
    "hash", "rap", "smem", "d2ma", "swizzle", "cuda", "conflict", "vortex",
];

/// Family files that still write Verilog text or a manifest by hand, and why.
const HAND_WRITTEN: &[(&str, &str)] = &[
    (
        "smem/bank.rs",
        "the byte-enabled bank array: the IR memory has a 1-bit write enable",
    ),
    ("smem/replay.rs", "the kernel replay testbench"),
    (
        "d2ma/system.rs",
        "the end-to-end testbench and its manifest (d2ma-tma's files this session)",
    ),
    (
        "hash/reference.rs",
        "the proof reference (read by Yosys -formal, never in a block folder)",
    ),
    (
        "rap/reference.rs",
        "the proof reference (read by Yosys -formal, never in a block folder)",
    ),
    (
        "d2ma/reference.rs",
        "the proof reference (read by Yosys -formal, never in a block folder)",
    ),
    (
        "conflict/reference.rs",
        "the proof reference (read by Yosys -formal, never in a block folder)",
    ),
    (
        "smem/properties.rs",
        "the formal properties' wrappers (read by Yosys -formal under prove/, never in the \
         block's filelist)",
    ),
];

fn snapshots() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "snap"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}

/// The snapshot's body (after insta's header).
fn body(text: &str) -> &str {
    text.splitn(3, "---\n").nth(2).unwrap_or(text)
}

/// Whether a snapshot body is Verilog (a module or a testbench).
fn is_verilog(body: &str) -> bool {
    body.lines().any(|l| l.trim_start().starts_with("module "))
        && body.lines().any(|l| l.trim() == "endmodule")
}

/// The names a clocked `always` block of `verilog` assigns with `<=`, memory arrays aside.
fn registers(verilog: &str) -> BTreeSet<String> {
    let memories: BTreeSet<&str> = verilog
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let rest = l.strip_prefix("reg ")?.trim_start();
            let rest = if rest.starts_with('[') {
                rest.split_once(']')?.1.trim_start()
            } else {
                rest
            };
            let (name, after) = rest.split_once(' ')?;
            after.trim_start().starts_with('[').then_some(name)
        })
        .collect();
    let mut out = BTreeSet::new();
    let mut clocked = false;
    let mut depth = 0i32;
    for line in verilog.lines() {
        let l = line.trim();
        if l.starts_with("always @(posedge") || l.starts_with("always @(negedge") {
            clocked = true;
            depth = 0;
        }
        if !clocked {
            continue;
        }
        depth += l.matches("begin").count() as i32 - l.matches("end").count() as i32
            + l.matches("endcase").count() as i32;
        if let Some((lhs, _)) = l.split_once("<=") {
            let lhs = lhs.trim();
            let lhs = lhs.rsplit([' ', '(']).next().unwrap_or(lhs);
            let name = lhs.split('[').next().unwrap_or(lhs);
            if !name.is_empty() && !memories.contains(name) {
                out.insert(name.to_string());
            }
        }
        if depth <= 0 && (l.ends_with("end") || l.ends_with(';')) {
            clocked = false;
        }
    }
    out
}

#[test]
fn no_emitted_verilog_line_is_longer_than_100_characters() {
    let mut offences = Vec::new();
    for (name, text) in snapshots() {
        let body = body(&text);
        if !is_verilog(body) {
            continue;
        }
        for (i, line) in body.lines().enumerate() {
            if line.len() > WIDTH {
                offences.push(format!("{name}:{}: {} characters", i + 1, line.len()));
            }
        }
    }
    assert!(
        offences.is_empty(),
        "{} lines over {WIDTH}:\n{}",
        offences.len(),
        offences.join("\n")
    );
}

#[test]
fn every_register_of_every_snapshot_is_named_q() {
    let mut offences = Vec::new();
    let mut seen = 0;
    for (name, text) in snapshots() {
        let body = body(&text);
        if !is_verilog(body) {
            continue;
        }
        for register in registers(body) {
            seen += 1;
            if !register.ends_with("_q") {
                offences.push(format!("{name}: {register}"));
            }
        }
    }
    assert!(seen > 100, "the scan found only {seen} registers");
    assert!(
        offences.is_empty(),
        "{} registers not named _q:\n{}",
        offences.len(),
        offences.join("\n")
    );
}

#[test]
fn the_register_scan_reads_clocked_blocks_only() {
    let verilog = "\
module m;
  reg  [7:0] mem [0:3];
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_q <= 1'b0;
    end else begin
      a_q <= a_d;
      b[3] <= 1'b1;
    end
  end
  always @(posedge clk_i) if (we) mem[addr] <= wdata;
  always @* begin
    c = d;
  end
  always @(posedge clk_i) e_q <= f;
endmodule
";
    assert_eq!(
        registers(verilog),
        BTreeSet::from(["a_q", "b", "e_q"].map(String::from))
    );
}

/// Every `.rs` file under `dir`, as paths relative to `root`.
fn rust_files(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path.strip_prefix(root).unwrap().to_path_buf());
        }
    }
}

/// What in `source` is Verilog written by hand: string literals with a Verilog construct, or
/// a manifest built field by field.
fn hand_written(source: &str) -> Vec<String> {
    const CONSTRUCTS: &[&str] = &[
        "assign ",
        "always @",
        "always_ff",
        "endmodule",
        "initial begin",
        "$display",
        "$finish",
        "$readmemh",
        "posedge ",
        "reg [",
        "wire [",
    ];
    let mut found = Vec::new();
    for (i, line) in source.lines().enumerate() {
        let code = line.trim_start();
        if code.starts_with("//") {
            continue;
        }
        // The string literals of the line (a quote opens one, the next unescaped closes it).
        let mut literal = String::new();
        let mut inside = false;
        let mut escaped = false;
        for c in code.chars() {
            match (inside, c) {
                (true, '\\') if !escaped => escaped = true,
                (true, '"') if !escaped => inside = false,
                (true, _) => {
                    literal.push(c);
                    escaped = false;
                }
                (false, '"') => {
                    inside = true;
                    literal.push('\n');
                }
                _ => {}
            }
        }
        // A literal that is one bare word (a keyword list's `"endmodule"`) writes no Verilog.
        let text: Vec<&str> = literal
            .split('\n')
            .filter(|piece| !piece.chars().all(|c| c.is_ascii_alphabetic() || c == '_'))
            .collect();
        if let Some(c) = CONSTRUCTS
            .iter()
            .find(|c| text.iter().any(|t| t.contains(*c)))
        {
            found.push(format!("line {}: `{c}`", i + 1));
        }
        if code.contains("Manifest {") && !code.starts_with("impl") && !code.contains("struct") {
            found.push(format!("line {}: a manifest built by hand", i + 1));
        }
    }
    found
}

#[test]
fn no_family_writes_verilog_or_a_manifest_by_hand() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for room in FAMILY_ROOMS {
        rust_files(&src, &src.join(room), &mut files);
        let single = src.join(format!("{room}.rs"));
        if single.exists() {
            files.push(PathBuf::from(format!("{room}.rs")));
        }
    }
    assert!(
        files.len() > 40,
        "the scan found only {} files",
        files.len()
    );
    let listed: BTreeSet<&str> = HAND_WRITTEN.iter().map(|(f, _)| *f).collect();
    let mut offences = Vec::new();
    let mut clean_but_listed = Vec::new();
    for file in &files {
        let name = file.to_string_lossy().replace('\\', "/");
        let found = hand_written(&std::fs::read_to_string(src.join(file)).unwrap());
        match (found.is_empty(), listed.contains(name.as_str())) {
            (false, false) => offences.push(format!("{name}: {}", found.join(", "))),
            (true, true) => clean_but_listed.push(name),
            _ => {}
        }
    }
    assert!(
        offences.is_empty(),
        "a family writes Verilog or a manifest by hand (build it with rtl/'s IR, the \
         testbench writer or block::render):\n{}",
        offences.join("\n")
    );
    assert!(
        clean_but_listed.is_empty(),
        "no longer writes Verilog by hand: drop it from HAND_WRITTEN: {clean_but_listed:?}"
    );
}

#[test]
fn the_hand_written_scan_finds_what_it_looks_for() {
    assert_eq!(hand_written("let s = \"  assign x = y;\";").len(), 1);
    assert_eq!(
        hand_written("// \"assign\" in a comment: always @").len(),
        0
    );
    assert_eq!(hand_written("module.assign(&x, y); // not text").len(), 0);
    assert_eq!(hand_written("let m = Manifest {").len(), 1);
    assert_eq!(
        hand_written("const KEYWORDS: [&str; 2] = [\"module\", \"endmodule\"];").len(),
        0
    );
    assert_eq!(
        hand_written("w.line(format!(\"reg [{}:0] x;\", 3));").len(),
        1
    );
}
