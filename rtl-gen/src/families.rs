//! The registry: every family's part in the generic experiments, the one place that lists the
//! families for them (`flow` lists a block of each for the main job). A new family adds its
//! parts here.

use crate::prove::Referee;

/// The families' referees for `rtl-gen prove` and `rtl-gen mutate`, in the order they are
/// asked.
pub const REFEREES: [&dyn Referee; 3] = [
    &crate::hash::reference::Referee,
    &crate::rap::reference::Referee,
    &crate::d2ma::reference::Referee,
];
