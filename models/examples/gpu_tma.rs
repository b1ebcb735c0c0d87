//! The tensor-map model against an H100: writes the random load cases and the encode probes
//! `gpu/tma_tensor.cu` runs (docs/TMA.md).
//!
//! ```text
//! cargo run --release -p models --example gpu_tma -- cases <seed> <loads> gpu/gen/tma_cases_<name>.txt
//! cargo run --release -p models --example gpu_tma -- limits gpu/gen/tma_cases_limits.txt
//! ```
//!
//! Load cases cycle through the four swizzle modes and the thirteen data types; each draws a
//! rank (1 to 5), a box whose shared image is at most [`IMAGE_BUDGET`] bytes, element strides
//! above 1 in about a third of the dimensions (dimension 0 included, where the driver API says
//! the stride is ignored), the fill (NaN for half of the floating-point cases), a small tensor
//! around the box, and coordinates that put the box inside, across one edge, across a corner,
//! wholly outside or anywhere (a quarter each inside, across one edge and across a
//! corner, an eighth each wholly outside and anywhere). The probes are the limits of every documented
//! rule, each just inside and just outside, and the cases the documentation leaves open.

use models::tma::descriptor::{
    DataType, Interleave, L2Promotion, OobFill, Swizzle, TensorMap, MAX_BOX_DIM,
};
use models::tma::silicon::{encode_line, LoadCase};
use models::tma::{BoxLayout, Load};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;

/// The most bytes of shared memory a case's box covers (keeps the dumps small).
const IMAGE_BUDGET: u64 = 3072;
/// The most bytes a case's tensor spans.
const TENSOR_BUDGET: u64 = 4 << 20;
/// Bytes of the kernel's shared buffer.
const BUFFER_BYTES: u32 = 32768;

/// Where the box lies against the tensor.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    Inside,
    Edge,
    Corner,
    Outside,
    Anywhere,
}

/// A coordinate for dimension `d` of `dim` elements whose box covers `extent` coordinates.
fn coordinate(rng: &mut ChaCha8Rng, dim: i64, extent: i64, kind: u8) -> i32 {
    let c = match kind {
        // Inside (or as far inside as a box larger than the tensor gets).
        0 => rng.gen_range(0..=(dim - extent).max(0)),
        // Across the low edge.
        1 => -rng.gen_range(1..=extent.max(2) - 1),
        // Across the high edge.
        2 => dim - extent + rng.gen_range(1..=extent.max(2) - 1),
        // Wholly below, wholly above, far away.
        3 => -extent - rng.gen_range(0..40),
        4 => dim + rng.gen_range(0..40),
        _ => {
            let far = rng.gen_range(1i64 << 20..1i64 << 30);
            if rng.gen() {
                far
            } else {
                -far
            }
        }
    };
    c as i32
}

