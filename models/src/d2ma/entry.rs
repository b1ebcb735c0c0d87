//! The buffer-management-table entry of the D²MA paper (section 4.1, Fig. 4): 173 bits per
//! buffer, four buffers (692 bits) per controller, its bit layout, its three configuration
//! commands and its validation.
//!
//! Layout, least significant bit first (the paper gives the field widths, not their order):
//!
//! | bits      | field        | width | meaning                                               |
//! |-----------|--------------|-------|-------------------------------------------------------|
//! | 63:0      | `global`     | 64    | global base address (bytes)                           |
//! | 79:64     | `shared`     | 16    | shared base address (bytes)                           |
//! | 95:80     | `count`      | 16    | 1-D: elements; 2-D: rows in 15:8, columns in 7:0      |
//! | 97:96     | `size`       | 2     | element size 1, 2, 4 or 8 bytes (log2)                |
//! | 113:98    | `stride`     | 16    | 1-D: element stride; 2-D: leading dimension (elements)|
//! | 114       | `two_d`      | 1     | 2-D tile                                              |
//! | 116:115   | `mode`       | 2     | 0 none, 1 halo, 2 bank-conflict resolution            |
//! | 132:117   | `halo_rows`  | 16    | halo rows                                             |
//! | 148:133   | `halo_cols`  | 16    | halo columns; in bank mode: elements per bank run `n` |
//! | 156:149   | `region`     | 8     | the tile's region 1..9 (halo mode)                    |
//! | 172:157   | `halo_const` | 16    | constant stored in exterior halos                     |
//!
//! The paper fits a 2-D tile's shape into these 173 bits without saying how; here its element
//! count field holds rows and columns (8 bits each, so at most 255 x 255 elements) and its
//! stride field the leading dimension. Bank-conflict resolution reuses `halo_cols` as the
//! number of elements stored before one blank slot is inserted ("blank column insertion"),
//! which must be a power of two.
//!
//! The entry is written by three configuration commands (section 3's configuration
//! instructions), each carrying up to 64 bits: [`Part::Global`] (bits 63:0), [`Part::Shape`]
//! (bits 116:64) and [`Part::Halo`] (bits 172:117).

use crate::Error;

/// Bits of one buffer-management-table entry.
pub const ENTRY_BITS: u32 = 173;
/// Buffers per controller in the paper.
pub const PAPER_BUFFERS: u32 = 4;
/// Bits of one controller's table in the paper (4 x 173).
pub const CONTROLLER_BITS: u32 = ENTRY_BITS * PAPER_BUFFERS;
/// Bytes of the shared address space a 16-bit shared address reaches.
pub const SHARED_SPACE: u64 = 1 << 16;

/// One field of the entry: name, least significant bit, width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    /// The field's name.
    pub name: &'static str,
    /// Its least significant bit in the entry.
    pub lsb: u32,
    /// Its width in bits.
    pub width: u32,
    /// What it holds.
    pub description: &'static str,
}

/// The fields of the entry in layout order (see the module documentation).
pub const FIELDS: [Field; 11] = [
    Field {
        name: "global",
        lsb: 0,
        width: 64,
        description: "global base address (bytes)",
    },
    Field {
        name: "shared",
        lsb: 64,
        width: 16,
        description: "shared base address (bytes)",
    },
    Field {
        name: "count",
        lsb: 80,
        width: 16,
        description: "1-D: elements; 2-D: rows in 15:8, columns in 7:0",
    },
    Field {
        name: "size",
        lsb: 96,
        width: 2,
        description: "element size 1, 2, 4 or 8 bytes (log2)",
    },
    Field {
        name: "stride",
        lsb: 98,
        width: 16,
        description: "1-D: element stride; 2-D: leading dimension (elements)",
    },
    Field {
        name: "two_d",
        lsb: 114,
        width: 1,
        description: "2-D tile",
    },
    Field {
        name: "mode",
        lsb: 115,
        width: 2,
        description: "0 none, 1 halo, 2 bank-conflict resolution",
    },
    Field {
        name: "halo_rows",
        lsb: 117,
        width: 16,
        description: "halo rows",
    },
    Field {
        name: "halo_cols",
        lsb: 133,
        width: 16,
        description: "halo columns; in bank mode: elements per bank run",
    },
    Field {
        name: "region",
        lsb: 149,
        width: 8,
        description: "the tile's region 1..9 (halo mode)",
    },
    Field {
        name: "halo_const",
        lsb: 157,
        width: 16,
        description: "constant stored in exterior halos",
    },
];

