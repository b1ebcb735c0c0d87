//! The malicious access: the worst warp an adversary who knows the scheme, but not its random
//! draw, can build.
//!
//! Rows whose shifts are sums of the same random quantities (the same [`Form`]) always share
//! their shift, so accessing them in the same column always hits one bank: under R1P, the six
//! rows `[a][b][c]` with `{a, b, c} = {0, 1, 2}` share `r_0 + r_1 + r_2` (the paper's six-way
//! collision); under 1P all `w^2` rows with the same `k` share `r_k`; under RAW every row shares
//! 0. The search groups every row of the array by its form, then fills the warp class by class,
//! largest class first, each class in its own column: a class of `s` rows costs `s` accesses and
//! guarantees congestion `min(s, w)`. When every class is a single row (RAS, 3P, w²P, 1Pw²R,
//! RAP), the warp is `w` rows of one index line in `w` different columns: for permutation-based
//! shifts that is the diagonal access, the worst one for RAP in Table II (a pair of such rows
//! meets with probability `1/(w-1)`, against `1/w` for rows in the same column).

use super::access::Element;
use super::scheme::{Form, Row, Scheme, Shape};
use std::collections::HashMap;

/// The rows of `shape`, grouped by the random quantities their shift sums (rows of one class
/// always have equal shifts), largest class first, ties in the order of each class's first row.
pub fn shift_classes(scheme: Scheme, shape: Shape) -> Vec<Vec<Row>> {
    let mut index: HashMap<Form, usize> = HashMap::new();
    let mut classes: Vec<Vec<Row>> = Vec::new();
    for row in shape.all_rows() {
        let form = scheme.form(shape, row).canonical();
        let slot = *index.entry(form).or_insert_with(|| {
            classes.push(Vec::new());
            classes.len() - 1
        });
        classes[slot].push(row);
    }
    classes.sort_by_key(|c| std::cmp::Reverse(c.len()));
    classes
}

/// The malicious warp access of `scheme` on `shape`: `w` distinct elements (see the module
/// documentation), and the congestion it guarantees whatever the random draw.
pub fn malicious_access(scheme: Scheme, shape: Shape) -> (Vec<Element>, u32) {
    let w = shape.w() as usize;
    let mut access = Vec::with_capacity(w);
    let mut guaranteed = 1;
    for (col, class) in shift_classes(scheme, shape).into_iter().enumerate() {
        let take = class.len().min(w - access.len());
        guaranteed = guaranteed.max(take as u32);
        access.extend(class[..take].iter().map(|&row| Element {
            row,
            col: (col % w) as u32,
        }));
        if access.len() == w {
            break;
        }
    }
    (access, guaranteed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r1p_has_the_six_way_collision_of_section_vii() {
        let shape = Shape::new(4, 32).unwrap();
        let classes = shift_classes(Scheme::R1p, shape);
        assert_eq!(classes[0].len(), 6);
        let mut first = classes[0].clone();
        first.sort_unstable();
        assert_eq!(
            first,
            vec![
                [0, 1, 2],
                [0, 2, 1],
                [1, 0, 2],
                [1, 2, 0],
                [2, 0, 1],
                [2, 1, 0]
            ]
        );
        let (access, guaranteed) = malicious_access(Scheme::R1p, shape);
        assert_eq!(access.len(), 32);
        assert_eq!(guaranteed, 6);
        // w/6 = 5 full classes of six, then two rows of a sixth class.
        let in_col0 = access.iter().filter(|e| e.col == 0).count();
        assert_eq!(in_col0, 6);
        assert_eq!(access.iter().filter(|e| e.col == 5).count(), 2);
    }

    #[test]
    fn raw_and_1p_collapse_to_one_bank_and_the_others_to_singletons() {
        let shape = Shape::new(4, 8).unwrap();
        assert_eq!(malicious_access(Scheme::Raw, shape).1, 8);
        assert_eq!(malicious_access(Scheme::OneP, shape).1, 8);
        for s in [Scheme::Ras, Scheme::ThreeP, Scheme::W2p, Scheme::OnePW2r] {
            let (access, g) = malicious_access(s, shape);
            assert_eq!(g, 1, "{s}");
            let mut idx: Vec<u64> = access.iter().map(|e| e.index(shape)).collect();
            idx.sort_unstable();
            idx.dedup();
            assert_eq!(idx.len(), 8, "{s}: distinct elements");
        }
        // A matrix under RAP: the diagonal.
        let m = Shape::new(2, 4).unwrap();
        let (access, _) = malicious_access(Scheme::Rap, m);
        let cells: Vec<(u32, u32)> = access.iter().map(|e| (e.row[2], e.col)).collect();
        assert_eq!(cells, vec![(0, 0), (1, 1), (2, 2), (3, 3)]);
    }
}
