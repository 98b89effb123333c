"""The lower envelope of UCMP's uniform-cost lines (UCMP §5.1-5.2, Eq. 2-4): a group
member with ``n`` hops and latency ``L`` (slices) costs ``L + n x`` for a flow of
normalised size ``x >= 0``; flows take the member of least cost, so the members some flow
prefers are those on the lower envelope of these lines, and a group's bucket boundaries
are the envelope's break points.

Groups are compared by their *profile* (the (hops, latency - least latency) sequence of
their members), and a schedule's groups share a few hundred profiles:
:func:`unique_rows` finds the distinct ones, and the envelope of each is computed once
(:func:`envelope_cached`). Used by the bucket computation (:mod:`controller.routing.ucmp`)
and the levels policy (:mod:`controller.routing.ucmp_policy`).
"""

from __future__ import annotations

import functools
from fractions import Fraction

import numpy as np


def envelope(members: list[tuple[int, int]]) -> list[tuple[int, Fraction]]:
    """Lower envelope of uniform-cost lines ``L + n x`` over x >= 0.

    ``members``: (hops, latency) sorted by hops ascending with strictly decreasing
    latency (Property 3). Returns [(member index, x where it starts being optimal)],
    from small x (most hops) to large x (fewest hops). At a break point the member
    with fewer hops wins (buckets are half-open ``[b_k, b_k+1)``).
    """
    idx = list(range(len(members) - 1, -1, -1))  # most hops first: optimal at x = 0
    out: list[tuple[int, Fraction]] = [(idx[0], Fraction(0))]
    cur = idx[0]
    x0 = Fraction(0)
    while True:
        n_c, l_c = members[cur]
        best = None
        for j in range(cur - 1, -1, -1):  # fewer hops
            n_j, l_j = members[j]
            x = Fraction(l_j - l_c, n_c - n_j)  # cost lines cross here
            if x < x0:
                x = x0
            if best is None or x < best[1] or (x == best[1] and n_j < members[best[0]][0]):
                best = (j, x)
        if best is None:
            return out
        cur, x0 = best
        out.append(best)


@functools.lru_cache(maxsize=65536)
def envelope_cached(members: tuple[tuple[int, int], ...]) -> list[tuple[int, Fraction]]:
    """:func:`envelope`, remembered: a schedule's groups share a few hundred profiles, and
    the schedules after one another's failures mostly the same ones. (Read only.)"""
    return envelope(list(members))


@functools.lru_cache(maxsize=65536)
def on_envelope_cached(members: tuple[tuple[int, int], ...]) -> tuple[bool, ...]:
    """:func:`on_envelope`, remembered: chunks share most of their profiles."""
    return tuple(on_envelope(list(members)))


def on_envelope(members: list[tuple[int, int]]) -> list[bool]:
    """For (hops, latency) members (hops ascending, latency strictly descending): whether
    each one's cost line ``L + n x`` touches the lower envelope at some x >= 0."""
    xs = [x for _, x in envelope(members)]
    best = [min(Fraction(lat) + n * x for n, lat in members) for x in xs]
    return [any(Fraction(lat) + n * x == b for x, b in zip(xs, best)) for n, lat in members]


def unique_rows(prof: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(unique rows of ``prof``, index of each row's unique row).

    Rows are first told apart by a 64-bit polynomial hash (a 1-D unique, fast); if two
    different rows share a hash the exact byte-wise unique is used instead."""
    if prof.size and prof.shape[1] > 1:
        from controller.routing import ucmp_kernel  # numba: loaded on first use (test_import_no_jit)

        h = ucmp_kernel.row_hashes(np.ascontiguousarray(prof, dtype=np.int64))
        _, first_of, inverse = np.unique(h, return_index=True, return_inverse=True)
        inverse = inverse.ravel()
        uniq = prof[first_of]
        if np.array_equal(uniq[inverse], prof):
            # the same unique order as the byte-wise unique: sort the unique rows by bytes
            rows_v = np.ascontiguousarray(uniq).view(np.dtype((np.void, uniq.dtype.itemsize * uniq.shape[1]))).ravel()
            order = np.argsort(rows_v, kind="stable")
            rank = np.empty_like(order)
            rank[order] = np.arange(order.size)
            return uniq[order], rank[inverse]
    rows_v = np.ascontiguousarray(prof).view(np.dtype((np.void, prof.dtype.itemsize * prof.shape[1]))).ravel()
    _, first_of, inverse = np.unique(rows_v, return_index=True, return_inverse=True)
    return prof[first_of], inverse.ravel()