/// The field named `name`.
///
/// # Panics
/// If there is no such field (a caller bug).
pub fn field(name: &str) -> Field {
    *FIELDS
        .iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no entry field {name}"))
}

/// A configuration command's target: which part of the entry it writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Part {
    /// Bits 63:0: the global base (written again by `dma_execute` to restart a buffer).
    Global = 0,
    /// Bits 116:64: shared base, count, size, stride, dimensionality, mode.
    Shape = 1,
    /// Bits 172:117: halo rows and columns (or bank run), region, halo constant.
    Halo = 2,
}

impl Part {
    /// All parts in command-code order.
    pub const ALL: [Part; 3] = [Part::Global, Part::Shape, Part::Halo];

    /// The entry bits `(lsb, width)` this part writes.
    pub fn bits(self) -> (u32, u32) {
        match self {
            Part::Global => (0, 64),
            Part::Shape => (64, 53),
            Part::Halo => (117, 56),
        }
    }
}

/// The addressing mode (section 4.2.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Dense in shared memory.
    None,
    /// A halo of `halo_rows` x `halo_cols` around the tile, constant-filled on the border.
    Halo,
    /// Bank-conflict resolution: a blank slot after every `n` elements.
    Bank,
}

/// Which borders of the whole data a tile in `region` touches: (top, right, bottom, left).
///
/// Regions are numbered as in the paper's Fig. 6, whose picture the text does not carry; this
/// model numbers them clockwise from the top-left corner: 1 top-left, 2 top, 3 top-right,
/// 4 right, 5 bottom-right, 6 bottom, 7 bottom-left, 8 left, 9 interior (no border).
pub fn region_borders(region: u8) -> Option<[bool; 4]> {
    Some(match region {
        1 => [true, false, false, true],
        2 => [true, false, false, false],
        3 => [true, true, false, false],
        4 => [false, true, false, false],
        5 => [false, true, true, false],
        6 => [false, false, true, false],
        7 => [false, false, true, true],
        8 => [false, false, false, true],
        9 => [false, false, false, false],
        _ => return None,
    })
}

/// One buffer-management-table entry, as raw field values (any values; see [`Self::validate`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BufferEntry {
    /// Global base address in bytes.
    pub global: u64,
    /// Shared base address in bytes.
    pub shared: u16,
    /// 1-D: element count; 2-D: rows << 8 | columns.
    pub count: u16,
    /// log2 of the element size in bytes (0..=3).
    pub size: u8,
    /// 1-D: stride in elements; 2-D: leading dimension in elements.
    pub stride: u16,
    /// 2-D tile.
    pub two_d: bool,
    /// Addressing mode code: 0 none, 1 halo, 2 bank (3 is refused).
    pub mode: u8,
    /// Halo rows.
    pub halo_rows: u16,
    /// Halo columns, or in bank mode the elements per bank run.
    pub halo_cols: u16,
    /// Region 1..9 of the tile (halo mode).
    pub region: u8,
    /// The halo constant.
    pub halo_const: u16,
}

/// The geometry of a validated transfer, in elements unless said otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TileShape {
    /// Rows of the tile (1 for 1-D).
    pub rows: u64,
    /// Columns of the tile (elements for 1-D).
    pub cols: u64,
    /// Halo rows on each side (0 outside halo mode).
    pub halo_rows: u64,
    /// Halo columns on each side (0 outside halo mode).
    pub halo_cols: u64,
    /// Element size in bytes.
    pub elem_bytes: u64,
    /// Global distance between consecutive elements of a row, in elements.
    pub elem_stride: u64,
    /// Global distance between rows, in elements (0 for 1-D).
    pub row_stride: u64,
}

impl TileShape {
    /// Rows walked, halo included.
    pub fn walk_rows(&self) -> u64 {
        self.rows + 2 * self.halo_rows
    }

