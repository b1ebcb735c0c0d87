//! The GPU's configuration: threads per warp, local-memory banks and size, and any further
//! Vortex `CONFIGS` defines (names from `hw/rtl/VX_config.vh`).

use crate::Error;
use std::fmt;

/// Vortex's default threads per warp (`NUM_THREADS`).
pub const DEFAULT_THREADS: u32 = 4;
/// Vortex's default warps per core (`NUM_WARPS`).
pub const DEFAULT_WARPS: u32 = 4;
/// Vortex's default local-memory size, log2 bytes (`LMEM_LOG_SIZE`: 16 KiB).
pub const DEFAULT_LMEM_LOG_SIZE: u32 = 14;
/// Bytes of a local-memory word (`LSU_WORD_SIZE` on a 32-bit Vortex).
pub const WORD_BYTES: u32 = 4;

/// A Vortex configuration: what the generated local memory must fit, and the `CONFIGS` that
/// build it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VxConfig {
    /// Threads per warp (`NUM_THREADS`): the local memory's lanes.
    pub threads: u32,
    /// Warps per core (`NUM_WARPS`).
    pub warps: u32,
    /// Local-memory banks (`LMEM_NUM_BANKS`; Vortex's default is the thread count).
    pub banks: u32,
    /// Local-memory size, log2 bytes (`LMEM_LOG_SIZE`).
    pub lmem_log_size: u32,
    /// Further `-D` defines, as given.
    pub extra: Vec<String>,
}

impl Default for VxConfig {
    fn default() -> Self {
        Self {
            threads: DEFAULT_THREADS,
            warps: DEFAULT_WARPS,
            banks: DEFAULT_THREADS,
            lmem_log_size: DEFAULT_LMEM_LOG_SIZE,
            extra: Vec::new(),
        }
    }
}

fn bad(flag: &'static str, value: &str, message: impl Into<String>) -> Error {
    Error::BadFlag {
        flag,
        value: value.to_string(),
        message: message.into(),
    }
}

fn power_of_two_in(flag: &'static str, value: u32, lo: u32, hi: u32) -> Result<u32, Error> {
    if value.is_power_of_two() && (lo..=hi).contains(&value) {
        Ok(value)
    } else {
        Err(bad(
            flag,
            &value.to_string(),
            format!("must be a power of two from {lo} to {hi}"),
        ))
    }
}

