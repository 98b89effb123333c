"""UCMP: uniform-cost multi-path groups and flow-size buckets (UCMP §3-5, App. A-B).

For every (start slice ``t``, ``src``, ``dst``) the UCMP group holds the n-hop
minimum-latency paths for n = 1..h_max that satisfy UCMP Properties 1-3 (§4.3):

1. a group path has strictly lower latency than every path with its hop count that
   is not in the group (its n-hop paths are n-hop minima, Property 2);
2. group paths of equal hop count have equal latency;
3. a group path with more hops has strictly lower latency.

How (vectorised form of App. A Alg. 1). ``V[n][tau, b][u, dst]`` is the earliest slice
in which a packet at ToR ``u`` at slice ``tau`` -- with ``b`` hops of the slice's
budget h_slice left -- can be delivered to ``dst`` using *at most* ``n`` hops. It is
computed backwards in time for all ToRs and destinations at once:
``V[n][tau, b] = min(V[n][tau+1, H], min_j V[n-1][tau, b-1][peer_j(u)])``. With
``A_n = V[n][t, H][src, dst]`` (non-increasing in n), the group's hop counts are
exactly the n with ``A_n < A_{n-1}``, and its n-hop paths are the walks that keep
the value ``A_n`` at every step -- enumerated together, so ties are found. Such a
walk always has exactly n hops and never a loop (either would give a path with fewer
hops that is as fast, contradicting ``A_n < A_{n-1}``). Alg. 1's split
``latency(sp_1) <= latency(sp_2)`` is the ``b`` dimension: a hop in the slice the
packet arrived in is allowed while in-slice budget remains (App. B's h_slice).

h_max: iterate until ``V[n] == V[n-1]`` everywhere (the exact h_max of the schedule)
or until the App. B upper bound Omega(h_max) / the user's bound.

Which of the tied walks and which levels a group keeps is
:mod:`controller.routing.ucmp_policy`: by default the paper's and its artifact's choice
(one path per (hop count, last-hop ToR), levels no flow size selects dropped);
``ties="all"``/``levels="all"`` keep every tie / level.

Engines: the value tables and walks are computed per chunk of destinations either by
compiled kernels (:mod:`controller.routing.ucmp_kernel`, numba, chunks on all cores) or
by the whole-array NumPy reference (:mod:`controller.routing.ucmp_numpy`); both give
the same levels and paths (tests/test_ucmp_engines.py).

Buckets (§5.1-5.2, §6.1): with ``x = alpha * size / (B u)``, the uniform cost of a
member is ``L + n x`` (Eq. 2 in slices). Flows take the member of minimum cost, so a
group's boundaries are the break points of the lower envelope; for two envelope
neighbours with n and m > n hops that is ``x = (L_n - L_m) / (m - n)`` -- Eq. 3 (and
its alpha-free form Eq. 4) when m = n + 1. Boundaries do not depend on alpha. The
global buckets are the union of all groups' boundaries (at most 64: 6-bit DSCP).
"""

from __future__ import annotations

import math
import os
import threading
import weakref
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from controller.errors import UroError
from controller.routing import ucmp_numpy, ucmp_policy
from controller.routing.envelope import envelope_cached, unique_rows
from controller.routing.base import SOURCE, register
from controller.routing.paths import (BACKUP, REGULAR, RELAXED, Buckets, PathRoutes, assemble, group_id, group_parts,
                                      meeting_table)
from controller.schedule.model import Schedule

MAX_BUCKETS = 64
#: the numba kernels keep a ToR's uplinks in one 64-bit mask (KERNEL_MAX_UPLINKS)
KERNEL_MAX_UPLINKS = 64
#: group engines: compiled kernels, the NumPy reference, or numba unless >64 uplinks
ENGINES = ("auto", "numba", "numpy")


@dataclass(frozen=True)
class UcmpParams:
    """Knobs of UCMP path calculation.

    ``h_max``: largest hop count to consider (None: the exact h_max, iterating at most
    to the App. B bound). ``hops_per_slice``: h_slice (None: from the timing).
    ``ties``: ``"last-hop"`` (one path per (hop count, last-hop ToR), App. A Alg. 1 and
    the paper's artifact; default) or ``"all"`` (every tied walk); ``levels``:
    ``"envelope"`` (drop levels no flow size selects, keep collinear ones; default) or
    ``"all"`` (:mod:`controller.routing.ucmp_policy`).
    ``max_parallel``: cap on tied paths (``"all"``) or last-hop ToRs (``"last-hop"``) kept
    per hop count (Property 1 holds exactly when the cap does not bind; the number of
    capped levels is reported). ``tie_search``: ``"last-hop"`` enumerates up to this many
    tied walks per level to find the last-hop ToRs (a level it cuts is reported capped).
    ``backups``: 2-hop backup paths for groups that hold only the direct path (§5.3).
    ``relax_slices``: latency relaxation (§4.3): for groups with a 2-hop member, also
    offer every 2-hop path at most this many slices slower (None = off).
    ``engine``/``workers``: the group engine (see :func:`group_chunks`); they never
    change the groups, also where ``tie_search`` or ``max_parallel`` binds (both engines
    keep the first tied walks in canonical order, :mod:`controller.routing.ucmp_policy`).
    """

    h_max: int | None = None
    hops_per_slice: int | None = None
    max_parallel: int = 8
    ties: str = "last-hop"
    levels: str = "envelope"
    tie_search: int = 64
    backups: int = 2
    relax_slices: int | None = None
    engine: str = "auto"
    workers: int | None = None

    def __post_init__(self) -> None:
        if self.h_max is not None and (not isinstance(self.h_max, int) or not 1 <= self.h_max <= 32):
            raise UroError(f"h_max must be an integer in 1..32, got {self.h_max!r}")
        # 1..255 is what Timing.hops_per_slice gives (50 us slices: 80); group_chunks caps it at h_max
        if self.hops_per_slice is not None and (
            not isinstance(self.hops_per_slice, int) or not 1 <= self.hops_per_slice <= 255
        ):
            raise UroError(f"hops_per_slice must be an integer in 1..255, got {self.hops_per_slice!r}")
        if not isinstance(self.max_parallel, int) or self.max_parallel < 1:
            raise UroError(f"max_parallel must be a positive integer, got {self.max_parallel!r}")
        if self.ties not in ucmp_policy.TIES:
            raise UroError(f"unknown ties policy {self.ties!r}; choose one of: {', '.join(ucmp_policy.TIES)}")
        if self.levels not in ucmp_policy.LEVELS:
            raise UroError(f"unknown levels policy {self.levels!r}; choose one of: {', '.join(ucmp_policy.LEVELS)}")
        if not isinstance(self.tie_search, int) or self.tie_search < 1:
            raise UroError(f"tie_search must be a positive integer, got {self.tie_search!r}")
        if not isinstance(self.backups, int) or self.backups < 0:
            raise UroError(f"backups must be a non-negative integer, got {self.backups!r}")
        if self.relax_slices is not None and (not isinstance(self.relax_slices, int) or self.relax_slices < 0):
            raise UroError(f"relax_slices must be a non-negative integer, got {self.relax_slices!r}")
        if self.engine not in ENGINES:
            raise UroError(f"unknown UCMP engine {self.engine!r}; choose one of: {', '.join(ENGINES)}")
        if self.workers is not None and (not isinstance(self.workers, int) or self.workers < 1):
            raise UroError(f"workers must be a positive integer, got {self.workers!r}")