    /// Columns walked, halo included.
    pub fn walk_cols(&self) -> u64 {
        self.cols + 2 * self.halo_cols
    }

    /// Elements stored in shared memory: the tile and its halo.
    pub fn elements(&self) -> u64 {
        self.walk_rows() * self.walk_cols()
    }
}

impl BufferEntry {
    /// The addressing mode, if the code is known.
    pub fn mode(&self) -> Option<Mode> {
        match self.mode {
            0 => Some(Mode::None),
            1 => Some(Mode::Halo),
            2 => Some(Mode::Bank),
            _ => None,
        }
    }

    /// The tile's geometry as the fields give it, whether or not the entry is valid.
    pub fn shape(&self) -> TileShape {
        let halo = self.mode == 1;
        let (rows, cols, elem_stride, row_stride) = if self.two_d {
            (
                u64::from(self.count >> 8),
                u64::from(self.count & 0xff),
                1,
                u64::from(self.stride),
            )
        } else {
            (1, u64::from(self.count), u64::from(self.stride), 0)
        };
        TileShape {
            rows,
            cols,
            halo_rows: if halo { u64::from(self.halo_rows) } else { 0 },
            halo_cols: if halo { u64::from(self.halo_cols) } else { 0 },
            elem_bytes: 1 << self.size,
            elem_stride,
            row_stride,
        }
    }

    /// Elements per bank run in bank mode (`halo_cols`).
    pub fn bank_run(&self) -> u64 {
        u64::from(self.halo_cols)
    }

    /// Shared slot (in elements from the shared base) of walk element `k`: `k` plus one blank
    /// slot per full bank run before it in bank mode, `k` otherwise.
    pub fn slot(&self, k: u64) -> u64 {
        if self.mode == 2 && self.bank_run() > 0 {
            k + k / self.bank_run()
        } else {
            k
        }
    }

    /// Bytes of shared memory the transfer spans from the shared base: the range the RAW
    /// check guards (blank bank slots inside it included).
    pub fn shared_span(&self) -> u64 {
        let n = self.shape().elements();
        if n == 0 {
            return 0;
        }
        (self.slot(n - 1) + 1) << self.size
    }

    /// Checks the entry: a known mode, a non-zero element count, a non-zero stride or a
    /// leading dimension that covers the walked row, a halo within the tile and on a 2-D tile,
    /// a known region in halo mode, a power-of-two bank run in bank mode, bases aligned to the
    /// element size, and a tile that stays inside the 16-bit shared space.
    pub fn validate(&self) -> Result<TileShape, Error> {
        let bad = |name: &str, value: String, allowed: &str| {
            Err(Error::OutOfRange {
                name: name.into(),
                value,
                allowed: allowed.into(),
            })
        };
        let mode = match self.mode() {
            Some(m) => m,
            None => {
                return bad(
                    "mode",
                    self.mode.to_string(),
                    "0 (none), 1 (halo) or 2 (bank)",
                )
            }
        };
        if self.size > 3 {
            return bad("size", self.size.to_string(), "0..=3 (1, 2, 4 or 8 bytes)");
        }
        let s = self.shape();
        if s.rows == 0 || s.cols == 0 {
            return bad(
                "count",
                format!("{:#06x}", self.count),
                "a non-zero element count (2-D: rows and columns both at least 1)",
            );
        }
        if mode == Mode::Halo {
            if !self.two_d {
                return bad("mode", "1 (halo)".into(), "halo mode on 2-D tiles only");
            }
            if region_borders(self.region).is_none() {
                return bad("region", self.region.to_string(), "1..=9");
            }
            if s.halo_rows > s.rows || s.halo_cols > s.cols {
                return bad(
                    "halo",
                    format!("{} rows x {} columns", s.halo_rows, s.halo_cols),
                    &format!("at most the tile, {} rows x {} columns", s.rows, s.cols),
                );
            }
        }
        if mode == Mode::Bank && !self.halo_cols.is_power_of_two() {
            return bad(
                "bank run",
                self.halo_cols.to_string(),
                "a power of two (elements per bank before a blank slot)",
            );
        }
        if self.two_d {
            if s.row_stride < s.walk_cols() {
                return bad(
                    "leading dimension",
                    s.row_stride.to_string(),
                    &format!("at least the walked row, {} elements", s.walk_cols()),
                );
            }
        } else if s.elem_stride == 0 {
            return bad("stride", "0".into(), "1..=65535 elements");
        }
        if !self.global.is_multiple_of(s.elem_bytes)
            || !u64::from(self.shared).is_multiple_of(s.elem_bytes)
        {
            return bad(
                "base",
                format!("global {:#x}, shared {:#x}", self.global, self.shared),
                &format!("multiples of the element size, {} bytes", s.elem_bytes),
            );
        }
        let end = u64::from(self.shared) + self.shared_span();
        if end > SHARED_SPACE {
            return bad(
                "tile",
                format!("shared {:#x}..{end:#x}", self.shared),
                "inside the 16-bit shared space (end at most 0x10000)",
            );
        }
        Ok(s)
    }

