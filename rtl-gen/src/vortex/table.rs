//! `rtl-gen vortex table`: the table of docs/VORTEX.md, by one command. At Vortex's default
//! configuration (4 warps x 4 threads, 4 banks) and at 16 threads x 16 banks, every kernel
//! on Vortex's own local memory and on the generated one with modulo, the XOR paper's fixed
//! XOR, the best hash for the kernel's own trace (programmed through the DCRs into one
//! configurable build) and RAP; the kernels that read one word on every lane (`conv3 -l`,
//! `reduce`) also on modulo without the broadcast, so that the broadcast's share of the gain
//! shows. Then the checks, each with its figures.

use super::config::VxConfig;
use super::flow::{self, Plan, Record};
use super::kernels::KernelSpec;
use super::maps::MapChoice;
use super::{Progress, Setup};
use crate::Error;
use std::fmt::Write as _;
use std::time::Duration;

/// The maps of every kernel, in the table's order (the checks first: Vortex's own,
/// modulo and best, then [`NO_BROADCAST`], then the fixed XOR and RAP).
pub const MAPS: [&str; 5] = ["vortex", "modulo", "best", "xor", "rap"];

/// The map that shows what the broadcast buys, and the kernels it runs.
pub const NO_BROADCAST: (&str, [&str; 2]) = ("modulo/no-broadcast", ["conv3", "reduce"]);

/// The kernels at Vortex's default configuration (a block of at most 16 threads: sgemm2's
/// 4 x 4 tiles).
pub const DEFAULT_KERNELS: [&str; 11] = [
    "sgemm2:-n16",
    "sgemm2:-n32",
    "sgemm2:-n64",
    "conv3:-n64:-l",
    "sgemm:-n32",
    "vecadd",
    "transpose",
    "strided",
    "histogram",
    "stencil",
    "reduce",
];

/// The kernels at 16 threads x 16 banks (a block of 64 threads: sgemm2's 8 x 8 tiles).
pub const WIDE_KERNELS: [&str; 11] = [
    "sgemm2:-n16:-t8",
    "sgemm2:-n32:-t8",
    "sgemm2:-n64:-t8",
    "conv3:-n64:-l",
    "sgemm:-n32",
    "vecadd",
    "transpose",
    "strided",
    "histogram",
    "stencil",
    "reduce",
];

/// The table's two configurations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Configuration {
    /// Vortex's default: 4 warps x 4 threads, 4 banks.
    #[value(name = "4x4")]
    Default,
    /// 4 warps x 16 threads, 16 banks.
    #[value(name = "16x16")]
    Wide,
}

impl Configuration {
    /// The GPU's configuration and the kernels the table runs on it.
    pub fn plan(self) -> Result<(VxConfig, Vec<KernelSpec>), Error> {
        let parse = |list: &[&str]| -> Result<Vec<KernelSpec>, Error> {
            list.iter().map(|k| KernelSpec::parse(k)).collect()
        };
        Ok(match self {
            Configuration::Default => (VxConfig::default(), parse(&DEFAULT_KERNELS)?),
            Configuration::Wide => (
                VxConfig::new(Some(16), Some(16), "")?,
                parse(&WIDE_KERNELS)?,
            ),
        })
    }
}

/// Runs the table on `configurations`: every kernel on [`MAPS`], and [`NO_BROADCAST`], one
/// map at a time. After each map, `written` gets every record so far (speed-ups set), so that a
/// long table shows what it has if it is stopped; the records are returned at the end.
pub fn run(
    setup: &Setup,
    configurations: &[Configuration],
    timeout: Duration,
    progress: &dyn Progress,
    written: &mut dyn FnMut(&[Record]) -> Result<(), Error>,
) -> Result<Vec<Record>, Error> {
    let mut records = Vec::new();
    for configuration in configurations {
        let (config, kernels) = configuration.plan()?;
        let mut plans = Vec::new();
        for map in MAPS {
            plans.push((MapChoice::parse(map)?, kernels.clone()));
        }
        plans.insert(
            3,
            (
                MapChoice::parse(NO_BROADCAST.0)?,
                kernels
                    .iter()
                    .filter(|k| NO_BROADCAST.1.contains(&k.name.as_str()))
                    .cloned()
                    .collect(),
            ),
        );
        for (map, kernels) in plans {
            let plan = Plan {
                config: config.clone(),
                maps: vec![map],
                kernels,
                timeout,
            };
            records.extend(flow::run(setup, &plan, progress)?);
            flow::set_speedups(&mut records);
            written(&records)?;
        }
    }
    Ok(records)
}

/// A number with thin spaces between thousands (`51 996`), `-` when there is none.
fn number(value: Option<u64>) -> String {
    let Some(v) = value else {
        return "-".to_string();
    };
    let digits = v.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// The records as one Markdown table, configuration and kernel by kernel.
pub fn markdown(records: &[Record]) -> String {
    let mut out = String::from(
        "| configuration | kernel | map | PASSED | cycles | bank stalls | conflict cycles | \
         speed-up |\n|---|---|---|---|---:|---:|---:|---:|\n",
    );
    for r in records {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            r.config,
            r.kernel,
            r.map,
            if r.passed { "yes" } else { "**NO**" },
            number(r.cycles),
            number(r.bank_stalls),
            number(r.conflict_cycles),
            r.speedup.map_or("-".to_string(), |s| format!("{s:.3}")),
        );
    }
    out
}

