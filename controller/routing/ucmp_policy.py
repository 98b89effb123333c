"""Which tied paths and which hop-count levels a UCMP group keeps (UCMP App. A Alg. 1, §5.1):
pure post-processing of one destination chunk of the group engines' output, the same
function for both engines (numba kernel and NumPy reference), so they agree by
construction on everything it decides.

Ties (``ties``):

* ``"last-hop"`` (default, the paper's method): Alg. 1 builds each n-hop path as
  p_min^{n-1}(src, last) + (last -> dst), so a group holds *one* n-hop path per last-hop
  ToR; the paper's released artifact does the same (one path per distinct last-hop ToR).
  Of the tied walks into one last-hop ToR, the one kept is the first in the engines'
  canonical path order: earliest send slice at the source, then lowest uplink, then the
  same for the next hop, and so on. Why that one: it is the artifact's rule at the source
  ("the earliest connection from the source", the packet leaves its source queue first),
  it is deterministic and independent of engine and thread order, and among paths of the
  same latency it holds the source's calendar queue the shortest. A level has at most
  ``d`` last-hop ToRs (the ToRs the destination's ``d`` uplinks meet in the delivery
  slice). The engines enumerate up to ``tie_search`` tied walks per level to find them;
  a level whose enumeration hit that bound may miss a last-hop ToR and is reported capped.
* ``"all"``: every tied walk (up to ``max_parallel``), including different prefixes into
  the same last-hop ToR: uro's earlier behaviour.

Where a cap binds (the rule both engines follow, so their tables are identical): a
level's tied walks are taken in the canonical order above (the compiled engine's
depth-first order; the NumPy reference keeps each level's first walks in that order
round by round). ``"last-hop"``: the first ``tie_search`` walks are examined -- every
walk counts, also one into a last-hop ToR already kept -- and the level is capped if it
has more; of those, each last-hop ToR keeps its first walk, and the first
``max_parallel`` last-hop ToRs in that order are kept (capped if a further one
appears). ``"all"``: the first ``max_parallel`` walks (capped if there are more).

Levels (``levels``):

* ``"envelope"`` (default, as the artifact): a hop-count level whose uniform-cost line
  ``L + n x`` (Eq. 2) lies strictly above the lower envelope for every flow size x >= 0 is
  never selected by any flow and is dropped. A *collinear* level -- its line passes
  through a break point of the envelope, where it ties the two envelope neighbours at
  exactly one flow size -- is kept, as the artifact keeps it. It serves no bucket of its
  own: buckets are half-open and at the break point the member with fewer hops wins
  (:func:`controller.routing.envelope.envelope`), so it has no source-route entry; it stays
  in the group (and in its statistics) as the tie it is.
* ``"all"``: every level Properties 1-3 admit (uro's earlier behaviour).
"""

from __future__ import annotations

import numpy as np

from controller.routing.envelope import on_envelope_cached, unique_rows

TIES = ("last-hop", "all")
LEVELS = ("envelope", "all")


def last_hops(lv_n: np.ndarray, lv_src: np.ndarray, p_lv: np.ndarray, hop_node: np.ndarray) -> np.ndarray:
    """The last-hop ToR of every path: the node before the destination (the source for a
    1-hop path)."""
    n = lv_n[p_lv].astype(np.int64)
    if p_lv.size == 0:
        return np.zeros(0, np.int64)
    prev = hop_node[np.arange(p_lv.size), np.maximum(n - 2, 0)].astype(np.int64)
    return np.where(n >= 2, prev, lv_src[p_lv].astype(np.int64))


def first_per_key(p_lv: np.ndarray, key: np.ndarray, cap: int) -> tuple[np.ndarray, np.ndarray]:
    """(paths kept, levels that lost a distinct key to ``cap``): per level the first path of
    every distinct ``key`` in the given path order, at most ``cap`` keys per level.
    Paths must be grouped by level (the engines list them so)."""
    P = p_lv.size
    if P == 0:
        return np.zeros(0, bool), np.zeros(0, np.int64)
    order = np.lexsort((np.arange(P), key, p_lv))            # stable: first path of each (level, key)
    lv_o, k_o = p_lv[order], key[order]
    first = np.r_[True, (lv_o[1:] != lv_o[:-1]) | (k_o[1:] != k_o[:-1])]
    cand = order[first]                                      # one path per (level, key), level-grouped
    cand = np.sort(cand)                                     # back to the engine's path order
    lv_c = p_lv[cand]
    start = np.flatnonzero(np.r_[True, lv_c[1:] != lv_c[:-1]])
    rank = np.arange(cand.size) - np.repeat(start, np.diff(np.r_[start, cand.size]))
    keep = np.zeros(P, bool)
    keep[cand[rank < cap]] = True
    return keep, np.unique(lv_c[rank >= cap])


