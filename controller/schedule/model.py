"""The cyclic optical circuit schedule: the input of everything else.

A schedule has N ToRs, each with d uplinks; uplink ``u`` of every ToR is cabled to
optical circuit switch (OCS) ``u``. The OCSes run a cycle of S time slices; in slice
``s`` uplink ``u`` of ToR ``a`` is connected to uplink ``u`` of ToR ``peer[s, a, u]``
(``-1`` = no circuit: the OCS port is idle or reconfiguring). The cycle repeats forever
(URO §III-A, UCMP §2.1).

Timing is per slice: ``slice_us`` long, of which the first ``guard_us`` is lost to
reconfiguration; a hop costs ``propagation_us`` plus the transmission time of an MTU at
``link_gbps``. ``uplink_offsets[u]`` (fraction of a slice, Opera-style staggering) says
that OCS ``u`` really switches ``offset * slice_us`` after the nominal slice boundary;
routing works on nominal slices, the Opera baseline uses the offsets.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

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
    uplink_offsets: tuple[float, ...] = ()
    name: str = "schedule"

    def __post_init__(self) -> None:
        peer = np.asarray(self.peer)
        if peer.ndim != 3:
            raise ScheduleError(f"peer table must have shape (slices, tors, uplinks), got {peer.shape}")
        if not np.issubdtype(peer.dtype, np.integer):
            raise ScheduleError("peer table must hold integer ToR ids")
        peer = np.ascontiguousarray(peer, dtype=np.int32)
        peer.setflags(write=False)
        object.__setattr__(self, "peer", peer)
        if not self.uplink_offsets:
            object.__setattr__(self, "uplink_offsets", (0.0,) * peer.shape[2])
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
            and tuple(self.uplink_offsets) == tuple(other.uplink_offsets)
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

    def describe(self) -> str:
        t = self.timing
        return (
            f"{self.name}: {self.n_tors} ToRs x {self.n_uplinks} uplinks, {self.n_slices} slices/cycle, "
            f"slice {t.slice_us:g} us (guard {t.guard_us:g} us), {t.link_gbps:g} Gbps, "
            f"hop {t.hop_us:.3f} us -> h_slice {t.hops_per_slice}"
        )


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
    (URO assumes this; idle uplinks are fine).
    """
    peer = sched.peer
    S, N, d = peer.shape
    if S < 1 or N < 2 or d < 1:
        raise ScheduleError(f"a schedule needs >= 1 slice, >= 2 ToRs and >= 1 uplink, got S={S}, N={N}, d={d}")
    problems = sched.timing.problems()
    if len(sched.uplink_offsets) != d or any(
        not (isinstance(o, (int, float)) and 0 <= o < 1) for o in sched.uplink_offsets
    ):
        problems.append(f"uplink_offsets must be {d} fractions in [0, 1), got {list(sched.uplink_offsets)}")

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

    # two ToRs on the same uplink of one peer, then symmetry
    for s in range(S):
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

    met = sched.meets().any(axis=0)
    np.fill_diagonal(met, True)
    missing = np.argwhere(np.triu(~met))
    if len(missing):
        pairs = ", ".join(f"({a},{b})" for a, b in missing[:_MAX_REPORTED].tolist())
        raise ScheduleError(
            f"{len(missing)} ToR pair(s) never share a circuit in the cycle (URO needs every pair "
            f"to meet once per cycle): {pairs}" + (" ..." if len(missing) > _MAX_REPORTED else "")
        )