/// The hash each kernel's `best` run programmed, as a Markdown table.
pub fn programmed(records: &[Record]) -> String {
    let mut out = String::from(
        "| configuration | kernel | best hash (programmed through the DCRs) |\n|---|---|---|\n",
    );
    for r in records.iter().filter(|r| r.programmed.is_some()) {
        let _ = writeln!(
            out,
            "| {} | {} | {} |",
            r.config,
            r.kernel,
            r.programmed.as_deref().unwrap_or_default()
        );
    }
    out
}

/// The checks on the records, one line each, `ok` or `MISSED` with the figures.
pub fn checks(records: &[Record]) -> String {
    let mut out = String::new();
    let find = |config: &str, kernel: &str, map: &str| {
        records
            .iter()
            .find(|r| r.config == config && r.kernel == kernel && r.map == map)
    };
    let failed: Vec<String> = records
        .iter()
        .filter(|r| !r.passed)
        .map(|r| format!("{} {} on {}", r.config, r.kernel, r.map))
        .collect();
    let _ = writeln!(
        out,
        "- every run passes: {}",
        if failed.is_empty() {
            format!("ok ({} runs)", records.len())
        } else {
            format!("MISSED: {}", failed.join(", "))
        }
    );
    let mut slower = Vec::new();
    for best in records.iter().filter(|r| r.map == "best") {
        if let Some(modulo) = find(&best.config, &best.kernel, "modulo") {
            if let (Some(b), Some(m)) = (best.cycles, modulo.cycles) {
                if b > m {
                    slower.push(format!("{} {}: {b} > {m}", best.config, best.kernel));
                }
            }
        }
    }
    let _ = writeln!(
        out,
        "- no kernel slower under the best hash than under modulo: {}",
        if slower.is_empty() {
            "ok".to_string()
        } else {
            format!("MISSED: {}", slower.join(", "))
        }
    );
    for r in records.iter().filter(|r| {
        r.map == "best" && (r.kernel.starts_with("transpose") || r.kernel.starts_with("strided"))
    }) {
        if let Some(own) = find(&r.config, &r.kernel, "vortex") {
            if let (Some(o), Some(b)) = (own.bank_stalls, r.bank_stalls) {
                let factor = if b == 0 {
                    f64::INFINITY
                } else {
                    o as f64 / b as f64
                };
                let _ = writeln!(
                    out,
                    "- {} {}: bank stalls {} on Vortex's own, {} under the best hash ({}): {}",
                    r.config,
                    r.kernel,
                    number(Some(o)),
                    number(Some(b)),
                    if factor.is_infinite() {
                        "all gone".to_string()
                    } else {
                        format!("{factor:.1}x fewer")
                    },
                    if factor >= 4.0 {
                        "ok (>= 4x)"
                    } else {
                        "MISSED (< 4x)"
                    }
                );
            }
        }
    }
    for r in records
        .iter()
        .filter(|r| r.map == NO_BROADCAST.0 && r.kernel.starts_with("conv3"))
    {
        let own = find(&r.config, &r.kernel, "vortex").and_then(|x| x.cycles);
        let with = find(&r.config, &r.kernel, "modulo").and_then(|x| x.cycles);
        if let (Some(own), Some(with), Some(without)) = (own, with, r.cycles) {
            let gain = own as f64 - with as f64;
            let share = if gain > 0.0 {
                format!("{:.0} %", 100.0 * (without as f64 - with as f64) / gain)
            } else {
                "none (no gain)".to_string()
            };
            let _ = writeln!(
                out,
                "- {} {}: cycles {} on Vortex's own, {} on modulo without the broadcast, {} \
                 with it: the broadcast's share of the gain {}",
                r.config,
                r.kernel,
                number(Some(own)),
                number(Some(without)),
                number(Some(with)),
                share
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Thousands are set apart; a missing value is a dash.
    #[test]
    fn numbers_read_as_in_the_docs() {
        assert_eq!(number(Some(51996)), "51 996");
        assert_eq!(number(Some(434704)), "434 704");
        assert_eq!(number(Some(12)), "12");
        assert_eq!(number(None), "-");
    }

    /// Both configurations parse, and the wide one is 16 threads over 16 banks.
    #[test]
    fn the_configurations_parse() {
        let default = Configuration::Default.plan().unwrap();
        let wide = Configuration::Wide.plan().unwrap();
        assert_eq!((default.0.threads, default.0.banks), (4, 4));
        assert_eq!((wide.0.threads, wide.0.banks), (16, 16));
        assert_eq!((default.1.len(), wide.1.len()), (11, 11));
    }
}
