//! The simulator's fast path for the cells of Table II: a `w x w` matrix under RAW, RAS or RAP,
//! read by the contiguous, stride, diagonal or random warp.
//!
//! A trial draws, in this order:
//! - the index the pattern holds fixed: the contiguous access's row, the stride access's column,
//!   the diagonal's offset `c` (nothing for the random access);
//! - the random access's elements: `w` uniform values below `w^2`, element `row * w + col`;
//! - the shifts of the rows the warp touches: for the contiguous access the one row's shift (an
//!   entry of a uniformly random permutation and a uniform value are both uniform below `w`),
//!   for the others every row's, as the whole layout: RAS `w` uniform values, RAP a uniformly
//!   random permutation (forward Fisher-Yates), RAW none.
//!
//! Then it computes every thread's bank, `(col + shift[row]) mod w`, and counts the congestion:
//! the most distinct elements in one bank. Only the random access can touch an element twice;
//! an element counts only the first time. Where the banks of consecutive threads follow each
//! other they are added a run at a time: the contiguous access (banks `s..w`, then `0..s`, for
//! the row's shift `s`) and, under RAW, whose shifts are all zero, the stride access (`w`
//! threads in bank `c`) and the diagonal one (banks `c..w`, then `0..c`). The others add thread
//! by thread.
//! Draws come from [`super::draw`] in bulk, and every buffer is allocated once per engine. On
//! x86-64 processors with AVX2 a trial runs in a copy of this code compiled for AVX2 (chosen at
//! run time; the same source, so the same results).

#[cfg(test)]
use super::access::Element;
use super::access::Pattern;
use super::draw::{fill_below, one_below, Shuffler};
use super::rng::TrialRng;
use super::scheme::Scheme;

/// Arithmetic mod `w`: masks and shifts for a power of two, else comparisons and a division.
trait Width: Copy {
    fn w(self) -> u32;
    /// `x mod w` for `x < 2w`.
    fn wrap(self, x: u32) -> u32;
    /// `(e / w, e mod w)`: an element's row and column.
    fn split(self, e: u32) -> (u32, u32);
}

#[derive(Clone, Copy)]
struct PowerOfTwo(u32);

impl Width for PowerOfTwo {
    #[inline(always)]
    fn w(self) -> u32 {
        self.0
    }
    #[inline(always)]
    fn wrap(self, x: u32) -> u32 {
        x & (self.0 - 1)
    }
    #[inline(always)]
    fn split(self, e: u32) -> (u32, u32) {
        (e >> self.0.trailing_zeros(), e & (self.0 - 1))
    }
}

#[derive(Clone, Copy)]
struct AnyWidth(u32);

impl Width for AnyWidth {
    #[inline(always)]
    fn w(self) -> u32 {
        self.0
    }
    #[inline(always)]
    fn wrap(self, x: u32) -> u32 {
        if x >= self.0 {
            x - self.0
        } else {
            x
        }
    }
    #[inline(always)]
    fn split(self, e: u32) -> (u32, u32) {
        (e / self.0, e % self.0)
    }
}

/// The congestion counter's memory: a count per bank, all zero between trials, and for warps
/// that may repeat an element the number of the last trial that counted each element (its
/// stamp: a stamp equal to the current trial's number means "already counted", so nothing is
/// cleared between trials but once every 255). Lengths are powers of two, indexed through a
/// mask: the mask changes no index in range, and it lets the compiler drop the bounds checks.
#[derive(Debug, Clone)]
struct BankCounts {
    count: Vec<u16>,
    stamp: Vec<u8>,
    trial: u8,
}

impl BankCounts {
    fn new(w: u32, may_repeat: bool) -> Self {
        let size = w.next_power_of_two() as usize;
        Self {
            count: vec![0; size],
            stamp: if may_repeat {
                vec![0; size * size]
            } else {
                Vec::new()
            },
            trial: 0,
        }
    }

    /// A tally of one warp whose threads touch distinct elements.
    #[inline(always)]
    fn distinct(&mut self) -> Tally<'_> {
        let mask = self.count.len() - 1;
        Tally {
            count: &mut self.count[..=mask],
            mask,
        }
    }

    /// The congestion of threads that may touch the same element: thread `t` touches element
    /// `elements[t]` in bank `bank(elements[t])` and counts only the first time its element
    /// comes.
    #[inline(always)]
    fn merging(&mut self, elements: &[u32], bank: impl Fn(u32) -> u32) -> u32 {
        if self.trial == u8::MAX {
            self.stamp.fill(0);
            self.trial = 0;
        }
        self.trial += 1;
        let trial = self.trial;
        let (banks, last) = (self.count.len() - 1, self.stamp.len() - 1);
        let (count, stamp) = (&mut self.count[..=banks], &mut self.stamp[..=last]);
        for &e in elements {
            let counted = &mut stamp[e as usize & last];
            if *counted != trial {
                *counted = trial;
                count[bank(e) as usize & banks] += 1;
            }
        }
        take_max(count)
    }
}

