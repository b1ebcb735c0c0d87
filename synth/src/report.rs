//! The synthesis request and report types.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::closure::ClosureTry;
use crate::opensta::{StaPath, StaReport};
use crate::sdc::WireLoad;

/// Version of the [`SynthReport`] JSON layout; bumped whenever a field changes meaning
/// or is removed (adding an optional field does not bump it). Version 2: `paths` (the crate's
/// own timing per input port) gave way to `sta` (OpenSTA's), and the timing-driven flow's
/// `delay_ps` is ABC's.
pub const FORMAT_VERSION: u32 = 2;

/// What to synthesize and where to put the scripts, logs and reports.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SynthRequest {
    /// Verilog sources, read in order. Files ending in `.sv` are read with
    /// `read_verilog -sv`, all others as Verilog-2005.
    pub files: Vec<PathBuf>,
    /// Name of the top module.
    pub top: String,
    /// A liberty file (plain or gzip-compressed) selects [`Mode::Liberty`]; `None`
    /// selects [`Mode::Generic`].
    pub liberty: Option<PathBuf>,
    /// Folder that receives `synth.ys`, `synth.log`, the reports Yosys writes
    /// (`stat_pre.json`, `stat.json` or `stat.txt`, `ltp.txt` or `abc.txt`), the mapped `netlist.v`
    /// and `report.json`, and in liberty mode OpenSTA's `constraints.sdc`, `sta.tcl`, `sta.txt`
    /// and `sta.log`. Created when missing; earlier outputs in it are overwritten.
    pub work_dir: PathBuf,
    /// Liberty files of macros the design instantiates as black boxes (SRAM macros): their
    /// cells' areas count in `stat -liberty` and OpenSTA times their pins with them. Liberty
    /// mode only.
    pub macros: Vec<PathBuf>,
}

/// What the liberty flow optimises for, beyond the default area-and-delay mapping.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Timing {
    /// A delay target in ps: ABC maps for it with `map -D`, buffers high fanout and up- and
    /// down-sizes gates for it (`scripts/timing.abc`). `None` runs the default flow.
    pub target_ps: Option<f64>,
    /// Input ports held constant while the design runs (a configuration written once): with a
    /// target, the logic only they reach is mapped for area outside it (a false path from
    /// them); with or without one, [`SynthReport::paths`] times each input port apart.
    pub static_inputs: Vec<String>,
    /// With a target: map once per [`crate::closure::VARIANTS`] entry (with and without ABC's
    /// `dc2`, at the target and 10 % under it) and keep the smallest netlist that meets the
    /// target, or the fastest when none does ([`crate::closure`]).
    pub closure: bool,
    /// The clock port OpenSTA puts the clock on (rising edge); `None`: a virtual clock, for a
    /// block without one.
    pub clock: Option<String>,
    /// The clock period OpenSTA times against, in ps; `None`: `target_ps`, else
    /// [`crate::DEFAULT_CLOCK_PS`].
    pub clock_ps: Option<f64>,
    /// How OpenSTA estimates the wires.
    pub wire_load: WireLoad,
}

impl Timing {
    /// The period OpenSTA times against: `clock_ps`, else `target_ps`, else
    /// [`crate::DEFAULT_CLOCK_PS`].
    pub fn period_ps(&self) -> f64 {
        self.clock_ps
            .or(self.target_ps)
            .unwrap_or(crate::sdc::DEFAULT_CLOCK_PS)
    }
}

/// Which flow produced a report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Yosys' built-in gates (`scripts/generic.ys`): cell counts, a CMOS transistor
    /// estimate and the logic depth in gates. Needs no liberty file.
    Generic,
    /// A liberty library's standard cells (`scripts/liberty.ys`): area in um² and the
    /// critical-path delay from ABC's static timing.
    Liberty,
}

impl Mode {
    /// The lowercase name used in JSON and tables.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Generic => "generic",
            Mode::Liberty => "liberty",
        }
    }
}

/// The slowest path ABC found through the combinational logic (liberty mode only).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CriticalPath {
    /// Start point as ABC names it: a Yosys net, e.g. `\addr_i [3]` (an input port bit)
    /// or a flip-flop's output net.
    pub from: String,
    /// End point: an output port bit or a flip-flop's input net (e.g. `$0\q[0:0]`).
    pub to: String,
    /// Library cells along the path.
    pub cells: u32,
}

