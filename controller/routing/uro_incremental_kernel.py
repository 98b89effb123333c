"""Compiled (numba) kernel of the incremental URO engine: the labels of one destination
repaired after circuits were removed or added, touching only the labels that change.

Why this gives the very tables a whole recomputation gives (the compiled engine of
:mod:`controller.routing.uro_kernel`, tie for tie). For one destination, a label of
(slice ``t``, ToR ``y``) is ``(arrival, hops, in-slice hops)`` packed into one key
(URO §III). At the engine's fixed point every label obeys one local rule:

    L[t, y] = min(W[t, y], min over uplinks u of L[t, peer[t, y, u]] + one hop)

where ``W`` is the wait label (``L[t + 1, y]`` with the in-slice hops cleared; for the
last slice, ``L[0, y]`` one cycle later) and an offer counts only within the hop bounds;
its decision is the wait's, or the hop on the *smallest* uplink among the minimal offers
(the engine walks uplinks in order and replaces a label only by a strictly smaller one,
and a hop's key never equals a wait's: it has an in-slice hop). Every label is built
from labels with a strictly smaller *relative* key (the key minus ``t``, across the
wrap too), so the rule has exactly one solution: whatever computes a solution of it
computes the engine's tables.

The repair (Ramalingam and Reps' dynamic shortest paths, on the time-expanded graph of
one destination):

1. *invalid*: the labels whose chosen decision rode a removed circuit, and everything
   built on them (hop children over the old circuits, wait children across slices and
   the wrap) -- nothing else can get worse;
2. each invalid label gets the best offer from the valid ones (its wait, its neighbours
   over the new circuits), and an added circuit offers its far end's label to the near
   end;
3. a Dijkstra in relative-key order settles them; a settled label that changed (key,
   or only its decision) offers itself to its new neighbours and to the label waiting on
   it. Labels nobody reaches any more are unreachable (``NEVER``).

The K one-shot alternatives of a ToR are then rebuilt, with the engine's formula, for
the ToRs one of whose labels changed, and the cells whose alternatives differ are listed:
that is what the tables of the switches need rewritten (URO §IV-C).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from controller.routing.uro_labels import ARR, CLEAR_IN_SLICE, HOP, NEVER, ONE_HOP

# per-cell flags of the scratch
_TOUCHED = 1
_INVALID = 2
_POPPED = 4
_QUEUED = 8


@nb.njit(cache=True, nogil=True)
def _heap_push(hk, hv, n, k, v):
    if n >= hk.size:
        nk = np.empty(hk.size * 2, np.int64)
        nv = np.empty(hv.size * 2, np.int64)
        nk[:n] = hk[:n]
        nv[:n] = hv[:n]
        hk, hv = nk, nv
    i = n
    hk[i] = k
    hv[i] = v
    while i > 0:
        p = (i - 1) >> 1
        if hk[p] <= hk[i]:
            break
        hk[p], hk[i] = hk[i], hk[p]
        hv[p], hv[i] = hv[i], hv[p]
        i = p
    return hk, hv, n + 1


@nb.njit(cache=True, nogil=True)
def _heap_pop(hk, hv, n):
    k, v = hk[0], hv[0]
    n -= 1
    hk[0] = hk[n]
    hv[0] = hv[n]
    i = 0
    while True:
        a = 2 * i + 1
        if a >= n:
            break
        b = a + 1
        c = b if b < n and hk[b] < hk[a] else a
        if hk[i] <= hk[c]:
            break
        hk[c], hk[i] = hk[i], hk[c]
        hv[c], hv[i] = hv[i], hv[c]
        i = c
    return k, v, n


@nb.njit(cache=True, nogil=True)
def _touch(c, flags, touched, nt):
    if flags[c] & _TOUCHED == 0:
        flags[c] |= _TOUCHED
        touched[nt] = c
        nt += 1
    return nt


@nb.njit(cache=True, nogil=True)
def _old_lead(c, N, dst, peer_old, ad_in, au_in, lead, chain, flags, touched, nt):
    """In-slice hops of the old label of cell ``c`` (= t * N + x): 0 for a wait (or the
    destination), else one more than the old label it hopped from. Memoised in ``lead``."""
    t = c // N
    n = 0
    cur = c
    base = 0
    while True:
        if lead[cur] >= 0:
            base = lead[cur]
            break
        x = cur - t * N
        if x == dst or ad_in[t, x, dst, 0] != t:
            base = 0
            nt = _touch(cur, flags, touched, nt)
            lead[cur] = 0
            break
        chain[n] = cur
        n += 1
        cur = t * N + peer_old[t, x, au_in[t, x, dst, 0]]
    for i in range(n - 1, -1, -1):
        base += 1
        nt = _touch(chain[i], flags, touched, nt)
        lead[chain[i]] = base
    return nt


@nb.njit(cache=True, nogil=True)
def _load(c, N, dst, peer_old, arr_in, hop_in, ad_in, au_in, T, D, U, lead, chain, flags, touched, nt):
    """The cell's current label: the old one unless the repair set it."""
    if T[c] != -1:
        return nt
    t = c // N
    x = c - t * N
    nt = _touch(c, flags, touched, nt)
    a = arr_in[t, x, dst]
    if a < 0:
        T[c] = NEVER
        D[c] = -1
        U[c] = -1
        return nt
    if lead[c] < 0:
        nt = _old_lead(c, N, dst, peer_old, ad_in, au_in, lead, chain, flags, touched, nt)
    T[c] = (np.int64(a) << ARR) | (np.int64(hop_in[t, x, dst]) << HOP) | np.int64(lead[c])
    D[c] = ad_in[t, x, dst, 0]
    U[c] = au_in[t, x, dst, 0]
    return nt


