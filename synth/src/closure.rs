//! Timing closure by several mappings: the timing-driven flow run with each of a few ABC
//! scripts and targets, keeping the best netlist.
//!
//! ABC's result for a delay target depends on its script in ways no single setting fixes.
//! `dc2` (area-oriented rewriting before the delay-driven mapper) helps most designs, but it
//! can turn a wide incrementer into a ripple chain that `map -D` no longer shortens: at
//! NanGate45 a 44-bit `hi + 1` register to register maps to 678 ps with `dc2` and 325 ps
//! without, at a 300 ps target (docs/QOR.md), while other blocks come out slower without it.
//! A target under the one wanted sometimes gives a faster netlist and sometimes the same one.
//! A closure run maps the design once per [`VARIANTS`] entry, each in its own folder, has
//! OpenSTA time each netlist, and keeps, among the netlists whose smallest clock period
//! (OpenSTA's, clock-to-Q and setup included) fits the clock, the smallest; when none fits, the
//! fastest ([`choose`]). The clock is the one OpenSTA times against ([`crate::Timing::clock_ps`],
//! else the target), so `--target-ps` can ask ABC for less than the clock to leave room for
//! clock-to-Q, setup and wires.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// One way of mapping for a target: with or without `dc2`, at the target or under it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Variant {
    /// Folder name of the variant's run, under the work folder's `closure/`.
    pub name: &'static str,
    /// Whether ABC's script keeps `dc2` (the timing-driven flow's script as it is).
    pub dc2: bool,
    /// The target ABC maps for, as a fraction of the target asked for.
    pub target_scale: f64,
}

/// The variants a closure run maps with, the plain timing-driven flow first.
pub const VARIANTS: [Variant; 4] = [
    Variant {
        name: "dc2",
        dc2: true,
        target_scale: 1.0,
    },
    Variant {
        name: "dc2_tight",
        dc2: true,
        target_scale: 0.9,
    },
    Variant {
        name: "no_dc2",
        dc2: false,
        target_scale: 1.0,
    },
    Variant {
        name: "no_dc2_tight",
        dc2: false,
        target_scale: 0.9,
    },
];

/// One mapping of a closure run and what it gave.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClosureTry {
    /// The variant's name ([`Variant::name`]).
    pub variant: String,
    /// Whether ABC's script kept `dc2`.
    pub dc2: bool,
    /// The target ABC mapped for, in ps.
    pub abc_target_ps: f64,
    /// Chip area of the mapped netlist, in the library's unit.
    pub area_um2: f64,
    /// ABC's delay of what it mapped, in ps ([`crate::SynthReport::delay_ps`]).
    pub delay_ps: f64,
    /// OpenSTA's smallest clock period for the netlist, in ps
    /// ([`crate::StaReport::min_period_ps`]); what the choice is made on.
    pub min_period_ps: f64,
    /// Whether this netlist is the one kept.
    pub kept: bool,
    /// The folder with this mapping's script, log, reports and netlist.
    pub work_dir: PathBuf,
}

/// The index of the netlist to keep among `(area, period)` results for the clock period
/// `target_ps`: the smallest of those whose period is within it, or when none is, the fastest
/// (the smaller on a tie). The first wins a full tie, so the choice is deterministic.
pub fn choose(target_ps: f64, results: &[(f64, f64)]) -> Option<usize> {
    let any_meets = results.iter().any(|&(_, delay)| delay <= target_ps);
    results
        .iter()
        .enumerate()
        .filter(|(_, &(_, delay))| !any_meets || delay <= target_ps)
        .map(|(i, &(area, delay))| {
            let key = if any_meets {
                (area, delay)
            } else {
                (delay, area)
            };
            (i, key)
        })
        .min_by(|(_, a), (_, b)| a.partial_cmp(b).expect("finite figures"))
        .map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_smallest_netlist_that_meets_the_target_is_kept() {
        // Worked by hand: 2 and 3 meet 1000 ps; 3 is smaller.
        let results = [(80_000.0, 1_042.0), (81_000.0, 990.0), (79_500.0, 999.0)];
        assert_eq!(choose(1_000.0, &results), Some(2));
        // A netlist exactly at the target meets it.
        assert_eq!(choose(1_042.0, &results), Some(2));
        assert_eq!(choose(990.0, &results), Some(1));
    }

    #[test]
    fn when_none_meets_the_target_the_fastest_is_kept() {
        let results = [
            (80_000.0, 1_042.0),
            (81_000.0, 1_010.0),
            (70_000.0, 1_010.0),
        ];
        assert_eq!(choose(950.0, &results), Some(2));
        assert_eq!(choose(950.0, &results[..2]), Some(1));
        assert_eq!(choose(950.0, &[]), None);
    }

    #[test]
    fn a_full_tie_keeps_the_first() {
        assert_eq!(choose(900.0, &[(1.0, 800.0), (1.0, 800.0)]), Some(0));
    }

    #[test]
    fn the_plain_flow_comes_first_and_names_are_distinct() {
        assert_eq!((VARIANTS[0].dc2, VARIANTS[0].target_scale), (true, 1.0));
        let mut names: Vec<&str> = VARIANTS.iter().map(|v| v.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), VARIANTS.len());
    }
}
