//! The Yosys side of a proof: a script that builds a miter of two designs (`gold` and `gate`)
//! and asks Yosys' SAT solver whether they can differ, and the parser of its answer.
//!
//! Both designs are read, elaborated (`proc`), flattened and stashed under their own names, so
//! two designs with the same module names (a block and its mutant) can be compared. Then
//! `async2sync` models asynchronous resets for the solver (a register's output is its reset
//! value in every cycle the reset is asserted, and the reset value is what it holds next), and
//! `miter -equiv -flatten -make_assert -make_outputs gold gate miter` with `sat -prove-asserts
//! -set-assumes -show-ports` decides. `assume` statements in either design (read with
//! `-formal`) restrict the inputs in every cycle.

use super::ProveError;
use hdl_util::ExternalTool;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Instant;

/// One side of a miter: Verilog files and the top module.
#[derive(Debug, Clone)]
pub struct Design {
    /// The files, absolute.
    pub files: Vec<PathBuf>,
    /// The top module.
    pub top: String,
}

/// How the miter is solved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// No state: one SAT problem over every input.
    Combinational,
    /// Registers whose contents follow from one cycle of inputs: 1-induction from any initial
    /// state, the first cycle not checked (`sat -tempinduct -seq 1`).
    Induction,
    /// From reset (asserted in cycle 1, free afterwards), every input sequence of `steps`
    /// cycles (`sat -seq steps -set-at 1 in_rst_ni 0`), from any state before the reset.
    FromReset {
        /// Cycles, reset included.
        steps: u32,
    },
}

/// One signal of a counterexample cycle: name (`in_addr_i`, `gold_bank_o`, `gate_bank_o`,
/// `trigger`) and value as binary digits, most significant first (`x` for undefined bits).
pub type Signal = (String, String);

/// A counterexample as Yosys printed it: the signals of each cycle (one cycle when
/// combinational).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trace {
    /// Cycles in order, each with its signals.
    pub cycles: Vec<(u32, Vec<Signal>)>,
}

/// What Yosys answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// No input (sequence) makes the outputs differ.
    Holds,
    /// These inputs make them differ.
    Fails(Trace),
    /// The solver gave up (its time limit, or the induction did not close).
    Undecided(String),
    /// The two designs cannot be compared: their interfaces differ (Yosys' words).
    Mismatch(String),
}

/// A finished Yosys run.
#[derive(Debug, Clone)]
pub struct Run {
    /// The answer.
    pub answer: Answer,
    /// Wall-clock seconds of the Yosys process.
    pub seconds: f64,
    /// CPU seconds (user and system) Yosys reports at the end of its log.
    pub cpu_seconds: Option<f64>,
    /// The script, to rerun by hand (`yosys -s <script>`).
    pub script: PathBuf,
    /// Its log.
    pub log: PathBuf,
}

/// Finds Yosys (`$YOSYS`, else `yosys` on `PATH`).
fn yosys() -> Result<ExternalTool, crate::Error> {
    Ok(ExternalTool::find("yosys", "YOSYS", "yosys").map_err(testbenches::Error::from)?)
}

/// Script lines that read `design`, elaborate and flatten it and stash it as module `name`.
fn load(script: &mut String, design: &Design, name: &str) {
    for f in &design.files {
        let _ = writeln!(script, "read_verilog -formal {}", quote(f));
    }
    let _ = writeln!(
        script,
        "hierarchy -top {top}\nproc -norom\nmemory -nomap\nmemory_map\nflatten\nrename {top} {name}\ndesign -stash {name}",
        top = design.top
    );
}

fn quote(path: &Path) -> String {
    format!("\"{}\"", path.display())
}

/// The script that loads both designs side by side as `gold` and `gate`.
fn both(gold: &Design, gate: &Design) -> String {
    let mut s = String::new();
    load(&mut s, gold, "gold");
    load(&mut s, gate, "gate");
    s.push_str("design -copy-from gold -as gold gold\ndesign -copy-from gate -as gate gate\n");
    s
}

