"""Exhaustive search over the time-expanded graph: the ground truth for small schedules.

For one source ToR and start slice it enumerates every reachable state
``(tor, slice, hops, in-slice hops)`` up to two cycles ahead and returns, per
destination, the lexicographically best ``(arrival slice, hops)``. Exponential in
nothing, but keeps whole Pareto sets, so use it on N <= ~16 (tests, cross-checks).
"""

from __future__ import annotations

from controller.schedule.model import Schedule


def best_labels(
    sched: Schedule, src: int, t0: int, max_hops: int | None = None, hops_per_slice: int | None = None
) -> dict[int, tuple[int, int]]:
    """``{dst: (arrival slice, hops)}`` of the optimal constrained path from (src, t0)."""
    S, N, d = sched.peer.shape
    # an optimal path never revisits a ToR (cut the loop and wait instead), so N-1 hops
    # suffice; the cap keeps the in-slice search finite
    M = min(max_hops or N, N - 1)
    H = min(hops_per_slice or N, N - 1)
    best: dict[int, tuple[int, int]] = {src: (t0, 0)}
    states = {(src, 0)}  # (tor, hops) at the start of slice s, in-slice hops = 0
    # each hop of an optimal path departs at most a cycle after the one before (a later
    # departure could take the same circuit a cycle earlier), so N cycles reach every
    # destination that is reachable at all: on a degraded schedule a path may wait for
    # circuits cycle after cycle
    for s in range(t0, t0 + max(2, N) * S + 1):
        peer = sched.peer[s % S]
        seen = {(x, h, 0) for x, h in states}
        frontier = list(seen)
        while frontier:
            nxt = []
            for x, h, lead in frontier:
                if h + 1 > M or lead + 1 > H:
                    continue
                for u in range(d):
                    y = int(peer[x, u])
                    if y < 0:
                        continue
                    st = (y, h + 1, lead + 1)
                    if st in seen:
                        continue
                    seen.add(st)
                    nxt.append(st)
                    if y not in best or (s, h + 1) < best[y]:
                        best[y] = (s, h + 1)
            frontier = nxt
        states = {(x, h) for x, h, _ in seen}
        if len(best) == N and s >= t0 + S:
            break
    return best


def all_paths(
    sched: Schedule, src: int, dst: int, t0: int, max_hops: int, hops_per_slice: int, horizon: int | None = None
) -> list[tuple[tuple[int, int, int], ...]]:
    """Every simple path src -> dst starting at slice ``t0`` with at most ``max_hops`` hops
    and at most ``hops_per_slice`` hops inside one slice, delivered before
    ``t0 + horizon`` (default: one cycle). Hops are (next ToR, uplink, absolute send
    slice). Exponential: for tiny schedules only (the UCMP property tests)."""
    S, N, d = sched.peer.shape
    end = t0 + (horizon or S)
    out: list[tuple[tuple[int, int, int], ...]] = []

    def walk(u: int, tau: int, left: int, hops: tuple, seen: frozenset) -> None:
        if len(hops) >= max_hops:
            return
        for s in range(tau, end):
            budget = left if s == tau else hops_per_slice
            if budget < 1:
                continue
            for j in range(d):
                w = int(sched.peer[s % S, u, j])
                if w < 0 or w in seen:
                    continue
                h = hops + ((w, j, s),)
                if w == dst:
                    out.append(h)
                else:
                    walk(w, s, budget - 1, h, seen | {w})

    walk(src, t0, hops_per_slice, (), frozenset({src}))
    return out
