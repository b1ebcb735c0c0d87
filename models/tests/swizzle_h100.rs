//! The swizzle models against what an H100 measured (gpu/swizzle_run.sh, docs/SWIZZLE.md):
//! TMA's modes as they lie in shared memory, and the wavefronts of every probed warp access.

use models::swizzle::wavefront::{warp_wavefronts, Instruction};
use models::swizzle::{Layout, Tile, TileShape, TmaMode};
use std::collections::BTreeMap;
use std::path::Path;

fn read(relative: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// gpu/results/tma_swizzle.txt: one TMA box of 16-bit elements numbered in row-major order,
/// dumped from shared memory. Rows one span wide are the models' `tma:<span>B` layout; narrower
/// rows are put one span apart (the rest untouched, 65535), each swizzled as its address says.
#[test]
fn tma_swizzle_matches_the_h100() {
    let text = read("gpu/results/tma_swizzle.txt");
    let mut cases = 0;
    for line in text.lines() {
        let f: Vec<u64> = line
            .split_whitespace()
            .skip(1)
            .map(|x| x.parse().unwrap())
            .collect();
        let (span, rows, cols, stored) = (f[0], f[1], f[2], &f[3..]);
        let row_bytes = cols * 2;
        let mode = TmaMode::ALL.into_iter().find(|m| m.span() == span);
        let pitch = row_bytes.max(span);
        let mut expected = vec![65535u64; stored.len()];
        for v in 0..rows * cols {
            let unswizzled = (v / cols) * pitch + (v % cols) * 2;
            let p = mode.map_or(unswizzled, |m| m.apply(unswizzled));
            expected[(p / 2) as usize] = v;
        }
        assert_eq!(stored, &expected[..], "{line:.40}");
        if let (Some(m), true) = (mode, row_bytes == span) {
            let tile = Tile::new(TileShape { rows, cols }, 2).unwrap();
            let map = Layout::Tma(m).to_map(&tile).unwrap();
            for v in 0..rows * cols {
                assert_eq!(stored[(map.apply(v * 2) / 2) as usize], v);
            }
        }
        cases += 1;
    }
    assert_eq!(cases, 7);
}

/// gpu/gen/swizzle_patterns.txt replayed under ncu (gpu/results/swizzle_ncu.csv): every launch's
/// load (or ldmatrix) and store wavefronts are the model's.
#[test]
fn wavefront_model_matches_every_h100_launch() {
    let measured = read("gpu/results/swizzle_ncu.csv");
    let mut lines = measured.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let rows: Vec<BTreeMap<&str, &str>> = lines
        .map(|l| header.iter().copied().zip(l.split(',')).collect())
        .collect();
    let patterns = read("gpu/gen/swizzle_patterns.txt");
    let mut launches = 0;
    for (line, row) in patterns.lines().filter(|l| !l.starts_with('#')).zip(&rows) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let (id, op) = (f[0], f[1]);
        let offsets: Vec<u64> = f[3..].iter().map(|x| x.parse().unwrap()).collect();
        let (width, load_op) = match op {
            "v4" => (4, Instruction::Load),
            "v8" => (8, Instruction::Load),
            "v16" => (16, Instruction::Load),
            _ => (16, Instruction::Ldmatrix),
        };
        let sum = |i: Instruction| -> u64 {
            offsets
                .chunks(32)
                .map(|a| u64::from(warp_wavefronts(a, width, i)))
                .sum()
        };
        let count = |k: &str| row[k].parse::<u64>().unwrap();
        assert_eq!(sum(load_op), count("ld_wavefronts"), "{id}: loads");
        let stores = if load_op == Instruction::Ldmatrix {
            0
        } else {
            sum(Instruction::Store)
        };
        assert_eq!(stores, count("st_wavefronts"), "{id}: stores");
        launches += 1;
    }
    assert_eq!(launches, rows.len());
    assert_eq!(launches, 428);
}

/// The 678 launches of docs/GPU.md (4- and 8-byte words, gpu/gen/patterns.txt): the same model,
/// its pair rule included, gives every load's and store's wavefronts.
#[test]
fn wavefront_model_matches_the_earlier_678_launches() {
    let measured = read("docs/gpu/model_vs_silicon.csv");
    let mut lines = measured.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let rows: BTreeMap<String, BTreeMap<&str, &str>> = lines
        .map(|l| {
            let row: BTreeMap<&str, &str> = header.iter().copied().zip(l.split(',')).collect();
            (row["id"].to_string(), row)
        })
        .collect();
    let patterns = read("gpu/gen/patterns.txt");
    let mut launches = 0;
    for line in patterns.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let width: u32 = f[1].parse().unwrap();
        let bytes: Vec<u64> = f[2..]
            .iter()
            .map(|x| x.parse::<u64>().unwrap() * u64::from(width))
            .collect();
        let row = &rows[f[0]];
        for (op, column) in [
            (Instruction::Load, "ld_wavefronts"),
            (Instruction::Store, "st_wavefronts"),
        ] {
            let want: u32 = row[column].parse().unwrap();
            assert_eq!(
                warp_wavefronts(&bytes, width, op),
                want,
                "{}: {column}",
                f[0]
            );
        }
        launches += 1;
    }
    assert_eq!(launches, 678);
}