/// The miter of `gold` and `gate`, as the top module.
fn build_miter(script: &mut String) {
    script.push_str("miter -equiv -flatten -make_assert -make_outputs gold gate miter\n");
    script.push_str("hierarchy -top miter\n");
}

/// The miter and the `sat` call that decides it; `mode` sets up the sequential problem.
fn miter_and_sat(script: &mut String, mode: &str, timeout_s: u32) {
    build_miter(script);
    // Identical logic of the two sides (a mutant and its original) merges before the solver
    // sees it; nothing here changes what the miter computes.
    script.push_str("opt_expr -keepdc\nopt_merge\nopt_clean\n");
    let _ = writeln!(
        script,
        "sat {mode}-prove-asserts -set-assumes -show-ports -timeout {timeout_s} miter"
    );
}

/// Runs `script` as `<work>/<name>.ys` and reads `sat`'s answer.
fn solve(work: &Path, name: &str, script: &str) -> Result<Run, crate::Error> {
    solve_with(work, name, script, read_sat_answer)
}

/// Runs `script` as `<work>/<name>.ys` and reads the answer from its log with `read`.
fn solve_with(
    work: &Path,
    name: &str,
    script: &str,
    read: impl Fn(&str) -> Option<Answer>,
) -> Result<Run, crate::Error> {
    let (log_text, seconds, log) = run(work, name, script)?;
    let answer = read(&log_text).ok_or_else(|| no_verdict(name, &log_text, &log))?;
    Ok(Run {
        answer,
        seconds,
        cpu_seconds: cpu_seconds(&log_text),
        script: work.join(format!("{name}.ys")),
        log,
    })
}

/// Proves with a miter that `gate` equals `gold` as `check` says, with `timeout_s` seconds for
/// each SAT problem; writes `<work>/<name>.ys` and its log.
pub fn miter(
    work: &Path,
    name: &str,
    gold: &Design,
    gate: &Design,
    check: Check,
    timeout_s: u32,
) -> Result<Run, crate::Error> {
    let mut script = both(gold, gate);
    script.push_str("async2sync\n");
    let mode = match check {
        Check::Combinational => String::new(),
        Check::Induction => "-tempinduct -seq 1 -maxsteps 4 ".into(),
        Check::FromReset { steps } => format!("-seq {steps} -set-at 1 in_rst_ni 0 "),
    };
    miter_and_sat(&mut script, &mode, timeout_s);
    solve(work, name, &script)
}

/// Proves a combinational `gate` equal to `gold` one value of the input `port` (`width` bits)
/// at a time, for each of `0..values`: per value the miter's port becomes that constant,
/// Yosys' `opt` folds it through both sides (the selections it steers become wires, and the
/// logic the two sides then share merges), and `sat` proves what is left. The values cover
/// every input the check covers when the designs assume `port < values` (or `values` is
/// `2^width`). `opt` runs without `-keepdc` here, so that it folds `x | 0` into `x` (a
/// one-hot selection's unselected terms): both designs are two-valued (no `x` constant), so
/// no don't-care exists for it to exploit. One script (`<work>/<name>.ys`); the first value
/// whose case does not hold gives the answer, its counterexample with the port's value added.
#[allow(clippy::too_many_arguments)]
pub fn miter_per_value(
    work: &Path,
    name: &str,
    gold: &Design,
    gate: &Design,
    port: &str,
    width: u32,
    values: u64,
    timeout_s: u32,
) -> Result<Run, crate::Error> {
    let mut script = both(gold, gate);
    build_miter(&mut script);
    script.push_str("design -save cases\n");
    for value in 0..values {
        let _ = writeln!(
            script,
            "design -load cases\ndelete -port miter/in_{port}\nconnect -set in_{port} {width}'d{value}\n\
             opt_expr\nopt_merge\nopt_clean\nopt\n\
             sat -prove-asserts -set-assumes -show-ports -timeout {timeout_s} miter"
        );
    }
    solve_with(work, name, &script, |log| {
        read_cases(log, port, width, values)
    })
}

