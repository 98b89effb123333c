"""Opera-style routing (Opera NSDI'20 §3-4, as summarised in UCMP §2.2, Fig. 1f).

Opera never lets a packet cross a reconfiguration: a path is only used when all of
its circuits stay up for the whole path duration. Here that means the whole path is
sent inside one slice (at most h_slice hops) on the slice's *stable* circuits -- on a
staggered (Opera) schedule the OCS that reconfigures during the slice (uplink
``t mod d``) is left out, which is the 1/d of circuits Opera gives up. If no such
path exists at the start slice, the source waits for the next slice; if none exists
within a cycle, it waits for the direct circuit (Opera's bulk mode). k = 1 takes the
shortest path, k > 1 the k shortest (flow-hash split). Opera's long-flow VLB mode is
the ``vlb`` scheme.
"""

from __future__ import annotations

from controller.errors import UroError
from controller.routing.ksp import todo_groups, pack
from controller.routing.paths import PathRoutes
from controller.routing.paths import meeting_table
from controller.routing.slicegraph import SliceGraphs, k_shortest
from controller.schedule.model import Schedule


def compute(
    sched: Schedule, k: int = 1, hops_per_slice: int | None = None, progress=None, sample: int | None = None, seed: int = 0
) -> PathRoutes:
    """All groups, or a seeded uniform sample of ``sample`` (t, src, dst) groups."""
    if not isinstance(k, int) or k < 1:
        raise UroError(f"Opera needs k >= 1 paths, got {k!r}")
    S, N, d = sched.peer.shape
    H = hops_per_slice or sched.timing.hops_per_slice
    staggered = any(o > 0 for o in sched.uplink_offsets)
    graphs = SliceGraphs(sched, (lambda s: s % d) if staggered and d > 1 else None)
    groups = []
    todo = todo_groups(S, N, sample, seed)
    wait, upl = meeting_table(sched)
    fallbacks = 0
    for t in range(S):
        for src in range(N):
            for dst in todo.get((t, src), ()):
                for s in range(t, t + S + 1):
                    peer, dist, _ = graphs(s)
                    if dist[src, dst] <= H:
                        firsts = k_shortest(peer, dist, src, dst, k, max_len=H)
                        paths = [[(y, j, s) for y, j in f] for f in firsts]
                        groups.append(((t * N + src) * N + dst, t, paths))
                        break
                else:
                    # no stable path within a cycle (the pair only meets on reconfiguring
                    # OCSes): wait for the direct circuit, as Opera does for bulk traffic
                    w = int(wait[t, src, dst])
                    if w >= 0:
                        groups.append(((t * N + src) * N + dst, t, [[(dst, int(upl[t, src, dst]), t + w)]]))
                        fallbacks += 1
            if progress is not None:
                progress(len(todo.get((t, src), ())))
    return pack(sched, "opera", {"k": k, "hops_per_slice": H, "skips_reconfiguring_ocs": staggered,
                                 "direct_fallbacks": fallbacks}, groups)