/// The numbers one synthesis run produced, with what is needed to reproduce it.
///
/// Every number is taken from a report Yosys or ABC printed; nothing is estimated by this
/// crate except `fmax_mhz`, which is `1e6 / reg_delay_ps`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SynthReport {
    /// Layout version of this record, [`FORMAT_VERSION`] when written by this crate.
    pub format_version: u32,
    /// The top module.
    pub top: String,
    /// The flow that ran.
    pub mode: Mode,
    /// What `yosys -V` printed, e.g. `Yosys 0.23 (git sha1 7ce5011c24b)`.
    pub yosys_version: String,
    /// Liberty mode: the library name from the file's `library (...)` group followed by
    /// the path as given, e.g. `NangateOpenCellLibrary (../shared/pdk/nangate45_typ.lib.gz)`.
    pub liberty: Option<String>,
    /// The filled-in Yosys script (`<work_dir>/synth.ys`).
    pub script: PathBuf,
    /// A shell command that reruns the synthesis by hand and rewrites every report.
    pub command: String,
    /// Cell counts by type after mapping, from `stat`: Yosys gate types such as `$_XOR_`
    /// and `$_DFF_PN0_` in generic mode, library cell names in liberty mode. Flip-flops
    /// are included.
    pub cells: BTreeMap<String, u64>,
    /// Total number of cells (the sum of `cells`).
    pub cell_count: u64,
    /// Generic mode: the transistor estimate of `stat -tech cmos`, which sums Yosys'
    /// CMOS cost table (`kernel/cost.h`: NOT 2, NAND/NOR 4, AND/OR/ANDNOT/ORNOT 6,
    /// XOR/XNOR/MUX 12, ...). Cell types missing from that table count zero; see
    /// `transistors_partial`.
    pub transistors: Option<u64>,
    /// True when some cells have no CMOS cost in Yosys (Yosys prints `N+`): flip-flops
    /// with reset or enable, for example, so `transistors` is then a lower bound.
    #[serde(default)]
    pub transistors_partial: bool,
    /// Logic depth in cells. Generic mode: the longest topological path of `ltp -noff`,
    /// counting every gate (inverters included) from an input port or flip-flop output
    /// to an output port or flip-flop input. Liberty mode: the number of library cells
    /// on ABC's critical (slowest) path, which need not be the deepest path.
    pub depth_gates: Option<u32>,
    /// Liberty mode: chip area from `stat -liberty`, in the library's area unit (um² for
    /// sky130 and NanGate45), flip-flops included, and the macros' areas from their liberty
    /// files when [`SynthRequest::macros`] names them. Wires are not counted.
    pub area_um2: Option<f64>,
    /// The part of `area_um2` that is macros (their liberty files' cell areas).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub macro_area_um2: Option<f64>,
    /// Liberty mode: ABC's estimate of the critical-path delay in ps (`stime -p`) through the
    /// combinational logic, whose inputs are the input ports and flip-flop outputs and whose
    /// outputs are the output ports and flip-flop inputs, with the library's delay tables and
    /// no wire load, excluding clock-to-Q and setup; `0` when there is no logic. In the
    /// timing-driven flow, the logic ABC mapped for the target (a static input's own logic is
    /// mapped, and timed, apart). OpenSTA's figures are in [`SynthReport::sta`].
    pub delay_ps: Option<f64>,
    /// Flip-flop bits, counted after `synth` and before any mapping.
    pub registers: u64,
    /// Liberty mode with `registers > 0`: the delay that limits the clock, which is
    /// `delay_ps` (ABC times only the logic between flip-flops and ports, so its
    /// critical path is the longest flip-flop-to-flip-flop, port-to-flip-flop,
    /// flip-flop-to-port or port-to-port path). Clock-to-Q, setup and wires are not in it.
    pub reg_delay_ps: Option<f64>,
    /// `1e6 / reg_delay_ps` (ps to MHz). Because clock-to-Q, setup, skew and wires are
    /// left out this is an upper bound on the real fmax; `None` when there are no
    /// registers or no logic between them.
    pub fmax_mhz: Option<f64>,
    /// Liberty mode: ABC's critical path end points (to tell a register path from a
    /// port-to-port one). `None` when there is no logic. OpenSTA's is `sta.critical_path`.
    #[serde(default)]
    pub critical_path: Option<CriticalPath>,
    /// The delay target the flow ran with (`None`: the default flow).
    #[serde(default)]
    pub target_ps: Option<f64>,
    /// The input ports treated as static (see [`Timing::static_inputs`]).
    #[serde(default)]
    pub static_inputs: Vec<String>,
    /// Liberty mode: OpenSTA's timing of the mapped netlist (`crate::opensta`): worst slack at
    /// the clock, the critical path, the smallest period with no negative slack (clock-to-Q
    /// and setup included), and the worst path from each input port, from the registers and
    /// from the macros. For a bank hasher, the `addr_i` group is the address-to-bank path and
    /// `cfg_i` (a false path) the configuration-to-bank path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sta: Option<StaReport>,
    /// A closure run's mappings, in [`crate::closure::VARIANTS`] order, the kept one marked
    /// (empty for a single mapping).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub closure: Vec<ClosureTry>,
}

impl SynthReport {
    /// OpenSTA's worst path from input port (or group) `from`, if it reaches an end point.
    pub fn path_from(&self, from: &str) -> Option<&StaPath> {
        self.sta.as_ref()?.group(from)
    }
}