/// The largest count, leaving every count at zero for the next warp.
#[inline(always)]
fn take_max(count: &mut [u16]) -> u32 {
    let mut max = 0;
    for c in count {
        max = max.max(*c);
        *c = 0;
    }
    u32::from(max)
}

/// The count of a warp whose threads touch distinct elements: thread by thread, or a run of
/// threads at a time where their banks are known to follow each other.
struct Tally<'a> {
    count: &'a mut [u16],
    mask: usize,
}

impl Tally<'_> {
    /// One thread in bank `bank`.
    #[inline(always)]
    fn add(&mut self, bank: u32) {
        self.count[bank as usize & self.mask] += 1;
    }

    /// `threads` threads in bank `bank`.
    #[inline(always)]
    fn add_run(&mut self, bank: u32, threads: u32) {
        self.count[bank as usize & self.mask] += threads as u16;
    }

    /// `w` threads, thread `t` in bank `(first + t) mod w`: banks `first..w`, then `0..first`,
    /// each added a slice at a time (which vectorises).
    #[inline(always)]
    fn add_rotation(&mut self, first: u32, w: u32) {
        for c in &mut self.count[first as usize..w as usize] {
            *c += 1;
        }
        for c in &mut self.count[..first as usize] {
            *c += 1;
        }
    }

    /// The congestion: the largest count.
    #[inline(always)]
    fn finish(self) -> u32 {
        take_max(self.count)
    }
}

/// One matrix cell's trials, with the buffers they reuse.
#[derive(Debug, Clone)]
pub(crate) struct MatrixTrials {
    w: u32,
    scheme: Scheme,
    pattern: Pattern,
    /// The index the pattern holds fixed in the last trial (row, column or diagonal offset).
    fixed: u32,
    /// Every row's shift (the contiguous access: only the row it reads; RAW: zeros), then zeros
    /// up to a power of two.
    shifts: Vec<u32>,
    /// RAP's permutations.
    shuffler: Shuffler,
    /// The random access's elements, `row * w + col`.
    elements: Vec<u32>,
    counts: BankCounts,
}

impl MatrixTrials {
    /// Trials of a `w x w` matrix (`w < 2^16`) under `scheme` (RAW, RAS or RAP) read by
    /// `pattern` (contiguous, stride, diagonal or random).
    pub(crate) fn new(w: u32, scheme: Scheme, pattern: Pattern) -> Self {
        debug_assert!(w < 1 << 16);
        debug_assert!(matches!(scheme, Scheme::Raw | Scheme::Ras | Scheme::Rap));
        debug_assert!(!matches!(
            pattern,
            Pattern::Malicious | Pattern::Stride(2..)
        ));
        let random = pattern == Pattern::Random;
        Self {
            w,
            scheme,
            pattern,
            fixed: 0,
            shifts: vec![0; w.next_power_of_two() as usize],
            shuffler: Shuffler::new(if scheme == Scheme::Rap { w } else { 1 }),
            elements: vec![0; if random { w as usize } else { 0 }],
            counts: BankCounts::new(w, pattern.may_repeat()),
        }
    }