/// The answer of [`miter_per_value`]'s log: the first of the `values` cases that does not hold,
/// a counterexample with `port`'s value added, or `Holds` when every case does; `None` when a
/// case gave no verdict.
fn read_cases(log: &str, port: &str, width: u32, values: u64) -> Option<Answer> {
    let cases: Vec<&str> = log.split(SAT_PASS).skip(1).collect();
    for value in 0..values {
        match read_sat_answer(cases.get(value as usize)?)? {
            Answer::Holds => {}
            Answer::Fails(mut trace) => {
                let bits = format!("{value:0w$b}", w = width as usize);
                for (_, signals) in &mut trace.cycles {
                    signals.push((format!("in_{port}"), bits.clone()));
                }
                return Some(Answer::Fails(trace));
            }
            other => return Some(other),
        }
    }
    Some(Answer::Holds)
}

/// The header Yosys logs for each `sat` command.
const SAT_PASS: &str = "Executing SAT pass";

/// Proves that `gate` equals `gold` from reset for every input sequence of any length, by
/// temporal induction strengthened by `lemma`: pairs of bits (`gold.<wire>[i]`,
/// `gate.<wire>[j]`) that must be equal in every cycle. The lemma is proved with the outputs
/// (base case from reset, asserted in cycle 1; induction step from any state in which outputs
/// and lemma held for up to 4 cycles), so a wrong lemma can only make the proof fail, never
/// make a false one hold. Writes `<work>/<name>.ys` and its log.
pub fn miter_with_lemma(
    work: &Path,
    name: &str,
    gold: &Design,
    gate: &Design,
    lemma: &[(String, String)],
    timeout_s: u32,
) -> Result<Run, crate::Error> {
    let mut script = both(gold, gate);
    script.push_str("async2sync\n");
    let mut mode = String::from("-tempinduct -set-at 1 in_rst_ni 0 -maxsteps 4 ");
    for (a, b) in lemma {
        let _ = write!(mode, "-prove {a} {b} ");
    }
    miter_and_sat(&mut script, &mode, timeout_s);
    solve(work, name, &script)
}

/// Whether `gate` has the same output and next-state logic as `gold`, their registers matched
/// by name (`expose -evert-dff` turns each register into an input for its contents and an
/// output for its next value; one combinational SAT problem compares them). When it holds, the
/// two are equivalent from any state in which their registers agree, provided the registers
/// reset alike: meant for a mutant that leaves every reset (edge, value, condition) as it is,
/// compared with its original.
pub fn same_next_state(
    work: &Path,
    name: &str,
    gold: &Design,
    gate: &Design,
    timeout_s: u32,
) -> Result<Run, crate::Error> {
    let mut script = both(gold, gate);
    // Registers with enables or synchronous resets become plain ones with that logic in front.
    script.push_str("dffunmap\n");
    script.push_str("expose -evert-dff gold/t:$dff gold/t:$adff gate/t:$dff gate/t:$adff\n");
    miter_and_sat(&mut script, "", timeout_s);
    solve(work, name, &script)
}

/// The error of a Yosys run that ended without a verdict: its first `ERROR` line, and its log.
pub(super) fn no_verdict(name: &str, log_text: &str, log: &Path) -> crate::Error {
    let reason = log_text
        .lines()
        .find(|l| l.starts_with("ERROR"))
        .unwrap_or("no result line")
        .to_string();
    ProveError::Yosys {
        what: name.to_string(),
        reason,
        log: log.to_path_buf(),
    }
    .into()
}

