"""Compiled (numba) kernels of :mod:`controller.routing.ucmp_incremental`: which paths ride
a removed circuit, and which groups differ between two route sets.

Both walk the flat arrays of :class:`~controller.routing.paths.PathRoutes` once, path by
path and group by group, stopping at the first difference. The array expressions they
replace made a temporary of every path for each hop position and each compared column
(at (108, 6) towards 36 destinations, ~70K groups and their paths: a UCMP failure's
repair spent about 40 % of its time there before recomputing a single group). What they
compute is the module's docstrings'; tests/test_ucmp_incremental.py checks them against
a path-by-path reading of the arrays.
"""

from __future__ import annotations

import numba as nb
import numpy as np


@nb.njit(cache=True, nogil=True)
def riding(src: np.ndarray, hop_node: np.ndarray, hop_uplink: np.ndarray, hop_slice: np.ndarray,
           removed: np.ndarray) -> np.ndarray:
    """Per path: whether a hop departs on a removed circuit end (``removed[slice % S,
    departing ToR, uplink]``); ``src``: each path's source, the ToR its first hop departs
    from; a hop departs from the ToR the hop before reached. Hops end at the first -1."""
    P, H = hop_node.shape
    S = removed.shape[0]
    out = np.zeros(P, np.bool_)
    for p in range(P):
        prev = src[p]
        for i in range(H):
            nxt = hop_node[p, i]
            if nxt < 0:
                break
            if removed[hop_slice[p, i] % S, prev, hop_uplink[p, i]]:
                out[p] = True
                break
            prev = nxt
    return out


@nb.njit(cache=True, nogil=True)
def _hops_equal(a: np.ndarray, pa: int, b: np.ndarray, pb: int) -> bool:
    """Row ``pa`` of ``a`` against row ``pb`` of ``b``, -1 padded to widths that may
    differ: equal where both have a column, no hop (< 0) where only one has."""
    wa, wb = a.shape[1], b.shape[1]
    for i in range(max(wa, wb)):
        if i < wa and i < wb:
            if a[pa, i] != b[pb, i]:
                return False
        elif i < wa:
            if a[pa, i] >= 0:
                return False
        elif b[pb, i] >= 0:
            return False
    return True


@nb.njit(cache=True, nogil=True)
def groups_differ(g: np.ndarray,
                  a_gf: np.ndarray, a_gc: np.ndarray, a_kind: np.ndarray, a_mh: np.ndarray, a_ml: np.ndarray,
                  a_mf: np.ndarray, a_mc: np.ndarray, a_lo: np.ndarray, a_hi: np.ndarray,
                  a_ph: np.ndarray, a_pl: np.ndarray, a_hn: np.ndarray, a_hu: np.ndarray, a_hs: np.ndarray,
                  b_gf: np.ndarray, b_gc: np.ndarray, b_kind: np.ndarray, b_mh: np.ndarray, b_ml: np.ndarray,
                  b_mf: np.ndarray, b_mc: np.ndarray, b_lo: np.ndarray, b_hi: np.ndarray,
                  b_ph: np.ndarray, b_pl: np.ndarray, b_hn: np.ndarray, b_hu: np.ndarray, b_hs: np.ndarray,
                  buckets: bool) -> np.ndarray:
    """Per flat group id of ``g``: whether the group differs between route sets a and b
    (:func:`controller.routing.ucmp_incremental.changed_cells`): its member count; a
    member's kind, hop count, latency, path count or (``buckets``) bucket range; a path's
    hop count, latency or hops. ``*_gf/_gc``: the flat ``g_first``/``g_count``."""
    out = np.zeros(g.size, np.bool_)
    for k in range(g.size):
        x = g[k]
        c = a_gc[x]
        if c != b_gc[x]:
            out[k] = True
            continue
        ma, mb = a_gf[x], b_gf[x]
        for j in range(c):
            i, e = ma + j, mb + j
            if (a_kind[i] != b_kind[e] or a_mh[i] != b_mh[e] or a_ml[i] != b_ml[e] or a_mc[i] != b_mc[e]
                    or (buckets and (a_lo[i] != b_lo[e] or a_hi[i] != b_hi[e]))):
                out[k] = True
                break
            pa, pb = a_mf[i], b_mf[e]
            same = True
            for q in range(a_mc[i]):
                if (a_ph[pa + q] != b_ph[pb + q] or a_pl[pa + q] != b_pl[pb + q]
                        or not _hops_equal(a_hn, pa + q, b_hn, pb + q)
                        or not _hops_equal(a_hu, pa + q, b_hu, pb + q)
                        or not _hops_equal(a_hs, pa + q, b_hs, pb + q)):
                    same = False
                    break
            if not same:
                out[k] = True
                break
    return out
