"""Type stubs of rtl_gen's extension module (the Rust models through PyO3)."""

import os
from typing import Optional, Sequence, Union, overload

import numpy as np
import numpy.typing as npt

__version__: str

Addresses = Union[int, Sequence[int], npt.NDArray[np.integer]]
Accesses = Union[Sequence[int], Sequence[Sequence[int]], npt.NDArray[np.integer]]
Mask = Optional[Union[Sequence[bool], Sequence[Sequence[bool]], npt.NDArray[np.bool_]]]

class RtlGenError(ValueError):
    """A value rtl-gen refuses; the message is the one line the CLI prints for it."""

class Hasher:
    """A bank hash: ``2**addr_bits`` words in ``banks`` banks and the function from a word
    address to its bank (``rtl-gen hash``'s golden model)."""

    def __init__(
        self,
        kind: str,
        addr_bits: int,
        banks: int,
        *,
        k: Optional[int] = None,
        k1: Optional[int] = None,
        k2: Optional[int] = None,
        mask: Optional[int] = None,
        bits: Optional[Sequence[int]] = None,
        pairs: Optional[Sequence[Sequence[int]]] = None,
        rows: Optional[Sequence[int]] = None,
    ) -> None: ...
    @staticmethod
    def from_json(text: str) -> "Hasher":
        """A configuration object or a hash block's manifest, as JSON text."""
    @staticmethod
    def from_parameters(kind: str, addr_bits: int, banks: int, parameters: Sequence[int]) -> "Hasher":
        """The hasher whose ``parameters`` (``cfg_i``'s fields, in order) are given."""
    @staticmethod
    def random(kind: str, addr_bits: int, banks: int, seed: int = 1) -> "Hasher":
        """A random configuration of ``kind`` drawn from ``seed``."""
    @property
    def kind(self) -> str: ...
    @property
    def addr_bits(self) -> int: ...
    @property
    def banks(self) -> int: ...
    @property
    def bank_bits(self) -> int: ...
    @property
    def parameters(self) -> list[int]:
        """The fields a configurable hasher's ``cfg_i`` packs, in order."""
    @property
    def matrix(self) -> list[int]:
        """Row ``i``: the address bits XORed into bank bit ``i``."""
    @property
    def rank(self) -> int: ...
    @overload
    def bank(self, addresses: int) -> int: ...
    @overload
    def bank(self, addresses: Union[Sequence[int], npt.NDArray[np.integer]]) -> npt.NDArray[np.uint64]: ...
    def bank(self, addresses: Addresses) -> Union[int, npt.NDArray[np.uint64]]:
        """The bank of each address: an int for an int, else a uint64 array of the same shape."""
    def congestion(self, accesses: Accesses, active: Mask = None) -> Union[int, npt.NDArray[np.uint32]]:
        """The DMM congestion of each warp access (one a row) under this hash."""
    def to_json(self) -> str: ...
    def to_dict(self) -> dict: ...

def congestion(accesses: Accesses, banks: int = 32, active: Mask = None) -> Union[int, npt.NDArray[np.uint32]]:
    """The DMM congestion of each warp access (one a row), ``bank = address % banks``."""

def wide_congestion(
    indices: Accesses, word_bytes: int, banks: int = 32, model: str = "load-groups", active: Mask = None
) -> Union[int, npt.NDArray[np.uint32]]:
    """The congestion of accesses to ``word_bytes``-byte words: ``warp``, ``groups`` or ``load-groups``."""

def wavefronts(offsets: Accesses, width: int = 4, instruction: str = "load") -> Union[int, npt.NDArray[np.uint32]]:
    """The H100's wavefronts of each warp access (byte offsets of each thread's vector)."""

def ideal_wavefronts(offsets: Accesses, width: int = 4, instruction: str = "load") -> Union[int, npt.NDArray[np.uint32]]:
    """The fewest wavefronts any layout could give the same accesses."""

Tile = Union[str, tuple[int, int]]
AccessNames = Union[str, Sequence[str]]
VecBytes = Union[int, Sequence[int]]
TraceInput = Union[str, "os.PathLike[str]", Sequence[Sequence[int]], npt.NDArray[np.integer]]
Trace = Optional[TraceInput]

