//! The RAP paper's Fig. 7 packing of a shift table into 32-bit words.
//!
//! The paper's CUDA transpose keeps `r_0..r_31` (5 bits each) in six 32-bit registers, six
//! shifts a word: `r_{6q+s}` in bits `5s..5s+4` of word `q`, the top two bits unused. In general
//! a `w`-row table takes `bits = ceil(log2 w)` bits a shift and `per = floor(32 / bits)` shifts a
//! word, `ceil(w / per)` words. The CUDA header (`rtl-gen cuda layout`) holds its shifts so, and
//! the packed register file of `rtl-gen rap --storage packed` is loaded a word at a time in
//! this format, so a program can write the same words to both.

/// Bits a packed word holds.
pub const WORD_BITS: u32 = 32;

/// How the shifts of a `w`-row table (`w >= 2`) are packed: bits per shift and shifts per word.
pub fn packing(w: u32) -> (u32, u32) {
    let bits = (32 - (w - 1).leading_zeros()).max(1);
    (bits, WORD_BITS / bits)
}

/// Words of a packed `w`-row table: `ceil(w / per)`.
pub fn packed_words(w: u32) -> u32 {
    w.div_ceil(packing(w).1)
}

/// `shifts` (a `w`-row table, each below `w`) packed into 32-bit words, unused bits zero.
pub fn pack(shifts: &[u32]) -> Vec<u32> {
    let (bits, per) = packing(shifts.len() as u32);
    shifts
        .chunks(per as usize)
        .map(|chunk| {
            chunk
                .iter()
                .enumerate()
                .fold(0u32, |word, (i, &s)| word | s << (bits * i as u32))
        })
        .collect()
}

/// The `(row, shift)` pairs that writing packed word `q` with `value` sets in a `w`-row table:
/// the rows `per * q ..` below `w`, each taking its field of `value` (unused bits ignored). A
/// word index at or beyond [`packed_words`] sets nothing.
pub fn unpack_word(w: u32, q: u32, value: u32) -> Vec<(u32, u32)> {
    let (bits, per) = packing(w);
    let mask = (1u32 << bits) - 1;
    (0..per)
        .map(|s| (q * per + s, value >> (bits * s) & mask))
        .filter(|&(row, _)| row < w)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figure_7_packs_six_shifts_a_word() {
        assert_eq!(packing(32), (5, 6));
        assert_eq!(packing(16), (4, 8));
        assert_eq!(packing(2), (1, 32));
        assert_eq!(packing(1024), (10, 3));
        assert_eq!(
            (packed_words(32), packed_words(2), packed_words(1024)),
            (6, 1, 342)
        );
        let identity: Vec<u32> = (0..32).collect();
        let words = pack(&identity);
        assert_eq!(words.len(), 6);
        // Fig. 7: word 0 holds r_5 .. r_0 from bit 25 down, word 5 only r_31 and r_30.
        assert_eq!(words[0], 5 << 25 | 4 << 20 | 3 << 15 | 2 << 10 | 1 << 5);
        assert_eq!(words[5], 31 << 5 | 30);
    }

    #[test]
    fn unpacking_inverts_packing_and_ignores_unused_bits() {
        for w in [2u32, 5, 24, 32, 100, 1024] {
            let shifts: Vec<u32> = (0..w).map(|r| (r * 7 + 3) % w).collect();
            let mut back = vec![u32::MAX; w as usize];
            for (q, &word) in pack(&shifts).iter().enumerate() {
                // Set every bit no field uses: unpacking must not see them.
                let (bits, per) = packing(w);
                let used = if bits * per == 32 {
                    u32::MAX
                } else {
                    (1 << (bits * per)) - 1
                };
                for (row, s) in unpack_word(w, q as u32, word | !used) {
                    back[row as usize] = s;
                }
            }
            assert_eq!(back, shifts, "w = {w}");
            assert!(unpack_word(w, packed_words(w), u32::MAX).is_empty());
        }
    }
}
