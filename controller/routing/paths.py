"""Path-based route sets: what source-routing schemes (UCMP and the baselines) produce.

A *group* is everything a source ToR may use for one (start slice ``t``, ``src``,
``dst``). It holds *members*; a member is one choice of the source-route table: one
path, or several paths that a flow hash splits between (UCMP ties, KSP's k paths,
VLB's intermediates). Paths are hop lists ``(next ToR, egress uplink, send slice)``
with absolute send slices counted from the start of the cycle of ``t``.

Everything is kept in flat NumPy arrays so that 10^5-10^6 paths stay cheap:
``g_first/g_count [S, N, N]`` index members, ``m_first/m_count`` index paths, and
``hop_node/hop_uplink/hop_slice [P, Hc]`` hold the hops (-1 padded).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import ClassVar

import numpy as np

from controller.routing.base import SOURCE
from controller.schedule.model import Schedule

#: member kinds
REGULAR, BACKUP, RELAXED = 0, 1, 2
KIND_NAMES = {REGULAR: "regular", BACKUP: "backup", RELAXED: "relaxed"}


def group_id(t, src, dst, n_tors: int):
    """The flat id of the group of (start slice ``t``, ``src``, ``dst``) in a network of
    ``n_tors`` ToRs: ``(t * N + src) * N + dst`` (ints or arrays; arrays as int64). Ids
    sort by start slice, then source, then destination. :func:`group_parts` inverts it."""
    if isinstance(t, np.ndarray):
        t = t.astype(np.int64)
    return (t * n_tors + src) * n_tors + dst


def ranges(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Concatenation of ``range(starts[i], starts[i] + counts[i])`` over i (vectorised):
    the rows of many groups' members or paths at once, each group a run of rows."""
    counts = np.asarray(counts, dtype=np.int64)
    total = int(counts.sum())
    if total == 0:
        return np.zeros(0, np.int64)
    excl = np.cumsum(counts) - counts
    return np.repeat(np.asarray(starts, dtype=np.int64) - excl, counts) + np.arange(total, dtype=np.int64)


def group_parts(gid, n_tors: int) -> tuple:
    """(start slice, src, dst) of flat group ids (:func:`group_id`)."""
    return gid // (n_tors * n_tors), (gid // n_tors) % n_tors, gid % n_tors


@dataclass(frozen=True)
class Buckets:
    """Global flow-size buckets (UCMP §5.1/§6.1).

    ``boundaries`` are the sorted bucket boundaries in the alpha-free form of UCMP
    Eq. 4, as exact fractions of *slices per hop*: a flow of ``size`` bytes under weight
    ``alpha`` is in bucket ``#{b : b * slice_bytes <= alpha * size}`` where
    ``slice_bytes`` is what one link carries in one slice duration (B x u). Bucket 0
    holds the smallest flows (the fastest, longest path).
    """

    boundaries: tuple[Fraction, ...]
    slice_bytes: float
    m_lo: np.ndarray  # [M] first bucket a member serves, -1 if never
    m_hi: np.ndarray  # [M] last bucket it serves (inclusive), -1 if never

    @property
    def count(self) -> int:
        return len(self.boundaries) + 1

    def boundary_bytes(self) -> list[float]:
        """Boundaries in bytes for alpha = 1."""
        return [float(b) * self.slice_bytes for b in self.boundaries]

    def bucket_of(self, size_bytes: float, alpha: float) -> int:
        """The DSCP bucket of a flow that has sent ``size_bytes`` under weight ``alpha``."""
        x = alpha * size_bytes / self.slice_bytes
        return int(sum(1 for b in self.boundaries if b <= x))


