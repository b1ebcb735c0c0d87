//! The read-after-write question of the paper's section 4.3 (Fig. 7): must a shared load wait?
//!
//! A load waits when its address lies in `[shared base, shared base + span)` of a buffer of its
//! own CTA that is in flight: fully configured and not yet complete. The span is the bytes the
//! transfer covers from its shared base ([`BufferEntry::shared_span`]: the halo and the blank
//! slots of bank mode included). Waiting warps of a CTA are released when one of its buffers
//! completes.

use super::entry::BufferEntry;

/// One buffer as the RAW check sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Guard {
    /// First shared byte of the buffer.
    pub start: u32,
    /// One past its last shared byte, saturated at 0x10000 (no 16-bit load lies beyond).
    pub end: u32,
    /// Fully configured and not complete.
    pub in_flight: bool,
}

impl Guard {
    /// The guard of `entry` while `in_flight`.
    pub fn of(entry: &BufferEntry, in_flight: bool) -> Self {
        let start = u32::from(entry.shared);
        Self {
            start,
            end: (u64::from(start) + entry.shared_span()).min(1 << 16) as u32,
            in_flight,
        }
    }

    /// Whether a load from `addr` hits this buffer while it is in flight.
    pub fn blocks(&self, addr: u16) -> bool {
        let a = u32::from(addr);
        self.in_flight && self.start <= a && a < self.end
    }
}

/// Whether a shared load from `addr` must wait, given the guards of its CTA's buffers.
pub fn must_wait(guards: &[Guard], addr: u16) -> bool {
    guards.iter().any(|g| g.blocks(addr))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vector(shared: u16, elements: u16) -> BufferEntry {
        BufferEntry {
            global: 0x4000,
            shared,
            count: elements,
            size: 2,
            stride: 1,
            ..Default::default()
        }
    }

    /// SAXPY as in Fig. 12: each of two CTAs buffers x and y (two of its four buffers).
    #[test]
    fn saxpy_loads_wait_only_on_their_own_in_flight_buffers() {
        let x = Guard::of(&vector(0x000, 256), true);
        let y = Guard::of(&vector(0x400, 256), true);
        let cta = [x, y];
        assert!(must_wait(&cta, 0x000));
        assert!(must_wait(&cta, 0x3ff));
        assert!(must_wait(&cta, 0x7fc));
        assert!(!must_wait(&cta, 0x800));
        // x completes: loads of x go, loads of y still wait.
        let cta = [
            Guard {
                in_flight: false,
                ..x
            },
            y,
        ];
        assert!(!must_wait(&cta, 0x010));
        assert!(must_wait(&cta, 0x410));
    }

    #[test]
    fn range_includes_the_halo_and_bank_slots() {
        let halo = BufferEntry {
            count: 4 << 8 | 4,
            two_d: true,
            stride: 64,
            mode: 1,
            halo_rows: 1,
            halo_cols: 1,
            region: 1,
            ..vector(0x100, 0)
        };
        let g = Guard::of(&halo, true);
        assert_eq!((g.start, g.end), (0x100, 0x100 + 36 * 4));
        assert!(g.blocks(0x100 + 35 * 4) && !g.blocks(0x100 + 36 * 4) && !g.blocks(0xfc));
    }
}
