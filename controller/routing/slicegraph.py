"""One slice's circuits as a static graph: BFS distances and k shortest simple paths.

KSP and the Opera-style router (UCMP §2.2) treat the topology of a slice as a static
expander; these helpers give them hop distances for all pairs at once (bit-packed
BFS) and Yen-equivalent k shortest *simple* paths by hop count (a DFS over paths of
growing length, pruned by the distance to the destination).
"""

from __future__ import annotations

import numpy as np

from controller.schedule.model import Schedule

UNREACHABLE = np.int16(32767)


def adjacency(sched: Schedule, s: int, skip_uplink: int | None = None) -> np.ndarray:
    """``peer[s]`` with the uplink ``skip_uplink`` removed (its circuits set to -1)."""
    peer = sched.peer[s % sched.n_slices].copy()
    if skip_uplink is not None:
        peer[:, skip_uplink] = -1
    return peer


def distances(peer: np.ndarray) -> np.ndarray:
    """All-pairs hop distances of the graph ``peer[N, d]`` (UNREACHABLE if none)."""
    N, d = peer.shape
    dist = np.full((N, N), UNREACHABLE, dtype=np.int16)
    np.fill_diagonal(dist, 0)
    reach = np.eye(N, dtype=bool)
    level = 0
    while True:
        nxt = reach.copy()
        for j in range(d):
            ok = peer[:, j] >= 0
            nxt[ok] |= reach[peer[ok, j]]
        new = nxt & ~reach
        if not new.any():
            return dist
        level += 1
        dist[new] = level
        reach = nxt


def k_shortest(
    peer: np.ndarray, dist: np.ndarray, src: int, dst: int, k: int, max_len: int | None = None
) -> list[tuple[tuple[int, int], ...]]:
    """The ``k`` shortest simple paths src -> dst as ((next ToR, uplink), ...), shortest
    first, ties in uplink order; paths longer than ``max_len`` are not returned."""
    base = int(dist[src, dst])
    if base >= UNREACHABLE:
        return []
    N, d = peer.shape
    limit_cap = N - 1 if max_len is None else min(max_len, N - 1)
    found: list[tuple[tuple[int, int], ...]] = []
    length = base
    while length <= limit_cap and len(found) < k:
        # all simple paths of exactly ``length`` hops, in DFS (uplink) order
        stack = [(src, (), frozenset((src,)))]
        exact: list[tuple[tuple[int, int], ...]] = []
        while stack and len(found) + len(exact) < k:
            x, hops, seen = stack.pop()
            left = length - len(hops)
            for j in range(d - 1, -1, -1):  # reversed push -> uplink order on pop
                y = int(peer[x, j])
                if y < 0 or y in seen:
                    continue
                if y == dst:
                    if left == 1:
                        exact.append(hops + ((y, j),))
                    continue
                if left - 1 >= int(dist[y, dst]) and left > 1:
                    stack.append((y, hops + ((y, j),), seen | {y}))
        exact.sort(key=lambda p: [j for _, j in p])
        found.extend(exact[: k - len(found)])
        length += 1
    return found


def next_hops(peer: np.ndarray, dist: np.ndarray) -> np.ndarray:
    """``nh[x, dst]``: the lowest uplink of x on a shortest path to dst (-1 if none)."""
    N, d = peer.shape
    nh = np.full((N, N), -1, dtype=np.int16)
    want = dist.astype(np.int32) - 1
    for j in range(d - 1, -1, -1):
        y = peer[:, j]
        ok = y >= 0
        good = np.zeros((N, N), dtype=bool)
        good[ok] = dist[y[ok]].astype(np.int32) == want[ok]
        good &= dist < UNREACHABLE
        nh[good] = j
    np.fill_diagonal(nh, -1)
    return nh


class SliceGraphs:
    """Per-slice (peer, dist, next hop) tables, built lazily and cached."""

    def __init__(self, sched: Schedule, skip_uplink=None):
        self.sched = sched
        self.skip = skip_uplink  # callable slice -> uplink to drop, or None
        self._cache: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}

    def __call__(self, s: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        s %= self.sched.n_slices
        if s not in self._cache:
            peer = adjacency(self.sched, s, self.skip(s) if self.skip else None)
            dist = distances(peer)
            self._cache[s] = (peer, dist, next_hops(peer, dist))
        return self._cache[s]
