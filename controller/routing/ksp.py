"""K-shortest-path routing per slice graph (UCMP §2.2, Fig. 1e; Jellyfish-style KSP).

A packet starting at (src, t) follows one of the k shortest simple paths (hop count)
of the *static* graph of slice t, split by flow hash. It makes at most h_slice hops
per slice; when the slice ends before it arrives, the circuits change and it is
re-routed from where it is along a shortest path of the next slice's graph (and so
on). The recorded path is the one the packet really takes, hop by hop with its send
slices, so hop counts include the re-routing detours.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from controller.errors import UroError
from controller.routing.base import SOURCE, register
from controller.routing.paths import REGULAR, PathRoutes, assemble, group_id
from controller.routing.slicegraph import UNREACHABLE, SliceGraphs, k_shortest
from controller.schedule.model import Schedule


def ride(graphs: SliceGraphs, src: int, dst: int, t: int, first: tuple, H: int, horizon: int) -> list | None:
    """Hops (next ToR, uplink, send slice) of a packet that starts on ``first``."""
    hops = []
    x, s, budget = src, t, H
    for y, j in first:
        if budget == 0:
            break
        hops.append((y, j, s))
        x, budget = y, budget - 1
    while x != dst:
        if budget == 0:
            s, budget = s + 1, H
        if s - t >= horizon:
            return None
        peer, dist, nh = graphs(s)
        if dist[x, dst] >= UNREACHABLE:
            s, budget = s + 1, H
            continue
        j = int(nh[x, dst])
        y = int(peer[x, j])
        hops.append((y, j, s))
        x, budget = y, budget - 1
    return hops


def pack(sched: Schedule, algo: str, params: dict, groups: list) -> PathRoutes:
    """groups: [(gid, t, [hops, ...])] -> PathRoutes (one member per group)."""
    S, N, _ = sched.peer.shape
    rows = [(g, t, h) for g, t, paths in groups for h in paths]
    P = len(rows)
    width = max((len(h) for _, _, h in rows), default=1)
    hn = np.full((P, width), -1, np.int32)
    hu = np.full((P, width), -1, np.int16)
    hs = np.full((P, width), -1, np.int32)
    gid = np.empty(P, np.int64)
    nh = np.empty(P, np.int16)
    lat = np.empty(P, np.int64)
    for i, (g, t, h) in enumerate(rows):
        gid[i] = g
        nh[i] = len(h)
        lat[i] = h[-1][2] - t + 1
        for k, (y, j, s) in enumerate(h):
            hn[i, k], hu[i, k], hs[i, k] = y, j, s
    return assemble(sched, algo, params, gid, np.zeros(P, np.int32), np.full(P, REGULAR, np.int8),
                    nh, lat, hn, hu, hs)


def todo_groups(S: int, N: int, sample: int | None, seed: int) -> dict[tuple[int, int], list[int]]:
    """(t, src) -> destinations to route: all, or a seeded sample of the groups."""
    total = S * N * (N - 1)
    if sample is None or sample >= total:
        return {(t, s): [x for x in range(N) if x != s] for t in range(S) for s in range(N)}
    if sample < 1:
        raise UroError(f"sample must be a positive number of groups, got {sample!r}")
    pick = np.sort(np.random.default_rng(seed).choice(total, size=sample, replace=False))
    t, rest = np.divmod(pick, N * (N - 1))
    src, k = np.divmod(rest, N - 1)
    dst = k + (k >= src)
    out: dict[tuple[int, int], list[int]] = {}
    for a, b, c in zip(t.tolist(), src.tolist(), dst.tolist()):
        out.setdefault((a, b), []).append(c)
    return out


@dataclass(frozen=True)
class KspParams:
    """``paths``: k shortest paths per group (flow-hash split); ``hops_per_slice``: h_slice
    (None: from the timing); ``sample``/``seed``: route only a seeded sample of that many
    (slice, src, dst) groups (these schemes run in Python)."""

    paths: int = 1
    hops_per_slice: int | None = None
    sample: int | None = None
    seed: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.paths, int) or self.paths < 1:
            raise UroError(f"--paths (k shortest paths) must be >= 1, got {self.paths!r}")


def _slice_groups(sched: Schedule, k: int, H: int, t: int, todo_t: dict, graphs: SliceGraphs | None = None) -> list:
    """The groups starting in slice ``t`` (``todo_t``: src -> destinations): a pure function,
    so slices may run as chunks anywhere (``uro compare --cluster``)."""
    S, N, _ = sched.peer.shape
    graphs = graphs or SliceGraphs(sched)
    peer, dist, _ = graphs(t)
    groups = []
    for src in range(N):
        for dst in todo_t.get(src, ()):
            firsts = k_shortest(peer, dist, src, dst, k) if dist[src, dst] < UNREACHABLE else [()]
            paths = [p for p in (ride(graphs, src, dst, t, f, H, 2 * S) for f in firsts) if p]
            if paths:
                groups.append((group_id(t, src, dst, N), t, paths))
    return groups


@register("ksp", SOURCE, KspParams, "k shortest paths per slice graph, re-routed per slice (UCMP Fig. 1e)")
def compute(sched: Schedule, params: KspParams | None = None, progress=None, executor=None) -> PathRoutes:
    """All groups, or a seeded uniform sample of ``params.sample`` (t, src, dst) groups.
    ``executor`` (a Dask client, :mod:`controller.routing.distributed`): run the slices there."""
    params = params or KspParams()
    k, sample, seed = params.paths, params.sample, params.seed
    S, N, _ = sched.peer.shape
    H = params.hops_per_slice or sched.timing.hops_per_slice
    todo = todo_groups(S, N, sample, seed)
    if executor is not None:  # slices as chunks on the cluster, groups gathered in slice order
        per_t = [{src: todo[(t, src)] for src in range(N) if (t, src) in todo} for t in range(S)]
        shared = executor.share(sched)
        groups = [g for part in executor.map_ordered(_slice_task, list(zip(range(S), per_t)), shared, k, H)
                  for g in part]
        if progress is not None:
            progress(sum(len(v) for v in todo.values()))
        return pack(sched, "ksp", {"paths": k, "hops_per_slice": H}, groups)
    graphs = SliceGraphs(sched)
    groups = []
    for t in range(S):
        todo_t = {src: todo[(t, src)] for src in range(N) if (t, src) in todo}
        groups += _slice_groups(sched, k, H, t, todo_t, graphs)
        if progress is not None:
            progress(sum(len(v) for v in todo_t.values()))
    return pack(sched, "ksp", {"paths": k, "hops_per_slice": H}, groups)


def _slice_task(item: tuple, sched: Schedule, k: int, H: int) -> list:
    t, todo_t = item
    return _slice_groups(sched, k, H, t, todo_t)