fn load_case(rng: &mut ChaCha8Rng, id: u32) -> LoadCase {
    let swizzle = Swizzle::ALL[id as usize % 4];
    let data_type = DataType::ALL[(id as usize / 4) % DataType::ALL.len()];
    let bytes = data_type.bytes();
    let rank = rng.gen_range(1..=5usize);
    // The row: 16 to 256 bytes, within the span under a swizzle.
    let max_row = swizzle.mode().map_or(256, |m| m.span() as u32);
    let row = 16 * rng.gen_range(1..=max_row / 16);
    let mut box_dim = vec![row / bytes];
    let mut element_strides = vec![if rng.gen_bool(0.25) {
        rng.gen_range(2..=8)
    } else {
        1
    }];
    let pitch = u64::from(swizzle.mode().map_or(row, |m| m.span() as u32).max(row));
    let mut rows_left = IMAGE_BUDGET / pitch;
    for i in 1..rank {
        let dims_left = (rank - i) as u32;
        // Share the rows among the remaining dimensions, at least 1 each.
        let cap = (rows_left as f64).powf(1.0 / f64::from(dims_left)).floor() as u32;
        let n = rng.gen_range(1..=cap.max(1));
        let e = if rng.gen_bool(0.35) {
            rng.gen_range(2..=8)
        } else {
            1
        };
        // ceil(box / e) = n: box in ((n - 1) e, n e].
        let b = ((n - 1) * e + rng.gen_range(1..=e)).min(MAX_BOX_DIM);
        box_dim.push(b);
        element_strides.push(e);
        rows_left /= u64::from(b.div_ceil(e));
    }
    // The tensor: each dimension from 1 element to a little over twice the box's extent.
    let extents: Vec<i64> = (0..rank)
        .map(|i| {
            if i == 0 {
                i64::from(box_dim[0])
            } else {
                let n = box_dim[i].div_ceil(element_strides[i]);
                i64::from((n - 1) * element_strides[i] + 1)
            }
        })
        .collect();
    let shape = [
        Shape::Inside,
        Shape::Edge,
        Shape::Corner,
        Shape::Outside,
        Shape::Anywhere,
    ][[0, 0, 1, 1, 2, 2, 3, 4][rng.gen_range(0..8)]];
    let mut kinds = vec![0u8; rank];
    let mut dims: Vec<usize> = (0..rank).collect();
    dims.shuffle(rng);
    match shape {
        Shape::Inside => {}
        Shape::Edge => kinds[dims[0]] = rng.gen_range(1..=2),
        Shape::Corner => {
            for &d in dims.iter().take(rank.min(rng.gen_range(2..=3))) {
                kinds[d] = rng.gen_range(1..=2);
            }
        }
        Shape::Outside => kinds[dims[0]] = rng.gen_range(3..=5),
        Shape::Anywhere => kinds.iter_mut().for_each(|k| *k = rng.gen_range(0..=5)),
    }
    // Dimensions the box is to lie inside are at least as long as its extent there.
    let least = |i: usize| if kinds[i] == 0 { extents[i] as u64 } else { 1 };
    let mut global_dim: Vec<u64> = (0..rank)
        .map(|i| rng.gen_range(least(i)..=(2 * extents[i] + 3) as u64))
        .collect();
    let strides = |dims: &[u64], rng: &mut ChaCha8Rng| -> Vec<u64> {
        let mut s = Vec::new();
        let mut prev = (dims[0] * u64::from(bytes)).div_ceil(16) * 16;
        for &d in &dims[1..] {
            let stride = prev + 16 * rng.gen_range(0..=2);
            s.push(stride);
            prev = stride * d;
        }
        s
    };
    let mut global_strides = strides(&global_dim, rng);
    let span = |dims: &[u64], st: &[u64]| -> u64 {
        dims[1..]
            .iter()
            .zip(st)
            .map(|(d, s)| (d - 1) * s)
            .sum::<u64>()
            + dims[0] * u64::from(bytes)
    };
    while span(&global_dim, &global_strides) > TENSOR_BUDGET {
        let i = (1..rank).max_by_key(|&i| global_dim[i]).unwrap_or(0);
        let halved = (global_dim[i] / 2).max(least(i));
        assert!(
            halved < global_dim[i],
            "case {id}: the tensor cannot shrink"
        );
        global_dim[i] = halved;
        global_strides = strides(&global_dim, rng);
    }
    // The box starts on a 16-byte boundary of dimension 0 (the H100 traps otherwise).
    let q = i64::from(16 / bytes);
    let coords = (0..rank)
        .map(|i| {
            let c = coordinate(rng, global_dim[i] as i64, extents[i], kinds[i]);
            if i == 0 {
                (i64::from(c) / q * q) as i32
            } else {
                c
            }
        })
        .collect();
    let map = TensorMap {
        data_type,
        global_address: 16 * rng.gen_range(0..16),
        global_dim,
        global_strides,
        box_dim,
        element_strides,
        interleave: Interleave::None,
        swizzle,
        l2_promotion: *L2Promotion::ALL.choose(rng).unwrap(),
        oob_fill: if data_type.is_float() && rng.gen() {
            OobFill::Nan
        } else {
            OobFill::None
        },
    };
    let shared_address = if rng.gen_bool(0.4) {
        0
    } else {
        128 * rng.gen_range(1..8)
    };
    let footprint = BoxLayout::of(&map).footprint() as u32;
    let dump_bytes = ((shared_address + footprint).div_ceil(128) * 128 + 128).min(BUFFER_BYTES);
    LoadCase {
        id,
        map,
        load: Load {
            coords,
            shared_address,
        },
        seed: rng.gen(),
        dump_bytes,
    }
}