class Layout:
    """A tile's layout in shared memory as a GF(2) matrix on byte offsets; any form
    ``rtl-gen swizzle --layout`` takes (``cute:Swizzle<3,4,3>``, ``tma:128B``,
    ``triton:swizzled_shared<...>``, ``triton:linear<...>``, ``matrix:...``, ``config:FILE``,
    ``none``) or a :class:`Hasher` over element offsets."""

    def __init__(self, layout: Union[str, Hasher], *, tile: Optional[Tile] = "64x64", elem_bytes: int = 2) -> None: ...
    @property
    def tile(self) -> tuple[int, int]: ...
    @property
    def elem_bytes(self) -> int: ...
    @property
    def forms(self) -> list[str]:
        """Every exact form, most specific first."""
    @property
    def family(self) -> str:
        """``row-major``, ``tma``, ``cute``, ``triton`` or ``matrix``."""
    @property
    def matrix(self) -> list[int]:
        """Row ``i``: the logical byte-offset bits XORed into physical bit ``i``."""
    @property
    def keeps_bytes(self) -> int:
        """The widest vector the layout serves whole."""
    @property
    def hasher(self) -> Hasher:
        """The same banks as a hash over element offsets."""
    def physical(self, offsets: Addresses) -> Union[int, npt.NDArray[np.uint64]]:
        """The physical byte offset of each logical byte offset."""
    def bank(self, elements: Addresses) -> Union[int, npt.NDArray[np.uint64]]:
        """The bank of each row-major element index."""
    def show(self) -> str:
        """What ``rtl-gen swizzle show`` prints."""
    def check(
        self, access: Optional[AccessNames] = "rows,cols", vec_bytes: Optional[VecBytes] = 16, trace: Trace = None
    ) -> "LayoutCheck":
        """The H100's wavefronts of each access set under this layout (``rtl-gen swizzle check``)."""

class AccessCost:
    """One access set's wavefronts: totals and each warp access's."""

    name: str
    width: int
    warps: int
    load_wavefronts: int
    store_wavefronts: int
    ideal_load: int
    ideal_store: int
    worst_load: int
    conflict_free: bool
    load_per_warp: npt.NDArray[np.uint32]
    store_per_warp: npt.NDArray[np.uint32]

class LayoutCheck:
    """A layout's wavefronts for each access set."""

    layout: Layout
    accesses: list[AccessCost]
    total_wavefronts: int
    ideal_wavefronts: int
    conflict_free: bool
    text: str

class BestLayout:
    """The layout with the fewest wavefronts and the verdict (``rtl-gen swizzle best``)."""

    layout: Layout
    accesses: list[AccessCost]
    total_wavefronts: int
    ideal_wavefronts: int
    lower_bound_wavefronts: int
    optimal: bool
    verdict: str
    verdict_text: str
    layouts_scored: int
    text: str

class LayoutReport:
    """A layout checked and the best layout for the same accesses."""

    check: LayoutCheck
    best: BestLayout

def best_layout(
    *,
    tile: Optional[Tile] = "64x64",
    elem_bytes: int = 2,
    access: Optional[AccessNames] = "rows,cols",
    vec_bytes: Optional[VecBytes] = 16,
    trace: Trace = None,
    prefer: str = "cute",
) -> BestLayout:
    """The layout with the fewest H100 wavefronts for the accesses, or why none is conflict-free."""

def check_layout(
    layout: Union[str, Hasher, Layout],
    access: Optional[AccessNames] = "rows,cols",
    *,
    tile: Optional[Tile] = "64x64",
    elem_bytes: int = 2,
    vec_bytes: Optional[VecBytes] = 16,
    trace: Trace = None,
    prefer: str = "cute",
) -> LayoutReport:
    """A layout's wavefronts for an access pattern and the best XOR layout for it, in one call."""

class Access:
    """A warp access or a fill beat: one word address per lane."""

    addresses: list[int]
    write: bool
    data: list[int]
    byte_enables: list[int]
    active: list[bool]
    def __init__(
        self,
        addresses: Sequence[int],
        *,
        write: bool = False,
        data: Optional[Sequence[int]] = None,
        byte_enables: Optional[Sequence[int]] = None,
        active: Optional[Sequence[bool]] = None,
    ) -> None: ...

class Outputs:
    """One cycle's outputs of the shared memory."""

    req_ready: bool
    fill_ready: bool
    resp_valid: bool
    resp_write: bool
    resp_data: list[int]
    counters: tuple[int, int, int, int]

class SharedMemory:
    """The cycle model of the shared memory ``rtl-gen smem`` generates."""

    def __init__(
        self,
        lanes: int = 32,
        banks: int = 32,
        depth: int = 512,
        *,
        word_bytes: int = 4,
        map: Optional[Union[str, Hasher]] = "modulo",
        rap_seed: int = 1,
        rap_wide: bool = False,
        fill_words: int = 1,
    ) -> None: ...
    def step(self, request: Optional[Access] = None, fill: Optional[Access] = None, resp_ready: bool = True) -> Outputs:
        """This cycle's outputs for its inputs, then the rising edge."""
    @property
    def idle(self) -> bool: ...
    def read(self, address: int) -> int:
        """The word at a word address now."""

