//! Formal equivalence of two versions of one design, proved by Yosys the way Yosys checks its
//! own Verilog writer: both are read, elaborated under their top module and flattened; then a
//! combinational design is compared with a miter and a SAT proof over every input, and a
//! clocked one with `equiv_make` (signals, registers included, matched by name), `equiv_simple`
//! and `equiv_induct` (induction over the matched registers) and `equiv_status -assert`. A
//! clocked design whose state is re-encoded can only be compared for a bounded number of
//! cycles from reset ([`EquivMethod::Bounded`]).
//!
//! An emitter refactor that must not change a circuit runs this on every module it changes
//! (the old text as `gold`, the new as `gate`). Register state must keep its names and
//! encodings for the clocked proof: a register renamed or re-encoded leaves its `$equiv`
//! unproven, and the proof fails (it never passes wrongly).

use std::path::PathBuf;

use crate::check::{canonical, run_commands};
use crate::error::Error;
use crate::script;

/// How the two versions are compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EquivMethod {
    /// For combinational designs: `miter -equiv` and `sat -prove-asserts`, a proof for every
    /// input value.
    Miter,
    /// For clocked designs: `async2sync` (the asynchronous reset as an ordinary input), then
    /// `equiv_make`, `equiv_simple -seq <seq>`, `equiv_induct -seq <seq>`: every matched
    /// signal equal in every reachable state, by induction over `seq` cycles.
    Induction {
        /// Cycles the SAT problems unroll (1 suffices when every register keeps its name).
        seq: u32,
    },
    /// For clocked designs whose state is re-encoded (registers renamed or regrouped, a table
    /// of registers turned into a memory), where induction cannot match it: a miter proved for
    /// every input sequence of `cycles` cycles that starts with the reset (`rst_ni` low in the
    /// first cycle). A bounded proof: a difference that shows only later is not found.
    Bounded {
        /// Cycles after reset, the first being the reset cycle.
        cycles: u32,
    },
}

/// The marker line of a `sat` proof that found no counterexample.
const SAT_PROVED: &str = "SAT proof finished - no model found: SUCCESS!";

/// The miter of `gold` and `gate` (one output `trigger` that is 1 where they differ), with
/// the cells they share merged.
const MITER: &str = "miter -equiv -flatten -make_assert -make_outputs gold gate miter; \
                     hierarchy -top miter; opt -fast";

/// Lines of the failure report kept in the error message.
const REPORT_LINES: usize = 12;

/// The Yosys commands that read `files`, elaborate them under `top`, flatten it and stash the
/// result as module `as_name`.
fn prepare(files: &[PathBuf], top: &str, as_name: &str) -> String {
    format!(
        "{}; hierarchy -check -top {top}; proc; memory; flatten; opt_clean; \
         rename {top} {as_name}; design -stash {as_name}",
        script::read_lines(files).replace('\n', "; ")
    )
}

/// The whole Yosys command string of a proof.
fn commands(gold: &[PathBuf], gate: &[PathBuf], top: &str, method: EquivMethod) -> String {
    let load = format!(
        "{}; {}; design -copy-from gold -as gold gold; design -copy-from gate -as gate gate",
        prepare(gold, top, "gold"),
        prepare(gate, top, "gate")
    );
    // `opt_merge` joins the cells the two versions share, so unchanged logic (a multiplier,
    // say) is proved by structure, not by SAT.
    let prove = match method {
        EquivMethod::Miter => {
            format!("{MITER}; sat -prove-asserts -show-inputs -show-outputs miter")
        }
        EquivMethod::Bounded { cycles } => format!(
            "async2sync; {MITER}; sat -seq {cycles} -set-at 1 in_rst_ni 0 -prove-asserts \
             -show-inputs -show-outputs miter"
        ),
        EquivMethod::Induction { seq } => format!(
            "async2sync; equiv_make gold gate equiv; hierarchy -top equiv; opt_merge; \
             opt_clean; equiv_simple -seq {seq}; equiv_induct -seq {seq}; equiv_status; \
             equiv_status -assert"
        ),
    };
    format!("{load}; {prove}")
}

/// Proves that `gate` (its Verilog files) computes the same circuit as `gold`, both under
/// the top module `top`. `Ok(())` when Yosys proves them equivalent; [`Error::NotEquivalent`]
/// with the counterexample (miter) or the unproven signals (induction) when it does not, or
/// with Yosys' error when it cannot read or elaborate one of them; [`Error::Input`],
/// [`Error::InvalidRequest`] or [`Error::YosysMissing`] before Yosys runs.
pub fn prove_equivalent(
    gold: &[PathBuf],
    gate: &[PathBuf],
    top: &str,
    method: EquivMethod,
) -> Result<(), Error> {
    crate::runner::check_top(top)?;
    let gold = canonical(gold)?;
    let gate = canonical(gate)?;
    let run = run_commands(&[], &commands(&gold, &gate, top, method))?;
    let proved = run.success
        && match method {
            EquivMethod::Miter | EquivMethod::Bounded { .. } => run.log.contains(SAT_PROVED),
            EquivMethod::Induction { .. } => true,
        };
    if proved {
        return Ok(());
    }
    let details: Vec<&str> = match method {
        // The counterexample table of `sat -show-inputs -show-outputs`.
        // (with a time column for `-seq`): its ports' rows, not the separators or the
        // flip-flops' initial values.
        EquivMethod::Miter | EquivMethod::Bounded { .. } => run
            .log
            .lines()
            .skip_while(|l| !l.contains("Signal Name"))
            .skip(1)
            .take_while(|l| !l.trim().is_empty())
            .map(str::trim)
            .filter(|l| l.contains('\\') && !l.starts_with("init"))
            .collect(),
        EquivMethod::Induction { .. } => run
            .log
            .lines()
            .map(str::trim)
            .filter(|l| l.starts_with("Unproven $equiv"))
            .collect(),
    };
    let mut message = if run.success {
        "a counterexample exists".to_string()
    } else {
        run.error().trim_end_matches('.').to_string()
    };
    if !details.is_empty() {
        let shown = details.len().min(REPORT_LINES);
        message.push_str(&format!(": {}", details[..shown].join("; ")));
        if details.len() > shown {
            message.push_str(&format!("; ... {} more", details.len() - shown));
        }
    }
    Err(Error::NotEquivalent {
        top: top.to_string(),
        message,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocked_proofs_match_registers_by_name_after_async2sync() {
        let c = commands(
            &[PathBuf::from("/a.v")],
            &[PathBuf::from("/b.v")],
            "top",
            EquivMethod::Induction { seq: 2 },
        );
        assert!(
            c.starts_with("read_verilog \"/a.v\"; hierarchy -check -top top;"),
            "{c}"
        );
        assert!(c.contains("rename top gate; design -stash gate"), "{c}");
        assert!(c.contains("async2sync; equiv_make gold gate equiv;"), "{c}");
        assert!(c.ends_with("equiv_status -assert"), "{c}");
    }
}
