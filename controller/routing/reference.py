"""The paper-faithful URO routing: backtracking ROUTING / SUBPATH of URO Alg. 1.

Kept as the baseline the fast engine (:mod:`controller.routing.uro`) is checked and
benchmarked against. It follows the pseudo-code of URO §III-B line by line, with the
evident fixes of its typos (a found sub-path includes the intermediate ToR ``r``; the
direct path is the case ``r == src``). Like the paper it assumes each ToR pair meets
at most once per cycle: ``t_(s,d)`` is the earliest slice >= t0 in which s and d share a
circuit. It knows nothing of per-slice hop budgets and returns one full path per query.
"""

from __future__ import annotations

import numpy as np

from controller.schedule.model import Schedule


class Reference:
    """URO Alg. 1 for one schedule; ``route(src, dst, t0)`` answers one query."""

    def __init__(self, sched: Schedule, max_hops: int = 4) -> None:
        self.sched = sched
        self.max_hops = max_hops
        S, N, d = sched.peer.shape
        meets = sched.meets()  # [s, a, b]
        # first[s0, a, b] = earliest absolute slice >= s0 with a circuit a-b (s0 in [0,S))
        first = np.full((S, N, N), 1 << 30, dtype=np.int64)
        nxt = np.full((N, N), 1 << 30, dtype=np.int64)
        for t in range(2 * S - 1, -1, -1):
            nxt = np.where(meets[t % S], t, nxt)
            if t < S:
                first[t] = nxt
        self._first = first

    def _t(self, t0: int, a: int, b: int) -> int:
        S = self.sched.n_slices
        return int(self._first[t0 % S, a, b]) + (t0 // S) * S

    def route(self, src: int, dst: int, t0: int) -> list[int] | None:
        """ROUTING(src, dst, t0): the fastest path, fewest hops among the fastest."""
        if src == dst:
            return [src]
        N = self.sched.n_tors
        M = self.max_hops
        tt = {r: self._t(t0, r, dst) for r in range(N) if r != dst}

        def subpath(r: int, t: int, level: int, suffix: list[int]) -> list[int] | None:
            # level = hops from r to dst along suffix
            if r == src:
                return [src] + suffix if level <= M else None
            if level + 1 > M:
                return None
            if self._t(t0, src, r) <= t:
                return [src, r] + suffix
            feasible = []
            for r2 in range(N):
                if r2 == r or r2 in suffix:
                    continue
                t2 = self._t(t0, r2, r)
                if t2 <= t:
                    p = subpath(r2, t2, level + 1, [r] + suffix)
                    if p is not None:
                        feasible.append(p)
            return min(feasible, key=len) if feasible else None

        path: list[int] | None = None
        min_time = None
        for r in sorted(tt, key=lambda r: tt[r]):
            if path is not None and tt[r] > min_time:
                return path
            min_time = tt[r]
            p = subpath(r, tt[r], 1, [dst])
            if p is not None and (path is None or len(p) < len(path)):
                path = p
        return path

    def latency(self, path: list[int], t0: int) -> tuple[int, int]:
        """(arrival slice, hops) of a path found by :meth:`route` from slice t0."""
        if len(path) == 1:
            return t0, 0
        return self._t(t0, path[-2], path[-1]), len(path) - 1
