"""The cyclic optical circuit schedule: the input of everything else.

A schedule has N ToRs, each with d uplinks; uplink ``u`` of every ToR is cabled to
optical circuit switch (OCS) ``u``. The OCSes run a cycle of S time slices; in slice
``s`` uplink ``u`` of ToR ``a`` is connected to uplink ``u`` of ToR ``peer[s, a, u]``
(``-1`` = no circuit: the OCS port is idle or reconfiguring). The cycle repeats forever
(URO §III-A, UCMP §2.1).

Timing is per slice: ``slice_us`` long, of which the first ``guard_us`` is lost to
reconfiguration; a hop costs ``propagation_us`` plus the transmission time of an MTU at
``link_gbps``.

Every OCS switches at slice boundaries. A schedule whose OCSes switch at different
times (Opera's staggered reconfiguration, given as per-uplink offsets in a file) is
made exact by :func:`expand_offsets`: each slice is cut into sub-slices at the offsets,
and each sub-slice is a slice of its own with the circuits that are really up in it.
Routing, the slice clock and the OCS emulator then all see the same time line.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import asdict, dataclass, field, replace
from fractions import Fraction

import numpy as np

from controller.errors import ScheduleError

IDLE = -1
#: at most this many problems are spelled out in one error message
_MAX_REPORTED = 8


@dataclass(frozen=True)
class Timing:
    """Per-slice timing and link parameters (all times in microseconds)."""

    slice_us: float = 2.0
    guard_us: float = 0.01
    propagation_us: float = 0.5
    link_gbps: float = 100.0
    mtu_bytes: int = 1500

    def problems(self) -> list[str]:
        out = []
        for name in ("slice_us", "link_gbps"):
            v = getattr(self, name)
            if not (isinstance(v, (int, float)) and math.isfinite(v) and v > 0):
                out.append(f"timing.{name} must be a positive number, got {v!r}")
        for name in ("guard_us", "propagation_us"):
            v = getattr(self, name)
            if not (isinstance(v, (int, float)) and math.isfinite(v) and v >= 0):
                out.append(f"timing.{name} must be a non-negative number, got {v!r}")
        if not (isinstance(self.mtu_bytes, int) and self.mtu_bytes > 0):
            out.append(f"timing.mtu_bytes must be a positive integer, got {self.mtu_bytes!r}")
        if not out and self.guard_us >= self.slice_us:
            out.append(
                f"timing.guard_us ({self.guard_us}) must be shorter than timing.slice_us ({self.slice_us})"
            )
        return out

    @property
    def usable_us(self) -> float:
        """Time per slice during which circuits carry traffic."""
        return self.slice_us - self.guard_us

    @property
    def tx_us(self) -> float:
        """Transmission time of one MTU-sized packet."""
        return self.mtu_bytes * 8 / (self.link_gbps * 1e3)

    @property
    def hop_us(self) -> float:
        """Cost of one hop: propagation plus MTU transmission (UCMP App. B)."""
        return self.propagation_us + self.tx_us

    @property
    def hops_per_slice(self) -> int:
        """UCMP App. B's h_slice = floor(usable slice time / per-hop delay), at least 1."""
        if self.hop_us <= 0:
            return 255
        return max(1, min(255, int(self.usable_us // self.hop_us)))

    @property
    def slice_capacity_bytes(self) -> int:
        """Bytes one uplink can send in the usable part of a slice (calendar-queue capacity)."""
        return int(self.usable_us * self.link_gbps * 1e3 / 8)


@dataclass(frozen=True, eq=False)
class Schedule:
    """A validated cyclic circuit schedule (see module docstring)."""

    peer: np.ndarray  # (S, N, d) int32, IDLE for no circuit
    timing: Timing = field(default_factory=Timing)
    name: str = "schedule"
    #: every ToR pair meets once per cycle (checked). A degraded schedule -- the circuits
    #: left after failures, :mod:`controller.schedule.degrade` -- is built with False:
    #: routing then finds multi-hop routes where they exist and none where they do not.
    complete: bool = field(default=True, compare=False, repr=False)

    def __post_init__(self) -> None:
        peer = np.asarray(self.peer)
        if peer.ndim != 3:
            raise ScheduleError(f"peer table must have shape (slices, tors, uplinks), got {peer.shape}")
        if not np.issubdtype(peer.dtype, np.integer):
            raise ScheduleError("peer table must hold integer ToR ids")
        peer = np.ascontiguousarray(peer, dtype=np.int32)
        peer.setflags(write=False)
        object.__setattr__(self, "peer", peer)
        validate(self)

    # ---- shape -----------------------------------------------------------------
    @property
    def n_slices(self) -> int:
        return int(self.peer.shape[0])

    @property
    def n_tors(self) -> int:
        return int(self.peer.shape[1])

    @property
    def n_uplinks(self) -> int:
        return int(self.peer.shape[2])

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Schedule)
            and np.array_equal(self.peer, other.peer)
            and self.timing == other.timing
            and self.name == other.name
        )

    __hash__ = None  # type: ignore[assignment]

    # ---- derived views ------------------------------------------------------------
    def uplink_to(self, s: int, a: int, b: int) -> int:
        """The uplink of ``a`` that reaches ``b`` in slice ``s`` (mod S), or -1."""
        hits = np.nonzero(self.peer[s % self.n_slices, a] == b)[0]
        return int(hits[0]) if hits.size else -1

    def meets(self) -> np.ndarray:
        """``meets[s, a, b]`` is True when ToRs a and b share a circuit in slice s."""
        S, N, d = self.peer.shape
        out = np.zeros((S, N, N), dtype=bool)
        s_idx, a_idx, u_idx = np.nonzero(self.peer >= 0)
        out[s_idx, a_idx, self.peer[s_idx, a_idx, u_idx]] = True
        return out

    def content_hash(self) -> str:
        """``sha256:<hex>`` of the circuits and the timing (not the name): what route
        artifacts record, so routes are never used with a schedule they were not computed
        for (:mod:`controller.tables.artifacts`)."""
        return content_hash(self.peer, self.timing)

    def describe(self) -> str:
        t = self.timing
        return (
            f"{self.name}: {self.n_tors} ToRs x {self.n_uplinks} uplinks, {self.n_slices} slices/cycle, "
            f"slice {t.slice_us:g} us (guard {t.guard_us:g} us), {t.link_gbps:g} Gbps, "
            f"hop {t.hop_us:.3f} us -> h_slice {t.hops_per_slice}"
        )


def content_hash(peer: np.ndarray, timing: Timing) -> str:
    """The content hash of a peer table and its timing (see :meth:`Schedule.content_hash`)."""
    h = hashlib.sha256()
    S, N, d = peer.shape
    h.update(f"uro-schedule/1 {S} {N} {d}\n".encode())
    h.update(json.dumps(asdict(timing), sort_keys=True).encode())
    h.update(np.ascontiguousarray(peer, dtype="<i4").tobytes())
    return "sha256:" + h.hexdigest()


def _fmt(problems: list[str]) -> str:
    head = problems[:_MAX_REPORTED]
    more = len(problems) - len(head)
    text = "; ".join(head)
    if more > 0:
        text += f"; ... and {more} more"
    return text


def validate(sched: Schedule) -> None:
    """Raise :class:`ScheduleError` naming every problem (up to a few) in ``sched``.

    Checks ids and ports in range, timing, that no two ToRs claim the same uplink of a
    peer in a slice, that every circuit is symmetric on its OCS (``peer[s, b, u] == a``
    when ``peer[s, a, u] == b``), and that every ToR pair meets at least once per cycle
    (URO assumes this; idle uplinks are fine) -- unless the schedule is a degraded one
    (``complete=False``), where failures may have removed a pair's only meetings.
    """
    peer = sched.peer
    S, N, d = peer.shape
    if S < 1 or N < 2 or d < 1:
        raise ScheduleError(f"a schedule needs >= 1 slice, >= 2 ToRs and >= 1 uplink, got S={S}, N={N}, d={d}")
    problems = sched.timing.problems()

    bad = np.argwhere((peer < IDLE) | (peer >= N))
    for s, a, u in bad[:_MAX_REPORTED]:
        problems.append(f"slice {s}, ToR {a}, uplink {u}: peer {peer[s, a, u]} is out of range 0..{N - 1}")
    if len(bad):
        problems.append(f"{len(bad)} peer id(s) out of range")
        raise ScheduleError(_fmt(problems))
    selfs = np.argwhere(peer == np.arange(N)[None, :, None])
    for s, a, u in selfs[:_MAX_REPORTED]:
        problems.append(f"slice {s}, ToR {a}, uplink {u}: a ToR cannot be its own peer (use idle)")
    if len(selfs):
        raise ScheduleError(_fmt(problems))

    # two ToRs on the same uplink of one peer, then symmetry. Every circuit symmetric
    # (``peer[s, peer[s, a, u], u] == a``) means no two ToRs claim one uplink of a peer, and
    # is checked on the whole array at once; the loop over (slice, uplink) only names what
    # is wrong. Why: a degraded schedule is made (and checked) in every failure's routes,
    # and in a process whose other threads run Python (the daemon) each of the loop's
    # ~8 NumPy calls per (slice, uplink) may wait a switch interval for the interpreter.
    up = peer >= 0
    back = np.take_along_axis(peer, np.where(up, peer, 0), axis=1)
    symmetric = not (up & (back != np.arange(N)[None, :, None])).any()
    for s in range(0 if symmetric else S):
        for u in range(d):
            col = peer[s, :, u]
            live = np.nonzero(col >= 0)[0]
            targets = col[live]
            uniq, counts = np.unique(targets, return_counts=True)
            for b in uniq[counts > 1]:
                claim = live[targets == b].tolist()
                problems.append(f"slice {s}: ToRs {claim} all claim uplink {u} of ToR {int(b)}")
            back = col[targets]
            for a in live[back != live]:
                b = int(col[a])
                other = int(col[b])
                problems.append(
                    f"slice {s}, uplink {u}: ToR {int(a)} -> ToR {b} is not symmetric "
                    f"(ToR {b} uplink {u} -> {'idle' if other < 0 else other})"
                )
            if len(problems) > 4 * _MAX_REPORTED:
                raise ScheduleError(_fmt(problems))
    if problems:
        raise ScheduleError(_fmt(problems))

    if not sched.complete:
        return
    met = sched.meets().any(axis=0)
    np.fill_diagonal(met, True)
    missing = np.argwhere(np.triu(~met))
    if len(missing):
        pairs = ", ".join(f"({a},{b})" for a, b in missing[:_MAX_REPORTED].tolist())
        raise ScheduleError(
            f"{len(missing)} ToR pair(s) never share a circuit in the cycle (URO needs every pair "
            f"to meet once per cycle): {pairs}" + (" ..." if len(missing) > _MAX_REPORTED else "")
        )


#: a staggered schedule is cut into at most this many sub-slices per slice
MAX_SUBSLICES = 64


def expand_offsets(peer: np.ndarray, offsets, timing: Timing) -> tuple[np.ndarray, Timing, int]:
    """Make per-uplink switching offsets exact by cutting slices into sub-slices.

    ``offsets[u]`` in [0, 1) says that OCS ``u`` switches from its slice ``s - 1``
    circuits to its slice ``s`` circuits ``offsets[u]`` of a slice after the boundary of
    slice ``s``. With ``m`` the common denominator of the offsets, slice ``s`` becomes
    sub-slices ``s * m + j`` (j = 0..m-1) of ``slice_us / m`` each, and in sub-slice ``j``
    uplink ``u`` carries its slice-``s`` circuit when ``offsets[u] <= j / m``, else its
    slice-``s - 1`` circuit (cyclically). The guard applies to every sub-slice, which is
    conservative for the OCSes that do not switch at that boundary.

    Returns (sub-slice peer table, sub-slice timing, m); m = 1 leaves ``peer`` as is.
    Raises :class:`ScheduleError` for offsets outside [0, 1) or needing more than
    :data:`MAX_SUBSLICES` sub-slices.
    """
    S, N, d = peer.shape
    offs = list(offsets)
    if len(offs) != d:
        raise ScheduleError(f"uplink_offsets must list {d} values (one per uplink), got {len(offs)}")
    fracs = []
    for u, o in enumerate(offs):
        if isinstance(o, bool) or not isinstance(o, (int, float)) or not math.isfinite(o) or not 0 <= o < 1:
            raise ScheduleError(f"uplink_offsets[{u}] must be a fraction of a slice in [0, 1), got {o!r}")
        f = Fraction(o).limit_denominator(MAX_SUBSLICES)
        if abs(float(f) - o) > 1e-6:
            raise ScheduleError(f"uplink_offsets[{u}] = {o!r} is not a multiple of 1/m for any m <= {MAX_SUBSLICES} "
                                "sub-slices per slice")
        fracs.append(f)
    m = math.lcm(*(f.denominator for f in fracs))       # of no uplinks: 1
    if m > MAX_SUBSLICES:
        raise ScheduleError(f"uplink_offsets {offs} need {m} sub-slices per slice (at most {MAX_SUBSLICES})")
    if m == 1:
        return peer, timing, 1
    sub_us = timing.slice_us / m
    if timing.guard_us >= sub_us:
        raise ScheduleError(
            f"uplink_offsets cut each {timing.slice_us:g} us slice into {m} sub-slices of {sub_us:g} us, "
            f"not longer than the {timing.guard_us:g} us guard")
    out = np.empty((S * m, N, d), dtype=np.int32)
    for s in range(S):
        for j in range(m):
            for u in range(d):
                src = s if fracs[u] <= Fraction(j, m) else (s - 1) % S
                out[s * m + j, :, u] = peer[src, :, u]
    return out, replace(timing, slice_us=sub_us), m