/// Writes `<work>/<name>.ys`, runs it, returns the log text, seconds and log path.
pub(super) fn run(
    work: &Path,
    name: &str,
    script: &str,
) -> Result<(String, f64, PathBuf), crate::Error> {
    crate::output::OutputFolder::open(work)?;
    let script_path = work.join(format!("{name}.ys"));
    let log = work.join(format!("{name}.log"));
    let script = format!(
        "# Generated by {}: yosys -s {}\n{script}",
        crate::manifest::generator(),
        script_path.display()
    );
    crate::output::write_file(&script_path, script.as_bytes())?;
    let start = Instant::now();
    let mut yosys = yosys()?.command();
    yosys
        .arg("-q")
        .arg("-l")
        .arg(&log)
        .arg("-s")
        .arg(&script_path)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // Recorded as a running tool, so that an interrupt of rtl-gen ends it too.
    hdl_util::children::spawn(&mut yosys)
        .and_then(|mut running| running.child().wait())
        .map_err(crate::Error::io(&script_path))?;
    let seconds = start.elapsed().as_secs_f64();
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    Ok((text, seconds, log))
}

/// The CPU time of Yosys' last line, `End of script. ..., CPU: user 0.13s system 0.00s, ...`.
pub(super) fn cpu_seconds(log: &str) -> Option<f64> {
    let line = log.lines().rev().find(|l| l.contains("CPU: user "))?;
    let rest = line.split("CPU: user ").nth(1)?;
    let (user, rest) = rest.split_once("s system ")?;
    let system = rest.split('s').next()?;
    Some(user.trim().parse::<f64>().ok()? + system.trim().parse::<f64>().ok()?)
}

/// Reads `sat`'s verdict and, when it failed, the model table it printed.
fn read_sat_answer(log: &str) -> Option<Answer> {
    let lines: Vec<&str> = log.lines().collect();
    if let Some(line) = lines.iter().find(|l| {
        l.starts_with("ERROR: No matching port")
            || l.starts_with("ERROR: Port ") && l.contains("width")
    }) {
        let what = line.trim_start_matches("ERROR: ");
        return Some(Answer::Mismatch(format!("the interfaces differ: {what}")));
    }
    if lines
        .iter()
        .any(|l| l.contains("Interrupted SAT solver: TIMEOUT!"))
    {
        return Some(Answer::Undecided(
            "the SAT solver ran out of time (--timeout)".into(),
        ));
    }
    if lines
        .iter()
        .any(|l| l.contains("Reached maximum number of time steps"))
    {
        return Some(Answer::Undecided(
            "the induction did not close within 4 cycles".into(),
        ));
    }
    if lines.iter().any(|l| {
        l.contains("SAT proof finished - no model found: SUCCESS!")
            || l.contains("Induction step proven: SUCCESS!")
    }) {
        return Some(Answer::Holds);
    }
    if !lines.iter().any(|l| l.contains("FAIL!")) {
        return None;
    }
    let header = lines.iter().position(|l| l.contains("Signal Name"))?;
    let mut cycles: Vec<(u32, Vec<Signal>)> = Vec::new();
    for line in &lines[header + 1..] {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        // Separators, and the registers' initial values ("init" rows), are not cycles.
        if tokens
            .first()
            .is_some_and(|t| t.starts_with("--") || *t == "init")
        {
            continue;
        }
        let (time, rest) = match tokens.first().map(|t| t.parse::<u32>()) {
            Some(Ok(t)) => (t, &tokens[1..]),
            _ => (1, &tokens[..]),
        };
        let Some(name) = rest.first().and_then(|n| n.strip_prefix('\\')) else {
            break;
        };
        let bits = rest.last().copied().unwrap_or_default().to_string();
        match cycles.last_mut() {
            Some((t, signals)) if *t == time => signals.push((name.to_string(), bits)),
            _ => cycles.push((time, vec![(name.to_string(), bits)])),
        }
    }
    Some(Answer::Fails(Trace { cycles }))
}