/// The encode probes: a valid base map (2-D floats, 64 x 16 box of a 100 x 50 tensor), each
/// rule's limit just inside and just outside, and what the documentation leaves open.
fn probes() -> Vec<TensorMap> {
    let base = TensorMap {
        data_type: DataType::F32,
        global_address: 0,
        global_dim: vec![100, 50],
        global_strides: vec![400],
        box_dim: vec![32, 16],
        element_strides: vec![1, 1],
        interleave: Interleave::None,
        swizzle: Swizzle::None,
        l2_promotion: L2Promotion::None,
        oob_fill: OobFill::None,
    };
    let with = |f: &dyn Fn(&mut TensorMap)| {
        let mut m = base.clone();
        f(&mut m);
        m
    };
    let rank = |r: usize| {
        move |m: &mut TensorMap| {
            m.global_dim = vec![4; r];
            m.global_strides = (1..r).map(|i| 16 << (2 * i)).collect();
            m.box_dim = vec![4; r];
            m.element_strides = vec![1; r];
        }
    };
    let mut v = vec![
        base.clone(),
        with(&rank(0)),
        with(&rank(1)),
        with(&rank(5)),
        with(&rank(6)),
        with(&|m| m.global_address = 8),
        with(&|m| m.global_address = 16),
        with(&|m| m.global_dim[1] = 0),
        with(&|m| m.global_dim[1] = 1 << 32),
        with(&|m| m.global_dim[1] = (1 << 32) + 1),
        with(&|m| m.global_strides[0] = 408),
        with(&|m| m.global_strides[0] = 0),
        with(&|m| m.global_strides[0] = (1 << 40) - 16),
        with(&|m| m.global_strides[0] = 1 << 40),
        // Open: a row stride below the row's bytes (100 floats = 400 bytes).
        with(&|m| m.global_strides[0] = 256),
        with(&|m| m.global_strides[0] = 16),
        // Open: a 3-D map whose dimension-2 stride is below dimension 1's.
        with(&|m| {
            m.global_dim.push(4);
            m.global_strides.push(400);
            m.box_dim.push(2);
            m.element_strides.push(1);
        }),
        with(&|m| m.box_dim[1] = 0),
        with(&|m| m.box_dim[1] = 256),
        with(&|m| m.box_dim[1] = 257),
        with(&|m| m.box_dim[0] = 2),
        with(&|m| m.box_dim[0] = 6),
        // Open: boxes larger than the tensor, element strides larger than the box.
        with(&|m| m.box_dim[1] = 200),
        with(&|m| {
            m.box_dim[1] = 2;
            m.element_strides[1] = 8;
        }),
        // Open: a box far larger than any shared memory (256^5 doubles).
        with(&|m| {
            rank(5)(m);
            m.data_type = DataType::F64;
            m.box_dim = vec![256; 5];
        }),
        // Open: a 2048-byte row without a swizzle.
        with(&|m| {
            m.data_type = DataType::F64;
            m.box_dim[0] = 256;
        }),
        with(&|m| m.element_strides[1] = 0),
        with(&|m| m.element_strides[1] = 8),
        with(&|m| m.element_strides[1] = 9),
        with(&|m| m.element_strides[0] = 8),
        with(&|m| m.element_strides[0] = 9),
    ];
    for (s, ok, over) in [
        (Swizzle::B32, 8, 12),
        (Swizzle::B64, 16, 20),
        (Swizzle::B128, 32, 36),
    ] {
        v.push(with(&|m| {
            m.swizzle = s;
            m.box_dim[0] = ok;
        }));
        v.push(with(&|m| {
            m.swizzle = s;
            m.box_dim[0] = over;
        }));
    }
    for &t in DataType::ALL {
        v.push(with(&|m| {
            m.data_type = t;
            m.box_dim[0] = 128 / t.bytes();
            m.oob_fill = OobFill::Nan;
        }));
    }
    for &l in L2Promotion::ALL {
        v.push(with(&|m| m.l2_promotion = l));
    }
    // Open: how large a box the driver takes. Rows of 256 elements (256 bytes of u8, 2048 of
    // f64), 2^j rows for j = 0..32 spread over dimensions 1 to 4, then one row more.
    for t in [DataType::U8, DataType::F64] {
        for j in 0..=32u32 {
            for extra in [0, 1] {
                let mut dims = [1u32; 4];
                let mut left = j;
                for d in dims.iter_mut() {
                    let k = left.min(8);
                    *d = (1 << k).min(MAX_BOX_DIM);
                    left -= k;
                }
                if extra == 1 {
                    if dims[0] == MAX_BOX_DIM {
                        continue;
                    }
                    dims[0] += 1;
                }
                v.push(with(&|m| {
                    rank(5)(m);
                    m.data_type = t;
                    m.global_dim[0] = 256;
                    m.global_strides = vec![2048, 4096, 8192, 16384];
                    m.box_dim = [256].into_iter().chain(dims).collect();
                }));
            }
        }
    }
    for t in [DataType::U8, DataType::F32, DataType::F64] {
        v.push(with(&|m| {
            rank(1)(m);
            m.data_type = t;
            m.global_dim = vec![300];
            m.box_dim = vec![256];
        }));
    }
    v
}

