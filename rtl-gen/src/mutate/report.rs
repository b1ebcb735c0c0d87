//! The tables of a mutation run: one row per family (`hash`, `rap`, `d2ma`, `smem`), one row
//! per block (and a total), then every mutant the testbench passed, as plain text or Markdown.

use super::{BlockMutants, Verdict};

/// Counts of one block's verdicts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Sites found (all operators asked for).
    pub sites: usize,
    /// Mutants run.
    pub mutants: usize,
    /// Caught by the testbench.
    pub caught: usize,
    /// Passed by it and proved equivalent.
    pub equivalent: usize,
    /// Passed by it and proved equal to the reference (differs only outside the contract).
    pub in_contract: usize,
    /// Passed by it and not equivalent: testbench gaps.
    pub not_equivalent: usize,
    /// Passed by it, undecided.
    pub undecided: usize,
    /// Did not build.
    pub stillborn: usize,
}

impl Counts {
    /// The counts of `block`.
    pub fn of(block: &BlockMutants) -> Self {
        let mut c = Counts {
            sites: block.sites.values().sum(),
            mutants: block.mutants.len(),
            ..Counts::default()
        };
        for m in &block.mutants {
            match m.verdict {
                Verdict::Caught { .. } => c.caught += 1,
                Verdict::Stillborn { .. } => c.stillborn += 1,
                Verdict::Equivalent => c.equivalent += 1,
                Verdict::EquivalentInContract => c.in_contract += 1,
                Verdict::NotEquivalent { .. } => c.not_equivalent += 1,
                Verdict::Undecided { .. } => c.undecided += 1,
            }
        }
        c
    }

    fn add(&mut self, o: &Counts) {
        self.sites += o.sites;
        self.mutants += o.mutants;
        self.caught += o.caught;
        self.equivalent += o.equivalent;
        self.in_contract += o.in_contract;
        self.not_equivalent += o.not_equivalent;
        self.undecided += o.undecided;
        self.stillborn += o.stillborn;
    }

    /// Survivors: mutants the testbench passed.
    pub fn survived(&self) -> usize {
        self.equivalent + self.in_contract + self.not_equivalent + self.undecided
    }

    /// Caught mutants as a share of those that are not proved harmless.
    pub fn caught_share(&self) -> f64 {
        let relevant = self.caught + self.not_equivalent + self.undecided;
        if relevant == 0 {
            1.0
        } else {
            self.caught as f64 / relevant as f64
        }
    }
}

const HEADER: [&str; 11] = [
    "block",
    "family",
    "sites",
    "mutants",
    "caught",
    "survived",
    "equivalent",
    "equiv. in contract",
    "not equivalent",
    "undecided",
    "stillborn",
];

fn row(block: &str, family: &str, c: &Counts) -> Vec<String> {
    vec![
        block.to_string(),
        family.to_string(),
        c.sites.to_string(),
        c.mutants.to_string(),
        c.caught.to_string(),
        c.survived().to_string(),
        c.equivalent.to_string(),
        c.in_contract.to_string(),
        c.not_equivalent.to_string(),
        c.undecided.to_string(),
        c.stillborn.to_string(),
    ]
}

fn rows(blocks: &[BlockMutants]) -> Vec<Vec<String>> {
    let mut total = Counts::default();
    let mut out = Vec::new();
    for b in blocks {
        let c = Counts::of(b);
        total.add(&c);
        out.push(row(&b.block, &b.family, &c));
    }
    out.push(row("total", "", &total));
    out
}

/// The family of a block: the first word of its family and kind (`hash`, `rap`, `d2ma`, ...).
fn family(block: &BlockMutants) -> &str {
    block.family.split_whitespace().next().unwrap_or("")
}

const FAMILY_HEADER: [&str; 9] = [
    "family",
    "blocks",
    "mutants",
    "caught",
    "equivalent",
    "equiv. in contract",
    "not equivalent",
    "undecided",
    "caught of non-equivalent",
];

/// One row per family, in the order the families first appear, with the blocks' counts added.
fn family_rows(blocks: &[BlockMutants]) -> Vec<Vec<String>> {
    let mut families: Vec<(&str, usize, Counts)> = Vec::new();
    for b in blocks {
        let i = match families.iter().position(|(f, ..)| *f == family(b)) {
            Some(i) => i,
            None => {
                families.push((family(b), 0, Counts::default()));
                families.len() - 1
            }
        };
        families[i].1 += 1;
        families[i].2.add(&Counts::of(b));
    }
    families
        .into_iter()
        .map(|(f, n, c)| {
            let relevant = c.caught + c.not_equivalent + c.undecided;
            vec![
                f.to_string(),
                n.to_string(),
                (c.mutants - c.stillborn).to_string(),
                c.caught.to_string(),
                c.equivalent.to_string(),
                c.in_contract.to_string(),
                c.not_equivalent.to_string(),
                c.undecided.to_string(),
                format!(
                    "{} of {relevant} ({:.0} %)",
                    c.caught,
                    100.0 * c.caught_share()
                ),
            ]
        })
        .collect()
}

