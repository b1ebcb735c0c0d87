//! The kernel suite: synthetic traces of the access patterns of the XOR paper's Table 5
//! kernels, generated from the source lines they model (docs/SEARCH.md lists them).
//!
//! Every kernel runs on the Fermi shape of the paper (14-bit word addresses, 32 banks, warps of
//! 32 threads). A thread block's threads are numbered `tid = tx + bx * ty` and split into
//! warps of 32 consecutive threads; each line of a trace is one warp executing one shared-memory
//! instruction, holding the addresses of its active threads.

use crate::search::trace::{Access, Trace};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Word-address bits of the suite (48 kB of 4-byte words needs 14).
pub const ADDR_BITS: u32 = 14;
/// Banks of the suite.
pub const BANKS: u64 = 32;
/// Threads per warp.
pub const WARP: usize = 32;

/// One kernel of the suite.
#[derive(Debug, Clone)]
pub struct Kernel {
    /// Short name, also the trace's file stem (`transpose-16`).
    pub name: &'static str,
    /// The source line(s) modelled and the launch shape.
    pub models: &'static str,
    /// The warp accesses.
    pub trace: Trace,
}

/// Appends the warp accesses of one instruction executed by `threads` threads, thread `tid`
/// accessing `address(tid)` when active (`None`: inactive).
fn instruction(
    trace: &mut Trace,
    label: &str,
    threads: usize,
    address: impl Fn(usize) -> Option<u64>,
) {
    for warp in 0..threads.div_ceil(WARP) {
        let addresses: Vec<u64> = (warp * WARP..((warp + 1) * WARP).min(threads))
            .filter_map(&address)
            .collect();
        if !addresses.is_empty() {
            trace.accesses.push(Access {
                label: label.to_string(),
                addresses,
            });
        }
    }
}

/// `tile[ty+i][tx]` then `tile[tx][ty+i]`: the SDK's matrix transpose, TILE_DIM x BLOCK_ROWS
/// threads.
fn transpose(tile: usize, block_rows: usize) -> Trace {
    let mut t = Trace::default();
    let threads = tile * block_rows;
    for i in (0..tile).step_by(block_rows) {
        instruction(&mut t, "st.tile", threads, |tid| {
            let (tx, ty) = (tid % tile, tid / tile);
            Some(((ty + i) * tile + tx) as u64)
        });
    }
    for i in (0..tile).step_by(block_rows) {
        instruction(&mut t, "ld.tile", threads, |tid| {
            let (tx, ty) = (tid % tile, tid / tile);
            Some((tx * tile + ty + i) as u64)
        });
    }
    t
}

/// `sdata[2*s*tid] += sdata[2*s*tid + s]` for s = 1, 2, ..., 128, 256 threads (reduce1).
fn reduction() -> Trace {
    let mut t = Trace::default();
    let threads = 256;
    let mut s = 1;
    while s < threads {
        let active = |tid: usize| (2 * s * tid < threads).then_some(2 * s * tid);
        instruction(&mut t, &format!("ld.a.s{s}"), threads, |tid| {
            active(tid).map(|i| i as u64)
        });
        instruction(&mut t, &format!("ld.b.s{s}"), threads, |tid| {
            active(tid).map(|i| (i + s) as u64)
        });
        instruction(&mut t, &format!("st.s{s}"), threads, |tid| {
            active(tid).map(|i| i as u64)
        });
        s *= 2;
    }
    t
}

/// fwtBatch1Kernel, N = 2048, 256 threads: `i0 = ((pos - lo) << 2) + lo` with
/// `lo = pos & (stride - 1)`, and `i1..i3 = i0 + stride, 2*stride, 3*stride`, for stride
/// 512, 128, 32, 8, 2.
fn fwt() -> Trace {
    let mut t = Trace::default();
    let (n, threads) = (2048usize, 256usize);
    let mut stride = n / 4;
    while stride > 0 {
        for op in ["ld", "st"] {
            for pos_base in (0..n / 4).step_by(threads) {
                for q in 0..4 {
                    instruction(&mut t, &format!("{op}.d{q}.s{stride}"), threads, |tid| {
                        let pos = pos_base + tid;
                        let lo = pos & (stride - 1);
                        Some((((pos - lo) << 2) + lo + q * stride) as u64)
                    });
                }
            }
        }
        stride >>= 2;
    }
    t
}

/// lavaMD: `rA_shared[wtx].{v,x,y,z}` (FOUR_VECTOR, word `4*wtx + c`) with `rB_shared[j]`
/// and `qB_shared[j]` broadcast, 128 threads, 100 particles per box, 8 iterations of `j`.
fn lavamd() -> Trace {
    let mut t = Trace::default();
    let (threads, particles) = (128usize, 100usize);
    let (rb, qb) = (400u64, 800u64);
    for j in 0..8u64 {
        for c in 0..4 {
            instruction(&mut t, &format!("ld.rA.{c}"), threads, |wtx| {
                (wtx < particles).then_some((4 * wtx + c) as u64)
            });
        }
        instruction(&mut t, "ld.rB", threads, |wtx| {
            (wtx < particles).then_some(rb + 4 * j + 1)
        });
        instruction(&mut t, "ld.qB", threads, |wtx| {
            (wtx < particles).then_some(qb + j)
        });
    }
    t
}