Index = Union[int, Sequence[int], Sequence[Sequence[int]], npt.NDArray[np.integer]]
Names = Union[str, Sequence[str]]

class RapLayout:
    """A matrix (3P: a ``w**4`` array) spread over ``w`` banks by row shifts: RAW, RAS, RAP or 3P,
    the converter ``rtl-gen rap`` generates for the same arguments."""

    def __init__(
        self,
        kind: str = "rap",
        banks: Optional[int] = None,
        *,
        seed: Optional[int] = None,
        perm: Optional[Sequence[int]] = None,
        shifts: Optional[Sequence[int]] = None,
        wide: bool = False,
    ) -> None: ...
    @property
    def kind(self) -> str:
        """``raw``, ``ras``, ``rap`` or ``3p``."""
    @property
    def w(self) -> int:
        """Banks, threads per warp and the extent of every index."""
    @property
    def dims(self) -> int:
        """2 (``row``, ``col``) or 4 for 3P (``i``, ``j``, ``k``, ``l``)."""
    @property
    def seed(self) -> Optional[int]: ...
    @property
    def wide(self) -> bool: ...
    @property
    def tables(self) -> dict[str, list[int]]:
        """``{"shift": [...]}``, or for 3P ``{"r": ..., "s": ..., "t": ...}``."""
    def packed_words(self) -> dict[str, list[int]]:
        """Each table packed into 32-bit words as the paper's Fig. 7 packs it."""
    @overload
    def bank(self, *index: int) -> int: ...
    @overload
    def bank(self, *index: Index) -> npt.NDArray[np.uint64]:
        """The bank of each element, the indices broadcast together."""
    @overload
    def address(self, *index: int) -> int: ...
    @overload
    def address(self, *index: Index) -> npt.NDArray[np.uint64]:
        """The address of each element, the indices broadcast together."""
    def congestion(self, *index: Index) -> Union[int, npt.NDArray[np.uint32]]:
        """The DMM congestion of each warp access (one a row) under this layout."""

class CongestionCell:
    """One cell of a congestion table and its results."""

    dims: int
    w: int
    scheme: str
    pattern: str
    trials: int
    seed: int
    mean: float
    max: int
    min: int
    histogram: npt.NDArray[np.uint64]
    paper: Optional[float]

class CongestionTable:
    """The results of :func:`simulate_congestion`."""

    @property
    def cells(self) -> list[CongestionCell]: ...
    def table(self, compare_paper: bool = False) -> str:
        """The text table ``rtl-gen congestion`` prints (``--compare-paper``: with the paper's)."""
    def to_json(self) -> str:
        """The document ``rtl-gen congestion --json`` prints."""
    def plot_svg(self) -> str:
        """The SVG plot ``rtl-gen congestion --plot`` draws."""
    def __len__(self) -> int: ...

def simulate_congestion(
    dims: int = 2,
    banks: Optional[Union[int, Sequence[int]]] = None,
    kinds: Optional[Names] = None,
    patterns: Optional[Names] = None,
    trials: int = 100_000,
    seed: int = 1,
) -> CongestionTable:
    """The RAP paper's congestion simulator (Tables II and IV), as ``rtl-gen congestion`` runs it."""

class SearchResult:
    """One family's best configuration under one heuristic."""

    kind: str
    heuristic: str
    hasher: Hasher
    replays: int
    mean_congestion: float
    removed_percent: float

class SearchReport:
    """What a search of one trace found (``rtl-gen search``'s report)."""

    @property
    def name(self) -> str: ...
    @property
    def results(self) -> list[SearchResult]: ...
    @property
    def best(self) -> Optional[SearchResult]: ...
    @property
    def warp_accesses(self) -> int: ...
    @property
    def distinct_accesses(self) -> int: ...
    @property
    def before(self) -> tuple[int, float]:
        """``(replays, mean congestion)`` under modulo."""
    @property
    def lower_bound(self) -> tuple[int, float]:
        """``(replays, mean congestion)`` no hash can beat."""
    def to_json(self) -> str:
        """The report as ``rtl-gen search --json`` prints it."""

def search(
    trace: TraceInput,
    addr_bits: int = 14,
    banks: int = 32,
    kinds: Optional[Names] = None,
    heuristic: str = "all",
    warp_size: int = 32,
) -> SearchReport:
    """The best configuration of each hash family for a trace, as ``rtl-gen search`` finds it."""