/// Loads whose rows are wider than the random cases' 256 bytes: 512, 1024 and 2048-byte rows
/// (256 halves, floats, doubles), 1-D and 2-D, inside and across the high end of dimension 0.
fn wide_cases(rng: &mut ChaCha8Rng, first: u32) -> Vec<LoadCase> {
    let mut v = Vec::new();
    for (k, (t, rank)) in [DataType::U16, DataType::F32, DataType::F64]
        .into_iter()
        .flat_map(|t| [(t, 1usize), (t, 2)])
        .enumerate()
    {
        let bytes = u64::from(t.bytes());
        let map = TensorMap {
            data_type: t,
            global_address: 16 * rng.gen_range(0..16),
            global_dim: [300, 3][..rank].to_vec(),
            global_strides: [(300 * bytes).div_ceil(16) * 16][..rank - 1].to_vec(),
            box_dim: [256, 2][..rank].to_vec(),
            element_strides: vec![],
            interleave: Interleave::None,
            swizzle: Swizzle::None,
            l2_promotion: L2Promotion::None,
            oob_fill: if t.is_float() {
                OobFill::Nan
            } else {
                OobFill::None
            },
        };
        let x = if k % 2 == 0 { 0 } else { 64 };
        let coords = [x, -1][..rank].to_vec();
        let footprint = BoxLayout::of(&map).footprint() as u32;
        v.push(LoadCase {
            id: first + k as u32,
            map,
            load: Load {
                coords,
                shared_address: 128,
            },
            seed: rng.gen(),
            dump_bytes: (128 + footprint).div_ceil(128) * 128 + 128,
        });
    }
    v
}

/// A u8 box of exactly `bytes` bytes: a row of 16 to 256 bytes and up to four more dimensions
/// of at most 256 (`None` where no such box exists).
fn box_of(bytes: u64) -> Option<Vec<u32>> {
    (1..=16u64).rev().find_map(|k| {
        let row = 16 * k;
        if !bytes.is_multiple_of(row) {
            return None;
        }
        let mut rows = bytes / row;
        let mut dims = vec![row as u32];
        for _ in 0..4 {
            let d = (1..=256u64).rev().find(|d| rows.is_multiple_of(*d))?;
            dims.push(d as u32);
            rows /= d;
        }
        (rows == 1).then_some(dims)
    })
}