/// convolutionRowsKernel (16 x 4 threads, 8 result steps, 1 halo step, radius 8):
/// `sum += c_Kernel[R - j] * s_Data[threadIdx.y][threadIdx.x + i * 16 + j]`, rows of 160 words.
fn conv_rows() -> Trace {
    let mut t = Trace::default();
    let (bx, by, row) = (16usize, 4usize, 160usize);
    for i in 1..9 {
        for j in [-8i64, 0, 8] {
            instruction(&mut t, &format!("ld.i{i}"), bx * by, |tid| {
                let (tx, ty) = (tid % bx, tid / bx);
                Some(((ty * row + tx + i * bx) as i64 + j) as u64)
            });
        }
    }
    t
}

/// convolutionColumnsKernel (16 x 8 threads, 8 result steps, 1 halo step) without its `+ 1`
/// padding: `s_Data[threadIdx.x][threadIdx.y + i * 8 + j]`, columns of 80 words.
fn conv_cols() -> Trace {
    let mut t = Trace::default();
    let (bx, by, col) = (16usize, 8usize, 80usize);
    for i in 1..9 {
        for j in [-8i64, 0, 8] {
            instruction(&mut t, &format!("ld.i{i}"), bx * by, |tid| {
                let (tx, ty) = (tid % bx, tid / bx);
                Some(((tx * col + ty + i * by) as i64 + j) as u64)
            });
        }
    }
    t
}

/// CUDAkernel2DCT (8 x 4 x 2 threads, 32 x 16 block) without its `+ 1` padding (stride 32):
/// the column pass reads `block[(8*tz + i) * 32 + 8*ty + tx]`, the row pass
/// `block[(8*tz + tx) * 32 + 8*ty + i]`, i = 0..8.
fn dct8x8() -> Trace {
    let mut t = Trace::default();
    let split = |tid: usize| (tid % 8, (tid / 8) % 4, tid / 32);
    for i in 0..8 {
        instruction(&mut t, &format!("ld.col.{i}"), 64, |tid| {
            let (tx, ty, tz) = split(tid);
            Some(((8 * tz + i) * 32 + 8 * ty + tx) as u64)
        });
    }
    for i in 0..8 {
        instruction(&mut t, &format!("ld.row.{i}"), 64, |tid| {
            let (tx, ty, tz) = split(tid);
            Some(((8 * tz + tx) * 32 + 8 * ty + i) as u64)
        });
    }
    t
}

/// lud_diagonal and lud_perimeter (BLOCK_SIZE 16): `shadow[i][tx]` (rows) and
/// `shadow[tx][i]` (columns) by 16 threads, and `peri_col[idx][i]` by the 32 threads of the
/// perimeter kernel (`idx = tx - 16`, after `dia` at 0 and `peri_row` at 256).
fn lud() -> Trace {
    let mut t = Trace::default();
    for i in 0..16 {
        instruction(&mut t, "ld.shadow.row", 16, |tx| Some((i * 16 + tx) as u64));
        instruction(&mut t, "ld.shadow.col", 16, |tx| Some((tx * 16 + i) as u64));
        instruction(&mut t, "ld.peri_col", 32, |tx| {
            (tx >= 16).then(|| (512 + (tx - 16) * 16 + i) as u64)
        });
    }
    t
}

/// needle_cuda_shared_1 (BLOCK_SIZE 16, `temp[17][17]`): on anti-diagonal `m`, thread `tx <= m`
/// reads `temp[m - tx][tx]`, `temp[m - tx + 1][tx]`, `temp[m - tx][tx + 1]` and writes
/// `temp[m - tx + 1][tx + 1]`; then the lower triangle.
fn nw() -> Trace {
    let mut t = Trace::default();
    let at = |y: usize, x: usize| (y * 17 + x) as u64;
    let diagonals = (0..16)
        .map(|m| (m, 0))
        .chain((0..15).rev().map(|m| (m, 15 - m)));
    for (len, shift) in diagonals {
        let cell = move |tx: usize| (tx <= len).then(|| (len - tx + shift, tx + shift));
        instruction(&mut t, "ld.nw", 16, |tx| cell(tx).map(|(y, x)| at(y, x)));
        instruction(&mut t, "ld.w", 16, |tx| cell(tx).map(|(y, x)| at(y + 1, x)));
        instruction(&mut t, "ld.n", 16, |tx| cell(tx).map(|(y, x)| at(y, x + 1)));
        instruction(&mut t, "st", 16, |tx| {
            cell(tx).map(|(y, x)| at(y + 1, x + 1))
        });
    }
    t
}

/// Data distributions of the histogram kernels.
#[derive(Clone, Copy)]
enum Data {
    /// Uniform bins.
    Uniform,
    /// Three quarters of the samples in 4 neighbouring bins around a mode, as in a dark image.
    Skewed,
}

