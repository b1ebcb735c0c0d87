//! Synthesis of generated RTL with Yosys, and the numbers it reports.
//!
//! [`synthesize`] fills one of two Yosys scripts kept under `synth/scripts/`, writes it
//! to the request's work folder as `synth.ys` (rerun by hand with the report's
//! `command`), runs Yosys and parses the reports it wrote into a [`SynthReport`]:
//!
//! - **Generic** (no liberty; needs only Yosys): `synth -top <top> -flatten`, then ABC
//!   maps the logic to two-input gates and a 2:1 mux
//!   (`abc -g AND,NAND,OR,NOR,XOR,XNOR,ANDNOT,ORNOT,MUX`, plus the NOT and BUF ABC
//!   always has). This set makes every cell one gate level, so `ltp -noff` gives the
//!   depth in gates, and it keeps XOR and MUX as single cells, which is what bank
//!   hashers are made of. Reports cells by type, the `stat -tech cmos` transistor
//!   estimate and the depth.
//! - **Liberty** (a `.lib` or `.lib.gz`): `dfflibmap` (and, for latches, the techmap
//!   `latches.v` written from the library's latch cells) and `abc -liberty` map to the
//!   library's cells, `stat -liberty` gives the area, and ABC's `stime -p` (at the end of
//!   `scripts/liberty.abc`) the critical-path delay in ps; for designs with flip-flops,
//!   the register-limited delay and the fmax it implies (see [`SynthReport`] for exactly
//!   what those include).
//!
//! With [`synthesize_with`] and a [`Timing`] target the liberty flow is timing-driven
//! (`scripts/timing.ys` + `scripts/timing.abc`): ABC's delay-driven `map -D`, buffering and
//! gate sizing for the target, the logic of static inputs (a configuration) mapped apart for
//! area; with [`Timing::closure`] it maps once per ABC variant of [`closure`] and keeps the best
//! netlist. In both liberty flows OpenSTA ([`opensta`]) times the mapped netlist against the
//! constraints of [`sdc`] (a clock on the clock port, static inputs as false paths): worst
//! slack, the critical path and the smallest clock period with clock-to-Q and setup included,
//! and the worst path from each input port, so that a hasher's address-to-bank path is reported
//! apart from its configuration-to-bank path.
//!
//! [`check`] is the acceptance check of every emitted file (`hierarchy -check; proc;
//! check -assert`); [`prove_equivalent`] proves two versions of a design the same circuit
//! (the guard of every emitter refactor). Yosys is found through `$YOSYS` or `PATH` by
//! `hdl_util::ExternalTool`, the workspace's one tool finder. [`render_table`]
//! prints reports for a terminal. Paths with spaces work for Yosys commands but not for ABC's own
//! `read_lib`/`source`, so keep liberty files and work folders free of spaces.

mod abc_constr;
mod check;
pub mod closure;
mod drive;
mod equiv;
mod error;
mod latches;
mod lib_syntax;
mod liberty;
pub mod macros;
pub mod opensta;
pub mod parse;
pub mod pnr;
mod report;
mod runner;
pub mod script;
pub mod sdc;
mod table;
mod tool;

pub use check::{check, CHECK_COMMANDS};
pub use equiv::{prove_equivalent, EquivMethod};
pub use error::Error;
pub use liberty::check_liberty;
pub use macros::{read_macro, MacroCell, MacroPin};
pub use opensta::{time_netlist, ClockPinCheck, Resized, StaPath, StaReport};
pub use report::{CriticalPath, Mode, SynthReport, SynthRequest, Timing, FORMAT_VERSION};
pub use runner::{synthesize, synthesize_with, CLOSURE_DIR, LOG_FILE, REPORT_FILE};
pub use sdc::{WireLoad, DEFAULT_CLOCK_PS};
pub use table::render_table;
