//! The transfers every D²MA generator draws from: the paper's directed ones, named, and random
//! valid entries.

use models::d2ma::entry::SHARED_SPACE;
use models::d2ma::BufferEntry;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// A random valid entry: small tiles so a testbench stays short, every mode and shape.
pub fn random_entry(rng: &mut ChaCha8Rng) -> BufferEntry {
    loop {
        let two_d = rng.gen_bool(0.5);
        let size: u8 = rng.gen_range(0..4);
        let mode = if two_d {
            rng.gen_range(0..3)
        } else {
            [0, 2][rng.gen_range(0..2)]
        };
        // A tenth near the top of the address space, a tenth within 4 KB of a MB boundary
        // (where the AGEN carries into, or borrows from, its addresses' high parts).
        let global = match rng.gen_range(0..10) {
            0 => u64::MAX - rng.gen_range(0..4096),
            1 => (rng.gen::<u64>() >> rng.gen_range(20..44) << 20)
                .wrapping_add(rng.gen_range(0..8192))
                .wrapping_sub(4096),
            _ => rng.gen::<u64>() >> rng.gen_range(0..40),
        };
        let mut e = BufferEntry {
            global: global & !((1u64 << size) - 1),
            size,
            two_d,
            mode,
            region: rng.gen_range(1..=9),
            halo_const: rng.gen(),
            ..BufferEntry::default()
        };
        if two_d {
            let (rows, cols) = (rng.gen_range(1..=6u16), rng.gen_range(1..=24u16));
            e.count = rows << 8 | cols;
            if mode == 1 {
                e.halo_rows = rng.gen_range(0..=rows.min(2));
                e.halo_cols = rng.gen_range(0..=cols.min(3));
            }
            e.stride = cols + 2 * e.halo_cols + rng.gen_range(0..40);
        } else {
            e.count = rng.gen_range(1..=96);
            e.stride = [1, 1, 1, 2, 3, 7, 32, 33, 100][rng.gen_range(0..9)];
        }
        if mode == 2 {
            e.halo_cols = 1 << rng.gen_range(0..6);
        }
        let span = e.shared_span();
        if span >= SHARED_SPACE {
            continue;
        }
        e.shared = (rng.gen_range(0..=SHARED_SPACE - span) & !((1u64 << size) - 1)) as u16;
        if e.validate().is_ok() {
            return e;
        }
    }
}

/// The directed transfers, named: Fig. 8's sgemv vector (256 floats, aligned and not), a
/// strided vector, a transposed column, a 2-D tile, halos in all nine regions and bank padding.
pub fn directed_transfers() -> Vec<(String, BufferEntry)> {
    let sgemv = BufferEntry {
        global: 0x8000,
        shared: 0,
        count: 256,
        size: 2,
        stride: 1,
        ..BufferEntry::default()
    };
    let tile = BufferEntry {
        count: 8 << 8 | 16,
        two_d: true,
        stride: 1024,
        ..sgemv
    };
    let mut out = vec![
        ("sgemv 256 floats, unit stride (Fig. 8)".to_string(), sgemv),
        (
            "sgemv 256 floats, base 16 B past a segment".to_string(),
            BufferEntry {
                global: 0x8010,
                ..sgemv
            },
        ),
        (
            "16 floats, stride 8 (strided)".to_string(),
            BufferEntry {
                count: 16,
                stride: 8,
                ..sgemv
            },
        ),
        (
            "32 floats, stride 1024 (transposed column)".to_string(),
            BufferEntry {
                count: 32,
                stride: 1024,
                ..sgemv
            },
        ),
        ("2-D 8 x 16 floats, ld 1024".to_string(), tile),
    ];
    for region in 1..=9 {
        out.push((
            format!("2-D 4 x 4 floats, 1 x 1 halo, region {region}"),
            BufferEntry {
                count: 4 << 8 | 4,
                stride: 64,
                mode: 1,
                halo_rows: 1,
                halo_cols: 1,
                region,
                halo_const: 0x7f,
                ..tile
            },
        ));
    }
    out.push((
        "2-D 6 x 8 floats, 2 x 3 halo, region 5".to_string(),
        BufferEntry {
            count: 6 << 8 | 8,
            stride: 64,
            mode: 1,
            halo_rows: 2,
            halo_cols: 3,
            region: 5,
            halo_const: 0xbeef,
            ..tile
        },
    ));
    out.push((
        "2-D 8 x 32 floats, bank mode, blank every 32".to_string(),
        BufferEntry {
            count: 8 << 8 | 32,
            stride: 32,
            mode: 2,
            halo_cols: 32,
            ..tile
        },
    ));
    // A transfer that starts inside the segment the previous one last requested must request
    // it again (the AGEN forgets its last segment at a load): 8 floats at 0x9000 end in the
    // segment at 0x9000, and the next 8 start at 0x9040 within it.
    let short = BufferEntry {
        global: 0x9000,
        count: 8,
        ..sgemv
    };
    out.push(("8 floats at 0x9000".to_string(), short));
    out.push((
        "8 floats starting inside the segment the previous transfer last requested".to_string(),
        BufferEntry {
            global: 0x9040,
            shared: 0x40,
            ..short
        },
    ));
    out
}

/// Buffer `buf` of CTA `cta` in SAXPY (Fig. 12): 256 floats of x (buffer 0) or y (buffer 1),
/// each buffer in its own 1 KiB of the CTA's 2 KiB of shared memory, each in its own 4 KiB of
/// global memory.
pub fn saxpy_buffer(cta: u32, buf: u32) -> BufferEntry {
    BufferEntry {
        global: 0x10_0000 + u64::from(cta * 2 + buf) * 0x1000,
        shared: (cta * 0x800 + buf * 0x400) as u16,
        count: 256,
        size: 2,
        stride: 1,
        ..BufferEntry::default()
    }
}
