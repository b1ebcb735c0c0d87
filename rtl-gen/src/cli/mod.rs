//! The vocabulary the commands share: the flag groups flattened into every command they apply
//! to (`--jobs`, `--quiet`), and the parsers that take one of a model's names (clap lists the
//! allowed ones in `--help` and refuses any other value with that list, as for a `ValueEnum`;
//! `cli_error` prints that refusal as one line).
//!
//! Every command speaks the same words: `--seed` is the seed of the random test vectors (of the
//! trials for `congestion`), `--vectors` their budget, `--jobs` the work items run at once and
//! `--quiet` silences progress; `--banks` is a bank count, `--lanes` the addresses of one warp
//! access (DUT copies are `--instances`), `--kind` one kind of block and `--kinds` several,
//! `--configurable` a configuration taken at run time and `--storage` how a table is held.
//! Old spellings stay as hidden aliases for one release.

pub mod hash_config;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rtl_gen::block::Written;
use rtl_gen::Error;
use std::fmt::Display;
use std::io::IsTerminal;
use std::str::FromStr;

/// Prints a generator command's block: its manifest as one JSON document with `--json`,
/// otherwise its one line ([`Written::line`]).
pub fn print_written(written: &Written, json: bool) {
    if json {
        print!("{}", written.manifest.to_json());
    } else {
        println!("{}", written.line());
    }
}

/// The element sizes a tile may have, in bytes (`--elem-bytes` of `rtl-gen swizzle` and `rtl-gen
/// cuda swizzle`, parsed with [`named`]).
pub const ELEM_BYTES: [&str; 5] = ["1", "2", "4", "8", "16"];

/// Most work items a command runs at once (`--jobs`).
pub const MAX_JOBS: u32 = 1024;

/// `--jobs`, for every command that runs work items in parallel.
#[derive(Args, Debug, Clone, Copy)]
pub struct JobsArg {
    /// Work items run at once, 1 to 1024 [default: one per core].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_JOBS)))]
    jobs: Option<u32>,
}

impl JobsArg {
    /// The thread count for a rayon pool: `--jobs`, or 0 (one per core).
    pub fn threads(self) -> usize {
        self.jobs.map_or(0, |j| j as usize)
    }

    /// Runs `work` on a pool of [`JobsArg::threads`] threads.
    pub fn install<R: Send>(self, work: impl FnOnce() -> R + Send) -> Result<R, Error> {
        Ok(rtl_gen::experiments::pool::thread_pool(self.threads())?.install(work))
    }
}

/// `--quiet`, for every command that prints progress.
#[derive(Args, Debug, Clone, Copy)]
pub struct QuietArg {
    /// Print no progress (results, failures and errors still print).
    #[arg(long, short)]
    pub quiet: bool,
}

impl QuietArg {
    /// A spinner on stderr that shows the step under way (its message) and the time spent;
    /// hidden with `--quiet` or when stderr is not a terminal (a log gets no spinner frames).
    pub fn spinner(self) -> ProgressBar {
        if self.quiet || !std::io::stderr().is_terminal() {
            return ProgressBar::hidden();
        }
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("{spinner} {elapsed:>3} {msg}")
                .unwrap_or_else(|e| unreachable!("a valid template: {e}")),
        );
        bar.enable_steady_tick(std::time::Duration::from_millis(120));
        bar
    }
}

/// A parser taking one of `names` and giving it to `T::from_str`: clap lists `names` in
/// `--help` and, for any other value, in its error.
pub fn named<T>(names: impl IntoIterator<Item = &'static str>) -> impl TypedValueParser<Value = T>
where
    T: FromStr + Clone + Send + Sync + 'static,
    T::Err: Display,
{
    PossibleValuesParser::new(names)
        .try_map(|name: String| name.parse::<T>().map_err(|e| e.to_string()))
}

/// A value of a flag that takes one of a model's names or `all`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OrAll<T> {
    /// `all`.
    All,
    /// One value.
    One(T),
}

impl<T> OrAll<T> {
    /// The one value, `None` for `all`.
    pub fn one(self) -> Option<T> {
        match self {
            OrAll::All => None,
            OrAll::One(v) => Some(v),
        }
    }
}

impl<T: Clone + PartialEq> OrAll<T> {
    /// The values `list` names, in order and without repeats; every one of `all` if it says
    /// `all` anywhere.
    pub fn expand(list: &[OrAll<T>], all: &[T]) -> Vec<T> {
        let mut out: Vec<T> = Vec::new();
        for item in list {
            match item {
                OrAll::All => return all.to_vec(),
                OrAll::One(v) if !out.contains(v) => out.push(v.clone()),
                OrAll::One(_) => {}
            }
        }
        out
    }
}

/// [`named`] with `all` as a further value.
pub fn named_or_all<T>(
    names: impl IntoIterator<Item = &'static str>,
) -> impl TypedValueParser<Value = OrAll<T>>
where
    T: FromStr + Clone + Send + Sync + 'static,
    T::Err: Display,
{
    PossibleValuesParser::new(std::iter::once("all").chain(names)).try_map(|name: String| {
        if name == "all" {
            Ok(OrAll::All)
        } else {
            name.parse::<T>().map(OrAll::One).map_err(|e| e.to_string())
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser, Debug)]
    struct Probe {
        #[arg(long, value_parser = named::<models::HashKind>(models::HashKind::ALL.map(models::HashKind::name)))]
        kind: models::HashKind,
        #[arg(long, value_delimiter = ',', value_parser = named_or_all::<models::search::Heuristic>(models::search::Heuristic::ALL.map(models::search::Heuristic::name)))]
        heuristic: Vec<OrAll<models::search::Heuristic>>,
        #[command(flatten)]
        jobs: JobsArg,
    }

    #[test]
    fn names_parse_and_bad_ones_list_the_allowed_in_one_line() {
        use models::search::Heuristic;
        let p = Probe::try_parse_from(["p", "--kind", "xor-matrix", "--heuristic", "mih,gf2,mih"])
            .unwrap();
        assert_eq!(p.kind, models::HashKind::XorMatrix);
        assert_eq!(
            OrAll::expand(&p.heuristic, &Heuristic::ALL),
            [Heuristic::Mih, Heuristic::Gf2]
        );
        assert_eq!(p.jobs.threads(), 0);
        let p = Probe::try_parse_from(["p", "--kind", "modulo", "--heuristic", "gf2,all"]).unwrap();
        assert_eq!(OrAll::expand(&p.heuristic, &Heuristic::ALL), Heuristic::ALL);
        let args = ["p", "--kind", "bogus", "--heuristic", "all"].map(String::from);
        let e = Probe::try_parse_from(&args).unwrap_err();
        let line = crate::cli_error::clap_line(&e, &args).unwrap();
        assert!(!line.contains('\n'), "{line}");
        assert!(
            line.starts_with("error: invalid value 'bogus' for '--kind <KIND>'")
                && line.contains("possible values: modulo, bitvector-perm, bitvector-xor"),
            "{line}"
        );
        let args = ["p", "--kind", "modulo", "--jobs", "0"].map(String::from);
        let e = Probe::try_parse_from(&args).unwrap_err();
        let line = crate::cli_error::clap_line(&e, &args).unwrap();
        assert!(line.contains("1..=1024"), "{line}");
    }
}
