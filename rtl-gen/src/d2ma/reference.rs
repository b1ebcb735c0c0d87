//! The D²MA RAW check's referee for `rtl-gen prove` and `rtl-gen mutate`: the check read
//! through its manifest and its reference written from `models::d2ma::raw`, never from the
//! generator's RTL code. The other D²MA blocks have no reference yet.

use crate::prove::block::BlockUnderProof;
use crate::prove::reference::{bits_to_hold, input, output, ModuleText, Reference};
use crate::prove::{Plan, ProveError, Strategy};

/// The RAW check's referee.
pub struct Referee;

impl crate::prove::Referee for Referee {
    fn family(&self) -> &'static str {
        "d2ma"
    }

    fn covers(&self) -> String {
        "the d2ma raw-check".into()
    }

    fn plan(&self, block: &BlockUnderProof) -> Result<Option<Plan>, ProveError> {
        if block.kind != "raw-check" {
            return Ok(None);
        }
        let r = read(block)?;
        let bits = bits_to_hold(u64::from(r.ctas - 1));
        // The selection by the load's CTA is proved one value of `load_cta_i` at a time, every
        // value of the port (those at or above `ctas` assumed away): one SAT problem over every
        // input did not finish in 10 minutes at 8 x 4 entries, one per value takes a fraction
        // of a second (docs/VERIFICATION.md).
        Ok(Some(Plan {
            name: "raw-check",
            reference: Ok(raw_check(&r)),
            strategy: Strategy::PerValue {
                port: RAW_CTA_PORT,
                bits,
                values: 1 << bits,
            },
            description: "d2ma raw-check".into(),
        }))
    }
}

/// The D²MA RAW check as the prover sees it.
#[derive(Debug, Clone, Copy)]
pub struct RawCheckBlock {
    /// CTAs.
    pub ctas: u32,
    /// Buffers per CTA.
    pub buffers: u32,
}

/// The most CTAs and buffers a RAW check is read with (`rtl-gen d2ma --ctas`, `--buffers`).
const MAX_ENTRIES: u32 = 1024;

/// Reads a RAW check's block through its manifest: `ctas` and `buffers`.
pub fn read(block: &BlockUnderProof) -> Result<RawCheckBlock, ProveError> {
    let c = block.root().get("configuration");
    let count = |key: &str| {
        let field = c.get(key);
        field
            .u32()
            .ok()
            .filter(|v| (1..=MAX_ENTRIES).contains(v))
            .ok_or_else(|| field.bad(&format!("1 to {MAX_ENTRIES}")))
    };
    let (ctas, buffers) = (count("ctas")?, count("buffers")?);
    if ctas * buffers > MAX_ENTRIES {
        return Err(c
            .get("buffers")
            .bad(&format!("ctas x buffers at most {MAX_ENTRIES}")));
    }
    Ok(RawCheckBlock { ctas, buffers })
}

/// Bits of a shared byte address (the D²MA RAW check's `load_addr_i`, a guard's start).
const SHARED_BITS: u32 = 16;

/// The RAW check's port of the load's CTA, on which its proof splits into cases.
pub const RAW_CTA_PORT: &str = "load_cta_i";

/// The reference of the D²MA RAW check, from `models::d2ma::raw`: a load waits when it is valid
/// and some guard of its own CTA (entry `e = cta * buffers + buf`) is in flight with
/// `start <= addr < end` (`Guard::blocks`, `must_wait`); `release_o` is one-hot in the CTA of a
/// completed buffer. CTA numbers at or above `ctas` are assumed away. `start <= addr` is written
/// `!(addr < start)`: the same function, in the form whose comparator the solver matches with
/// the block's at once (a `<=` against a `<` takes it minutes at 2 x 2 entries).
pub fn raw_check(r: &RawCheckBlock) -> Reference {
    let e = r.ctas * r.buffers;
    let cb = bits_to_hold(u64::from(r.ctas - 1));
    let ports = vec![
        input("load_valid_i", 1),
        input(RAW_CTA_PORT, cb),
        input("load_addr_i", SHARED_BITS),
        input("busy_i", e),
        input("start_i", SHARED_BITS * e),
        input("end_i", (SHARED_BITS + 1) * e),
        input("done_valid_i", 1),
        input("done_cta_i", cb),
        output("wait_o", 1),
        output("release_o", r.ctas),
    ];
    let mut t = ModuleText::new(ports.clone(), false);
    if !r.ctas.is_power_of_two() {
        t.assume(format!("load_cta_i < {cb}'d{}", r.ctas));
        t.assume(format!("done_cta_i < {cb}'d{}", r.ctas));
    }
    t.line("wire [0:0] wait_o_d;");
    t.line(format!("wire [{}:0] release_o_d;", r.ctas - 1));
    t.line(format!("wire [{}:0] blocks;", e - 1));
    t.line("wire [16:0] addr = {1'b0, load_addr_i};");
    for entry in 0..e {
        let cta = entry / r.buffers;
        t.line(format!(
            "assign blocks[{entry}] = busy_i[{entry}] && load_cta_i == {cb}'d{cta} && \
             !(addr < {{1'b0, start_i[{}+:16]}}) && addr < end_i[{}+:17];",
            16 * entry,
            17 * entry
        ));
    }
    t.line("assign wait_o_d = load_valid_i && (|blocks);");
    for c in 0..r.ctas {
        t.line(format!(
            "assign release_o_d[{c}] = done_valid_i && done_cta_i == {cb}'d{c};"
        ));
    }
    Reference {
        verilog: t.finish(false),
        ports,
        claim: format!(
            "wait_o and release_o = the RAW check of models::d2ma::raw (Guard::blocks over the \
             load's CTA, {} CTAs x {} buffers) for every load, guard and completion (one SAT \
             problem per value of {RAW_CTA_PORT})",
            r.ctas, r.buffers
        ),
        stateful: false,
    }
}
