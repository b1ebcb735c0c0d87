//! The counters' referee for `rtl-gen prove` and `rtl-gen mutate`: a counter read through its
//! manifest (`lanes` and the map's configuration object) and its reference written from the
//! definition of the DMM congestion (`models::congestion::congestion`) and the map's GF(2)
//! matrix (`models::HashConfig::to_matrix`), never from the generator's RTL code: a lane counts
//! when it is valid and no valid lower lane has its address, a bank's load is the sum of the
//! counting lanes its matrix sends there, and the cycles are the largest load, taken in a
//! chain (the block takes it in a tree).

use super::MAX_LANES;
use crate::prove::block::BlockUnderProof;
use crate::prove::reference::{bits_to_hold, input, matrix_row, output, ModuleText, Reference};
use crate::prove::{Plan, ProveError, Strategy};
use models::{HashConfig, HashConfigObject};

/// The counters' referee.
pub struct Referee;

impl crate::prove::Referee for Referee {
    fn family(&self) -> &'static str {
        "conflict"
    }

    fn plan(&self, block: &BlockUnderProof) -> Result<Option<Plan>, ProveError> {
        block.check_latency(0)?;
        let (lanes, config) = read(block)?;
        Ok(Some(Plan {
            name: "congestion",
            reference: Ok(counter(lanes, &config)),
            strategy: Strategy::Outputs,
            description: format!("conflict {}", config.kind()),
        }))
    }
}

/// Reads a counter through its manifest: its lanes and its map's validated configuration.
pub fn read(block: &BlockUnderProof) -> Result<(u32, HashConfig), ProveError> {
    let configuration = block.root().get("configuration");
    let field = configuration.get("lanes");
    let lanes = field
        .u32()
        .ok()
        .filter(|l| l.is_power_of_two() && (2..=MAX_LANES).contains(l))
        .ok_or_else(|| field.bad(&format!("a power of two from 2 to {MAX_LANES}")))?;
    let map = configuration.get("map");
    let object: HashConfigObject = map
        .value
        .and_then(|v| serde_json::from_value(v.clone()).ok())
        .ok_or_else(|| map.bad("a hash configuration object (docs/HASH.md)"))?;
    let (_, config) = object.validate().map_err(|e| map.bad(&e.to_string()))?;
    let config = config.ok_or_else(|| map.bad("a fixed hasher's configuration"))?;
    Ok((lanes, config))
}

/// The reference of a counter of `lanes` lanes behind `config`.
pub fn counter(lanes: u32, config: &HashConfig) -> Reference {
    let (n, banks) = (config.geometry().addr_bits(), config.geometry().banks());
    let m = config.geometry().bank_bits();
    let cb = bits_to_hold(u64::from(lanes));
    let ports = vec![
        input("valid_i", lanes),
        input("addr_i", lanes * n),
        output("cycles_o", cb),
    ];
    let mut t = ModuleText::new(ports.clone(), false);
    t.line(format!("wire [{}:0] cycles_o_d;", cb - 1));
    let rows = config.to_matrix().rows().to_vec();
    for i in 0..lanes {
        t.line(format!("wire [{}:0] a{i} = addr_i[{}+:{n}];", n - 1, i * n));
        t.line(format!("wire [{}:0] b{i};", m.max(1) - 1));
        for (r, &row) in rows.iter().enumerate() {
            let xor = matrix_row(row, n, &format!("a{i}"));
            t.line(format!("assign b{i}[{r}] = {xor};"));
        }
        let repeats: Vec<String> = (0..i)
            .map(|j| format!("(valid_i[{j}] && a{j} == a{i})"))
            .collect();
        let repeat = if repeats.is_empty() {
            "1'b0".to_string()
        } else {
            repeats.join(" || ")
        };
        t.line(format!("wire c{i} = valid_i[{i}] && !({repeat});"));
    }
    for k in 0..banks {
        let hits: Vec<String> = (0..lanes)
            .map(|i| format!("{{{}'d0, c{i} && b{i} == {m}'d{k}}}", cb - 1))
            .collect();
        t.line(format!(
            "wire [{}:0] load{k} = {};",
            cb - 1,
            hits.join(" + ")
        ));
        if k == 0 {
            t.line(format!("wire [{}:0] max0 = load0;", cb - 1));
        } else {
            t.line(format!(
                "wire [{}:0] max{k} = load{k} > max{} ? load{k} : max{};",
                cb - 1,
                k - 1,
                k - 1
            ));
        }
    }
    t.line(format!("assign cycles_o_d = max{};", banks - 1));
    Reference {
        verilog: t.finish(false),
        ports,
        claim: format!(
            "cycles_o = the DMM congestion of the valid lanes' addresses (distinct addresses in \
             the fullest bank) under the map's GF(2) matrix, for every access of {lanes} lanes \
             of {n} address bits"
        ),
        stateful: false,
    }
}