def envelope_levels(lv_gid: np.ndarray, lv_hops: np.ndarray, lv_lat: np.ndarray) -> np.ndarray:
    """Mask of the levels on the lower envelope of their group's uniform-cost lines
    (collinear ones included); see the module docstring."""
    L = lv_gid.size
    keep = np.ones(L, bool)
    if L == 0:
        return keep
    order = np.lexsort((lv_hops, lv_gid))
    g = lv_gid[order]
    start = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
    count = np.diff(np.r_[start, L])
    pos = np.arange(L) - np.repeat(start, count)
    width = int(count.max())
    if width < 3:
        return keep                                          # 1 or 2 levels: both always on the envelope
    row = np.repeat(np.arange(start.size), count)
    lat = lv_lat[order].astype(np.int64)
    lat_min = np.minimum.reduceat(lat, start)
    prof = np.full((start.size, 2 * width), -1, np.int32)
    prof[row, 2 * pos] = lv_hops[order]
    prof[row, 2 * pos + 1] = lat - np.repeat(lat_min, count)
    uniq, inv = unique_rows(prof)                            # a few hundred distinct profiles
    on = np.ones(uniq.shape[0] * width, bool).reshape(uniq.shape[0], width)
    for i, u in enumerate(uniq):
        mem = [(int(u[2 * j]), int(u[2 * j + 1])) for j in range(width) if u[2 * j] >= 0]
        on[i, :len(mem)] = on_envelope_cached(tuple(mem))
    keep[order] = on[inv.ravel()[row], pos]
    return keep


def apply(out: tuple, ties: str, levels: str, cap: int, n_tors: int) -> tuple:
    """The engines' chunk tuple ``(lv_n, lv_t, lv_src, lv_dst, target, capped, p_lv, hn,
    hu, hs, reached, fixed)`` with the ties and levels policies applied (levels renumbered).
    ``cap``: paths (``"all"``) or last-hop ToRs (``"last-hop"``) kept per level."""
    return apply_levels(apply_ties(out, ties, cap), levels, n_tors)


def apply_ties(out: tuple, ties: str, cap: int) -> tuple:
    """The ties policy of :func:`apply` alone (the compiled engine applies it while it
    walks: ``ucmp_kernel.group_walks``' ``keycap``)."""
    if ties != "last-hop":
        return out
    lv_n, lv_t, lv_src, lv_dst, target, capped, p_lv, hn, hu, hs, reached, fixed = out
    capped = np.asarray(capped, bool).copy()
    keep, cut = first_per_key(p_lv, last_hops(lv_n, lv_src, p_lv, hn), cap)
    capped[cut] = True
    p_lv, hn, hu, hs = p_lv[keep], hn[keep], hu[keep], hs[keep]
    return lv_n, lv_t, lv_src, lv_dst, target, capped, p_lv, hn, hu, hs, reached, fixed


def apply_levels(out: tuple, levels: str, n_tors: int) -> tuple:
    """The levels policy of :func:`apply` alone."""
    lv_n, lv_t, lv_src, lv_dst, target, capped, p_lv, hn, hu, hs, reached, fixed = out
    if levels == "envelope":
        gid = (lv_t.astype(np.int64) * n_tors + lv_src) * n_tors + lv_dst
        lat = target.astype(np.int64) - lv_t + 1
        lk = envelope_levels(gid, lv_n, lat)
        if not lk.all():
            new = np.cumsum(lk) - 1
            pk = lk[p_lv]
            p_lv, hn, hu, hs = new[p_lv[pk]], hn[pk], hu[pk], hs[pk]
            lv_n, lv_t, lv_src, lv_dst, target, capped = (a[lk] for a in (lv_n, lv_t, lv_src, lv_dst, target, capped))
    return lv_n, lv_t, lv_src, lv_dst, target, capped, p_lv, hn, hu, hs, reached, fixed
