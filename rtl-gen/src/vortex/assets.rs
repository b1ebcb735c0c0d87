//! The project's files for Vortex, built into rtl-gen so that `rtl-gen vortex` runs from any
//! folder: the patches (`vortex/patches/`, README there), the fixed-latency memory model
//! (`vortex/dram_sim.cpp`) and the project's kernels (`vortex/kernels/`).

/// A file built into rtl-gen: its name (a path relative to its folder) and text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Asset {
    /// The file's name, relative to the folder it is written to.
    pub name: &'static str,
    /// Its text.
    pub text: &'static str,
}

macro_rules! asset {
    ($dir:literal, $name:literal) => {
        Asset {
            name: $name,
            text: include_str!(concat!("../../../vortex/", $dir, "/", $name)),
        }
    };
}

/// The patches every build applies, in order: Verilator 5.006, the rtlsim and SimX builds
/// without ramulator, the kernels with Debian's GCC and picolibc, the runtime's hooks (plusargs,
/// final blocks, DCR writes from the environment).
pub const COMMON_PATCHES: [Asset; 4] = [
    asset!("patches", "0001-verilator-5.006.patch"),
    asset!("patches", "0002-rtlsim-simx-build.patch"),
    asset!("patches", "0003-gcc-picolibc.patch"),
    asset!("patches", "0004-runtime-hooks.patch"),
];

/// The patches of builds with rtl-gen's local memory only, after [`COMMON_PATCHES`]: the DCR
/// bus down to `VX_local_mem`.
pub const LMEM_PATCHES: [Asset; 1] = [asset!("patches", "0005-lmem-dcr.patch")];

/// The fixed-latency memory model that replaces `sim/common/dram_sim.cpp` (ramulator).
pub const DRAM_SIM: Asset = Asset {
    name: "sim/common/dram_sim.cpp",
    text: include_str!("../../../vortex/dram_sim.cpp"),
};

/// A kernel of the project's (`vortex/kernels/<name>/`).
#[derive(Debug, Clone, Copy)]
pub struct ProjectKernel {
    /// Its name (folder and host program).
    pub name: &'static str,
    /// What it does and what its local memory sees.
    pub about: &'static str,
    /// Its files: `Makefile`, `main.cpp`, `kernel.cpp`, `common.h`.
    pub files: &'static [Asset],
}

/// The files every project kernel's folder gets: the host side's device, launch and check
/// (`host.h`) and the device side's barrier (`kernel.h`).
pub const KERNEL_SHARED: [Asset; 2] = [asset!("kernels", "host.h"), asset!("kernels", "kernel.h")];

macro_rules! kernel {
    ($name:literal, $about:literal) => {
        ProjectKernel {
            name: $name,
            about: $about,
            files: &[
                kernel!(@file $name, "Makefile"),
                kernel!(@file $name, "main.cpp"),
                kernel!(@file $name, "kernel.cpp"),
                kernel!(@file $name, "common.h"),
            ],
        }
    };
    (@file $name:literal, $file:literal) => {
        Asset {
            name: $file,
            text: include_str!(concat!("../../../vortex/kernels/", $name, "/", $file)),
        }
    };
}

/// The project's kernels (warp-uniform: GCC inserts no split/join for divergent branches).
pub const PROJECT_KERNELS: [ProjectKernel; 5] = [
    kernel!(
        "transpose",
        "transpose through a local tile without padding (rtl-gen): columns read tile words \
         apart; -n side, -t tile"
    ),
    kernel!(
        "strided",
        "each thread walks its own row of a local block (rtl-gen): lanes a row apart; -n rows, \
         -w row words"
    ),
    kernel!(
        "histogram",
        "a private histogram per thread in local memory (rtl-gen): lanes counting one bin are \
         a histogram apart; -n elements, -b bins"
    ),
    kernel!(
        "stencil",
        "five-point stencil on a 16 x 16 tile with a 32-word pitch (rtl-gen): lanes on \
         consecutive rows; -n side"
    ),
    kernel!(
        "reduce",
        "a sum halved in local memory a warp at a time (rtl-gen): the last warp's worth read by \
         every lane (a broadcast); -n elements"
    ),
];