impl VxConfig {
    /// The configuration from `--threads`, `--banks` and `--configs` (space-separated `-DNAME`
    /// or `-DNAME=VALUE`): `NUM_THREADS`, `NUM_WARPS`, `LMEM_NUM_BANKS` and `LMEM_LOG_SIZE` may
    /// come from either, not differently from both.
    pub fn new(threads: Option<u32>, banks: Option<u32>, configs: &str) -> Result<Self, Error> {
        let mut config = Self::default();
        let (mut threads_d, mut warps_d, mut banks_d, mut size_d) = (None, None, None, None);
        for word in configs.split_whitespace() {
            let Some(define) = word.strip_prefix("-D") else {
                return Err(bad(
                    "--configs",
                    word,
                    "takes Vortex defines only (-DNAME or -DNAME=VALUE)",
                ));
            };
            let (name, value) = define.split_once('=').unwrap_or((define, "1"));
            let number = || {
                value.parse::<u32>().map_err(|_| {
                    bad(
                        "--configs",
                        word,
                        format!("{name} takes an unsigned integer"),
                    )
                })
            };
            match name {
                "NUM_THREADS" => threads_d = Some(number()?),
                "NUM_WARPS" => warps_d = Some(number()?),
                "LMEM_NUM_BANKS" => banks_d = Some(number()?),
                "LMEM_LOG_SIZE" => size_d = Some(number()?),
                "" => return Err(bad("--configs", word, "names no define")),
                _ => config.extra.push(word.to_string()),
            }
        }
        let agree = |flag: &'static str, given: Option<u32>, define: Option<u32>, name: &str| match (
            given, define,
        ) {
            (Some(g), Some(d)) if g != d => Err(bad(
                flag,
                &g.to_string(),
                format!("differs from --configs -D{name}={d}; give one of them"),
            )),
            (g, d) => Ok(g.or(d)),
        };
        let threads = agree("--threads", threads, threads_d, "NUM_THREADS")?;
        let banks = agree("--banks", banks, banks_d, "LMEM_NUM_BANKS")?;
        config.threads = power_of_two_in("--threads", threads.unwrap_or(DEFAULT_THREADS), 1, 32)?;
        config.banks = power_of_two_in("--banks", banks.unwrap_or(config.threads), 1, 64)?;
        config.warps = power_of_two_in(
            "--configs -DNUM_WARPS",
            warps_d.unwrap_or(DEFAULT_WARPS),
            1,
            32,
        )?;
        config.lmem_log_size = size_d.unwrap_or(DEFAULT_LMEM_LOG_SIZE);
        if !(8..=20).contains(&config.lmem_log_size) {
            return Err(bad(
                "--configs",
                &format!("-DLMEM_LOG_SIZE={}", config.lmem_log_size),
                "must be from 8 to 20",
            ));
        }
        if config.banks > config.words() {
            return Err(bad(
                "--banks",
                &config.banks.to_string(),
                format!("is more than the local memory's {} words", config.words()),
            ));
        }
        Ok(config)
    }

    /// Words of local memory.
    pub fn words(&self) -> u32 {
        (1 << self.lmem_log_size) / WORD_BYTES
    }

    /// Threads per core (a block's largest size).
    pub fn threads_per_core(&self) -> u32 {
        self.threads * self.warps
    }

    /// The `CONFIGS` defines, in a fixed order, defaults left out.
    pub fn defines(&self) -> Vec<String> {
        let d = Self::default();
        let mut out = Vec::new();
        if self.threads != d.threads {
            out.push(format!("-DNUM_THREADS={}", self.threads));
        }
        if self.warps != d.warps {
            out.push(format!("-DNUM_WARPS={}", self.warps));
        }
        if self.banks != self.threads {
            out.push(format!("-DLMEM_NUM_BANKS={}", self.banks));
        }
        if self.lmem_log_size != d.lmem_log_size {
            out.push(format!("-DLMEM_LOG_SIZE={}", self.lmem_log_size));
        }
        out.extend(self.extra.iter().cloned());
        out
    }

    /// A short name for folders and tables: `4x4t-4b` (warps x threads, banks), then a digest of
    /// any further defines.
    pub fn label(&self) -> String {
        let mut label = format!("{}x{}t-{}b", self.warps, self.threads, self.banks);
        if self.lmem_log_size != DEFAULT_LMEM_LOG_SIZE {
            label.push_str(&format!("-{}k", (1u32 << self.lmem_log_size) / 1024));
        }
        if !self.extra.is_empty() {
            let mut digest = super::Digest::default();
            digest.add("extra", self.extra.join(" ").as_bytes());
            label.push('-');
            label.push_str(&digest.to_string()[..8]);
        }
        label
    }
}

impl fmt::Display for VxConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} warps x {} threads, {} banks x {} words",
            self.warps,
            self.threads,
            self.banks,
            self.words() / self.banks
        )?;
        if !self.extra.is_empty() {
            write!(f, ", {}", self.extra.join(" "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Vortex's default configuration needs no define; 16 x 16 names both.
    #[test]
    fn defaults_need_no_define() {
        let d = VxConfig::new(None, None, "").unwrap();
        assert_eq!((d.threads, d.banks, d.words()), (4, 4, 4096));
        assert!(d.defines().is_empty());
        assert_eq!(d.label(), "4x4t-4b");
        let big = VxConfig::new(Some(16), Some(16), "").unwrap();
        assert_eq!(big.defines(), ["-DNUM_THREADS=16"]);
        let same = VxConfig::new(None, None, "-DNUM_THREADS=16 -DLMEM_NUM_BANKS=16").unwrap();
        assert_eq!(same, big);
        let fewer_banks = VxConfig::new(Some(16), Some(4), "").unwrap();
        assert_eq!(
            fewer_banks.defines(),
            ["-DNUM_THREADS=16", "-DLMEM_NUM_BANKS=4"]
        );
    }

    /// A flag and a define that disagree, a count that is not a power of two and a word that is
    /// no define are refused with the flag named.
    #[test]
    fn refusals_name_the_flag() {
        let msg = |t, b, c| VxConfig::new(t, b, c).unwrap_err().to_string();
        assert!(msg(Some(8), None, "-DNUM_THREADS=16").starts_with("--threads 8: differs"));
        assert!(msg(Some(6), None, "").starts_with("--threads 6: must be a power of two"));
        assert!(msg(None, None, "NUM_THREADS=4").starts_with("--configs NUM_THREADS=4:"));
        assert!(msg(None, None, "-DNUM_THREADS=x").contains("takes an unsigned integer"));
    }
}