# ---- App. B: upper bound of h_max ---------------------------------------------------------
#: static_diameter of recent schedules, by identity (a schedule and its peer table are
#: immutable; the streamed writer asks three times, 0.5 CPU-s each at (1024, 32))
_DIAMETER: dict[int, tuple[weakref.ref, int]] = {}


def static_diameter(sched: Schedule) -> int:
    """h_static: the largest diameter over the slice graphs (UCMP §4.2); a disconnected
    slice graph counts as N - 1. Bit-packed BFS from all ToRs at once."""
    hit = _DIAMETER.get(id(sched))
    if hit is not None and hit[0]() is sched:
        return hit[1]
    h = _static_diameter(sched)
    for k in [k for k, (ref, _) in _DIAMETER.items() if ref() is None]:
        del _DIAMETER[k]
    _DIAMETER[id(sched)] = (weakref.ref(sched), h)
    return h


def _static_diameter(sched: Schedule, block_bytes: int = 1 << 20) -> int:
    """Bit-packed BFS from all ToRs of many slices at once: ``reach[s, i]`` is the set of
    ToRs ``i`` reaches in slice ``s`` within ``hops`` hops (a row grows by its peers' rows
    per hop); a block's answer is the hops until every slice's rows are full, N - 1 as soon
    as a slice stops growing short of full. Slices go in blocks of about ``block_bytes`` of
    reach sets (1 MiB: 8 slices at 1024 ToRs, all 18 at 108) instead of one at a time; an
    absent peer (a failed link) is a row that reaches nobody. A failure's degraded schedule
    is new each time: (108, 6) 12.6 -> 2.6 ms, (1024, 32) 349 -> 157 ms (median of 5 each,
    alternating, load 0.4)."""
    S, N, d = sched.peer.shape
    per_slice = N * ((N + 7) // 8)
    step = max(1, block_bytes // per_slice)
    worst = 0
    for s0 in range(0, S, step):
        h = _block_diameter(sched.peer[s0:s0 + step], N)
        if h == N - 1:
            return h
        worst = max(worst, h)
    return worst


def _block_diameter(peer: np.ndarray, N: int) -> int:
    S, _, d = peer.shape
    src = np.where(peer >= 0, peer, N)          # an absent peer: row N, which reaches nobody
    s_idx = np.arange(S)[:, None]
    reach = np.zeros((S, N + 1, (N + 7) // 8), np.uint8)
    reach[:, :N] = np.packbits(np.eye(N, dtype=bool), axis=1)
    full = np.packbits(np.ones(N, dtype=bool))
    hops = 0
    while True:
        open_ = ~(reach[:, :N] == full).all(axis=(1, 2))
        if not open_.any():
            return hops
        nxt = reach.copy()
        for j in range(d):
            nxt[:, :N] |= reach[s_idx, src[:, :, j]]
        if ((nxt == reach).all(axis=(1, 2)) & open_).any():
            return N - 1
        reach = nxt
        hops += 1


def balls_into_bins_slices(n_tors: int, n_uplinks: int, threshold: float = 1e-12) -> int:
    """App. B Eq. 5-6: smallest c with P(unvisited ToRs) = 1 - (1 - (1-1/N)^(d^c))^N < threshold."""
    N, d = n_tors, n_uplinks
    for c in range(1, 64):
        M = float(d) ** c
        p_one = math.exp(M * math.log1p(-1.0 / N)) if N > 1 else 0.0
        p_any = -math.expm1(N * math.log1p(-p_one)) if p_one < 1 else 1.0
        if p_any < threshold:
            return c
    return 64


def hmax_upper_bound(sched: Schedule, hops_per_slice: int | None = None) -> tuple[int, dict]:
    """Omega(h_max) of App. B with the figures it is made of."""
    h_slice = hops_per_slice or sched.timing.hops_per_slice
    h_static = static_diameter(sched)
    if h_slice >= h_static:
        return h_static, {"case": "I", "h_slice": h_slice, "h_static": h_static}
    c = balls_into_bins_slices(sched.n_tors, sched.n_uplinks)
    return h_slice * c, {"case": "II", "h_slice": h_slice, "h_static": h_static, "S": c}


def _two_hop(
    sched: Schedule, wait: np.ndarray, upl: np.ndarray, t: np.ndarray, src: np.ndarray, dst: np.ndarray, H: int
) -> tuple[np.ndarray, ...]:
    """For each query (t, src, dst) and every intermediate w: the fastest 2-hop path
    src -> w -> dst starting at t. Returns [Q, N] arrays (absolute slices; -1 invalid)."""
    S, N = sched.n_slices, sched.n_tors
    w = np.arange(N)[None, :]
    s0 = t[:, None] % S
    w1 = wait[s0, src[:, None], w]  # [Q, N]
    a1 = t[:, None] + w1
    u1 = upl[s0, src[:, None], w]
    start2 = a1 if H >= 2 else a1 + 1
    w2 = wait[start2 % S, w, dst[:, None]]
    a2 = start2 + w2
    u2 = upl[start2 % S, w, dst[:, None]]
    ok = (w1 >= 0) & (w2 >= 0) & (w != src[:, None]) & (w != dst[:, None])
    return ok, a1, u1, a2, u2


def _two_hop_members(
    sched: Schedule, groups: tuple, H: int, kind: int, pick, block: int = 4096, meet: tuple | None = None,
) -> tuple[np.ndarray, ...]:
    """2-hop paths for the queries ``groups = (t, src, dst, gid)``;
    ``pick(ok, a2, rows)`` returns the boolean selection [Q, N] for query rows ``rows``.
    ``meet``: :func:`meeting_table` of ``sched`` if already computed."""
    wait, upl = (meet[0], meet[1]) if meet is not None else meeting_table(sched)
    t, src, dst, gid = groups
    parts = []
    for q0 in range(0, t.size, block):
        rows = np.arange(q0, min(t.size, q0 + block))
        ok, a1, u1, a2, u2 = _two_hop(sched, wait, upl, t[rows], src[rows], dst[rows], H)
        q, w = np.nonzero(pick(ok, a2, rows))
        P = q.size
        hn = np.full((P, 2), -1, np.int32)
        hu = np.full((P, 2), -1, np.int16)
        hs = np.full((P, 2), -1, np.int32)
        hn[:, 0], hn[:, 1] = w, dst[rows][q]
        hu[:, 0], hu[:, 1] = u1[q, w], u2[q, w]
        hs[:, 0], hs[:, 1] = a1[q, w], a2[q, w]
        lat = a2[q, w] - t[rows][q] + 1
        parts.append((gid[rows][q], np.full(P, kind, np.int8), lat, hn, hu, hs))
    if not parts:
        return (np.zeros(0, np.int64), np.zeros(0, np.int8), np.zeros(0, np.int64),
                np.zeros((0, 2), np.int32), np.zeros((0, 2), np.int16), np.zeros((0, 2), np.int32))
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(6))


def _two_hop_best_k(sched: Schedule, groups: tuple, H: int, kind: int, k: int, lim: np.ndarray | None,
                    meet: tuple, engine: str) -> tuple[np.ndarray, ...]:
    """The ``k`` fastest 2-hop paths per query ``groups = (t, src, dst, gid)`` delivered by
    slice ``lim`` (None: any), as :func:`_two_hop_members` returns them. ``engine``
    ``"numba"``: the compiled kernel (:func:`ucmp_kernel.two_hop_best`), else the NumPy
    reference (the same paths in the same order; tests/test_ucmp_engines.py)."""
    t, src, dst, gid = groups
    if engine != "numba":
        if lim is None:
            return _two_hop_members(sched, groups, H, kind, lambda ok, a2, q: _best_k(ok, a2, k), meet=meet)
        return _two_hop_members(sched, groups, H, kind,
                                lambda ok, a2, rows: _best_k(ok & (a2 <= lim[rows, None]), a2, k), meet=meet)
    from controller.routing import ucmp_kernel  # numba: loaded on first use (test_import_no_jit)

    wait, upl = meet[0], meet[1]
    wait_t = meet[2] if len(meet) > 2 else np.ascontiguousarray(wait.transpose(0, 2, 1))
    big = np.full(t.size, np.iinfo(np.int64).max, np.int64) if lim is None else lim.astype(np.int64)
    peer = np.ascontiguousarray(sched.peer, dtype=np.int32)
    q, w, a1, u1, a2, u2 = ucmp_kernel.two_hop_best(wait, wait_t, upl, peer, t.astype(np.int64),
                                                    src.astype(np.int64), dst.astype(np.int64), H, k, big)
    P = q.size
    hn = np.empty((P, 2), np.int32)
    hu = np.empty((P, 2), np.int16)
    hs = np.empty((P, 2), np.int32)
    hn[:, 0], hn[:, 1] = w, dst[q]
    hu[:, 0], hu[:, 1] = u1, u2
    hs[:, 0], hs[:, 1] = a1, a2
    return gid[q], np.full(P, kind, np.int8), a2 - t[q] + 1, hn, hu, hs


def _best_k(ok: np.ndarray, key: np.ndarray, k: int) -> np.ndarray:
    """Boolean mask of the k smallest ``key`` per row among ``ok`` (ties by column)."""
    big = np.where(ok, key, np.iinfo(np.int32).max).astype(np.int64)
    N = ok.shape[1]
    order = np.argsort(big * N + np.arange(N)[None, :], axis=1)[:, :k]
    mask = np.zeros_like(ok)
    np.put_along_axis(mask, order, True, axis=1)
    return mask & ok


# ---- buckets ----------------------------------------------------------------------------
def group_profiles(m_group: np.ndarray, m_hops: np.ndarray, m_latency: np.ndarray, m_kind: np.ndarray,
                   width: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The bucket profile of every group: its REGULAR members' ``(hops, latency - min latency)``
    sequence, the only thing its bucket ranges depend on (UCMP Eq. 3-4).

    Members of a group must be consecutive, REGULAR ones in increasing hops. Returns
    ``(reg, row, pos, prof)``: the REGULAR member indices, the group row and position in
    it of each, and ``prof [groups, 2 * width]`` (-1 padded; ``width`` default: the largest group).
    Two compiled passes (:func:`ucmp_kernel.group_profiles`), :func:`group_profiles_reference`'s arrays."""
    from controller.routing import ucmp_kernel  # numba: loaded on first use (test_import_no_jit)

    reg, row, pos, prof = ucmp_kernel.group_profiles(
        np.ascontiguousarray(m_group, dtype=np.int64), np.ascontiguousarray(m_hops, dtype=np.int64),
        np.ascontiguousarray(m_latency, dtype=np.int64), np.ascontiguousarray(m_kind, dtype=np.int64), REGULAR,
        width or 0)
    if width and pos.size and int(pos.max()) >= width:
        raise IndexError(f"a group has {int(pos.max()) + 1} REGULAR members, more than the width {width}")
    return reg, row, pos, prof


def group_profiles_reference(m_group: np.ndarray, m_hops: np.ndarray, m_latency: np.ndarray, m_kind: np.ndarray,
                             width: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`group_profiles` in whole-array NumPy (its reference: tests/test_ucmp_fast.py)."""
    reg = np.flatnonzero(m_kind == REGULAR)
    g_of = m_group[reg]
    starts = np.flatnonzero(np.r_[True, g_of[1:] != g_of[:-1]]) if g_of.size else np.zeros(0, np.int64)
    counts = np.diff(np.r_[starts, g_of.size])
    width = width or (int(counts.max()) if counts.size else 1)
    prof = np.full((starts.size, 2 * width), -1, dtype=np.int32)
    lat_min = np.minimum.reduceat(m_latency[reg], starts) if starts.size else np.zeros(0)
    pos = np.arange(reg.size) - np.repeat(starts, counts)
    row = np.repeat(np.arange(starts.size), counts)
    prof[row, 2 * pos] = m_hops[reg]
    prof[row, 2 * pos + 1] = m_latency[reg] - np.repeat(lat_min, counts)
    return reg, row, pos, prof


def profile_ranges(uniq: np.ndarray) -> tuple[tuple[Fraction, ...], np.ndarray, np.ndarray]:
    """Global bucket boundaries (the union of every profile's envelope break points) and,
    per profile and member position, the bucket range ``[lo, hi]`` it serves (-1: none)."""
    width = uniq.shape[1] // 2
    envs = []
    bset: set[Fraction] = set()
    for u in uniq:
        env = envelope_cached(tuple((int(u[2 * i]), int(u[2 * i + 1])) for i in range(width) if u[2 * i] >= 0))
        envs.append(env)
        bset.update(x for _, x in env[1:])
    boundaries = tuple(sorted(bset))
    if len(boundaries) + 1 > MAX_BUCKETS:
        raise UroError(
            f"{len(boundaries) + 1} flow-size buckets needed, more than the {MAX_BUCKETS} a 6-bit DSCP can tag; "
            "lower h_max or use fewer slices"
        )
    bindex = {b: i + 1 for i, b in enumerate(boundaries)}
    nb = len(boundaries) + 1
    prof_lo = np.full((len(uniq), width), -1, np.int32)
    prof_hi = np.full((len(uniq), width), -1, np.int32)
    for p, env in enumerate(envs):
        for i, (mpos, x) in enumerate(env):
            lo = 0 if i == 0 else bindex[x]
            hi = (bindex[env[i + 1][1]] - 1) if i + 1 < len(env) else nb - 1
            if hi >= lo:
                prof_lo[p, mpos] = lo
                prof_hi[p, mpos] = hi
    return boundaries, prof_lo, prof_hi


def _buckets(routes_members: tuple, slice_bytes: float, others: tuple | None = None,
             other_profiles: np.ndarray | None = None) -> tuple[Buckets, np.ndarray]:
    """Global buckets and per-member bucket ranges for the REGULAR members.

    ``others``: ``(group, hops, latency)`` of the levels of groups that are not among the
    members (every level, a group's consecutive in increasing hops, :func:`level_lists`):
    their break points join the global boundaries. A level no flow size selects adds no
    break point, so whether the levels policy dropped it does not matter.
    ``other_profiles``: their distinct profiles instead (:func:`other_profiles`)."""
    m_group, m_hops, m_latency, m_kind = routes_members
    M = m_group.size
    reg, row, pos, prof = group_profiles(m_group, m_hops, m_latency, m_kind)
    n_rows = prof.shape[0]
    oprof = other_profiles
    if others is not None and others[0].size:
        oprof = unique_rows(group_profiles(others[0], others[1], others[2],
                                           np.full(others[0].size, REGULAR, np.int8))[3])[0]
    if oprof is not None and oprof.size:
        width = max(prof.shape[1], oprof.shape[1])
        prof = np.concatenate([np.pad(a, ((0, 0), (0, width - a.shape[1])), constant_values=-1)
                               for a in (prof, oprof)])
    uniq, inverse = unique_rows(prof)
    inverse = inverse[:n_rows]
    boundaries, prof_lo, prof_hi = profile_ranges(uniq)
    m_lo = np.full(M, -1, np.int32)
    m_hi = np.full(M, -1, np.int32)
    m_lo[reg] = prof_lo[inverse[row], pos]
    m_hi[reg] = prof_hi[inverse[row], pos]
    return Buckets(boundaries, slice_bytes, m_lo, m_hi), uniq


# ---- entry point --------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class GroupChunk:
    """The regular UCMP group members for one chunk of destinations (flat arrays).

    Levels are the (t, src, dst, hops) of every group member; paths point at their level.
    """

    lv_gid: np.ndarray  # [L] flat group id (paths.group_id)
    lv_hops: np.ndarray  # [L]
    lv_latency: np.ndarray  # [L] slices
    lv_capped: np.ndarray  # [L] bool: the tie cap dropped paths (or last-hop ToRs) of this level
    p_lv: np.ndarray  # [P] level of each path
    hop_node: np.ndarray
    hop_uplink: np.ndarray
    hop_slice: np.ndarray
    hmax_reached: int
    bound_hit: bool
    lv_dropped: int = 0  # levels no flow size selects, dropped (levels="envelope")


def _group_chunk(N: int, lv_n, lv_t, lv_src, lv_dst, target, capped, p_lv, hn, hu, hs, reached, fixed,
                 dropped) -> GroupChunk:
    """A :class:`GroupChunk` from the engines' ``levels_and_paths`` tuple."""
    return GroupChunk(
        lv_gid=group_id(lv_t, lv_src, lv_dst, N),
        lv_hops=lv_n.astype(np.int16),
        lv_latency=(target.astype(np.int64) - lv_t + 1).astype(np.int32),
        lv_capped=capped.astype(bool, copy=False),
        p_lv=p_lv.astype(np.int64, copy=False),
        hop_node=hn,
        hop_uplink=hu,
        hop_slice=hs,
        hmax_reached=int(reached),
        bound_hit=not fixed,
        lv_dropped=dropped,
    )


def hop_limits(sched: Schedule, params: UcmpParams) -> tuple[int, int]:
    """(in-slice hop budget H, largest hop count n_cap) the group search uses."""
    H = params.hops_per_slice or sched.timing.hops_per_slice
    n_cap = params.h_max or hmax_upper_bound(sched, H)[0]
    return min(H, n_cap), n_cap  # a walk of at most n_cap hops never exhausts a larger budget


def resolve_engine(engine: str, n_uplinks: int) -> str:
    """The engine ``"auto"`` stands for on a schedule with ``n_uplinks`` uplinks per ToR."""
    if engine not in ENGINES:
        raise UroError(f"unknown UCMP engine {engine!r}; choose one of: {', '.join(ENGINES)}")
    if engine == "auto":
        return "numba" if n_uplinks <= KERNEL_MAX_UPLINKS else "numpy"
    if engine == "numba" and n_uplinks > KERNEL_MAX_UPLINKS:
        raise UroError(f"the numba UCMP engine handles at most {KERNEL_MAX_UPLINKS} uplinks per ToR, "
                       f"the schedule has {n_uplinks}; use the numpy engine")
    return engine


def chunk_runner(sched: Schedule, params: UcmpParams, engine: str):
    """``run(dsts)``: group levels and walks of the destinations ``dsts`` (distinct ToRs,
    increasing) with ``engine`` (``"numba"`` or ``"numpy"``), the tuple of
    ``*.levels_and_paths`` after the ties and levels policies (:func:`ucmp_policy.apply`;
    the compiled engine applies them while it walks, with the same result) plus the
    number of levels the policy dropped. ``run(dsts, reuse=True)``: the arrays may be the
    thread's buffers, overwritten by its next chunk (:func:`ucmp_kernel.levels_and_paths`)."""
    H, n_cap = hop_limits(sched, params)
    cap = params.max_parallel
    search = max(cap, params.tie_search) if params.ties == "last-hop" else cap
    N = sched.n_tors
    if engine == "numpy":
        def run(dsts, reuse=False):
            out = ucmp_numpy.levels_and_paths(sched, H, n_cap, dsts, search)
            kept = ucmp_policy.apply(out, params.ties, params.levels, cap, N)
            return (*kept, int(out[0].size - kept[0].size))
        return run
    from controller.routing import ucmp_kernel  # numba: loaded on first use (test_import_no_jit)

    assert ucmp_kernel.MAX_UPLINKS == KERNEL_MAX_UPLINKS
    peer = np.ascontiguousarray(sched.peer, dtype=np.int32)
    last_hops = cap if params.ties == "last-hop" else 0
    envelope = params.levels == "envelope"

    def run(dsts, reuse=False):  # both policies applied in the walk (same result: tests/test_ucmp_engines.py)
        out = ucmp_kernel.levels_and_paths(peer, H, n_cap, dsts, search, last_hops=last_hops, envelope=envelope,
                                           reuse=reuse)
        return out if envelope else (*out, 0)
    return run


def group_chunks(
    sched: Schedule, params: UcmpParams, chunk: int | None = None, progress=None,
    engine: str = "auto", workers: int | None = None, executor=None, post=None, destinations=None,
):
    """Yield :class:`GroupChunk` per chunk of destinations, in destination order
    (``post(chunk)`` instead when ``post`` is given: it runs where the chunk was computed,
    on the worker threads or Dask workers, so per-chunk work after the groups -- the
    streamed writer's phase 1 -- runs beside the next chunks' kernels, not after them).

    Memory stays bounded for large schedules (the value tables of a few chunks at a
    time). ``engine``: ``"numba"`` (compiled kernels, chunks run on ``workers`` threads,
    default all cores), ``"numpy"`` (the whole-array reference engine, one thread) or
    ``"auto"`` (numba unless a ToR has more than 64 uplinks). ``executor``: run the chunks
    there instead (``submit``-style, e.g. :class:`controller.routing.distributed.DaskExecutor`).
    ``destinations``: only the groups towards these ToRs (None: all; see
    :func:`destination_list`), ``chunk`` of them at a time."""
    S, N, d = sched.peer.shape
    engine = resolve_engine(engine, d)
    chunk = chunk or (16 if engine == "numba" else 128)
    dsts = np.arange(N, dtype=np.int64) if destinations is None else destination_list(destinations, N)
    starts = [dsts[i:i + chunk] for i in range(0, dsts.size, chunk)]
    chunk_run = chunk_runner(sched, params, engine)

    def run(part: np.ndarray):
        # with post, the chunk's raw arrays are done with before this thread's next chunk:
        # the kernel may reuse its buffers for them
        c = _group_chunk(N, *chunk_run(part, reuse=post is not None))
        return c if post is None else post(c)
    workers = 1 if engine == "numpy" else (workers or os.cpu_count() or 1)
    ahead = workers
    if executor is not None:  # a Dask client (controller.routing.distributed): its workers run the chunks
        workers = ahead = max(1, executor.n_workers())
    elif engine == "numba" and small_schedule(sched):
        # small: the long-lived pool (its threads keep their kernel buffers warm), every chunk queued at once
        executor, ahead = shared_pool(workers), len(starts)
    with ThreadPoolExecutor(max_workers=workers) if executor is None else nullcontext(executor) as pool:
        pending: deque = deque()
        todo = iter(starts)
        for part in todo:  # keep every worker busy, at most `ahead` chunks ahead of the consumer
            pending.append((part, pool.submit(run, part)))
            if len(pending) >= ahead:
                break
        while pending:
            part, fut = pending.popleft()
            done = fut.result()
            nxt = next(todo, None)
            if nxt is not None:
                pending.append((nxt, pool.submit(run, nxt)))
            yield done
            if progress is not None:
                progress(part.size)


@register("ucmp", SOURCE, UcmpParams, "UCMP groups with flow-size buckets (UCMP §4-6)", by_destination=True)
def compute(sched: Schedule, params: UcmpParams | None = None, progress=None, chunk: int | None = None,
            executor=None, destinations=None) -> PathRoutes:
    """UCMP groups (with backups, optional relaxation) and buckets for a whole schedule.
    ``params.engine``/``params.workers``/``chunk``: see :func:`group_chunks`.

    ``destinations``: only the groups towards these ToRs (None: all). A group depends on
    the schedule and its own (t, src, dst) only, so every group towards them -- members,
    kinds, paths, latencies -- is the full computation's; the other groups are empty.
    The buckets are global (§5.2, §6.1: the union of every group's break points), so the
    other groups' levels are still found -- from the value tables alone, without their
    walks (:func:`other_profiles`) -- and the buckets are the full computation's too
    (tests/test_ucmp_destinations.py)."""
    params = params or UcmpParams()
    engine, workers = params.engine, params.workers
    N = sched.n_tors
    H = params.hops_per_slice or sched.timing.hops_per_slice
    chunks = []
    others = None
    for c in group_chunks(sched, params, chunk, progress, engine, workers, executor, destinations=destinations):
        chunks.append(c)
        if others is None and destinations is not None:
            # the global boundaries need every group's levels: the other destinations'
            # tables are queued behind the group chunks, and run beside the assembly below
            rest = np.setdiff1d(np.arange(N), destination_list(destinations, N))
            others = other_profiles_async(sched, params, rest, chunk, workers)
    if others is None and destinations is not None:
        others = other_profiles_async(sched, params, np.arange(N), chunk, workers)
    chunks = chunks or [_empty_chunk(N)]  # no destination asked for: no groups
    raw = raw_paths(sched, params, H, chunks)
    notes = run_notes(sched, params, H, levels=raw.levels,
                      levels_capped=int(sum(int(c.lv_capped.sum()) for c in chunks)),
                      hmax_reached=max(c.hmax_reached for c in chunks),
                      bound_hit=any(c.bound_hit for c in chunks),
                      levels_dropped=int(sum(c.lv_dropped for c in chunks)))
    notes["capped_destinations"] = raw.capped_dsts.tolist()
    if destinations is not None:
        notes["destinations"] = destination_list(destinations, N).tolist()
    return assemble_raw(sched, params, H, [raw.arrays], notes, None if others is None else others())


@dataclass(frozen=True, eq=False)
class RawPaths:
    """The paths of some groups as :func:`~controller.routing.paths.assemble` takes them
    (``arrays``: gid, member key, kind, hops, latency, hop node, uplink, slice; one row
    per path, hop arrays -1 padded), with the number of levels they came from and the
    destinations where a tie cap cut a level (``capped_dsts``: there the kept walks are
    not all the tied ones, so a repair recomputes those destinations,
    :mod:`controller.routing.ucmp_incremental`)."""

    arrays: tuple
    levels: int
    capped_dsts: np.ndarray


def _empty_chunk(N: int) -> GroupChunk:
    """The :class:`GroupChunk` of no destination."""
    return _group_chunk(N, *(np.zeros(0, np.int32),) * 5, np.zeros(0, bool), np.zeros(0, np.int64),
                        np.zeros((0, 2), np.int32), np.zeros((0, 2), np.int16), np.zeros((0, 2), np.int32), 0, True, 0)


def raw_paths(sched: Schedule, params: UcmpParams, H: int, chunks: list) -> RawPaths:
    """The regular members of ``chunks`` (:class:`GroupChunk`) and their backup and
    relaxed members (:func:`extra_members`), as :class:`RawPaths`: paths in the order
    :func:`compute` assembles them (chunk by chunk, then the extra members)."""
    N = sched.n_tors
    chunks = chunks or [_empty_chunk(N)]
    width = max(max(c.hop_node.shape[1] for c in chunks), 2)

    def stack(parts: list) -> np.ndarray:
        """The hop arrays ``parts`` one below the other, -1 padded to ``width`` columns."""
        out = np.full((sum(a.shape[0] for a in parts), width), -1, parts[0].dtype)
        r = 0
        for a in parts:
            out[r:r + a.shape[0], :a.shape[1]] = a
            r += a.shape[0]
        return out

    lv_gid = np.concatenate([c.lv_gid for c in chunks])
    lv_hops = np.concatenate([c.lv_hops for c in chunks])
    lv_lat = np.concatenate([c.lv_latency for c in chunks])
    lv_capped = np.concatenate([c.lv_capped for c in chunks])
    offs = np.cumsum([0] + [c.lv_gid.size for c in chunks])[:-1]
    p_lv = np.concatenate([c.p_lv + o for c, o in zip(chunks, offs)])
    gid = lv_gid[p_lv]
    hops = lv_hops[p_lv]
    lat = lv_lat[p_lv]
    kind = np.full(gid.size, REGULAR, np.int8)
    extra = extra_members(sched, params, H, lv_gid, lv_hops, lv_lat)
    for e_gid, e_kind, e_lat, *_ in extra:
        gid = np.concatenate([gid, e_gid])
        kind = np.concatenate([kind, e_kind])
        hops = np.concatenate([hops, np.full(e_gid.size, 2, np.int16)])
        lat = np.concatenate([lat, e_lat])
    hn = stack([c.hop_node for c in chunks] + [e[3] for e in extra])
    hu = stack([c.hop_uplink for c in chunks] + [e[4] for e in extra])
    hs = stack([c.hop_slice for c in chunks] + [e[5] for e in extra])
    capped = np.unique(group_parts(lv_gid[lv_capped], N)[2]).astype(np.int64)
    return RawPaths((gid, hops.astype(np.int32), kind, hops, lat, hn, hu, hs), int(lv_gid.size), capped)


def assemble_raw(sched: Schedule, params: UcmpParams, H: int, parts: list[tuple], notes: dict,
                 other_profiles: np.ndarray | None) -> PathRoutes:
    """:class:`PathRoutes` of the raw path arrays ``parts`` (:attr:`RawPaths.arrays`,
    concatenated in order; hop arrays -1 padded to the widest) with the global buckets
    of their groups and ``other_profiles`` (the bucket profiles of the groups not among
    them, :func:`other_profiles`)."""
    G = sched.n_slices * sched.n_tors * sched.n_tors
    width = max(p[5].shape[1] for p in parts)

    def cat(i: int) -> np.ndarray:
        if i < 5:
            return np.concatenate([p[i] for p in parts])
        return np.concatenate([np.pad(p[i], ((0, 0), (0, width - p[i].shape[1])), constant_values=-1)
                               for p in parts])
    gid, key, kind, hops, lat, hn, hu, hs = (cat(i) for i in range(8))
    routes = assemble(sched, "ucmp", result_params(params, H), gid, key, kind, hops, lat, hn, hu, hs, notes)
    m_group = np.repeat(np.arange(G), routes.g_count.ravel())
    buckets, _ = _buckets((m_group, routes.m_hops, routes.m_latency, routes.m_kind), slice_bytes(sched),
                          other_profiles=other_profiles)
    return PathRoutes(**{**routes.__dict__, "buckets": buckets})


def level_lists(sched: Schedule, params: UcmpParams, dsts: np.ndarray, chunk: int | None = None,
                workers: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(group, hops, latency)`` of every group level towards ``dsts`` -- the levels of
    :func:`group_chunks` before the levels policy, from the value tables alone (no walks:
    what the global buckets need of the groups that are not computed). A group's levels
    are consecutive, in increasing hops."""
    return level_lists_async(sched, params, dsts, chunk, workers)()


def level_lists_async(sched: Schedule, params: UcmpParams, dsts: np.ndarray, chunk: int | None = None,
                      workers: int | None = None):
    """:func:`level_lists` started: its chunks are queued (on :func:`shared_pool` for a
    small schedule with the compiled engine, so they run beside whatever the caller does
    next); returns ``collect()``, which waits for them and returns the level lists."""
    S, N, d = sched.peer.shape
    engine = resolve_engine(params.engine, d)
    H, n_cap = hop_limits(sched, params)
    chunk = chunk or (16 if engine == "numba" else 128)
    peer = np.ascontiguousarray(sched.peer, dtype=np.int32)

    def levels(part: np.ndarray) -> tuple[np.ndarray, ...]:
        if engine == "numba":
            from controller.routing import ucmp_kernel  # numba: loaded on first use (test_import_no_jit)

            return ucmp_kernel.table_levels(peer, H, n_cap, part)
        return levels_reference(ucmp_numpy.arrival_table(sched, H, n_cap, part), part, N)
    parts = [dsts[i:i + chunk] for i in range(0, dsts.size, chunk)]
    workers = 1 if engine == "numpy" else (workers or os.cpu_count() or 1)
    if engine == "numba" and small_schedule(sched):
        futs = [shared_pool(workers).submit(levels, part) for part in parts]

        def collect() -> tuple[np.ndarray, ...]:
            return _concat_levels([f.result() for f in futs])
        return collect
    with ThreadPoolExecutor(max_workers=workers) as pool:
        out = list(pool.map(levels, parts))
    return lambda: _concat_levels(out)


def other_profiles(sched: Schedule, params: UcmpParams, dsts: np.ndarray, chunk: int | None = None,
                   workers: int | None = None) -> np.ndarray:
    """The distinct bucket profiles (:func:`group_profiles` rows, sorted as
    :func:`unique_rows` sorts them) of the groups towards ``dsts``: what the global
    buckets need of the groups that are not computed. :func:`other_profiles_reference`'s
    rows; see :func:`other_profiles_async`."""
    return other_profiles_async(sched, params, dsts, chunk, workers)()


def other_profiles_reference(sched: Schedule, params: UcmpParams, dsts: np.ndarray, chunk: int | None = None,
                             workers: int | None = None) -> np.ndarray:
    """:func:`other_profiles` from the level lists (:func:`level_lists`)."""
    g, n, lat = level_lists(sched, params, dsts, chunk, workers)
    return unique_rows(group_profiles(g, n, lat, np.full(g.size, REGULAR, np.int8))[3])[0]


def other_profiles_async(sched: Schedule, params: UcmpParams, dsts: np.ndarray, chunk: int | None = None,
                         workers: int | None = None):
    """:func:`other_profiles` started; returns ``collect()``. With the compiled engine on a
    small schedule each chunk's task reduces its groups to their distinct profiles, packed
    one per int64 (:func:`ucmp_kernel.table_profile_keys`), queued on :func:`shared_pool`
    beside the caller's next work; otherwise :func:`other_profiles_reference`."""
    S, N, d = sched.peer.shape
    engine = resolve_engine(params.engine, d)
    H, n_cap = hop_limits(sched, params)
    base = 2 * S + 2                 # a latency difference is at most 2S (the tables' window)
    n_lv = n_cap + 1
    if engine != "numba" or not small_schedule(sched) or n_lv * math.log2(base) > 62:
        return lambda: other_profiles_reference(sched, params, dsts, chunk, workers)
    from controller.routing import ucmp_kernel  # numba: loaded on first use (test_import_no_jit)

    chunk = chunk or 16
    peer = np.ascontiguousarray(sched.peer, dtype=np.int32)
    pool = shared_pool(workers or os.cpu_count() or 1)
    futs = [pool.submit(ucmp_kernel.table_profile_keys, peer, H, n_cap, dsts[i:i + chunk], base)
            for i in range(0, dsts.size, chunk)]

    def collect() -> np.ndarray:
        keys = np.unique(np.concatenate([f.result() for f in futs] + [np.zeros(0, np.int64)]))
        digit = (keys[:, None] // base ** np.arange(n_lv, dtype=np.int64)[None, :]) % base   # [K, n]
        have = digit > 0
        width = max(int(have.sum(axis=1).max()) if keys.size else 1, 1)
        prof = np.full((keys.size, 2 * width), -1, np.int32)
        r, n = np.nonzero(have)
        pos = np.cumsum(have, axis=1)[r, n] - 1
        prof[r, 2 * pos] = n + 1
        prof[r, 2 * pos + 1] = digit[r, n] - 1
        return unique_rows(prof)[0]
    return collect


def _concat_levels(out: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    if not out:
        return np.zeros(0, np.int64), np.zeros(0, np.int16), np.zeros(0, np.int32)
    return tuple(np.concatenate([o[i] for o in out]) for i in range(3))


def levels_reference(A: np.ndarray, part: np.ndarray, N: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The group levels ``(group, hops, latency)`` of the arrival table ``A[n - 1, t, src, c]``
    towards ``part[c]`` (``*.arrival_table``), in (t, src, c, hops) order: a level is an
    ``A_n`` below every ``A_m``, m < n, and in the window. Whole-array form; the compiled
    engine's :func:`ucmp_kernel.table_levels` gives the same lists."""
    A = A.astype(np.int64)                                  # [n, t, src, c]
    keep = np.zeros(A.shape, bool)
    best = np.full(A.shape[1:], np.iinfo(np.int64).max)
    for n in range(A.shape[0]):                             # a level: faster than with fewer hops
        keep[n] = (A[n] < best) & (A[n] < ucmp_numpy.INF)
        np.minimum(best, A[n], out=best)
    keep[:, :, part, np.arange(part.size)] = False          # src == dst
    t, src, c, n = np.nonzero(keep.transpose(1, 2, 3, 0))
    return group_id(t, src, part[c], N), (n + 1).astype(np.int16), (A[n, t, src, c] - t + 1).astype(np.int32)


#: schedules with at most this many groups (S N^2) run their compiled chunks on the
#: long-lived :func:`shared_pool`: their threads' kernel buffers (a few MB) stay warm from
#: call to call, where fresh threads fault in fresh pages (at (108, 6) a third of the
#: group chunks' time). Larger schedules get a pool per call, so the 0.5 GB per thread
#: buffers of (1024, 32) go when the call ends.
SHARED_POOL_GROUPS = 1 << 20
_POOLS: dict[int, ThreadPoolExecutor] = {}
_POOLS_LOCK = threading.Lock()


def _forget_pools_in_child() -> None:
    """After ``fork`` the child has the pools but not their threads: work it submitted
    would wait forever (a pool starts a thread only while it counts none idle). The child
    starts its own pools."""
    global _POOLS_LOCK
    _POOLS.clear()
    _POOLS_LOCK = threading.Lock()


os.register_at_fork(after_in_child=_forget_pools_in_child)


def small_schedule(sched: Schedule) -> bool:
    """Whether ``sched`` is small enough for :func:`shared_pool`."""
    return sched.n_slices * sched.n_tors * sched.n_tors <= SHARED_POOL_GROUPS


def shared_pool(workers: int) -> ThreadPoolExecutor:
    """The process's long-lived thread pool of ``workers`` threads for compiled UCMP
    chunks of small schedules (its tasks never wait for each other: no deadlock)."""
    with _POOLS_LOCK:
        pool = _POOLS.get(workers)
        if pool is None:
            pool = _POOLS[workers] = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="ucmp")
        return pool


def destination_list(destinations, n_tors: int) -> np.ndarray:
    """``destinations`` as distinct increasing ToR ids (int64); UroError naming a ToR that
    is not in the schedule."""
    out = np.unique(np.asarray(list(destinations), dtype=np.int64))
    bad = out[(out < 0) | (out >= n_tors)]
    if bad.size:
        raise UroError(f"destination {int(bad[0])} is not a ToR of the schedule (0..{n_tors - 1})")
    return out


def meeting_tables(sched: Schedule) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`meeting_table` ``(wait, uplink)`` plus ``wait`` transposed to ``[s, b, a]``
    (the 2-hop kernel reads the second meeting along its intermediates)."""
    wait, upl = meeting_table(sched)
    return wait, upl, np.ascontiguousarray(wait.transpose(0, 2, 1))


def slice_bytes(sched: Schedule) -> float:
    """Bytes one link carries in one slice duration (B x u, UCMP Eq. 4)."""
    return sched.timing.slice_us * sched.timing.link_gbps * 1e3 / 8


def result_params(params: UcmpParams, H: int) -> dict:
    """The parameters a UCMP route set records (``PathRoutes.params``)."""
    return {"h_max": params.h_max, "hops_per_slice": H, "max_parallel": params.max_parallel,
            "ties": params.ties, "levels": params.levels, "tie_search": params.tie_search,
            "backups": params.backups, "relax_slices": params.relax_slices}


def run_notes(sched: Schedule, params: UcmpParams, H: int, levels: int, levels_capped: int,
              hmax_reached: int, bound_hit: bool, levels_dropped: int = 0) -> dict:
    """What a UCMP run reports next to its routes (``PathRoutes.notes``): ``levels`` kept,
    ``levels_capped`` (of them, those a tie cap cut: Property 1 may not hold there),
    ``levels_dropped`` (no flow size selects them, ``levels="envelope"``)."""
    bound, bound_info = hmax_upper_bound(sched, H)
    return {
        "hops_per_slice": H,
        "hmax_bound": bound,
        "hmax_bound_detail": bound_info,
        "hmax_used": params.h_max or bound,
        "hmax_reached": hmax_reached,
        "hmax_bound_hit": bound_hit,
        "levels": levels,
        "levels_capped": levels_capped,
        "levels_dropped": levels_dropped,
        "ties": params.ties,
        "levels_policy": params.levels,
        "engine": resolve_engine(params.engine, sched.n_uplinks),
    }


def extra_members(sched: Schedule, params: UcmpParams, H: int, lv_gid: np.ndarray, lv_hops: np.ndarray,
                  lv_lat: np.ndarray, meet: tuple | None = None) -> list[tuple[np.ndarray, ...]]:
    """Backup (§5.3) and relaxed (§4.3) members of the groups whose levels are given
    (every level of each group: all of them, or one chunk of destinations).

    Returns ``[(gid, kind, latency, hop_node, hop_uplink, hop_slice)]``, groups in
    increasing gid; ``meet``: :func:`meeting_table` of ``sched`` if already computed."""
    N = sched.n_tors
    extra = []
    if params.backups <= 0 and params.relax_slices is None:
        return extra
    engine = resolve_engine(params.engine, sched.n_uplinks)
    if meet is None:
        meet = meeting_tables(sched)
    if params.backups > 0:
        g, cnt, one_hop = _group_runs(lv_gid, lv_hops == 1, N, sched.n_slices)
        single = np.sort(g[(cnt == 1) & one_hop])
        extra.append(_two_hop_best_k(sched, _decode(single, N), H, BACKUP, params.backups, None, meet, engine))
    if params.relax_slices is not None:
        sel = np.flatnonzero(lv_hops == 2)
        order = np.argsort(lv_gid[sel], kind="stable")
        two = lv_gid[sel][order]
        lat2 = lv_lat[sel][order].astype(np.int64)
        q = _decode(two, N)
        lim = q[0] + lat2 - 1 + params.relax_slices  # last allowed delivery slice
        extra.append(_two_hop_best_k(sched, q, H, RELAXED, params.max_parallel, lim, meet, engine))
    return extra


def _group_runs(lv_gid: np.ndarray, flag: np.ndarray, N: int, S: int) -> tuple[np.ndarray, ...]:
    """(groups, levels per group, any ``flag`` in the group) of a level list.

    The engines list a group's levels consecutively, destination chunk by chunk; then
    the runs of equal gid are the groups (checked: the runs must be strictly ordered by
    (dst, t, src) or by gid) and no sort is needed. Otherwise: np.unique."""
    if lv_gid.size:
        first = np.flatnonzero(np.r_[True, lv_gid[1:] != lv_gid[:-1]])
        rg = lv_gid[first]
        rt, rsrc, rdst = group_parts(rg, N)
        key = (rdst * S + rt) * N + rsrc
        if np.all(key[1:] > key[:-1]) or np.all(rg[1:] > rg[:-1]):
            return rg, np.diff(np.append(first, lv_gid.size)), np.logical_or.reduceat(flag, first)
    g, inv, cnt = np.unique(lv_gid, return_inverse=True, return_counts=True)
    has = np.zeros(g.size, bool)
    has[inv.ravel()[flag]] = True
    return g, cnt, has


def _decode(g: np.ndarray, N: int) -> tuple[np.ndarray, ...]:
    """(t, src, dst, gid) of flat group ids, as int64 (what the two-hop search takes)."""
    t, src, dst = group_parts(g, N)
    return t.astype(np.int64), src.astype(np.int64), dst.astype(np.int64), g