    /// The value of field `f`.
    pub fn get(&self, f: &Field) -> u64 {
        match f.name {
            "global" => self.global,
            "shared" => self.shared.into(),
            "count" => self.count.into(),
            "size" => self.size.into(),
            "stride" => self.stride.into(),
            "two_d" => self.two_d.into(),
            "mode" => self.mode.into(),
            "halo_rows" => self.halo_rows.into(),
            "halo_cols" => self.halo_cols.into(),
            "region" => self.region.into(),
            "halo_const" => self.halo_const.into(),
            other => panic!("no entry field {other}"),
        }
    }

    /// The entry as its 173 bits, bit `i` at `bits[i]`.
    pub fn to_bits(&self) -> Vec<bool> {
        let mut bits = vec![false; ENTRY_BITS as usize];
        for f in &FIELDS {
            let v = self.get(f);
            for b in 0..f.width {
                bits[(f.lsb + b) as usize] = (v >> b) & 1 == 1;
            }
        }
        bits
    }

    /// The entry decoded from its 173 bits (values wider than a field are cut to it).
    pub fn from_bits(bits: &[bool]) -> Self {
        let get = |name: &str| {
            let f = field(name);
            (0..f.width).fold(0u64, |acc, b| {
                acc | (u64::from(bits[(f.lsb + b) as usize]) << b)
            })
        };
        Self {
            global: get("global"),
            shared: get("shared") as u16,
            count: get("count") as u16,
            size: get("size") as u8,
            stride: get("stride") as u16,
            two_d: get("two_d") == 1,
            mode: get("mode") as u8,
            halo_rows: get("halo_rows") as u16,
            halo_cols: get("halo_cols") as u16,
            region: get("region") as u8,
            halo_const: get("halo_const") as u16,
        }
    }

    /// The data word of the configuration command that writes `part`.
    pub fn part_value(&self, part: Part) -> u64 {
        let bits = self.to_bits();
        let (lsb, width) = part.bits();
        (0..width).fold(0, |acc, b| acc | (u64::from(bits[(lsb + b) as usize]) << b))
    }

