"""Direct routing (UCMP Fig. 1c): wait at the source for the direct circuit.

One 1-hop path per (t, src, dst): the first slice >= t in which src has a circuit to
dst. Latency (Eq. 1) is up to a whole cycle; hop count is always 1.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from controller.routing.base import SOURCE, register
from controller.routing.paths import REGULAR, PathRoutes, assemble, group_id, meeting_table
from controller.schedule.model import Schedule


@dataclass(frozen=True)
class DirectParams:
    """Direct routing has no knobs."""


@register("direct", SOURCE, DirectParams, "wait at the source for the direct circuit (UCMP Fig. 1c)")
def compute(sched: Schedule, params: DirectParams | None = None, progress=None) -> PathRoutes:
    S, N, _ = sched.peer.shape
    wait, upl = meeting_table(sched)
    t, src, dst = np.meshgrid(np.arange(S), np.arange(N), np.arange(N), indexing="ij")
    ok = (src != dst) & (wait >= 0)
    t, src, dst = t[ok], src[ok], dst[ok]
    dep = t + wait[t, src, dst]
    gid = group_id(t, src, dst, N)
    P = gid.size
    return assemble(
        sched, "direct", {}, gid, np.zeros(P, np.int32), np.full(P, REGULAR, np.int8),
        np.ones(P, np.int16), dep - t + 1,
        dst[:, None].astype(np.int32), upl[t, src, dst][:, None], dep[:, None].astype(np.int32),
    )
