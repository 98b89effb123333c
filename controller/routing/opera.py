"""Opera-style routing (Opera NSDI'20 §3-4, as summarised in UCMP §2.2, Fig. 1f).

Opera never lets a packet cross a reconfiguration: a path is only used when all of
its circuits stay up for the whole path duration. Here that means the whole path is
sent inside one slice (at most h_slice hops) on the slice's *stable* circuits. Opera's
native schedule staggers the OCSes so that one reconfigures at a time (UCMP §7.1: the
paper removes those offsets for VLB, KSP and UCMP); with ``stagger`` (the default) the
baseline models that on the same matchings: during slice ``t`` OCS ``t mod d`` is
reconfiguring and its circuits are left out, the 1/d of circuits Opera gives up. If no
such path exists at the start slice, the source waits for the next slice; if none
exists within a cycle, it waits for the direct circuit (Opera's bulk mode). k = 1
takes the shortest path, k > 1 the k shortest (flow-hash split). Opera's long-flow
VLB mode is the ``vlb`` scheme.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.errors import UroError
from controller.routing.base import SOURCE, register
from controller.routing.ksp import pack, todo_groups
from controller.routing.paths import PathRoutes, group_id, meeting_table
from controller.routing.slicegraph import SliceGraphs, k_shortest
from controller.schedule.model import Schedule


@dataclass(frozen=True)
class OperaParams:
    """``paths``: k shortest paths (flow-hash split); ``hops_per_slice``: h_slice (None:
    from the timing); ``stagger``: model Opera's staggered OCS reconfiguration (one OCS
    per slice is left out); ``sample``/``seed``: as for KSP."""

    paths: int = 1
    hops_per_slice: int | None = None
    sample: int | None = None
    seed: int = 0
    stagger: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.paths, int) or self.paths < 1:
            raise UroError(f"--paths (Opera's k paths) must be >= 1, got {self.paths!r}")


def _slice_groups(sched: Schedule, params: "OperaParams", t: int, todo_t: dict, graphs=None, meet=None) -> tuple[list, int]:
    """The groups starting in slice ``t`` (``todo_t``: src -> destinations) and how many fell
    back to the direct circuit: a pure function, so slices may run as chunks anywhere."""
    S, N, d = sched.peer.shape
    k = params.paths
    H = params.hops_per_slice or sched.timing.hops_per_slice
    staggered = params.stagger and d > 1
    graphs = graphs or SliceGraphs(sched, (lambda s: s % d) if staggered else None)
    wait, upl = meet if meet is not None else meeting_table(sched)
    groups = []
    fallbacks = 0
    for src in range(N):
        for dst in todo_t.get(src, ()):
            for s in range(t, t + S + 1):
                peer, dist, _ = graphs(s)
                if dist[src, dst] <= H:
                    firsts = k_shortest(peer, dist, src, dst, k, max_len=H)
                    paths = [[(y, j, s) for y, j in f] for f in firsts]
                    groups.append((group_id(t, src, dst, N), t, paths))
                    break
            else:
                # no stable path within a cycle (the pair only meets on reconfiguring
                # OCSes): wait for the direct circuit, as Opera does for bulk traffic
                w = int(wait[t, src, dst])
                if w >= 0:
                    groups.append((group_id(t, src, dst, N), t, [[(dst, int(upl[t, src, dst]), t + w)]]))
                    fallbacks += 1
    return groups, fallbacks


def _slice_task(item: tuple, sched: Schedule, params: "OperaParams") -> tuple[list, int]:
    t, todo_t = item
    return _slice_groups(sched, params, t, todo_t)


@register("opera", SOURCE, OperaParams, "Opera-style: whole path inside one slice on stable circuits (UCMP Fig. 1f)")
def compute(sched: Schedule, params: OperaParams | None = None, progress=None, executor=None) -> PathRoutes:
    """All groups, or a seeded uniform sample of ``params.sample`` (t, src, dst) groups.
    ``executor`` (a Dask client, :mod:`controller.routing.distributed`): run the slices there."""
    params = params or OperaParams()
    k, sample, seed = params.paths, params.sample, params.seed
    S, N, d = sched.peer.shape
    H = params.hops_per_slice or sched.timing.hops_per_slice
    staggered = params.stagger and d > 1
    todo = todo_groups(S, N, sample, seed)
    per_t = [{src: todo[(t, src)] for src in range(N) if (t, src) in todo} for t in range(S)]
    if executor is not None:  # slices as chunks on the cluster, gathered in slice order
        parts = list(executor.map_ordered(_slice_task, list(zip(range(S), per_t)), executor.share(sched), params))
        if progress is not None:
            progress(sum(len(v) for v in todo.values()))
    else:
        graphs = SliceGraphs(sched, (lambda s: s % d) if staggered else None)
        meet = meeting_table(sched)
        parts = []
        for t in range(S):
            parts.append(_slice_groups(sched, params, t, per_t[t], graphs, meet))
            if progress is not None:
                progress(sum(len(v) for v in per_t[t].values()))
    groups = [g for part, _ in parts for g in part]
    fallbacks = sum(f for _, f in parts)
    return pack(sched, "opera", {"paths": k, "hops_per_slice": H, "skips_reconfiguring_ocs": staggered,
                                 "direct_fallbacks": fallbacks}, groups)