@dataclass(frozen=True, eq=False)
class PathRoutes:
    """A source-routed route set (``kind = "source"``, :mod:`controller.routing.base`)."""

    kind: ClassVar[str] = SOURCE
    schedule: Schedule
    algo: str
    params: dict
    g_first: np.ndarray  # [S, N, N] int64
    g_count: np.ndarray  # [S, N, N] int32
    m_kind: np.ndarray  # [M] int8
    m_hops: np.ndarray  # [M] int16 (-1 when a member mixes hop counts)
    m_latency: np.ndarray  # [M] int32, slices (URO/UCMP Eq. 1), min over its paths
    m_first: np.ndarray  # [M] int64
    m_count: np.ndarray  # [M] int32
    p_hops: np.ndarray  # [P] int16
    p_latency: np.ndarray  # [P] int32 slices
    hop_node: np.ndarray  # [P, Hc] int32
    hop_uplink: np.ndarray  # [P, Hc] int16
    hop_slice: np.ndarray  # [P, Hc] int32, absolute
    buckets: Buckets | None = None
    notes: dict = field(default_factory=dict)

    def params_dict(self) -> dict:
        return dict(self.params)

    # ---- navigation ----------------------------------------------------------------
    def members(self, src: int, dst: int, t: int) -> range:
        f = int(self.g_first[t, src, dst])
        return range(f, f + int(self.g_count[t, src, dst]))

    def member_paths(self, m: int) -> list[list[tuple[int, int, int]]]:
        f, c = int(self.m_first[m]), int(self.m_count[m])
        return [self.path(p) for p in range(f, f + c)]

    def path(self, p: int) -> list[tuple[int, int, int]]:
        n = int(self.p_hops[p])
        return [
            (int(self.hop_node[p, i]), int(self.hop_uplink[p, i]), int(self.hop_slice[p, i])) for i in range(n)
        ]

    def group(self, src: int, dst: int, t: int) -> list[dict]:
        """Readable view of one group: members with kind, hops, latency and paths."""
        out = []
        for m in self.members(src, dst, t):
            out.append({
                "kind": KIND_NAMES[int(self.m_kind[m])],
                "hops": int(self.m_hops[m]),
                "latency_slices": int(self.m_latency[m]),
                "paths": self.member_paths(m),
            })
        return out

    @property
    def n_paths(self) -> int:
        return int(self.p_hops.shape[0])

    def path_group_index(self) -> np.ndarray:
        """For every path, its flat group id (:func:`group_id`)."""
        m_group = np.repeat(np.arange(self.g_first.size), self.g_count.ravel())
        return np.repeat(m_group, self.m_count)

    def path_kind(self) -> np.ndarray:
        return np.repeat(self.m_kind, self.m_count)


def assemble(
    sched: Schedule,
    algo: str,
    params: dict,
    gid: np.ndarray,
    member_key: np.ndarray,
    kind: np.ndarray,
    p_hops: np.ndarray,
    p_latency: np.ndarray,
    hop_node: np.ndarray,
    hop_uplink: np.ndarray,
    hop_slice: np.ndarray,
    notes: dict | None = None,
) -> PathRoutes:
    """Sort raw per-path arrays into groups and members.

    Paths with equal ``(gid, kind, member_key)`` form one member (``member_key`` in
    0..1023); members of a group are ordered by kind (regular first) then key; a stable
    sort keeps each algorithm's own (deterministic) path order inside a member. One
    compiled pass after the sort (:func:`member_order`); the result is
    :func:`assemble_reference`'s, array for array.
    """
    S, N = sched.n_slices, sched.n_tors
    G = S * N * N
    P = int(gid.shape[0])
    if P == 0 or hop_node.ndim != 2 or int(gid.min()) < 0 or int(gid.max()) >= G:
        return assemble_reference(sched, algo, params, gid, member_key, kind, p_hops, p_latency, hop_node,
                                  hop_uplink, hop_slice, notes)
    gid = np.ascontiguousarray(gid, dtype=np.int64)
    kind = np.ascontiguousarray(kind, dtype=np.int8)
    member_key = np.ascontiguousarray(member_key, dtype=np.int64)
    combined = (gid * 4 + kind.astype(np.int64)) * 1024 + member_key
    order = member_order(combined, G)
    from controller.routing import paths_kernel  # numba: loaded on first use (test_import_no_jit)
    out = paths_kernel._members(order, gid, kind, member_key, np.ascontiguousarray(p_hops, dtype=np.int16),
                   np.ascontiguousarray(p_latency, dtype=np.int32), np.ascontiguousarray(hop_node, dtype=np.int32),
                   np.ascontiguousarray(hop_uplink, dtype=np.int16), np.ascontiguousarray(hop_slice, dtype=np.int32), G)
    g_first, g_count, m_kind, m_hops, m_latency, m_first, m_count, o_hops, o_lat, o_hn, o_hu, o_hs = out
    return PathRoutes(schedule=sched, algo=algo, params=params, g_first=g_first.reshape(S, N, N),
                      g_count=g_count.reshape(S, N, N), m_kind=m_kind, m_hops=m_hops, m_latency=m_latency,
                      m_first=m_first, m_count=m_count, p_hops=o_hops, p_latency=o_lat, hop_node=o_hn,
                      hop_uplink=o_hu, hop_slice=o_hs, notes=notes or {})