    /// This entry with `part` overwritten by the command word `value` (bits above the part's
    /// width ignored).
    pub fn with_part(&self, part: Part, value: u64) -> Self {
        let mut bits = self.to_bits();
        let (lsb, width) = part.bits();
        for b in 0..width {
            bits[(lsb + b) as usize] = (value >> b) & 1 == 1;
        }
        Self::from_bits(&bits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sgemv vector of Fig. 8: 256 floats, unit stride.
    fn sgemv() -> BufferEntry {
        BufferEntry {
            global: 0x1000,
            shared: 0,
            count: 256,
            size: 2,
            stride: 1,
            ..Default::default()
        }
    }

    #[test]
    fn layout_is_173_bits_and_692_per_controller() {
        let total: u32 = FIELDS.iter().map(|f| f.width).sum();
        assert_eq!(total, ENTRY_BITS);
        assert_eq!(ENTRY_BITS, 173);
        assert_eq!(CONTROLLER_BITS, 692);
        let mut next = 0;
        for f in FIELDS {
            assert_eq!(f.lsb, next, "{}", f.name);
            next += f.width;
        }
        let parts: u32 = Part::ALL.iter().map(|p| p.bits().1).sum();
        assert_eq!(parts, ENTRY_BITS);
        assert!(Part::ALL.iter().all(|p| p.bits().1 <= 64));
    }

    #[test]
    fn bits_and_parts_round_trip() {
        let e = BufferEntry {
            global: 0xdead_beef_0123_4567,
            shared: 0x1230,
            count: 0x1020,
            size: 3,
            stride: 0xffff,
            two_d: true,
            mode: 1,
            halo_rows: 0xa5a5,
            halo_cols: 0x5a5a,
            region: 0xc3,
            halo_const: 0xbeef,
        };
        assert_eq!(BufferEntry::from_bits(&e.to_bits()), e);
        let rebuilt = Part::ALL.iter().fold(BufferEntry::default(), |acc, &p| {
            acc.with_part(p, e.part_value(p))
        });
        assert_eq!(rebuilt, e);
    }

    #[test]
    fn good_entries_validate() {
        let s = sgemv().validate().unwrap();
        assert_eq!((s.rows, s.cols, s.elem_bytes), (1, 256, 4));
        assert_eq!(sgemv().shared_span(), 1024);
        // A 16 x 16 float tile with a one-element halo, interior region.
        let halo = BufferEntry {
            count: 16 << 8 | 16,
            two_d: true,
            stride: 1024,
            mode: 1,
            halo_rows: 1,
            halo_cols: 1,
            region: 9,
            ..sgemv()
        };
        assert_eq!(halo.validate().unwrap().elements(), 18 * 18);
        assert_eq!(halo.shared_span(), 18 * 18 * 4);
        // 32 x 32 floats, one blank slot after every 32: the classic padded transpose tile.
        let bank = BufferEntry {
            count: 32 << 8 | 32,
            two_d: true,
            stride: 32,
            mode: 2,
            halo_cols: 32,
            ..sgemv()
        };
        bank.validate().unwrap();
        assert_eq!(bank.slot(32), 33);
        assert_eq!(bank.shared_span(), (1023 + 31 + 1) * 4);
    }

    #[test]
    fn bad_entries_are_refused_with_the_field_named() {
        let refuse = |e: BufferEntry, what: &str| {
            let msg = e.validate().unwrap_err().to_string();
            assert!(msg.contains(what), "{msg}");
        };
        // A tile that overruns the 16-bit shared space: 256 floats from 0xfc04.
        refuse(
            BufferEntry {
                shared: 0xfc04,
                ..sgemv()
            },
            "tile",
        );
        refuse(
            BufferEntry {
                count: 0,
                ..sgemv()
            },
            "count",
        );
        refuse(
            BufferEntry {
                count: 0x0010,
                two_d: true,
                stride: 16,
                ..sgemv()
            },
            "count",
        );
        let halo = BufferEntry {
            count: 4 << 8 | 4,
            two_d: true,
            stride: 64,
            mode: 1,
            halo_rows: 1,
            halo_cols: 1,
            region: 9,
            ..sgemv()
        };
        halo.validate().unwrap();
        refuse(BufferEntry { region: 0, ..halo }, "region");
        refuse(BufferEntry { region: 10, ..halo }, "region");
        refuse(
            BufferEntry {
                halo_rows: 5,
                ..halo
            },
            "halo",
        );
        refuse(
            BufferEntry {
                halo_cols: 5,
                ..halo
            },
            "halo",
        );
        refuse(
            BufferEntry {
                two_d: false,
                count: 16,
                ..halo
            },
            "mode",
        );
        refuse(BufferEntry { mode: 3, ..sgemv() }, "mode");
        refuse(
            BufferEntry {
                stride: 0,
                ..sgemv()
            },
            "stride",
        );
        refuse(BufferEntry { stride: 5, ..halo }, "leading dimension");
        refuse(
            BufferEntry {
                mode: 2,
                halo_cols: 3,
                ..sgemv()
            },
            "bank run",
        );
        refuse(
            BufferEntry {
                mode: 2,
                halo_cols: 0,
                ..sgemv()
            },
            "bank run",
        );
        refuse(
            BufferEntry {
                global: 0x1002,
                ..sgemv()
            },
            "base",
        );
    }
}
