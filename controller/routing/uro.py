"""URO / HOHO fastest-path routing, computed for every (ToR, arrival slice, destination).

What it computes (URO §III, HOHO §3): for a packet at ToR ``x`` in slice ``t`` bound for
``dst``, the path that reaches ``dst`` in the earliest slice (latency, URO Eq. 1:
``t_end - t_start + 1`` slices), ties broken by fewer hops (Property 1). The answer is
kept as a per-hop decision -- depart on uplink ``u`` in slice ``dep >= t`` -- which is
exactly the URO next-hop table (§IV-A, Property 2), plus K one-shot alternatives: the
k-th is the decision taken if the (k-1)-th departure slice is missed, i.e. the label of
the same ToR at slice ``dep_{k-1} + 1`` (§IV-C, Property 3).

How (the fast engine): instead of searching paths per query (the backtracking of
URO Alg. 1, kept in :mod:`controller.routing.reference`), labels are computed for all
ToRs and destinations at once by dynamic programming backwards in time. A label is
``(arrival slice, hops, in-slice hops)``, ordered lexicographically. At slice ``t`` a
ToR may wait (take its own label of slice ``t+1``) or hop over a circuit of slice
``t`` to a neighbour and take the neighbour's slice-``t`` label with one more hop.
Inside a slice the labels are settled in increasing order (a Dijkstra whose edges all
add one hop, run for all destinations at once with NumPy), so every ToR's choice is
built from its neighbours' *final* choices.

Hop bounds and per-hop consistency: a packet's remaining hop budget is not part of
the table key, so a bound that binds could make the table at an intermediate ToR plan
a path longer than the one its upstream ToR counted on. Here a
neighbour's label is only usable when it keeps the total hop count <= ``max_hops``
and the hops taken inside one slice <= ``hops_per_slice`` (UCMP App. B's h_slice);
since the check is made against the neighbour's final label, walking the per-hop
tables always reproduces the planned path exactly and never exceeds either bound.
When the bounds do not bind the labels are the exact optima of the time-expanded
graph (checked against an exhaustive search and the reference in the tests). When
they bind, the result is the best route among those whose every suffix is itself the
table's choice -- the only kind a per-hop table can carry.
"""

from __future__ import annotations

import dataclasses
import heapq
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from controller.errors import UroError
from controller.routing import uro_chunks
from controller.routing.base import PER_HOP, register
from controller.routing.uro_labels import ARR, HOP, NEVER, ONE_HOP, UNBOUNDED, dep_dtype, direct_labels
from controller.schedule.generate import round_robin
from controller.schedule.model import Schedule

#: K one-shot alternatives per entry: URO fits 10 on Tofino2 (Table II)
MAX_ALTERNATIVES = 10
_INF = np.iinfo(np.int32).max


@dataclass(frozen=True)
class UroParams:
    """Knobs of the URO engine.

    ``k``: one-shot alternatives per entry (1..10; URO fits 10 on Tofino2, Table II).
    ``max_hops``: path hop bound M (None = unbounded).
    ``hops_per_slice``: hops a packet can make inside one slice (None = unbounded;
    :attr:`Timing.hops_per_slice` derives UCMP App. B's h_slice from the timing).
    """

    k: int = 4
    max_hops: int | None = None
    hops_per_slice: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.k, int) or not 1 <= self.k <= MAX_ALTERNATIVES:
            raise UroError(f"K (alternatives per entry) must be 1..{MAX_ALTERNATIVES}, got {self.k!r}")
        # hops_per_slice may be 255, Timing.hops_per_slice's cap for long slices: with 8-bit hop
        # counters that budget never binds, the same as None
        for name, top in (("max_hops", 254), ("hops_per_slice", 255)):
            v = getattr(self, name)
            if v is not None and (not isinstance(v, int) or not 1 <= v <= top):
                raise UroError(f"{name} must be an integer in 1..{top}, got {v!r}")