/// Histogram with 8 sub-histograms per block (`s_hist[(tid % 8) * BINS + bin]`), 256 threads,
/// 8 samples per thread, bins drawn by a seeded generator: the update's addresses depend on
/// the data.
fn histogram(bins: u64, data: Data, seed: u64) -> Trace {
    let mut t = Trace::default();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..8 {
        let draws: Vec<u64> = (0..256)
            .map(|_| match data {
                Data::Uniform => rng.gen_range(0..bins),
                Data::Skewed if rng.gen_bool(0.75) => bins / 4 + rng.gen_range(0..4),
                Data::Skewed => rng.gen_range(0..bins),
            })
            .collect();
        instruction(&mut t, "atom.s_hist", 256, |tid| {
            Some((tid as u64 % 8) * bins + draws[tid])
        });
    }
    t
}

/// The whole suite, in the order of docs/SEARCH.md.
pub fn suite() -> Vec<Kernel> {
    let k = |name, models, trace| Kernel {
        name,
        models,
        trace,
    };
    vec![
        k("transpose-16", "transpose: tile[ty+i][tx] = ...; ... = tile[tx][ty+i]; TILE_DIM = BLOCK_ROWS = 16", transpose(16, 16)),
        k("transpose-32", "transpose: tile[ty+i][tx] = ...; ... = tile[tx][ty+i]; TILE_DIM = 32, BLOCK_ROWS = 8", transpose(32, 8)),
        k("reduction", "reduce1: sdata[2*s*tid] += sdata[2*s*tid + s], 256 threads", reduction()),
        k("fwt", "fwtBatch1Kernel: i0 = ((pos - lo) << 2) + lo, strides 512..2, N = 2048", fwt()),
        k("lavamd", "lavaMD: rA_shared[wtx].v/x/y/z (4*wtx + c), rB_shared[j], qB_shared[j]", lavamd()),
        k("conv-rows", "convolutionRowsKernel: s_Data[threadIdx.y][threadIdx.x + i*16 + j], 16 x 4 threads", conv_rows()),
        k("conv-cols", "convolutionColumnsKernel: s_Data[threadIdx.x][threadIdx.y + i*8 + j], 16 x 8 threads, no padding", conv_cols()),
        k("dct8x8", "CUDAkernel2DCT: block[(8*tz + tx)*32 + 8*ty + i] (rows), block[(8*tz + i)*32 + 8*ty + tx] (columns), no padding", dct8x8()),
        k("lud", "lud_diagonal: shadow[i][tx], shadow[tx][i]; lud_perimeter: peri_col[idx][i]", lud()),
        k("nw", "needle_cuda_shared_1: temp[m-tx][tx], temp[m-tx+1][tx], temp[m-tx][tx+1], temp[m-tx+1][tx+1]", nw()),
        k("hist64-uniform", "histogram: atomicAdd(&s_hist[(tid % 8)*64 + bin], 1), uniform data", histogram(64, Data::Uniform, 64)),
        k("hist64-skewed", "histogram: atomicAdd(&s_hist[(tid % 8)*64 + bin], 1), skewed data", histogram(64, Data::Skewed, 65)),
        k("hist256-uniform", "histogram: atomicAdd(&s_hist[(tid % 8)*256 + bin], 1), uniform data", histogram(256, Data::Uniform, 256)),
        k("hist256-skewed", "histogram: atomicAdd(&s_hist[(tid % 8)*256 + bin], 1), skewed data", histogram(256, Data::Skewed, 257)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The paper's section 3.2.2 example: the first warp of the TILE_DIM = 16 store reads
    /// 0, 16, ..., 240, 1, 17, ..., 241.
    #[test]
    fn transpose_16_store_matches_the_papers_warp() {
        let t = transpose(16, 16);
        let ld = t.accesses.iter().find(|a| a.label == "ld.tile").unwrap();
        let expected: Vec<u64> = (0..16)
            .map(|i| i * 16)
            .chain((0..16).map(|i| i * 16 + 1))
            .collect();
        assert_eq!(ld.addresses, expected);
    }

    /// Section 3.2.4: the stride-8 Fast Walsh warp is 0..7, 32..39, 64..71, 96..103.
    #[test]
    fn fwt_stride_8_matches_the_papers_warp() {
        let t = fwt();
        let a = t.accesses.iter().find(|a| a.label == "ld.d0.s8").unwrap();
        let expected: Vec<u64> = (0..4)
            .flat_map(|r| (0..8).map(move |c| 32 * r + c))
            .collect();
        assert_eq!(a.addresses, expected);
    }

    #[test]
    fn suite_fits_the_fermi_shape() {
        for k in suite() {
            assert!(!k.trace.accesses.is_empty(), "{}", k.name);
            for a in &k.trace.accesses {
                assert!(
                    a.addresses.len() <= WARP && a.addresses.iter().all(|&x| x < 1 << ADDR_BITS),
                    "{}",
                    k.name
                );
            }
        }
    }
}