def assemble_reference(
    sched: Schedule,
    algo: str,
    params: dict,
    gid: np.ndarray,
    member_key: np.ndarray,
    kind: np.ndarray,
    p_hops: np.ndarray,
    p_latency: np.ndarray,
    hop_node: np.ndarray,
    hop_uplink: np.ndarray,
    hop_slice: np.ndarray,
    notes: dict | None = None,
) -> PathRoutes:
    """:func:`assemble` in whole-array passes (a stable argsort and fancy indexing): the
    reference the compiled form is tested against (tests/test_ucmp_fast.py)."""
    S, N = sched.n_slices, sched.n_tors
    P = int(gid.shape[0])
    # members are runs of equal (group, kind, key); a stable sort keeps each
    # algorithm's own (deterministic) path order inside a member
    combined = (gid.astype(np.int64) * 4 + kind.astype(np.int64)) * 1024 + member_key.astype(np.int64)
    order = member_order_reference(combined)
    gid, member_key, kind = gid[order], member_key[order], kind[order]
    p_hops, p_latency = p_hops[order], p_latency[order]
    hop_node, hop_uplink, hop_slice = hop_node[order], hop_uplink[order], hop_slice[order]
    new_member = np.ones(P, dtype=bool)
    if P:
        new_member[1:] = (gid[1:] != gid[:-1]) | (kind[1:] != kind[:-1]) | (member_key[1:] != member_key[:-1])
    m_first = np.flatnonzero(new_member).astype(np.int64)
    m_count = np.diff(np.append(m_first, P)).astype(np.int32)
    m_gid = gid[m_first]
    m_kind = kind[m_first].astype(np.int8)
    m_latency = np.minimum.reduceat(p_latency, m_first).astype(np.int32) if P else np.zeros(0, np.int32)
    hmin = np.minimum.reduceat(p_hops, m_first) if P else np.zeros(0, np.int16)
    hmax = np.maximum.reduceat(p_hops, m_first) if P else np.zeros(0, np.int16)
    m_hops = np.where(hmin == hmax, hmin, -1).astype(np.int16)
    g_count = np.bincount(m_gid, minlength=S * N * N).astype(np.int32)
    g_first = np.zeros(S * N * N, dtype=np.int64)
    g_first[1:] = np.cumsum(g_count)[:-1]
    return PathRoutes(
        schedule=sched,
        algo=algo,
        params=params,
        g_first=g_first.reshape(S, N, N),
        g_count=g_count.reshape(S, N, N),
        m_kind=m_kind,
        m_hops=m_hops,
        m_latency=m_latency,
        m_first=m_first,
        m_count=m_count,
        p_hops=p_hops.astype(np.int16, copy=False),
        p_latency=p_latency.astype(np.int32, copy=False),
        hop_node=hop_node.astype(np.int32, copy=False),
        hop_uplink=hop_uplink.astype(np.int16, copy=False),
        hop_slice=hop_slice.astype(np.int32, copy=False),
        notes=notes or {},
    )


