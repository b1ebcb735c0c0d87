//! The registry: every family's part in the generic experiments, the one place that lists the
//! families for them (`flow` lists a block of each for the main job). A new family adds its
//! parts here.

use crate::prove::Referee;

/// The families' referees for `rtl-gen prove` and `rtl-gen mutate`, in the order they are
/// asked.
pub const REFEREES: [&dyn Referee; 4] = [
    &crate::hash::reference::Referee,
    &crate::rap::reference::Referee,
    &crate::d2ma::reference::Referee,
    &crate::conflict::reference::Referee,
];

/// The families' property sets for `rtl-gen prove --properties`.
pub const PROPERTIES: [&dyn crate::prove::properties::Properties; 1] =
    [&crate::smem::properties::Properties];

/// The sweep space of `family` from its plan (an emitted sweep's `sweep.json`), for
/// `rtl-gen sweep point` and `rtl-gen sweep collect`.
pub fn sweep_space(
    family: &str,
    plan: &serde_json::Value,
) -> Result<Box<dyn crate::experiments::sweep::SweepSpace>, crate::Error> {
    fn read<T: serde::de::DeserializeOwned>(plan: &serde_json::Value) -> Result<T, String> {
        serde_json::from_value(plan.clone()).map_err(|e| e.to_string())
    }
    let space: Result<Box<dyn crate::experiments::sweep::SweepSpace>, String> = match family {
        "hash" => read::<crate::hash::sweep::SweepPlan>(plan).map(|p| Box::new(p) as _),
        "rap" => read::<crate::rap::sweep::RapSweep>(plan).map(|p| Box::new(p) as _),
        "smem" => read::<crate::smem::sweep::SmemSweep>(plan).map(|p| Box::new(p) as _),
        "d2ma" => read::<crate::d2ma::sweep::D2maSweep>(plan).map(|p| Box::new(p) as _),
        "conflict" => read::<crate::conflict::sweep::ConflictSweep>(plan).map(|p| Box::new(p) as _),
        other => Err(format!("no family `{other}` sweeps")),
    };
    space.map_err(|message| crate::Error::NotASweep {
        path: std::path::PathBuf::from("sweep.json"),
        message: format!("the plan of family `{family}`: {message}"),
    })
}