/// The probes of the driver's limit on a box's size: u8 boxes of exactly the bytes around the
/// candidate limits (H100 shared memory per block 227 KiB = 232448, per SM 228 KiB = 233472,
/// 2^17, 2^18) and, once a first run had put the limit between 228 and 240 KiB, every size that
/// four dimensions of at most 256 can make in that range; then whether a swizzle's padding or
/// element strides (dimension 0's too) count.
fn limit_probes() -> Vec<TensorMap> {
    let base = |box_dim: Vec<u32>| TensorMap {
        data_type: DataType::U8,
        global_address: 0,
        global_dim: vec![256, 4, 4, 4, 4],
        global_strides: vec![256, 1024, 4096, 16384],
        box_dim,
        element_strides: vec![1; 5],
        interleave: Interleave::None,
        swizzle: Swizzle::None,
        l2_promotion: L2Promotion::None,
        oob_fill: OobFill::None,
    };
    let mut v = Vec::new();
    // Every size at 16-byte steps from 228 KiB to 229 KiB, then 1 KiB steps to 240 KiB.
    let sizes = [
        131_072, 196_608, 229_376, 232_432, 232_448, 232_464, 232_960,
    ]
    .into_iter()
    .chain((233_472..=234_496).step_by(16))
    .chain((235_520..=245_760).step_by(1024))
    .chain([262_128, 262_144, 262_160]);
    for bytes in sizes {
        if let Some(b) = box_of(bytes) {
            v.push(base(b));
        }
    }
    // 16-byte rows under the 128-byte swizzle take a whole span each: 2^12 rows are 64 KiB of
    // data in 512 KiB of shared memory; 2^11 rows 32 KiB in 256 KiB; 1816 rows 29056 in 232448.
    for rows in [
        [16, 16, 16, 1],
        [16, 16, 8, 1],
        [227, 8, 1, 1],
        [227, 9, 1, 1],
    ] {
        let mut m = base([16].into_iter().chain(rows).collect());
        m.swizzle = Swizzle::B128;
        v.push(m);
    }
    // Element strides: 2^18 bytes traversed, 2^17 loaded; 2^19 traversed, 2^18 loaded; and
    // dimension 0's stride (ignored on load).
    for (b, e) in [
        ([256, 256, 4, 1, 1], [1, 2, 1, 1, 1]),
        ([256, 256, 8, 1, 1], [1, 1, 2, 1, 1]),
        ([256, 256, 4, 1, 1], [2, 1, 1, 1, 1]),
        ([256, 256, 8, 1, 1], [2, 1, 1, 1, 1]),
        ([256, 256, 8, 1, 1], [4, 1, 1, 1, 1]),
        ([256, 256, 8, 1, 1], [3, 1, 1, 1, 1]),
    ] {
        let mut m = base(b.to_vec());
        m.element_strides = e.to_vec();
        v.push(m);
    }
    v
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["cases", seed, loads, out] => {
            let seed: u64 = seed.parse().expect("seed");
            let loads: u32 = loads.parse().expect("loads");
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut text = String::new();
            writeln!(
                text,
                "# gpu_tma cases {seed} {loads}: docs/TMA.md; the format is models::tma::silicon's"
            )
            .unwrap();
            for id in 0..loads {
                let case = load_case(&mut rng, id);
                case.transaction_bytes()
                    .and_then(|_| models::tma::load::check(&case.map, &case.load))
                    .unwrap_or_else(|e| panic!("case {id} is invalid: {e}: {case:?}"));
                writeln!(text, "{}", case.line().unwrap()).unwrap();
            }
            let wide = wide_cases(&mut rng, loads);
            for case in &wide {
                writeln!(text, "{}", case.line().unwrap()).unwrap();
            }
            let loads = loads + wide.len() as u32;
            // Loads the model refuses, last (each may cost the CUDA context): shared offsets
            // that are multiples of 16 but not of 128, and a first coordinate off a 16-byte
            // boundary.
            for k in 0..12u32 {
                let mut case = load_case(&mut rng, loads + k);
                if k < 8 {
                    case.load.shared_address = 128 * (k % 4) + 16 * (1 + k % 7);
                } else {
                    case.load.coords[0] += 1;
                }
                assert!(models::tma::load::check(&case.map, &case.load).is_err());
                writeln!(text, "{}", case.line().unwrap()).unwrap();
            }
            for (k, map) in probes().iter().enumerate() {
                writeln!(text, "{}", encode_line(loads + 12 + k as u32, map)).unwrap();
            }
            std::fs::write(out, text).expect(out);
        }
        ["limits", out] => {
            let mut text = String::from("# gpu_tma limits: the driver's limit on a box's size\n");
            for (k, map) in limit_probes().iter().enumerate() {
                writeln!(text, "{}", encode_line(k as u32, map)).unwrap();
            }
            std::fs::write(out, text).expect(out);
        }
        _ => {
            eprintln!("usage: gpu_tma cases <seed> <loads> <out> | gpu_tma limits <out>");
            std::process::exit(2);
        }
    }
}
