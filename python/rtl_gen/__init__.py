"""rtl-gen's golden models of GPU shared memory, on NumPy arrays.

The same Rust code that generates and checks rtl-gen's Verilog answers here (one
implementation, compiled into ``rtl_gen._native``): bank hashes and the GF(2) matrix, the
DMM congestion and the wavefronts an H100 takes, CuTe, TMA and Triton swizzles as GF(2)
matrices and the best layout for an access pattern, the RAP paper's layouts (RAW, RAS, RAP,
3P) and its congestion simulator, the configuration search on a trace, and the shared
memory's cycle model. See docs/PYTHON.md.

Every refusal raises :class:`RtlGenError` (a ``ValueError``) with the one line the command
line prints for the same value.
"""

from ._native import (
    Access,
    AccessCost,
    BestLayout,
    CongestionCell,
    CongestionTable,
    Hasher,
    Layout,
    LayoutCheck,
    LayoutReport,
    Outputs,
    RapLayout,
    RtlGenError,
    SearchReport,
    SearchResult,
    SharedMemory,
    __version__,
    best_layout,
    check_layout,
    congestion,
    ideal_wavefronts,
    search,
    simulate_congestion,
    wavefronts,
    wide_congestion,
)

__all__ = [
    "Access",
    "AccessCost",
    "BestLayout",
    "CongestionCell",
    "CongestionTable",
    "Hasher",
    "Layout",
    "LayoutCheck",
    "LayoutReport",
    "Outputs",
    "RapLayout",
    "RtlGenError",
    "SearchReport",
    "SearchResult",
    "SharedMemory",
    "__version__",
    "best_layout",
    "check_layout",
    "congestion",
    "ideal_wavefronts",
    "search",
    "simulate_congestion",
    "wavefronts",
    "wide_congestion",
]
