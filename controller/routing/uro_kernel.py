"""Compiled (numba) kernels of the URO engine: one destination at a time, on all cores.

Same mathematics, same tables as the NumPy engine in :mod:`controller.routing.uro`
(the reference it is property-tested against, entry for entry): labels
``(arrival, hops, in-slice hops)`` computed backwards in time, each slice settled in
increasing ``(arrival, hops)`` buckets (URO §III Property 1-2, §IV-C Property 3).

Why per destination: a label of ``(x, dst)`` is built only from labels of the same
destination, so the NumPy engine's whole-matrix passes split exactly into N
independent problems of N ToRs each. Each is small enough to live in the CPU cache
(S x N labels), a compiled loop settles it without the NumPy engine's temporaries, and
chunks of destinations run on all cores (``nogil`` kernels on a thread pool, or as
Dask tasks: :mod:`controller.routing.distributed`).

Identical tables, not only equally good ones: the kernel reproduces the NumPy engine's
order of work exactly -- a bucket's front is its initial members in ToR order (those
whose label did not improve since) followed by the entries improved by the previous
bucket, in (uplink, front) order without repeats; per uplink, improvements are
decided against the labels before that uplink's writes, and the last write wins --
so ties between equally good decisions fall the same way.

Kernels are compiled once per machine and cached on disk (``cache=True``).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from controller.routing.uro_labels import ARR, CLEAR_IN_SLICE, HOP, NEVER, ONE_HOP


@nb.njit(cache=True, nogil=True)
def _settle(t, peer_t, inj_t, key, dep, upl, max_hops, per_slice, order, prefix, fx, fc, imp, nxt, mark, gen, count,
            sorder, sprefix):
    """Settle one slice's labels of destination ``dst`` in place (``key/dep/upl`` of N ToRs).

    Scratch arrays are passed in (allocated once per chunk). Returns the updated
    generation counter of ``mark`` (used to drop repeats from an improved list).

    Algorithm: Dijkstra with a bucket queue (every edge adds one hop): the ToRs are
    bucketed by their label's ``(arrival - t, hops)`` prefix (a counting sort), and the
    buckets are settled in increasing order; a ToR a bucket improves joins the next
    bucket. Arrays, each of N ToRs unless said:

    - ``peer_t[N, d]`` each uplink's peer in slice ``t`` (-1 idle); ``inj_t[d]`` uplink is a
      matching in slice ``t`` (no two writes to one ToR);
    - ``key/dep/upl``: the label key (:mod:`controller.routing.uro_labels`), departure
      slice and uplink towards ``dst`` (in and out);
    - ``order/prefix``: the reachable ToRs and their bucket; ``sorder/sprefix`` the same
      sorted by bucket; ``count`` the counting sort's histogram (an argsort when the
      buckets span more than it holds);
    - ``fx/fc``: the bucket being settled (its ToRs) and their key one hop further;
    - ``imp``: per ToR of the bucket, whether its hop over the current uplink improves the
      peer (decided before that uplink's writes);
    - ``nxt``: the ToRs this bucket improved (the next bucket's extra members);
      ``mark``/``gen``: a generation-stamped set, so a ToR joins ``nxt`` once."""
    N, d = peer_t.shape
    n = 0
    base = np.int64(t) << (ARR - HOP)
    for x in range(N):
        if key[x] < NEVER:
            prefix[n] = (key[x] >> HOP) - base
            order[n] = x
            n += 1
    if n == 0:
        return gen
    pmin = prefix[0]
    pmax = prefix[0]
    for i in range(1, n):
        pmin = min(pmin, prefix[i])
        pmax = max(pmax, prefix[i])
    R = pmax - pmin + 1
    if R <= count.size - 1:  # counting sort (stable: ToR order inside a bucket)
        for i in range(R + 1):
            count[i] = 0
        for i in range(n):
            count[prefix[i] - pmin + 1] += 1
        for i in range(R):
            count[i + 1] += count[i]
        so = sorder
        sp = sprefix
        for i in range(n):
            j = count[prefix[i] - pmin]
            count[prefix[i] - pmin] = j + 1
            so[j] = order[i]
            sp[j] = prefix[i]
    else:
        srt = np.argsort(prefix[:n], kind="mergesort")
        so = order[:n][srt]
        sp = prefix[:n][srt]
    gi = 0
    npend = 0
    pend_p = np.int64(-1)
    # pending entries live at the tail of nxt[] (nxt doubles as the next bucket's list)
    while True:
        pg = sp[gi] if gi < n else np.int64(1) << 62
        pp = pend_p if npend > 0 else np.int64(1) << 62
        p = min(pg, pp)
        if p == np.int64(1) << 62:
            break
        nf = 0
        if pg == p:
            while gi < n and sp[gi] == p:
                x = so[gi]
                gi += 1
                if (key[x] >> HOP) - base == p:
                    fx[nf] = x
                    nf += 1
        if pp == p:
            for i in range(npend):
                fx[nf] = nxt[i]
                nf += 1
        npend = 0
        # candidates within the hop bounds
        m = 0
        for i in range(nf):
            x = fx[i]
            c = key[x] + ONE_HOP
            if ((c >> HOP) & 0xFF) <= max_hops and (c & 0xFF) <= per_slice:
                fx[m] = x
                fc[m] = c
                m += 1
        if m == 0:
            continue
        gen += 1
        for u in range(d):
            if inj_t[u]:  # uplink u is a matching in this slice: no two writes to one ToR
                for i in range(m):
                    y = peer_t[fx[i], u]
                    if y >= 0 and fc[i] < key[y]:
                        key[y] = fc[i]
                        dep[y] = t
                        upl[y] = u
                        if mark[y] != gen:
                            mark[y] = gen
                            nxt[npend] = y
                            npend += 1
                continue
            for i in range(m):  # decided against the labels before this uplink's writes
                y = peer_t[fx[i], u]
                imp[i] = y >= 0 and fc[i] < key[y]
            for i in range(m):
                if imp[i]:
                    y = peer_t[fx[i], u]
                    key[y] = fc[i]
                    dep[y] = t
                    upl[y] = u
                    if mark[y] != gen:
                        mark[y] = gen
                        nxt[npend] = y
                        npend += 1
        if npend > 0:
            pend_p = p + 1
    return gen


@nb.njit(cache=True, nogil=True)
def _solve(peer, inj, dkey, ddep, dupl, dst, max_hops, per_slice, K, key_s, dep_s, upl_s, alt_dep, alt_upl, scratch):
    """Labels of destination ``dst`` for all slices and ToRs, and K alternatives.

    Fills ``key_s/dep_s/upl_s`` ``[S, N]`` and ``alt_dep/alt_upl`` ``[S, N, K]``; returns
    False if the labels did not converge within 8 sweeps of the cycle."""
    S, N, d = peer.shape
    order, prefix, fx, fc, imp, nxt, mark, kbuf, dbuf, ubuf, bkey, bdep, bupl, count, sorder, sprefix = scratch
    gen = mark[N]
    for x in range(N):  # boundary: direct circuits, one cycle later
        dk = dkey[x, dst]
        bkey[x] = NEVER if dk >= NEVER else (dk + (np.int64(S) << ARR)) & CLEAR_IN_SLICE
        bdep[x] = ddep[x, dst] + S if ddep[x, dst] >= 0 else -1
        bupl[x] = dupl[x, dst]
    converged = False
    for sweep in range(8):
        for t in range(S - 1, -1, -1):
            if t == S - 1:
                for x in range(N):
                    kbuf[x] = bkey[x] & CLEAR_IN_SLICE
                    dbuf[x] = bdep[x]
                    ubuf[x] = bupl[x]
            else:
                for x in range(N):
                    kbuf[x] = key_s[t + 1, x] & CLEAR_IN_SLICE
                    dbuf[x] = dep_s[t + 1, x]
                    ubuf[x] = upl_s[t + 1, x]
            kbuf[dst] = np.int64(t) << ARR
            dbuf[dst] = -1
            ubuf[dst] = -1
            gen = _settle(t, peer[t], inj[t], kbuf, dbuf, ubuf, max_hops, per_slice, order, prefix, fx, fc, imp, nxt,
                          mark, gen, count, sorder, sprefix)
            if sweep > 0:
                same = True
                for x in range(N):
                    if kbuf[x] != key_s[t, x] or dbuf[x] != dep_s[t, x] or ubuf[x] != upl_s[t, x]:
                        same = False
                        break
                if same:
                    converged = True
                    break
            for x in range(N):
                key_s[t, x] = kbuf[x]
                dep_s[t, x] = dbuf[x]
                upl_s[t, x] = ubuf[x]
        if converged:
            break
        for x in range(N):
            never = key_s[0, x] >= NEVER or (dep_s[0, x] >= S and x != dst)
            if x == dst:
                bkey[x] = (np.int64(S) << ARR) & CLEAR_IN_SLICE
                bdep[x] = -1
            else:
                bkey[x] = (key_s[0, x] + (np.int64(S) << ARR)) & CLEAR_IN_SLICE
                bdep[x] = dep_s[0, x] + S
            bupl[x] = upl_s[0, x]
            if never:
                bkey[x] = NEVER
                bdep[x] = -1
                bupl[x] = -1
    mark[N] = gen
    if not converged:
        return False
    # K one-shot alternatives: the k-th is the label at (previous departure + 1)
    for t in range(S):
        for x in range(N):
            alt_dep[t, x, 0] = dep_s[t, x]
            alt_upl[t, x, 0] = upl_s[t, x]
            for j in range(1, K):
                alt_dep[t, x, j] = -1
                alt_upl[t, x, j] = -1
            if dep_s[t, x] < 0:
                continue
            for j in range(1, K):
                prev = alt_dep[t, x, j - 1]
                if prev < 0:
                    break
                nx = prev + 1
                q = nx // S
                r = nx - q * S
                dj = dep_s[r, x] + q * S
                if dj >= 0 and dj - t < S:
                    alt_dep[t, x, j] = dj
                    alt_upl[t, x, j] = upl_s[r, x]
                else:
                    break
    return True


def injective(peer: np.ndarray) -> np.ndarray:
    """``[S, d]`` bool: uplink ``u`` of slice ``t`` connects distinct ToRs to distinct peers
    (a matching: what every generated schedule has), so one pass per uplink suffices."""
    y = np.sort(np.transpose(peer, (0, 2, 1)), axis=2)  # [S, d, N]
    dup = (y[..., 1:] == y[..., :-1]) & (y[..., 1:] >= 0)
    return ~dup.any(axis=2)


@nb.njit(cache=True, nogil=True)
def _scratch(N):
    i64 = np.int64
    return (np.empty(N, i64), np.empty(N, i64), np.empty(2 * N, i64), np.empty(2 * N, i64),
            np.empty(2 * N, np.bool_), np.empty(N, i64), np.zeros(N + 1, i64),
            np.empty(N, i64), np.empty(N, np.int32), np.empty(N, np.int8),
            np.empty(N, i64), np.empty(N, np.int32), np.empty(N, np.int8),
            np.empty(4 * N + 66, i64), np.empty(N, i64), np.empty(N, i64))


@nb.njit(cache=True, nogil=True)
def _buffers(S, N, K):
    """One destination's label arrays (key, departure, uplink per (slice, ToR); the K
    alternatives' departures and uplinks) and :func:`_solve`'s scratch, reused per chunk."""
    return (np.empty((S, N), np.int64), np.empty((S, N), np.int32), np.empty((S, N), np.int8),
            np.empty((S, N, K), np.int32), np.empty((S, N, K), np.int8), _scratch(N))


@nb.njit(cache=True, nogil=True)
def routes_chunk(peer, inj, dkey, ddep, dupl, d0, C, col0, max_hops, per_slice,
                 arrival, hops, alt_upl, alt_dep):
    """Destinations ``d0 .. d0+C-1`` into :class:`UroRoutes` arrays ``[t, x, dst(, k)]``
    (column ``dst - col0``). Returns the first destination that did not converge, or -1."""
    S, N, d = peer.shape
    K = alt_upl.shape[3]
    key_s, dep_s, upl_s, ad, au, scratch = _buffers(S, N, K)
    for dst in range(d0, d0 + C):
        if not _solve(peer, inj, dkey, ddep, dupl, dst, max_hops, per_slice, K, key_s, dep_s, upl_s, ad, au, scratch):
            return dst
        c = dst - col0
        for t in range(S):
            for x in range(N):
                kk = key_s[t, x]
                if kk >= NEVER:
                    arrival[t, x, c] = -1
                    hops[t, x, c] = 0
                else:
                    arrival[t, x, c] = kk >> ARR
                    hops[t, x, c] = (kk >> HOP) & 0xFF
                for j in range(K):
                    alt_upl[t, x, c, j] = au[t, x, j]
                    alt_dep[t, x, c, j] = ad[t, x, j]
    return -1


@nb.njit(cache=True, nogil=True)
def artifact_chunk(peer, inj, dkey, ddep, dupl, d0, C, col0, max_hops, per_slice,
                   latency, hops, alt_upl, alt_wait):
    """Destinations ``d0 .. d0+C-1`` straight into the compact artifact's arrays
    ``[tor, arrival slice, dst(, k)]`` (column ``dst - col0``), the values
    :func:`controller.tables.perhop.tor_table` gives. Returns the first destination that
    did not converge, or -1."""
    S, N, d = peer.shape
    K = alt_upl.shape[3]
    key_s, dep_s, upl_s, ad, au, scratch = _buffers(S, N, K)
    for dst in range(d0, d0 + C):
        if not _solve(peer, inj, dkey, ddep, dupl, dst, max_hops, per_slice, K, key_s, dep_s, upl_s, ad, au, scratch):
            return dst
        c = dst - col0
        for x in range(N):
            for t in range(S):
                kk = key_s[t, x]
                arr = np.int64(-1) if kk >= NEVER else kk >> ARR
                latency[x, t, c] = 0 if x == dst else arr - t + 1
                hops[x, t, c] = 0 if kk >= NEVER else (kk >> HOP) & 0xFF
                for j in range(K):
                    u = au[t, x, j]
                    alt_upl[x, t, c, j] = u
                    alt_wait[x, t, c, j] = ad[t, x, j] - t if u >= 0 else 0
    return -1