@dataclass(frozen=True, eq=False)
class UroRoutes:
    """All URO labels and per-hop decisions of one cycle.

    Arrays are indexed ``[t, x, dst]`` with ``t`` the arrival slice in ``[0, S)``;
    slices are absolute counts from the start of the cycle, so ``dep``/``arrival`` may
    reach into following cycles (``>= S``): a departure slice is never ambiguous.

    - ``arrival``: slice of the last hop (t_end); latency = arrival - t + 1 slices.
    - ``hops``: hop count of the planned path (0 when x == dst).
    - ``alt_uplink``, ``alt_dep``: shape ``[t, x, dst, K]``, the one-shot alternatives
      (uplink and absolute departure slice; -1 where there is none: x == dst, or the
      alternative would wait a full cycle or more). ``alt_dep`` is int16 where the cycle
      allows it (:func:`~controller.routing.uro_labels.dep_dtype`).
    """

    kind: ClassVar[str] = PER_HOP
    algo: ClassVar[str] = "uro"
    schedule: Schedule
    params: UroParams
    arrival: np.ndarray
    hops: np.ndarray
    alt_uplink: np.ndarray
    alt_dep: np.ndarray

    def params_dict(self) -> dict:
        return dataclasses.asdict(self.params)

    @property
    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(arrival, hops, alt_uplink, alt_dep)``: the arrays a repair copies and writes
        (:func:`controller.routing.uro_incremental.repair`), in that order."""
        return self.arrival, self.hops, self.alt_uplink, self.alt_dep

    @property
    def uplink(self) -> np.ndarray:
        return self.alt_uplink[..., 0]

    @property
    def dep(self) -> np.ndarray:
        return self.alt_dep[..., 0]

    def latency_slices(self) -> np.ndarray:
        """URO Eq. 1 latency in slices for every (t, x, dst); 0 on the diagonal."""
        t = np.arange(self.schedule.n_slices)[:, None, None]
        lat = self.arrival.astype(np.int32) - t + 1
        n = self.schedule.n_tors
        lat[:, np.arange(n), np.arange(n)] = 0
        return lat

    def next_hop(self, t: int, x: int, dst: int, k: int = 0) -> tuple[int, int, int] | None:
        """(uplink, absolute departure slice, next ToR) of alternative ``k``, or None."""
        S = self.schedule.n_slices
        base = (t // S) * S
        u = int(self.alt_uplink[t % S, x, dst, k])
        if u < 0:
            return None
        dep = int(self.alt_dep[t % S, x, dst, k]) + base
        return u, dep, int(self.schedule.peer[dep % S, x, u])

    def path(self, src: int, dst: int, t: int) -> list[tuple[int, int, int]]:
        """Walk the per-hop tables (first alternatives) from ``src`` at slice ``t``.

        Returns the hops as ``(tor, uplink, departure slice)`` ending with ``(dst, -1, arrival)``.
        """
        hops: list[tuple[int, int, int]] = []
        x, now = src, t
        limit = self.schedule.n_tors * 4 + 8
        while x != dst:
            nh = self.next_hop(now, x, dst)
            if nh is None or len(hops) > limit:
                raise RuntimeError(f"per-hop walk from {src} to {dst} at slice {t} is broken at ToR {x}")
            u, dep, y = nh
            hops.append((x, u, dep))
            x, now = y, dep
        hops.append((dst, -1, now))
        return hops


def _settle_slice(
    t: int, peer_t: np.ndarray, key: np.ndarray, dep: np.ndarray, upl: np.ndarray, max_hops: int, per_slice: int
) -> None:
    """Settle the labels of slice ``t`` in place (flat arrays of N*N, index x*N + dst).

    On entry ``key``/``dep``/``upl`` hold the wait labels (from slice t+1, in-slice hops
    zeroed) and the destination labels ``(t, 0, 0)`` on the diagonal. Labels are then
    settled in increasing (arrival, hops) buckets; a settled label offers its
    neighbours over each uplink of slice ``t`` the same arrival with one more hop.
    """
    N, d = peer_t.shape
    prefix = (key >> HOP) - (t << (ARR - HOP))  # (arrival - t) << 8 | hops, small
    reach = key < NEVER
    if reach.all():
        fin = None
    else:  # unreachable labels are never settled (nothing to offer a neighbour)
        fin = np.flatnonzero(reach)
        prefix = prefix[fin]
    if prefix.size == 0:
        return
    if prefix.max() < (1 << 16):
        order = np.argsort(prefix.astype(np.uint16), kind="stable")  # radix sort
    else:  # a wait of 256 slices or more: the packed prefix no longer fits 16 bits
        order = np.argsort(prefix, kind="stable")
    pref_sorted = prefix[order]
    if fin is not None:
        order = fin[order]
    starts = np.concatenate(([0], np.flatnonzero(np.diff(pref_sorted)) + 1))
    ends = np.append(starts[1:], len(order))
    groups = {int(pref_sorted[a]): (int(a), int(b)) for a, b in zip(starts, ends)}
    heap = list(groups)
    heapq.heapify(heap)
    pending: dict[int, np.ndarray] = {}
    stamp = np.empty(N * N, dtype=np.int64)  # for de-duplicating improved entries
    while heap:
        p = heapq.heappop(heap)
        while heap and heap[0] == p:  # drop duplicates
            heapq.heappop(heap)
        parts = []
        if p in groups:
            a, b = groups.pop(p)
            idx = order[a:b]
            still = (key[idx] >> HOP) - (t << (ARR - HOP)) == p
            parts.append(idx[still])
        if p in pending:
            parts.append(pending.pop(p))
        if not parts:
            continue
        front = parts[0] if len(parts) == 1 else np.concatenate(parts)
        if front.size == 0:
            continue
        cand = key[front] + ONE_HOP
        ok = (((cand >> HOP) & 0xFF) <= max_hops) & ((cand & 0xFF) <= per_slice)
        if not ok.all():
            front, cand = front[ok], cand[ok]
            if front.size == 0:
                continue
        xs = front // N
        ds = front - xs * N
        improved = []
        for u in range(d):
            ys = peer_t[xs, u]
            live = ys >= 0
            if not live.any():
                continue
            tgt = ys[live] * N + ds[live]
            c = cand[live]
            imp = c < key[tgt]
            if not imp.any():
                continue
            tgt = tgt[imp]
            key[tgt] = c[imp]
            dep[tgt] = t
            upl[tgt] = u
            improved.append(tgt)
        if improved:
            nxt = improved[0] if len(improved) == 1 else np.concatenate(improved)
            if len(improved) > 1:  # keep the first occurrence of each entry
                pos = np.arange(len(nxt))
                stamp[nxt[::-1]] = pos[::-1]
                nxt = nxt[stamp[nxt] == pos]
            pending[p + 1] = nxt
            heapq.heappush(heap, p + 1)


#: URO engines: compiled per-destination kernels (:mod:`.uro_chunks`), the NumPy reference,
#: or numba where it applies (at most 127 uplinks: int8 uplink columns)
ENGINES = ("auto", "numba", "numpy")
#: "auto" uses the compiled kernels from this many ToRs on (below, NumPy is done in the
#: ~0.5 s numba takes to import and load its cached kernels: (108, 6) must not get slower),
#: and at any size once this process has them loaded (:func:`warm_kernels`)
NUMBA_FROM_TORS = 192
_kernels_warm = False


#: the most slices per cycle the packed labels hold (3 x S < 2**15: :mod:`.uro_labels`)
MAX_SLICES = ((1 << 15) - 1) // 3


def _check_slices(S: int) -> None:
    if S > MAX_SLICES:
        raise UroError(f"{S} slices per cycle is more than the engine supports (at most {MAX_SLICES})")


def resolve_engine(engine: str, n_uplinks: int, n_tors: int = 1 << 30) -> str:
    if engine not in ENGINES:
        raise UroError(f"unknown URO engine {engine!r}; choose one of: {', '.join(ENGINES)}")
    if engine == "auto":  # small schedules: NumPy finishes before numba has loaded its cached kernels
        return "numba" if n_uplinks <= 127 and (n_tors >= NUMBA_FROM_TORS or _kernels_warm) else "numpy"
    if engine == "numba" and n_uplinks > 127:
        raise UroError(f"the numba URO engine takes at most 127 uplinks, the schedule has {n_uplinks}")
    return engine


def warm_kernels() -> None:
    """Load the compiled kernels into this process now (numba's cached machine code: a
    tiny schedule routed once), so that "auto" uses them from then on at any size. A
    long-lived process (the daemon, at start) pays the load once instead of a one-shot
    `uro routes` paying it for nothing: warm, at (108, 6) they route a failure in 0.029 s,
    NumPy in 0.076 s (median of 5 each, alternating in one run, load 0.4)."""
    global _kernels_warm
    if _kernels_warm:
        return
    uro_chunks.compute(round_robin(8, 2), UroParams(), workers=1)
    _kernels_warm = True


@register("uro", PER_HOP, UroParams, "URO/HOHO fastest paths as per-hop tables with K one-shot alternatives (URO §III-IV)",
          warm=warm_kernels)
def compute(sched: Schedule, params: UroParams | None = None, progress=None, engine: str = "auto",
            workers: int | None = None, executor=None, chunk: int = uro_chunks.DEFAULT_CHUNK) -> UroRoutes:
    """Compute URO labels, decisions and K alternatives for the whole cycle.

    ``engine``: ``"numba"`` (compiled kernels per destination chunk of ``chunk``
    destinations on ``workers`` threads, or on ``executor``, a Dask client), ``"numpy"``
    (:func:`compute_numpy`, the reference) or ``"auto"``. Both give identical routes. ``progress``, if given, is called with the
    amount of work done (for a bar; slices for numpy, destinations for numba).
    """
    params = params or UroParams()
    _check_slices(sched.n_slices)
    # work sent to a cluster runs as the compiled kernels' chunks, whatever the size
    if resolve_engine(engine, sched.n_uplinks, 1 << 30 if executor is not None else sched.n_tors) == "numba":
        return UroRoutes(sched, params, *uro_chunks.compute(sched, params, progress=progress, executor=executor,
                                                            workers=workers, chunk=chunk))
    return compute_numpy(sched, params, progress)


def compute_numpy(sched: Schedule, params: UroParams | None = None, progress=None) -> UroRoutes:
    """The whole-matrix NumPy engine (the reference the compiled kernels are tested against).

    ``progress``, if given, is called with the number of slices settled (for a bar).
    """
    params = params or UroParams()
    peer = sched.peer
    S, N, d = peer.shape
    max_hops = params.max_hops or UNBOUNDED
    per_slice = params.hops_per_slice or UNBOUNDED
    _check_slices(S)

    dkey, ddep, dupl = direct_labels(sched)
    key = np.empty((S, N * N), dtype=np.int32)  # values < 2**31: arrival < 2**15
    dep = np.empty((S, N * N), dtype=np.int32)
    upl = np.empty((S, N * N), dtype=np.int8)
    diag = np.arange(N) * (N + 1)
    # boundary: labels of slice S (= slice 0 of the next cycle); start from direct paths
    b_key = np.where(dkey >= NEVER, NEVER, (dkey + (S << ARR)) & ~0xFF)
    b_dep = np.where(ddep >= 0, ddep + S, -1)
    b_upl = dupl
    # Sweep the cycle backwards until the labels are periodic. Slice t depends only
    # on slice t+1, so once a later sweep reproduces the stored labels of a slice, all
    # earlier slices are reproduced too and the fixed point is reached.
    for sweep in range(8):
        nkey, ndep, nupl = b_key, b_dep, b_upl
        converged = False
        for t in range(S - 1, -1, -1):
            k = nkey.astype(np.int64) & ~0xFF  # waiting resets the in-slice hop count
            k[diag] = t << ARR
            dp = ndep.copy()
            up = nupl.copy()
            dp[diag] = -1
            up[diag] = -1
            _settle_slice(t, peer[t], k, dp, up, max_hops, per_slice)
            if progress is not None:
                progress(1)
            if sweep > 0 and np.array_equal(k, key[t]) and np.array_equal(dp, dep[t]) and np.array_equal(up, upl[t]):
                converged = True
                break
            key[t], dep[t], upl[t] = k, dp, up
            nkey, ndep, nupl = k, dp, up
        if converged:
            break
        never = key[0] >= NEVER
        # A ToR whose best move in slice 0 is to wait past the whole cycle can never depart
        # towards that destination: the labels are periodic at the fixed point, so a first
        # departure in slice D >= S could be taken in slice D - S already. This happens under
        # a hop bound on a degraded schedule, where every neighbour's own (final) choice may
        # take too many hops to be extended; the label would only wait for itself and grow
        # by S every sweep. It is unreachable for the per-hop tables.
        stuck = dep[0] >= S
        stuck[diag] = False
        never |= stuck
        b_key = key[0].astype(np.int64) + (S << ARR)
        b_key[diag] = S << ARR
        b_key &= ~0xFF
        b_key[never] = NEVER
        b_dep = dep[0] + S
        b_dep[diag] = -1
        b_dep[never] = -1
        b_upl = upl[0].copy()
        b_upl[never] = -1
    else:  # pragma: no cover - a schedule would need a pathological structure
        raise UroError("URO labels did not converge over the cycle; please report this schedule")

    key = key.reshape(S, N, N)
    never = key >= NEVER  # unreachable (degraded schedules): arrival -1, no alternatives
    arrival = np.where(never, -1, key >> ARR).astype(np.int32)
    hops = np.where(never, 0, (key >> HOP) & 0xFF).astype(np.uint8)
    dep = dep.reshape(S, N, N)
    upl = upl.reshape(S, N, N)
    alt_dep, alt_upl = _alternatives(dep, upl, params.k)
    return UroRoutes(sched, params, arrival, hops, alt_upl, alt_dep)


def _alternatives(dep: np.ndarray, upl: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """K one-shot alternatives: the k-th is the label at (previous departure + 1)."""
    S, N, _ = dep.shape
    alt_dep = np.full((S, N, N, k), -1, dtype=dep_dtype(S))
    alt_upl = np.full((S, N, N, k), -1, dtype=np.int8)
    alt_dep[..., 0] = dep
    alt_upl[..., 0] = upl
    t = np.arange(S)[:, None, None]
    cell = np.arange(N * N, dtype=np.int64).reshape(1, N, N)  # x * N + dst
    dep_flat, upl_flat = dep.reshape(-1), upl.reshape(-1)
    for j in range(1, k):
        prev = alt_dep[..., j - 1]
        valid = prev >= 0
        nxt = np.where(valid, prev + 1, 0)
        q, r = np.divmod(nxt.astype(np.int64), S)      # int64: r * N * N overflows int16 departures
        flat = r * (N * N) + cell
        d_j = dep_flat.take(flat) + q * S
        u_j = upl_flat.take(flat)
        ok = valid & (d_j >= 0) & (d_j - t < S) & (dep >= 0)
        alt_dep[..., j] = np.where(ok, d_j, -1)
        alt_upl[..., j] = np.where(ok, u_j, -1)
    # the first alternative also must not wait a full cycle (it never does: every
    # pair meets once per cycle), keep the invariant explicit
    assert (alt_dep[..., 0][dep >= 0] - np.broadcast_to(t, dep.shape)[dep >= 0] < S).all()
    return alt_dep, alt_upl
