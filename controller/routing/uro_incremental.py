"""URO routes after circuits fail or come back, repaired label by label instead of
recomputed (:mod:`controller.routing.uro_incremental_kernel`).

A failure changes few URO decisions: a cut cable at (1024, 32) changes 0.07 % of the
(arrival slice, ToR, destination) alternatives, yet touches nearly every destination
(1022 of 1024) -- so recomputing the destinations it touches saves nothing, and the work
must follow the labels. :func:`repair` takes the routes of one schedule and the schedule
with circuits removed (a failure, :func:`controller.schedule.degrade.without`) or added
back (a recovery), repairs only the labels whose decisions rode a removed circuit (and
those built on them) or that an added circuit improves, and returns the new routes with
the cells whose alternatives changed: identical, array for array, to a whole
recomputation on the new schedule (property-tested against the compiled engine), since
URO's labels are the one solution of a local rule (see the kernel's docstring).

Where that argument does not hold -- a schedule whose slice uplinks are not matchings,
other routing parameters, another number of ToRs, uplinks or slices -- :func:`repair`
says so (:class:`NotRepairable`) and the caller recomputes.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from controller import memory
from controller.routing.uro import UroParams, UroRoutes, compute
from controller.schedule.degrade import Failed, without
from controller.schedule.generate import round_robin
from controller.schedule.model import Schedule

#: destinations per kernel call (a chunk's scratch is S x N labels, reused per destination)
CHUNK = 32
_UNBOUNDED = 255


class NotRepairable(ValueError):
    """The routes cannot be repaired into the new schedule's (recompute them whole)."""


@dataclass(frozen=True, eq=False)
class Repaired:
    """:func:`repair`'s answer: the new routes and what changed.

    ``cells``: ``[n, 3]`` int32 rows ``(arrival slice, ToR, destination)`` whose
    alternatives (uplink or departure slice of any of the K) differ from the old routes',
    sorted by ToR, destination, slice: the per-hop entries to rewrite (URO §IV-A: one
    entry per (arrival slice, destination) of a ToR)."""

    routes: UroRoutes
    cells: np.ndarray

    def by_tor(self) -> dict[int, np.ndarray]:
        """{ToR: ``[m, 2]`` rows (arrival slice, destination)} of the changed cells."""
        return by_tor(self.cells)


def by_tor(cells: np.ndarray) -> dict[int, np.ndarray]:
    """{ToR: ``[m, 2]`` rows (arrival slice, destination)} of ``cells`` (``[n, 3]`` rows
    (arrival slice, ToR, destination) sorted by ToR, as :attr:`Repaired.cells`)."""
    if not len(cells):
        return {}
    cut = np.flatnonzero(np.diff(cells[:, 1])) + 1
    return {int(part[0, 1]): part[:, [0, 2]] for part in np.split(cells, cut)}


def circuit_changes(old: Schedule, new: Schedule) -> tuple[np.ndarray, np.ndarray]:
    """``(removed, added)``: ``[n, 3]`` int32 rows ``(slice, ToR, uplink)`` of every circuit
    end that the new schedule no longer has / has that the old one did not (a circuit moved
    to another peer is both)."""
    po, pn = old.peer, new.peer
    gone = (po >= 0) & (pn != po)
    came = (pn >= 0) & (pn != po)
    return np.argwhere(gone).astype(np.int32), np.argwhere(came).astype(np.int32)


def _matchings(peer: np.ndarray) -> bool:
    from controller.routing.uro_kernel import injective  # numba: loaded on first use (test_import_no_jit)

    return bool(injective(peer).all())


