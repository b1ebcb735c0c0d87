//! The banked shared memory: `lanes` addresses per warp access, `banks` banks of `depth` words,
//! any hasher or RAP in front of the banks, cycle-exact against the congestion model
//! (`models::smem::cycle`).
//!
//! - [`design`]: the validated request ([`SmemDesign`]) and its map ([`MapSpec`]); the family's
//!   [`Block`] below;
//! - [`map_request`]: the map as a user asks for it (`--map` and its options);
//! - [`map`]: the per-lane map, address to (bank, row), around a hasher or RAP instance;
//! - [`conflict`]: the pairwise comparison of an accepted access's lanes, and which lanes'
//!   bytes a higher lane overwrites;
//! - [`grant`]: the lanes one pass serves, and whether the pass after it is the last;
//! - [`bank`]: the per-bank request mux and the bank storage (behavioural or an SRAM macro);
//! - [`top`]: the pipeline around them;
//! - [`vectors`]: the cycle-level stimulus and expected outputs from the cycle model;
//! - [`replay`]: a kernel trace run through the RTL, cycles counted by the RTL itself;
//! - [`vortex`]: the Vortex interface (`VX_local_mem`'s ports) around the pipeline, and
//!   [`vortex_vectors`] its stimulus from `models::smem::lanes`.

pub mod bank;
pub mod conflict;
pub mod design;
pub mod grant;
pub mod map;
pub mod map_request;
pub mod properties;
pub mod replay;
pub mod sweep;
pub mod top;
pub mod vectors;
pub mod vortex;
pub mod vortex_vectors;

use crate::block::{self, Block, Header, Identity, PortFields, Stimulus};
use crate::manifest::ManifestMacro;
use crate::rtl::Module;
pub use design::{Interface, MapSpec, SmemDesign};
pub use map_request::{MapKind, MapRequest};
use std::collections::BTreeMap;
use testbenches::Timing;
use vectors::SmemPlan;

/// Clock edges from a request's handshake to its response showing, for a conflict-free access.
pub const LATENCY: u64 = 3;

impl SmemDesign {
    /// The map's kind as the manifest names it: the hash kind, or `rap` / `ras`.
    fn kind_name(&self) -> String {
        match self.map() {
            MapSpec::Hash { config, .. } => config.kind().to_string(),
            MapSpec::Rap(rap) => rap.kind_name().to_string(),
        }
    }

    /// `what`, then the configuration (pretty JSON, one line per field): the header lines of
    /// every module of the memory.
    fn described(&self, what: String) -> Vec<String> {
        let configuration =
            serde_json::to_string_pretty(&self.config()).unwrap_or_else(|e| unreachable!("{e}"));
        let mut lines = vec![what, "Configuration:".to_string()];
        lines.extend(configuration.lines().map(|l| format!("  {l}")));
        lines
    }

    /// The header of a sub-module that does `what`.
    fn part_header(&self, header: &Header, what: &str) -> Vec<String> {
        header.lines(self.described(what.to_string()), &[])
    }

    /// The top module as the testbench and the replay see it (a header-less build).
    pub fn top_module(&self) -> Module {
        let mut modules = self.modules(&Header::new(""));
        modules.swap_remove(0)
    }
}

impl Block for SmemDesign {
    type Plan = SmemPlan;

    fn identity(&self) -> Identity {
        let variant = match self.map() {
            MapSpec::Hash {
                configurable: true, ..
            } => "configurable",
            MapSpec::Hash { .. } => "fixed",
            MapSpec::Rap(rap) if rap.loadable => "loadable",
            MapSpec::Rap(_) => "baked",
        };
        Identity::new(self.name(), "smem", self.kind_name(), variant)
    }

    fn summary(&self) -> String {
        let s = self.shape();
        let mut summary = format!(
            "shared memory, {} lanes x {} banks x {} words of {} bytes, map {} ({})",
            s.lanes(),
            s.banks(),
            s.depth(),
            s.word_bytes(),
            self.kind_name(),
            self.identity().variant,
        );
        if let Some(sram) = self.sram_macro() {
            summary.push_str(&format!(", SRAM macro {sram}"));
        }
        if !self.broadcast() {
            summary.push_str(", no broadcast");
        }
        if self.vortex_tag_bits().is_some() {
            summary.push_str(", Vortex VX_local_mem interface");
        }
        summary
    }

    fn about(&self) -> Vec<String> {
        let s = self.shape();
        self.described(format!(
            "Banked shared memory: {} lanes, {} banks of {} words of {} bytes, map {}{}.",
            s.lanes(),
            s.banks(),
            s.depth(),
            s.word_bytes(),
            self.kind_name(),
            if self.configurable() || self.loadable() {
                " (written at run time)"
            } else {
                ""
            }
        ))
    }

