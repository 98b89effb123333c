"""Valiant load balancing, two-phase (RotorNet §3 / UCMP §2.2, Fig. 1d).

Phase 1: the source sprays over the circuits it has *in the arrival slice* (one path
per intermediate, split by flow hash -- the random intermediate). Phase 2: each
intermediate waits for its direct circuit to the destination. When the source has a
direct circuit to the destination in the arrival slice, that 1-hop path is used
(VLB's path space contains the 1-hop paths). A second hop in the same slice needs an
in-slice budget of two hops (h_slice >= 2), otherwise it waits for a later slice.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from controller.routing.base import SOURCE, register
from controller.routing.paths import REGULAR, PathRoutes, assemble, group_id, meeting_table
from controller.schedule.model import Schedule


@dataclass(frozen=True)
class VlbParams:
    """``hops_per_slice``: in-slice hop budget h_slice (None: from the schedule's timing)."""

    hops_per_slice: int | None = None


@register("vlb", SOURCE, VlbParams, "two-phase Valiant load balancing (RotorNet, UCMP Fig. 1d)")
def compute(sched: Schedule, params: VlbParams | None = None, progress=None) -> PathRoutes:
    params = params or VlbParams()
    S, N, d = sched.peer.shape
    H = params.hops_per_slice or sched.timing.hops_per_slice
    wait, upl = meeting_table(sched)
    rows = []
    t, src, dst = (a.ravel() for a in np.meshgrid(np.arange(S), np.arange(N), np.arange(N), indexing="ij"))
    off = src != dst
    t, src, dst = t[off], src[off], dst[off]
    gid = group_id(t, src, dst, N)
    direct = wait[t, src, dst] == 0
    # 1-hop where the direct circuit is up now
    i = np.flatnonzero(direct)
    rows.append((gid[i], np.ones(i.size, np.int16), np.ones(i.size, np.int64),
                 np.stack([dst[i], np.full(i.size, -1)], 1), np.stack([upl[t[i], src[i], dst[i]], np.full(i.size, -1)], 1),
                 np.stack([t[i], np.full(i.size, -1)], 1)))
    i = np.flatnonzero(~direct)
    for j in range(d):
        w = sched.peer[t[i], src[i], j]
        ok = (w >= 0) & (w != dst[i])
        ii, w = i[ok], w[ok]
        start = t[ii] + (0 if H >= 2 else 1)
        w2 = wait[start % S, w, dst[ii]]
        good = w2 >= 0
        ii, w, start, w2 = ii[good], w[good], start[good], w2[good]
        a2 = start + w2
        rows.append((gid[ii], np.full(ii.size, 2, np.int16), a2 - t[ii] + 1,
                     np.stack([w, dst[ii]], 1), np.stack([np.full(ii.size, j), upl[start % S, w, dst[ii]]], 1),
                     np.stack([t[ii], a2], 1)))
    g, h, lat, hn, hu, hs = (np.concatenate([r[k] for r in rows]) for k in range(6))
    return assemble(sched, "vlb", {"hops_per_slice": H}, g, np.zeros(g.size, np.int32),
                    np.full(g.size, REGULAR, np.int8), h, lat, hn, hu, hs)