@nb.njit(cache=True, nogil=True)
def _ok(c, max_hops, per_slice):
    return ((c >> HOP) & 0xFF) <= max_hops and (c & 0xFF) <= per_slice


@nb.njit(cache=True, nogil=True)
def _wait_from(p, t_child, S, N, T, D, U):
    """(key, dep, uplink) that waiting on the label of cell ``p`` gives the cell of slice
    ``t_child`` (the slice before ``p``'s, or the last slice when ``p`` is in slice 0)."""
    tp = p // N
    k = T[p]
    if k >= NEVER:
        return np.int64(NEVER), np.int32(-1), np.int8(-1)
    if tp == 0 and t_child == S - 1:      # across the wrap: one cycle later
        if D[p] >= S:                     # it would only wait for itself (the engine's "stuck")
            return np.int64(NEVER), np.int32(-1), np.int8(-1)
        return (k + (np.int64(S) << ARR)) & CLEAR_IN_SLICE, np.int32(D[p] + S), U[p]
    return k & CLEAR_IN_SLICE, D[p], U[p]


@nb.njit(cache=True, nogil=True)
def _invalidate(dst, pending, npend, peer_old, peer_new, max_hops, per_slice, arr_in, hop_in, au_in, ad_in,
                T, D, U, lead, flags, touched, nt, chain, xs, hk, hv, nh):
    """Invalidate the cells of ``pending[:npend]`` and every unsettled cell whose current
    decision is built on one of them (hop children over the new circuits, the label waiting
    on it), then give each the best offer of the cells that are settled or not invalid, and
    queue it. Returns (nt, hk, hv, nh)."""
    S, N, d = peer_new.shape
    ninv = 0
    while npend > 0:
        npend -= 1
        c = pending[npend]
        if flags[c] & _QUEUED:
            continue
        nt = _touch(c, flags, touched, nt)
        flags[c] |= _QUEUED | _INVALID
        xs[ninv] = c
        ninv += 1
        t = c // N
        x = c - t * N
        for u in range(d):
            y = peer_new[t, x, u]
            if y < 0 or y == dst:
                continue
            cy = t * N + y
            if flags[cy] & (_QUEUED | _POPPED):
                continue
            nt = _load(cy, N, dst, peer_old, arr_in, hop_in, ad_in, au_in, T, D, U, lead, chain, flags, touched, nt)
            if D[cy] == t and U[cy] == u:
                pending[npend] = cy
                npend += 1
        tw = t - 1 if t > 0 else S - 1
        cw = tw * N + x
        if flags[cw] & (_QUEUED | _POPPED) == 0:
            nt = _load(cw, N, dst, peer_old, arr_in, hop_in, ad_in, au_in, T, D, U, lead, chain, flags, touched, nt)
            if D[cw] >= 0 and D[cw] != tw:
                pending[npend] = cw
                npend += 1
    for i in range(ninv):
        c = xs[i]
        T[c] = NEVER
        D[c] = -1
        U[c] = -1
    for i in range(ninv):
        c = xs[i]
        t = c // N
        y = c - t * N
        tp = t + 1 if t < S - 1 else 0
        p = tp * N + y
        if flags[p] & _INVALID == 0 or flags[p] & _POPPED:
            nt = _load(p, N, dst, peer_old, arr_in, hop_in, ad_in, au_in, T, D, U, lead, chain, flags, touched, nt)
            k, dp, up = _wait_from(p, t, S, N, T, D, U)
            T[c], D[c], U[c] = k, dp, up
        for u in range(d):
            x = peer_new[t, y, u]
            if x < 0:
                continue
            cx = t * N + x
            if flags[cx] & _INVALID and not flags[cx] & _POPPED:
                continue
            nt = _load(cx, N, dst, peer_old, arr_in, hop_in, ad_in, au_in, T, D, U, lead, chain, flags, touched, nt)
            if T[cx] >= NEVER:
                continue
            cand = T[cx] + ONE_HOP
            if _ok(cand, max_hops, per_slice) and cand < T[c]:
                T[c] = cand
                D[c] = t
                U[c] = u
        if T[c] < NEVER:
            hk, hv, nh = _heap_push(hk, hv, nh, T[c] - (np.int64(t) << ARR), c)
    for i in range(ninv):
        flags[xs[i]] &= ~_QUEUED
    return nt, hk, hv, nh