    /// Runs one trial with generator `rng` and returns its congestion: on an x86-64 processor
    /// with AVX2 through [`MatrixTrials::run_avx2`], elsewhere through the portable code.
    pub(crate) fn run(&mut self, rng: &mut TrialRng) -> u32 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2, checked just above.
            return unsafe { self.run_avx2(rng) };
        }
        self.run_portable(rng)
    }

    /// [`MatrixTrials::run_portable`] compiled for AVX2: the same source, so the same results,
    /// with vectors twice as wide as the x86-64 baseline's (SSE2) where the compiler vectorises
    /// (the bulk SplitMix64 outputs and their cutting into bounded values, the shuffle's
    /// picks, the rotations and the counts' maximum). The default build targets the baseline,
    /// which every x86-64 processor runs; this copy is chosen at run time.
    ///
    /// # Safety
    /// The processor must support AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn run_avx2(&mut self, rng: &mut TrialRng) -> u32 {
        self.run_portable(rng)
    }

    /// One trial, in code any processor of the target runs.
    #[inline(always)]
    pub(crate) fn run_portable(&mut self, rng: &mut TrialRng) -> u32 {
        if self.w.is_power_of_two() {
            self.run_at(rng, PowerOfTwo(self.w))
        } else {
            self.run_at(rng, AnyWidth(self.w))
        }
    }

    #[inline(always)]
    fn run_at(&mut self, rng: &mut TrialRng, width: impl Width) -> u32 {
        let w = width.w();
        let scheme = self.scheme;
        let rows = self.shifts.len() - 1;
        match self.pattern {
            Pattern::Contiguous => {
                self.fixed = one_below(rng, w);
                let s = match scheme {
                    Scheme::Raw => 0,
                    _ => one_below(rng, w),
                };
                self.shifts[self.fixed as usize & rows] = s;
                // Thread t reads column t, in bank (t + s) mod w.
                let mut tally = self.counts.distinct();
                tally.add_rotation(s, w);
                tally.finish()
            }
            Pattern::Stride(_) => {
                self.fixed = one_below(rng, w);
                let c = self.fixed;
                if scheme == Scheme::Raw {
                    // Every thread reads column c, in bank c.
                    let mut tally = self.counts.distinct();
                    tally.add_run(c, w);
                    return tally.finish();
                }
                self.one_per_row(rng, w, |_, shift| width.wrap(c + shift))
            }
            Pattern::Diagonal => {
                self.fixed = one_below(rng, w);
                let c = self.fixed;
                if scheme == Scheme::Raw {
                    // Thread t reads column (c + t) mod w, in that bank.
                    let mut tally = self.counts.distinct();
                    tally.add_rotation(c, w);
                    return tally.finish();
                }
                self.one_per_row(rng, w, |t, shift| width.wrap(width.wrap(c + t) + shift))
            }
            Pattern::Random => {
                fill_below(rng, w * w, &mut self.elements);
                let shifts = &mut self.shifts[..=rows];
                match scheme {
                    Scheme::Raw => {
                        return self.counts.merging(&self.elements, |e| width.split(e).1);
                    }
                    Scheme::Ras => fill_below(rng, w, &mut shifts[..w as usize]),
                    _ => self.shuffler.shuffle(rng, shifts),
                }
                let shifts = &self.shifts[..=rows];
                self.counts.merging(&self.elements, |e| {
                    let (row, col) = width.split(e);
                    width.wrap(col + shifts[row as usize & rows])
                })
            }
            Pattern::Malicious => unreachable!("the malicious access takes the general path"),
        }
    }

    /// Draws every row's shift (RAS or RAP) and counts a warp with one thread in each row `t`,
    /// in bank `bank(t, shift of row t)`.
    #[inline(always)]
    fn one_per_row(&mut self, rng: &mut TrialRng, w: u32, bank: impl Fn(u32, u32) -> u32) -> u32 {
        if self.scheme == Scheme::Rap {
            self.shuffler.shuffle(rng, &mut self.shifts);
        } else {
            fill_below(rng, w, &mut self.shifts[..w as usize]);
        }
        let mut tally = self.counts.distinct();
        for (t, &shift) in self.shifts[..w as usize].iter().enumerate() {
            tally.add(bank(t as u32, shift));
        }
        tally.finish()
    }

    /// The elements the last trial's warp touched, thread 0 first.
    #[cfg(test)]
    pub(crate) fn elements(&self) -> Vec<Element> {
        let w = self.w;
        let at = |row: u32, col: u32| Element {
            row: [0, 0, row],
            col,
        };
        (0..w)
            .map(|t| match self.pattern {
                Pattern::Contiguous => at(self.fixed, t),
                Pattern::Stride(_) => at(t, self.fixed),
                Pattern::Diagonal => at(t, (self.fixed + t) % w),
                _ => {
                    let e = self.elements[t as usize];
                    at(e / w, e % w)
                }
            })
            .collect()
    }

    /// The addresses the last trial's warp touched (`row * w + bank`), thread 0 first.
    #[cfg(test)]
    pub(crate) fn addresses(&self) -> Vec<u64> {
        let w = u64::from(self.w);
        self.elements()
            .iter()
            .map(|e| {
                let bank = (u64::from(e.col) + u64::from(self.shifts[e.row[2] as usize])) % w;
                u64::from(e.row[2]) * w + bank
            })
            .collect()
    }

    /// The shifts the last trial drew (for the contiguous access only its row's is drawn).
    #[cfg(test)]
    pub(crate) fn shifts(&self) -> &[u32] {
        &self.shifts[..self.w as usize]
    }
}
