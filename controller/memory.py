"""How much memory a job needs, estimated before it starts (and how much there is).

Large schedules should be refused in a second with the estimate, not after half a
minute of work with a MemoryError. The figures are peak resident bytes per
(slice, ToR, ToR) cell measured on this code (``benchmarks/bench_artifacts.py --memory``
prints them); they are deliberately rounded up.
"""

from __future__ import annotations

import os

from controller.errors import UroError

#: measured peak bytes per (slice, ToR, ToR) cell, rounded up (see the module docstring)
BYTES_PER_CELL = {
    # generators build the peer table and validate it (meets(): one bool per cell, plus
    # a copy for the pair check)
    "generate": 4,
    # URO labels and K alternatives: key/dep int32, uplink int8 per slice, alt_dep int32
    # and alt_uplink int8 per k, the wait/reshape copies (K = 4: ~54 measured)
    "uro": 22,  # + 8 * K, below
    "uro_per_k": 9,
    # `uro stats` / `compare` on per-hop routes: latency int32, masks and float copies
    "uro_stats": 40,
    # UCMP in memory: ~5.6 paths per group of 3 hops (int32 node, int16 uplink, int32
    # slice, per-path int16/int32) plus the sort copies of assemble: ~190 measured at (1024, 32)
    "ucmp": 200,
    # UCMP streamed to an artifact: the meeting table (int32 + int16 per cell) and the
    # per-group counts; paths are bounded by the chunk size
    "ucmp_stream": 12,
    # the other source-routed schemes: one path per group (2 for VLB's mean over
    # intermediates is N - 2 paths per group: counted separately)
    "source": 60,
}


def available_memory() -> int:
    """Bytes this process can expect to use: MemAvailable (Linux), else physical memory."""
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):  # pragma: no cover - non-POSIX
        return 1 << 40


def estimate(what: str, n_tors: int, n_uplinks: int, n_slices: int, k: int = 4) -> int:
    """Estimated peak bytes of job ``what`` (a key of :data:`BYTES_PER_CELL`, or an
    algorithm name) on a schedule of that size."""
    cells = n_slices * n_tors * n_tors
    if what == "uro":
        per = BYTES_PER_CELL["uro"] + BYTES_PER_CELL["uro_per_k"] * k
    elif what == "vlb":
        per = 40 * max(1, n_tors - 2)  # every intermediate is a path of its group
    elif what in BYTES_PER_CELL:
        per = BYTES_PER_CELL[what]
    else:
        per = BYTES_PER_CELL["source"]
    return int(cells * per) + (200 << 20)  # + the interpreter and libraries


def check(what: str, n_tors: int, n_uplinks: int, n_slices: int, k: int = 4, label: str | None = None,
          limit_bytes: int | None = None) -> int:
    """Refuse a job whose estimate exceeds the available memory (before allocating)."""
    need = estimate(what, n_tors, n_uplinks, n_slices, k)
    limit = available_memory() if limit_bytes is None else limit_bytes
    if need > limit:
        raise UroError(f"{label or what} on {n_tors} ToRs x {n_uplinks} uplinks x {n_slices} slices needs about "
                       f"{_gib(need)} of memory, {_gib(limit)} are available")
    return need


def _gib(b: int) -> str:
    return f"{b / 2**30:.1f} GiB" if b < 100 * 2**30 else f"{b / 2**30:,.0f} GiB"