@nb.njit(cache=True, nogil=True)
def _repair_dst(dst, peer_old, peer_new, rem, add, arr_in, hop_in, au_in, ad_in, arr_out, hop_out, au_out, ad_out,
                max_hops, per_slice, T, D, U, lead, flags, touched, chain, stack, hk, hv, xs, xdone, out, no):
    """Repair destination ``dst``; appends its changed alternative cells (t, x, dst) to
    ``out`` from row ``no``. Returns (rows used, heap arrays) -- the heap may have grown."""
    S, N, d = peer_new.shape
    K = au_in.shape[3]
    nt = 0
    nh = 0
    # 1. invalid: the decisions on a removed circuit, and what is built on them
    ns = 0
    for i in range(rem.shape[0]):
        t, a, u = rem[i, 0], rem[i, 1], rem[i, 2]
        if a != dst and ad_in[t, a, dst, 0] == t and au_in[t, a, dst, 0] == u:
            stack[ns] = t * N + a
            ns += 1
    if ns:
        nt, hk, hv, nh = _invalidate(dst, stack, ns, peer_old, peer_new, max_hops, per_slice, arr_in, hop_in, au_in,
                                     ad_in, T, D, U, lead, flags, touched, nt, chain, xs, hk, hv, nh)
    # 2. an added circuit offers its far end's label to its near end
    for i in range(add.shape[0]):
        t, a, u = add[i, 0], add[i, 1], add[i, 2]
        if a == dst:
            continue
        b = peer_new[t, a, u]
        ca, cb = t * N + a, t * N + b
        if flags[ca] & _INVALID or flags[cb] & _INVALID:
            continue                           # tentative: offered when its far end settles
        nt = _load(cb, N, dst, peer_old, arr_in, hop_in, ad_in, au_in, T, D, U, lead, chain, flags, touched, nt)
        if T[cb] >= NEVER:
            continue
        cand = T[cb] + ONE_HOP
        if not _ok(cand, max_hops, per_slice):
            continue
        nt = _load(ca, N, dst, peer_old, arr_in, hop_in, ad_in, au_in, T, D, U, lead, chain, flags, touched, nt)
        if cand < T[ca] or (cand == T[ca] and D[ca] == t and U[ca] > u):
            T[ca] = cand
            D[ca] = t
            U[ca] = u
            hk, hv, nh = _heap_push(hk, hv, nh, cand - (np.int64(t) << ARR), ca)
    # 3. settle in relative-key order; a settled label that changed offers itself, and the
    # labels built on its old value that it no longer supports are invalidated in turn
    while nh > 0:
        rk, c, nh = _heap_pop(hk, hv, nh)
        t = c // N
        if flags[c] & _POPPED or T[c] - (np.int64(t) << ARR) != rk:
            continue
        flags[c] |= _POPPED
        y = c - t * N
        cand = T[c] + ONE_HOP
        valid = _ok(cand, max_hops, per_slice)
        ns = 0
        for u in range(d):
            z = peer_new[t, y, u]
            if z < 0 or z == dst:
                continue
            cz = t * N + z
            if flags[cz] & _POPPED:
                continue
            nt = _load(cz, N, dst, peer_old, arr_in, hop_in, ad_in, au_in, T, D, U, lead, chain, flags, touched, nt)
            if D[cz] == t and U[cz] == u:      # built on this label
                if valid and cand == T[cz]:
                    continue
                if valid and cand < T[cz]:
                    T[cz] = cand
                    hk, hv, nh = _heap_push(hk, hv, nh, cand - (np.int64(t) << ARR), cz)
                else:
                    stack[ns] = cz
                    ns += 1
            elif valid and (cand < T[cz] or (cand == T[cz] and D[cz] == t and U[cz] > u)):
                T[cz] = cand
                D[cz] = t
                U[cz] = u
                hk, hv, nh = _heap_push(hk, hv, nh, cand - (np.int64(t) << ARR), cz)
        if y != dst:
            tw = t - 1 if t > 0 else S - 1
            cw = tw * N + y
            if flags[cw] & _POPPED == 0:
                k, dp, up = _wait_from(c, tw, S, N, T, D, U)
                nt = _load(cw, N, dst, peer_old, arr_in, hop_in, ad_in, au_in, T, D, U, lead, chain, flags,
                           touched, nt)
                if D[cw] >= 0 and D[cw] != tw:     # waits on this label
                    if k < NEVER and (k < T[cw] or (k == T[cw] and (D[cw] != dp or U[cw] != up))):
                        T[cw] = k
                        D[cw] = dp
                        U[cw] = up
                        hk, hv, nh = _heap_push(hk, hv, nh, k - (np.int64(tw) << ARR), cw)
                    elif k != T[cw]:
                        stack[ns] = cw
                        ns += 1
                elif k < T[cw]:
                    T[cw] = k
                    D[cw] = dp
                    U[cw] = up
                    hk, hv, nh = _heap_push(hk, hv, nh, k - (np.int64(tw) << ARR), cw)
        if ns:
            nt, hk, hv, nh = _invalidate(dst, stack, ns, peer_old, peer_new, max_hops, per_slice, arr_in, hop_in,
                                         au_in, ad_in, T, D, U, lead, flags, touched, nt, chain, xs, hk, hv, nh)
    # the cells whose label or decision changed: arrival and hops out; their ToRs' alternatives
    nx = 0
    for i in range(nt):
        c = touched[i]
        if T[c] == -1:
            continue
        t = c // N
        x = c - t * N
        a = arr_in[t, x, dst]
        if a < 0:
            old = np.int64(NEVER)
        else:
            if lead[c] < 0:
                nt = _old_lead(c, N, dst, peer_old, ad_in, au_in, lead, chain, flags, touched, nt)
            old = (np.int64(a) << ARR) | (np.int64(hop_in[t, x, dst]) << HOP) | np.int64(lead[c])
        if T[c] == old and D[c] == ad_in[t, x, dst, 0] and U[c] == au_in[t, x, dst, 0]:
            continue
        if T[c] >= NEVER:
            arr_out[t, x, dst] = -1
            hop_out[t, x, dst] = 0
        else:
            arr_out[t, x, dst] = T[c] >> ARR
            hop_out[t, x, dst] = (T[c] >> HOP) & 0xFF
        stack[nx] = x
        nx += 1
    # the K one-shot alternatives of every ToR with a changed label (the engine's formula)
    for i in range(nx):
        x = stack[i]
        if xdone[x]:
            continue
        xdone[x] = True
        for t in range(S):
            c = t * N + x
            dep0 = D[c] if T[c] != -1 else ad_in[t, x, dst, 0]
            up0 = U[c] if T[c] != -1 else au_in[t, x, dst, 0]
            changed = False
            prev = dep0
            for j in range(K):
                if j == 0:
                    dj, uj = dep0, up0
                elif dep0 < 0 or prev < 0:
                    dj, uj = -1, -1
                else:
                    nxt = prev + 1
                    q = nxt // S
                    r = nxt - q * S
                    cr = r * N + x
                    dr = D[cr] if T[cr] != -1 else ad_in[r, x, dst, 0]
                    ur = U[cr] if T[cr] != -1 else au_in[r, x, dst, 0]
                    dj = dr + q * S
                    if dj >= 0 and dj - t < S:
                        uj = ur
                    else:
                        dj, uj = -1, -1
                prev = dj
                if ad_in[t, x, dst, j] != dj or au_in[t, x, dst, j] != uj:
                    changed = True
                ad_out[t, x, dst, j] = dj
                au_out[t, x, dst, j] = uj
            if changed:
                out[no, 0] = t
                out[no, 1] = x
                out[no, 2] = dst
                no += 1
    # reset the scratch for the next destination
    for i in range(nx):
        xdone[stack[i]] = False
    for i in range(nt):
        c = touched[i]
        T[c] = -1
        lead[c] = -1
        flags[c] = 0
    return no, hk, hv