def member_order(combined: np.ndarray, n_groups: int) -> np.ndarray:
    """``np.argsort(combined, kind="stable")`` for member keys ``(gid * 4 + kind) * 1024 +
    key`` of ``n_groups`` groups (:func:`member_order_reference`), in O(P): a counting
    sort by group keeps each group's paths in input order, which is the stable order
    whenever the algorithm listed every group's paths by (kind, key) already (UCMP's
    chunks do); otherwise the comparison sort."""
    combined = np.ascontiguousarray(combined, dtype=np.int64)
    if combined.size and (combined.min() < 0 or combined.max() >= n_groups * 4096):
        return member_order_reference(combined)
    from controller.routing import paths_kernel  # numba: loaded on first use (test_import_no_jit)
    order, sorted_ = paths_kernel._counting_order(combined, n_groups)
    return order if sorted_ else member_order_reference(combined)


def take_rows(a: np.ndarray, order: np.ndarray) -> np.ndarray:
    """``a[order]`` for a 2-D hop array (a compiled row copy: NumPy's fancy indexing of
    short rows is a few times slower)."""
    if a.ndim != 2 or not a.flags.c_contiguous or order.dtype != np.int64:
        return a[order]
    from controller.routing import paths_kernel  # numba: loaded on first use (test_import_no_jit)
    return paths_kernel._take_rows(a, order, np.empty((order.size, a.shape[1]), a.dtype))


def member_order_reference(combined: np.ndarray) -> np.ndarray:
    """The stable sort of the member keys (:func:`member_order`)."""
    return np.argsort(combined, kind="stable")


def meeting_table(sched: Schedule) -> tuple[np.ndarray, np.ndarray]:
    """``wait[s, a, b]``: slices from ``s`` until ``a`` next has a circuit to ``b`` (0..S-1),
    and ``uplink[s, a, b]``: ``a``'s uplink of that circuit. -1 where they never meet.
    A compiled sweep, :func:`meeting_table_reference`'s arrays."""
    S, N, d = sched.peer.shape
    from controller.routing import paths_kernel  # numba: loaded on first use (test_import_no_jit)
    return paths_kernel._meeting_table(np.ascontiguousarray(sched.peer, dtype=np.int64), np.full((S, N, N), -1, np.int32),
                          np.full((S, N, N), -1, np.int16))


def meeting_table_reference(sched: Schedule) -> tuple[np.ndarray, np.ndarray]:
    """``wait[s, a, b]``: slices from ``s`` until ``a`` next has a circuit to ``b`` (0..S-1),
    and ``uplink[s, a, b]``: ``a``'s uplink of that circuit. -1 where they never meet.
    Whole-array form of :func:`meeting_table`."""
    S, N, d = sched.peer.shape
    wait = np.full((S, N, N), -1, dtype=np.int32)
    upl = np.full((S, N, N), -1, dtype=np.int16)
    a = np.arange(N)
    # sweep backwards over two cycles so every slice sees its next meeting
    for s in range(2 * S - 1, -1, -1):
        cur = s % S
        if s < 2 * S - 1:
            nxt = (s + 1) % S
            keep = wait[nxt] >= 0
            wait[cur] = np.where(keep, wait[nxt] + 1, -1)
            upl[cur] = np.where(keep, upl[nxt], -1)
        for j in range(d - 1, -1, -1):
            b = sched.peer[cur, :, j]
            ok = b >= 0
            wait[cur, a[ok], b[ok]] = 0
            upl[cur, a[ok], b[ok]] = j
    return wait, upl
