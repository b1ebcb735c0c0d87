//! The flag every command that writes files shares: `--force`.

use clap::Args;

/// Flags of every command that writes files (flattened into its arguments).
#[derive(Args, Debug, Clone, Copy, Default)]
pub struct OutputArgs {
    /// Replace what is in the way even when rtl-gen did not write it (a folder without a
    /// manifest or marker, a user's file). Without it such outputs are refused, nothing changed.
    #[arg(long, global = true)]
    pub force: bool,
}

impl OutputArgs {
    /// Makes every writer of this process obey `--force`; call before writing anything.
    pub fn apply(self) {
        rtl_gen::output::set_force(self.force);
    }
}