def repair(before: UroRoutes, schedule: Schedule, workers: int | None = None,
           copy: tuple[np.ndarray, ...] | None = None) -> Repaired:
    """The URO routes of ``schedule`` from ``before`` (the routes of ``before.schedule``,
    same parameters), repairing only what the circuit changes between the two schedules
    change. Raises :class:`NotRepairable` where a whole recomputation is needed.

    ``copy``: arrays that hold exactly ``before``'s (:attr:`UroRoutes.arrays`), made ahead of the failure (:meth:`controller.daemon.plan.RouteCache.prepare_copy`):
    the new routes are repaired in them, in place of a fresh copy. Why: the copy of a
    (1024, 32) set writes 1.1 GiB of fresh memory (290K page faults), which took 10.6 s of
    the daemon's routes phase where the kernels took 0.6 s (docs/fabric.md "A copy made
    ahead")."""
    from controller.routing import uro_incremental_kernel as kern  # numba: loaded on first use

    old = before.schedule
    if old.peer.shape != schedule.peer.shape:
        raise NotRepairable(f"the schedule's shape changed ({old.peer.shape} -> {schedule.peer.shape})")
    if not (_matchings(old.peer) and _matchings(schedule.peer)):
        raise NotRepairable("a slice's uplink is not a matching of ToRs: the repair's tie rule does not hold")
    S, N, _ = schedule.peer.shape
    rem, add = circuit_changes(old, schedule)
    p = before.params
    if not len(rem) and not len(add):
        return Repaired(UroRoutes(schedule, p, *before.arrays),
                        np.zeros((0, 3), np.int32))
    peer_old = np.ascontiguousarray(old.peer, dtype=np.int32)
    peer_new = np.ascontiguousarray(schedule.peer, dtype=np.int32)
    mh, ps = p.max_hops or _UNBOUNDED, p.hops_per_slice or _UNBOUNDED

    def chunk(d0: int) -> np.ndarray:
        return kern.repair_chunk(peer_old, peer_new, rem, add, d0, min(N, d0 + CHUNK) - d0, mh, ps,
                                 *before.arrays, arr, hops, au, ad)

    width = max(1, min(workers or os.cpu_count() or 1, -(-N // CHUNK)))
    olds = before.arrays
    if copy is not None and [(c.shape, c.dtype) for c in copy] != [(a.shape, a.dtype) for a in olds]:
        raise ValueError("the copy given to repair is not of the routes' arrays (shapes or types differ)")
    # the new routes start as the old ones, copied by every thread (memory.copy_slabs)
    arr, hops, au, ad = copy if copy is not None else memory.copy_slabs(olds, width)
    with ThreadPoolExecutor(max_workers=width) as pool:      # (no thread starts unless used)
        parts = list((pool.map if width > 1 else map)(chunk, range(0, N, CHUNK)))
    cells = np.concatenate(parts) if parts else np.zeros((0, 3), np.int32)
    if len(cells):
        cells = cells[np.lexsort((cells[:, 0], cells[:, 2], cells[:, 1]))]
    return Repaired(UroRoutes(schedule, p, arr, hops, au, ad), cells)


def warm_kernel() -> None:
    """Load :func:`repair`'s compiled kernel into this process now (a tiny schedule's routes
    repaired after a cut cable), so that no failure's routes pay its load -- or its compile,
    where numba's cache is empty (a fresh install: ~16 s on an idle 2-core machine, where
    loading it from the cache takes 0.05 s). The daemon calls it at start with
    :func:`controller.routing.uro.warm_kernels` (:func:`controller.daemon.plan.warm`)."""
    sched = round_robin(8, 2)
    repair(compute(sched, UroParams(), engine="numba", workers=1), without(sched, Failed(uplinks=frozenset({(1, 0)}))),
           workers=1)


def changed_cells(a: UroRoutes, b: UroRoutes) -> np.ndarray:
    """The cells ``(arrival slice, ToR, destination)`` whose alternatives differ between two
    route sets of one shape (what :attr:`Repaired.cells` lists), in the same order.
    Compared slice by slice: the masks of one slice at a time (10 MiB at (1024, 32),
    K = 10) instead of the whole cycle's (0.7 GiB)."""
    parts = []
    for t in range(a.alt_uplink.shape[0]):
        diff = (a.alt_uplink[t] != b.alt_uplink[t]).any(-1) | (a.alt_dep[t] != b.alt_dep[t]).any(-1)
        x, d = np.nonzero(diff)
        parts.append(np.stack([np.full(len(x), t), x, d], axis=1).astype(np.int32))
    cells = np.concatenate(parts) if parts else np.zeros((0, 3), np.int32)
    return cells[np.lexsort((cells[:, 0], cells[:, 2], cells[:, 1]))] if len(cells) else cells.reshape(0, 3)