@nb.njit(cache=True, nogil=True)
def repair_chunk(peer_old, peer_new, rem, add, d0, C, max_hops, per_slice,
                 arr_in, hop_in, au_in, ad_in, arr_out, hop_out, au_out, ad_out):
    """Destinations ``d0 .. d0+C-1``: ``*_in`` the old routes (``[t, x, dst(, k)]``), ``*_out``
    a copy of them that is repaired in place (only columns ``d0 .. d0+C-1`` are written).
    ``rem`` / ``add``: the removed / added circuit ends ``(t, tor, uplink)`` (both ends
    listed). Returns the cells ``(t, x, dst)`` whose alternatives changed, ``[n, 3]``."""
    S, N, d = peer_new.shape
    SN = S * N
    T = np.full(SN, -1, np.int64)
    D = np.empty(SN, np.int32)
    U = np.empty(SN, np.int8)
    lead = np.full(SN, -1, np.int16)
    flags = np.zeros(SN, np.uint8)
    touched = np.empty(SN, np.int64)
    chain = np.empty(SN, np.int64)
    stack = np.empty(2 * SN + 2 * N, np.int64)
    xs = np.empty(SN, np.int64)
    xdone = np.zeros(N, np.bool_)
    hk = np.empty(1024, np.int64)
    hv = np.empty(1024, np.int64)
    out = np.empty((C * SN, 3), np.int32)
    no = 0
    for dst in range(d0, d0 + C):
        no, hk, hv = _repair_dst(dst, peer_old, peer_new, rem, add, arr_in, hop_in, au_in, ad_in, arr_out, hop_out,
                                 au_out, ad_out, max_hops, per_slice, T, D, U, lead, flags, touched, chain, stack,
                                 hk, hv, xs, xdone, out, no)
    return out[:no].copy()
