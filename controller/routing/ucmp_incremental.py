"""UCMP source routes after circuits fail, repaired destination by destination instead of
recomputed, and the (source, destination, start slice) cells two route sets differ in.

A UCMP group (t, src, dst) is, per hop count n with ``A_n < A_{n-1}``, the n-hop walks
that deliver in the earliest slice ``A_n`` (UCMP §4.3, App. A Alg. 1), of which the ties
policy keeps the first into each last-hop ToR in the walks' canonical order
(:mod:`controller.routing.ucmp_policy`), plus backup (§5.3) and relaxed (§4.3) 2-hop
members chosen as the k fastest. When circuits are only *removed*:

- a value ``A_n`` can only grow, and it grows only if every n-hop walk delivering in
  ``A_n`` rode a removed circuit -- the kept ones too;
- the walks that still deliver in ``A_n`` are the old ones less those riding a removed
  circuit, in the same canonical order: if the kept walks survive, the first walk into
  each last-hop ToR is still the one kept (unless the tie search was cut short: a
  *capped* level, where a walk past the cut could come in; such destinations are
  recomputed whatever they rode);
- a 2-hop path that was not among the k fastest only gets slower.

So a group none of whose kept paths (any member kind) rides a removed circuit is the
same group after the failure, member for member. :func:`affected_destinations` lists the
destinations with such a path (or a capped level); :func:`repair` recomputes their groups
with the UCMP engines, keeps every other group's paths as they were, and makes the global
buckets (§5.2, §6.1: the union of every group's break points, the groups that are not
source-routed included) from all of them -- array for array what a whole recomputation
gives (property-tested, tests/test_ucmp_incremental.py). The repair works per
destination because the engines do (a destination's value tables are shared by its
groups); a cut cable touches some group of nearly every destination, but a small share of
the groups (1,219 of 69,984 at (108, 6) towards 36 destinations), which is what
:func:`changed_cells` finds and the entries follow.

A circuit that comes back (a recovery) can improve any group: :class:`NotRepairable`
(the caller recomputes, or takes the routes of that failed set from its cache; either
way :func:`changed_cells` gives the cells to write).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from controller.routing import ucmp
from controller.routing.paths import PathRoutes, group_id, group_parts
from controller.routing.uro_incremental import NotRepairable, circuit_changes
from controller.routing.uro_incremental import by_tor as uro_by_tor
from controller.schedule.model import Schedule

__all__ = ["NotRepairable", "Repaired", "affected_destinations", "changed_cells", "repair", "riding", "warm_kernel"]


@dataclass(frozen=True, eq=False)
class Repaired:
    """:func:`repair`'s answer: the new routes, the destinations recomputed, and the
    changed cells ``[n, 3]`` int32 rows ``(start slice, src, dst)`` (:func:`changed_cells`)."""

    routes: PathRoutes
    destinations: np.ndarray
    cells: np.ndarray

    def by_tor(self) -> dict[int, np.ndarray]:
        return by_tor(self.cells)


def by_tor(cells: np.ndarray) -> dict[int, np.ndarray]:
    """{source ToR: ``[m, 2]`` rows (dst, start slice)} of ``cells`` (rows (t, src, dst)):
    the per-hop split (:func:`controller.routing.uro_incremental.by_tor`) of the cells sorted
    by source, destination, slice, in the column order the source-route builder takes."""
    if len(cells):
        cells = cells[np.lexsort((cells[:, 0], cells[:, 2], cells[:, 1]))]
    return {tor: rows[:, [1, 0]] for tor, rows in uro_by_tor(cells).items()}


def riding(routes: PathRoutes, removed: np.ndarray) -> np.ndarray:
    """Per path of ``routes``: whether one of its hops departs on a circuit end of
    ``removed`` (``[S, N, d]`` bool: slice, ToR, uplink). A hop ``(next ToR, uplink, send
    slice)`` departs from the ToR before it (the group's source for the first hop).
    Compiled (:func:`controller.routing.ucmp_incremental_kernel.riding`)."""
    from controller.routing import ucmp_incremental_kernel as kernel   # numba: loaded on first use
    S, N, _ = removed.shape
    _, src, _ = group_parts(routes.path_group_index(), N)
    return kernel.riding(src.astype(np.int64), routes.hop_node, routes.hop_uplink, routes.hop_slice,
                         np.ascontiguousarray(removed, dtype=np.bool_))


def affected_destinations(routes: PathRoutes, removed: np.ndarray) -> np.ndarray:
    """The destinations whose groups a failure that removes the circuit ends ``removed``
    (``[S, N, d]`` bool) may change: those with a kept path riding one
    (:func:`riding`), and those where a tie cap cut a level (``capped_destinations`` in
    the routes' notes). Sorted int64."""
    N = routes.schedule.n_tors
    dst = group_parts(routes.path_group_index()[riding(routes, removed)], N)[2]
    capped = np.asarray(routes.notes.get("capped_destinations", []), np.int64)
    return np.union1d(np.unique(dst), capped).astype(np.int64)


def warm_kernel() -> None:
    """Load the compiled kernels of :func:`riding` and :func:`changed_cells` into this
    process now (a tiny schedule's UCMP routes repaired after a cut cable), so that no
    failure's routes pay their load -- or their compile, where numba's cache is empty. The
    daemon calls it at start for UCMP source routes (:func:`controller.daemon.plan.warm`)."""
    from controller.schedule import round_robin
    from controller.schedule.degrade import Failed, without
    sched = round_robin(8, 2)
    params = ucmp.UcmpParams(h_max=4)
    repair(ucmp.compute(sched, params, destinations=[0, 3]), without(sched, Failed(uplinks=frozenset({(1, 0)}))),
           params, [0, 3])


def _kept_raw(routes: PathRoutes, keep_dst: np.ndarray) -> tuple:
    """The paths of ``routes`` towards the destinations ``keep_dst`` (bool [N]) as raw
    arrays (:attr:`controller.routing.ucmp.RawPaths.arrays`), in their member order."""
    N = routes.schedule.n_tors
    gid = routes.path_group_index()
    sel = keep_dst[group_parts(gid, N)[2]]
    hops = np.repeat(routes.m_hops, routes.m_count)[sel]
    return (gid[sel], hops.astype(np.int32), routes.path_kind()[sel], routes.p_hops[sel], routes.p_latency[sel],
            routes.hop_node[sel], routes.hop_uplink[sel], routes.hop_slice[sel])


def repair(before: PathRoutes, schedule: Schedule, params: ucmp.UcmpParams, destinations,
           affected=affected_destinations) -> Repaired:
    """The UCMP routes of ``schedule`` towards ``destinations`` from ``before`` (the
    routes of ``before.schedule`` towards the same destinations, with the same
    parameters), with the groups of :func:`affected_destinations` recomputed and the
    others kept. ``affected``: the affected-set function (the tests break it on purpose).
    Raises :class:`NotRepairable` where a whole recomputation is needed: circuits that
    come back, another shape, other hop limits or parameters, routes without the notes a
    repair needs (towards which destinations, which were capped)."""
    old = before.schedule
    if old.peer.shape != schedule.peer.shape:
        raise NotRepairable(f"the schedule's shape changed ({old.peer.shape} -> {schedule.peer.shape})")
    S, N, d = schedule.peer.shape
    dsts = ucmp.destination_list(destinations, N)
    if (before.notes.get("destinations") != dsts.tolist() or "capped_destinations" not in before.notes
            or before.buckets is None):
        raise NotRepairable("the routes do not say towards which destinations they were computed, "
                            "or which were capped")
    H = params.hops_per_slice or schedule.timing.hops_per_slice
    if ucmp.hop_limits(old, params) != ucmp.hop_limits(schedule, params) or \
            before.params != ucmp.result_params(params, H):
        raise NotRepairable("the hop limits or parameters differ (the static diameter changed)")
    rem, add = circuit_changes(old, schedule)
    if len(add):
        raise NotRepairable(f"{len(add)} circuit ends come back: any group may improve")
    removed = np.zeros((S, N, d), bool)
    removed[rem[:, 0], rem[:, 1], rem[:, 2]] = True
    hit = np.intersect1d(affected(before, removed), dsts)
    if hit.size == dsts.size:                 # every destination touched: nothing to keep
        routes = ucmp.compute(schedule, params, destinations=dsts)
        return Repaired(routes, hit, changed_cells(before, routes, dsts))
    keep = np.zeros(N, bool)
    keep[dsts] = True
    keep[hit] = False
    chunks = list(ucmp.group_chunks(schedule, params, engine=params.engine, workers=params.workers,
                                    destinations=hit)) if hit.size else []
    raw = ucmp.raw_paths(schedule, params, H, chunks)
    others = ucmp.other_profiles(schedule, params, np.setdiff1d(np.arange(N), dsts), workers=params.workers)
    notes = {**before.notes, "capped_destinations": raw.capped_dsts.tolist(),
             "repaired_destinations": int(hit.size)}
    routes = ucmp.assemble_raw(schedule, params, H, [_kept_raw(before, keep), raw.arrays], notes, others)
    same_buckets = routes.buckets.boundaries == before.buckets.boundaries
    cells = changed_cells(before, routes, hit if same_buckets else dsts)
    return Repaired(routes, hit, cells)


def changed_cells(a: PathRoutes, b: PathRoutes, destinations) -> np.ndarray:
    """The groups ``(start slice, src, dst)`` towards ``destinations`` whose members differ
    between ``a`` and ``b`` (route sets of one shape): a member's kind, hops, latency,
    bucket range or any of its paths, or the number of members. ``[n, 3]`` int32 rows,
    sorted by src, dst, slice: the source-route cells whose entries to rewrite (UCMP
    §6.2: one ``ssrr_path`` entry per (dst, start slice, bucket range) of a source).
    Compared group by group, up to the first difference
    (:func:`controller.routing.ucmp_incremental_kernel.groups_differ`)."""
    from controller.routing import ucmp_incremental_kernel as kernel   # numba: loaded on first use
    if a.g_count.shape != b.g_count.shape:
        raise ValueError(f"route sets of different shapes ({a.g_count.shape}, {b.g_count.shape})")
    S, N, _ = a.g_count.shape
    dsts = np.asarray(destinations, np.int64)
    t, src, dst = np.meshgrid(np.arange(S), np.arange(N), dsts, indexing="ij")
    g = group_id(t.ravel(), src.ravel(), dst.ravel(), N)
    g = g[src.ravel() != dst.ravel()]
    x, y = a.buckets, b.buckets
    if (x is None) != (y is None):            # every member's bucket range differs
        bad = (a.g_count.ravel()[g] != b.g_count.ravel()[g]) | (a.g_count.ravel()[g] > 0)
    else:
        none = np.zeros(0, np.int32)
        lo_a, hi_a, lo_b, hi_b = (none,) * 4 if x is None else (x.m_lo, x.m_hi, y.m_lo, y.m_hi)
        bad = kernel.groups_differ(
            g, a.g_first.ravel(), a.g_count.ravel(), a.m_kind, a.m_hops, a.m_latency, a.m_first, a.m_count,
            lo_a, hi_a, a.p_hops, a.p_latency, a.hop_node, a.hop_uplink, a.hop_slice,
            b.g_first.ravel(), b.g_count.ravel(), b.m_kind, b.m_hops, b.m_latency, b.m_first, b.m_count,
            lo_b, hi_b, b.p_hops, b.p_latency, b.hop_node, b.hop_uplink, b.hop_slice, x is not None)
    ct, cs, cd = group_parts(g[bad], N)
    cells = np.stack([ct, cs, cd], axis=1).astype(np.int32).reshape(-1, 3)
    return cells[np.lexsort((cells[:, 0], cells[:, 2], cells[:, 1]))] if len(cells) else cells
