"""URO labels (URO §III) and their packed form, shared by the NumPy engine
(:mod:`controller.routing.uro`), the compiled kernels (:mod:`controller.routing.uro_kernel`,
driven by :mod:`controller.routing.uro_chunks`) and the label-by-label repair after a
failure (:mod:`controller.routing.uro_incremental_kernel`).

A label of (ToR, slice, destination) is ``(arrival slice, hops, in-slice hops)``, ordered
lexicographically; it is packed into one int64 key ``arrival << ARR | hops << HOP |
in-slice hops`` so that comparing keys compares labels, and one more hop (one more in the
slice) is ``key + ONE_HOP``.
"""

from __future__ import annotations

import numpy as np

from controller.schedule.model import Schedule

#: bit offsets of the arrival slice and of the hop count in a label key (in-slice hops: bits 0-7)
ARR = 16
HOP = 8
#: one more hop, one more in-slice hop
ONE_HOP = (1 << HOP) | 1
#: a hop bound that does not bind (the hop fields are 8 bits)
UNBOUNDED = 255
#: label of a destination a ToR cannot reach at all (only in a degraded schedule, where
#: failures removed every path): it is never offered to a neighbour and never grows
NEVER = ((1 << 15) - 1) << ARR
#: a key AND this: the in-slice hops cleared (the label carried into a later slice)
CLEAR_IN_SLICE = ~np.int64((1 << HOP) - 1)


def dep_dtype(n_slices: int) -> type:
    """The dtype of a route set's departure slices (``UroRoutes.alt_dep``) for a cycle of
    ``n_slices``: int16 where it holds them, else int32.

    A departure is an absolute slice below ``2 S - 1`` (an arrival slice ``t < S`` and a
    wait below one cycle: an alternative that would wait a full cycle is dropped), so int16
    holds every schedule of up to 16,384 slices. At (1024, 32) with K = 10 that is 0.64 GiB
    of a route set's 1.1 GiB instead of 1.28 of 1.75 GiB: the daemon holds two or three
    route sets around a failure, and a repair copies one."""
    return np.int16 if 2 * n_slices - 1 <= np.iinfo(np.int16).max else np.int32


def direct_labels(sched: Schedule) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Labels of slice 0 using direct circuits only: a valid upper bound to start from.

    Returns flat (key, dep, uplink) arrays indexed ``x * N + dst`` whose arrival is the
    first slice >= 0 in which x and dst share a circuit.
    """
    peer = sched.peer
    S, N, d = peer.shape
    # the earliest (slice, uplink) of every circuit x -> y: min of t * d + u per cell
    t, x, u = np.nonzero(peer >= 0)
    code = np.full(N * N, S * d, dtype=np.int64)
    np.minimum.at(code, x.astype(np.int64) * N + peer[t, x, u], t.astype(np.int64) * d + u)
    code = code.reshape(N, N)
    cur_dep = np.where(code < S * d, code // d, 1 << 20)
    cur_upl = np.where(code < S * d, code % d, -1).astype(np.int8)
    never = cur_dep >= (1 << 20)  # no direct circuit at all (degraded schedules only)
    key = np.where(never, NEVER, (cur_dep << ARR) | (1 << HOP) | 1)
    cur_dep[never] = -1
    return key.reshape(-1), cur_dep.reshape(-1).astype(np.int32), cur_upl.reshape(-1)