/// Rows as aligned plain text: the first `left` columns aligned left, the others right.
fn aligned(all: &[Vec<String>], left: usize) -> String {
    let widths: Vec<usize> = (0..all[0].len())
        .map(|i| all.iter().map(|r| r[i].len()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for r in all {
        let cells: Vec<String> = r
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (c, w))| {
                if i < left {
                    format!("{c:<w$}")
                } else {
                    format!("{c:>w$}")
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// A Markdown table: the header, then the rows; the first `left` columns aligned left.
fn markdown_table(header: &[&str], rows: Vec<Vec<String>>, left: usize) -> String {
    let mut out = format!("| {} |\n|", header.join(" | "));
    for i in 0..header.len() {
        out.push_str(if i < left { "---|" } else { "---:|" });
    }
    out.push('\n');
    for r in rows {
        out.push_str(&format!("| {} |\n", r.join(" | ")));
    }
    out
}

/// The mutants the testbench passed, one line each.
fn survivors(blocks: &[BlockMutants]) -> Vec<String> {
    let mut out = Vec::new();
    for b in blocks {
        for m in b.mutants.iter().filter(|m| m.verdict.name() != "caught") {
            let detail = match &m.verdict {
                Verdict::NotEquivalent { counterexample } => format!(": {counterexample}"),
                Verdict::Undecided { why } | Verdict::Stillborn { why } => format!(": {why}"),
                _ => String::new(),
            };
            out.push(format!(
                "{} {} {}:{} `{}` -> `{}`: {}{detail}",
                b.block,
                m.operator.name(),
                m.file,
                m.line,
                m.before,
                m.after,
                m.verdict.name()
            ));
        }
    }
    out
}

/// The tables (per family, then per block) as aligned plain text, then the survivors.
pub fn text(blocks: &[BlockMutants]) -> String {
    let header = |h: &[&str]| h.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let mut families = vec![header(&FAMILY_HEADER)];
    families.extend(family_rows(blocks));
    let mut all = vec![header(&HEADER)];
    all.extend(rows(blocks));
    let mut out = aligned(&families, 1);
    out.push('\n');
    out.push_str(&aligned(&all, 2));
    for line in survivors(blocks) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The tables (per family, then per block) and the survivors as Markdown.
pub fn markdown(blocks: &[BlockMutants]) -> String {
    let mut out = format!(
        "<!-- Generated by {} (rtl-gen mutate) -->\n\n",
        crate::manifest::generator()
    );
    out.push_str(&markdown_table(&FAMILY_HEADER, family_rows(blocks), 1));
    out.push('\n');
    out.push_str(&markdown_table(&HEADER, rows(blocks), 2));
    let survivors = survivors(blocks);
    if !survivors.is_empty() {
        out.push_str("\nMutants the testbenches passed:\n\n");
        for line in survivors {
            out.push_str(&format!("- {line}\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutate::sites::Operator;
    use crate::mutate::Mutant;

    fn block(name: &str, family: &str, verdicts: Vec<Verdict>) -> BlockMutants {
        BlockMutants {
            block: name.into(),
            family: family.into(),
            sites: [(Operator::Constant, verdicts.len())].into_iter().collect(),
            mutants: verdicts
                .into_iter()
                .map(|verdict| Mutant {
                    operator: Operator::Constant,
                    file: "x.v".into(),
                    line: 1,
                    before: "a".into(),
                    after: "b".into(),
                    verdict,
                    seconds: 0.0,
                })
                .collect(),
        }
    }

    #[test]
    fn families_add_their_blocks() {
        let caught = || Verdict::Caught { how: "x".into() };
        let blocks = [
            block("hash_a", "hash modulo", vec![caught(), Verdict::Equivalent]),
            block("d2ma_agen", "d2ma agen", vec![caught()]),
            block(
                "hash_b",
                "hash bitvector-xor configurable",
                vec![
                    caught(),
                    Verdict::Stillborn { why: "y".into() },
                    Verdict::NotEquivalent {
                        counterexample: "z".into(),
                    },
                ],
            ),
        ];
        let rows = family_rows(&blocks);
        // Two families in the order they appear; stillborn mutants are not counted.
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0][..4], ["hash", "2", "4", "2"].map(String::from));
        assert_eq!(rows[0][4], "1");
        assert_eq!(rows[0][6], "1");
        assert_eq!(rows[0][8], "2 of 3 (67 %)");
        assert_eq!(rows[1][8], "1 of 1 (100 %)");
        let md = markdown(&blocks);
        assert!(md.contains("| family | blocks |"), "{md}");
        assert!(
            md.contains("| hash | 2 | 4 | 2 | 1 | 0 | 1 | 0 | 2 of 3 (67 %) |"),
            "{md}"
        );
    }
}