    fn parameters(&self) -> BTreeMap<String, u64> {
        let s = self.shape();
        let mut parameters = BTreeMap::from([
            ("LANES".to_string(), u64::from(s.lanes())),
            ("BANKS".to_string(), u64::from(s.banks())),
            ("DEPTH".to_string(), u64::from(s.depth())),
            ("WORD_BYTES".to_string(), u64::from(s.word_bytes())),
            ("ADDR_BITS".to_string(), u64::from(s.addr_bits())),
            ("ROW_BITS".to_string(), u64::from(s.row_bits())),
            ("FILL_WORDS".to_string(), u64::from(self.fill_words())),
            ("COUNTER_BITS".to_string(), u64::from(self.counter_bits())),
            ("CFG_WIDTH".to_string(), u64::from(self.cfg_width())),
            ("GROUPS".to_string(), u64::from(self.groups())),
            ("LATENCY".to_string(), LATENCY),
        ]);
        if let Some(tag_bits) = self.vortex_tag_bits() {
            parameters.insert("TAG_BITS".to_string(), u64::from(tag_bits));
            parameters.insert("DCR_BASE".to_string(), u64::from(design::DCR_BASE));
            parameters.insert("DCR_WORDS".to_string(), u64::from(self.dcr_words()));
        }
        parameters
    }

    fn dont_cares(&self) -> Vec<(&'static str, &'static str)> {
        if self.vortex_tag_bits().is_none() {
            return Vec::new();
        }
        vec![("rsp_data_o", "rsp_valid_o"), ("rsp_tag_o", "rsp_valid_o")]
    }

    fn configuration(&self) -> serde_json::Value {
        serde_json::to_value(self.config()).unwrap_or_else(|e| unreachable!("{e}"))
    }

    fn fields(&self) -> Vec<PortFields> {
        // Behind the Vortex interface the register is written through the DCR bus: its fields
        // are in the configuration's `vortex` object.
        if !self.configurable() || self.vortex_tag_bits().is_some() {
            return Vec::new();
        }
        let program = self.software_index().map(|index| self.cfg_value(&index));
        vec![PortFields {
            port: "cfg_i".into(),
            fields: self.cfg_manifest_fields(),
            program,
        }]
    }

    fn timing(&self) -> Timing {
        Timing::Clocked
    }

    fn modules(&self, header: &Header) -> Vec<Module> {
        let part = |what: &str| self.part_header(header, what);
        let bank_map = map::bank_module(self, header);
        let lane_map = map::build(
            self,
            &bank_map,
            part("One lane's map: word address to (bank, row), a bijection."),
        );
        let one_pass = conflict::one_pass(self, part("Whether one pass serves a set of lanes."));
        let conflict = conflict::build(
            self,
            &one_pass,
            part("Pairwise comparison of an accepted access's lanes; effective byte enables."),
        );
        let grant = grant::build(self, &one_pass, part("The lanes one pass serves."));
        let bank_port = bank::port(self, part("One bank's request from a pass."));
        let storage = bank::storage_interface(self);
        let vortex = self.vortex_tag_bits().is_some();
        let pipe = top::build(
            self,
            &top::Subs {
                map: &lane_map,
                conflict: &conflict,
                grant: &grant,
                bank_port: &bank_port,
                storage: &storage,
            },
            if vortex {
                part("The pipeline behind the Vortex interface.")
            } else {
                header.of(self)
            },
        );
        let mut modules = Vec::new();
        if vortex {
            modules.push(vortex::build(self, &pipe, header.of(self)));
        }
        modules.extend([
            pipe, lane_map, bank_map, conflict, grant, one_pass, bank_port,
        ]);
        modules
    }

    fn verbatim_modules(&self, header: &Header) -> Vec<(String, String)> {
        let storage_what = match self.sram_macro() {
            None => "One bank: a behavioural single-port RAM.".to_string(),
            Some(sram) => format!("One bank: the SRAM macro {sram}."),
        };
        let mut files = vec![(
            format!("{}_bank.v", self.name()),
            bank::storage_text(self, &self.part_header(header, &storage_what)),
        )];
        match (self.openram_macro(), self.sram_macro()) {
            (Some(m), _) => {
                files.push((format!("{}.v", m.cell), bank::openram_model_text(m, header)))
            }
            (None, Some(sram)) => files.push((
                format!("{sram}.v"),
                bank::macro_model_text(self, sram, header),
            )),
            (None, None) => {}
        }
        files
    }

    fn companion_files(&self, header: &Header) -> Vec<(String, String)> {
        let mut files = Vec::new();
        if self.vortex_tag_bits().is_some() {
            let modules = self.modules(header);
            let text = vortex::wrapper(self, &modules[0], header);
            files.push((vortex::WRAPPER_FILE.to_string(), text));
        }
        if let Some(m) = self.openram_macro() {
            files.push((m.liberty_file(), m.liberty_text.clone()));
            if let Some(lef) = &m.lef_text {
                files.push((m.lef_file(), lef.clone()));
            }
        }
        files
    }

    fn macros(&self) -> Vec<ManifestMacro> {
        let Some(m) = self.openram_macro() else {
            return Vec::new();
        };
        vec![ManifestMacro {
            cell: m.cell.clone(),
            liberty: m.liberty_file(),
            lef: m.lef_text.as_ref().map(|_| m.lef_file()),
        }]
    }

    fn stimulus(&self, plan: &SmemPlan) -> Stimulus {
        let top = self.top_module();
        let harness = block::harness(&self.name(), &block::interface(&top), self.timing());
        let (vectors, coverage) = if self.vortex_tag_bits().is_some() {
            let (vectors, summary) = vortex_vectors::vectors(self, &harness, plan);
            (vectors, summary.coverage())
        } else {
            let (vectors, summary) = vectors::vectors(self, &harness, plan);
            (vectors, summary.coverage())
        };
        Stimulus {
            vectors,
            seed: plan.seed,
            coverage,
        }
    }
}