/// Binary digits as `0x` hexadecimal (undefined bits kept as a binary string).
pub fn hex(bits: &str) -> String {
    if bits.is_empty() || !bits.chars().all(|c| c == '0' || c == '1') {
        return format!("0b{bits}");
    }
    let mut out = String::new();
    let pad = (4 - bits.len() % 4) % 4;
    let padded: String = "0".repeat(pad) + bits;
    for chunk in padded.as_bytes().chunks(4) {
        let v = chunk.iter().fold(0u8, |a, b| a << 1 | (b - b'0'));
        out.push(char::from_digit(u32::from(v), 16).unwrap_or('?'));
    }
    let trimmed = out.trim_start_matches('0');
    format!("0x{}", if trimmed.is_empty() { "0" } else { trimmed })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_combinational_model() {
        let log = "SAT proof finished - model found: FAIL!\n\n   ___\n\n\
                   \x20 Signal Name                Dec   Hex     Bin\n\
                   \x20 ----------------- ---- ---- ----\n\
                   \x20 \\gate_bank_o       14     e   01110\n\
                   \x20 \\in_addr_i      13558  34f6  11010011110110\n\
                   \x20 \\trigger           1     1       1\n\nEnd of script.";
        let Some(Answer::Fails(trace)) = read_sat_answer(log) else {
            panic!("no failure read")
        };
        assert_eq!(trace.cycles.len(), 1);
        assert_eq!(
            trace.cycles[0].1[1],
            ("in_addr_i".into(), "11010011110110".into())
        );
        assert_eq!(hex("11010011110110"), "0x34f6");
        assert_eq!(hex("0000"), "0x0");
        assert_eq!(hex("1x"), "0b1x");
    }

    #[test]
    fn reads_the_first_case_that_fails() {
        let holds = "Executing SAT pass\nSAT proof finished - no model found: SUCCESS!\n";
        let fails = "Executing SAT pass\nSAT proof finished - model found: FAIL!\n\
                     \x20 Signal Name   Dec Hex Bin\n\
                     \x20 ----------- --- --- ---\n\
                     \x20 \\trigger      1   1   1\n";
        let log = format!("prelude\n{holds}{fails}{holds}");
        let Some(Answer::Fails(trace)) = read_cases(&log, "load_cta_i", 3, 3) else {
            panic!("the second case's failure not read")
        };
        assert!(trace.cycles[0]
            .1
            .contains(&("in_load_cta_i".to_string(), "001".to_string())));
        let all = format!("{holds}{holds}");
        assert_eq!(read_cases(&all, "load_cta_i", 1, 2), Some(Answer::Holds));
        // A case without a verdict (the script stopped early) gives none.
        assert_eq!(read_cases(&all, "load_cta_i", 2, 3), None);
    }

    #[test]
    fn reads_a_sequential_model() {
        let log = "model found for base case: FAIL!\n\
                   \x20 Time Signal Name   Dec Hex Bin\n\
                   \x20 ---- ----------- --- --- ---\n\
                   \x20 init \\gate.q      1   1  0001\n\
                   \x20 ---- ----------- --- --- ---\n\
                   \x20    1 \\gate_bank_o  22  16  10110\n\
                   \x20    1 \\trigger       1   1  1\n\
                   \x20    2 \\gate_bank_o   1   1  00001\n\
                   \x20    2 \\trigger       1   1  1\n\nEnd";
        let Some(Answer::Fails(trace)) = read_sat_answer(log) else {
            panic!("no failure read")
        };
        assert_eq!(trace.cycles.len(), 2);
        assert_eq!(trace.cycles[1].0, 2);
        assert_eq!(trace.cycles[1].1[0].1, "00001");
        assert_eq!(
            read_sat_answer("Induction step proven: SUCCESS!"),
            Some(Answer::Holds)
        );
        assert_eq!(read_sat_answer("nothing"), None);
        let end = "End of script. Logfile hash: 1f9e24c1e9, CPU: user 0.13s system 0.02s, MEM: 12.80 MB peak";
        assert_eq!(cpu_seconds(end), Some(0.15));
    }
}
