"""Compiled (numba) kernels of UCMP path calculation: value tables and group walks.

Same mathematics as the NumPy engine in :mod:`controller.routing.ucmp_numpy` (the
vectorised App. A Alg. 1 of the UCMP paper, see :mod:`controller.routing.ucmp`), laid
out for a compiled loop instead of whole-array passes:

* the value tables of one chunk of destinations keep the destinations innermost
  (``V[n, tau, b, u, c]``), so the min over a ToR's uplinks runs over contiguous
  lanes of ``C`` destinations -- the loop the compiler vectorises;
* next to ``V`` the same pass records, per state, the *value-keeping move mask*
  ``K`` (bit j set: the hop over uplink j in this slice keeps the state's value) and
  the *event* ``E`` (the first slice >= tau in which such a hop exists). Together they
  are the DAG of every minimum-latency walk, so the group walks are a depth-first
  search that never probes a hop that does not keep the value and never steps
  through a slice in which nothing keeps it;
* a state's budget ``b`` above its hops left ``n`` never binds, so those rows are
  copies of row ``b = n``.

Kernels release the GIL (``nogil``) so :func:`controller.routing.ucmp.group_chunks`
runs destination chunks on all cores from a thread pool. Compiled code is cached on
disk (``cache=True``): the first call on a machine pays the compilation once.
"""

from __future__ import annotations

import threading

import numba as nb
import numpy as np

INF = 32767
#: uplink masks are 64 bits wide
MAX_UPLINKS = 64


def value_tables(peer, dsts, H, n_cap):
    """``V, E, K`` for the destinations ``dsts`` (int64, any distinct ToRs) and levels ``n = 0..n_used``.

    ``V[n, tau, b, u, c]``: earliest absolute slice in which a packet at ToR ``u`` in
    slice ``tau`` with ``b`` in-slice hops left is delivered to ``dsts[c]`` with at most
    ``n`` hops (INF: not within the window ``[0, 2S]``); the destination's own row is
    ``tau`` (delivered on arrival). ``E``/``K``: event slice and move mask (module doc).
    Returns ``(V, E, K, fixed)`` cut to the levels computed; ``fixed`` is True when the
    last level equals the one before (the exact h_max was reached below ``n_cap``).
    """
    S, N, _ = peer.shape
    dsts = np.ascontiguousarray(dsts, dtype=np.int64)
    shape = (_first_levels(n_cap), 2 * S + 1, H + 1, N, dsts.shape[0])
    return value_tables_into(peer, dsts, H, n_cap, np.empty(shape, np.int16), np.empty(shape, np.int16),
                             np.empty(shape, np.uint64))


def _first_levels(n_cap: int) -> int:
    """Levels the value tables are first allocated with (they grow as needed: most
    schedules stop far below ``n_cap``)."""
    return min(n_cap, 4) + 1


@nb.njit(cache=True, nogil=True)
def value_tables_into(peer, dsts, H, n_cap, V, E, K):
    """:func:`value_tables` in the arrays ``V, E, K`` (any contents; shape
    ``[levels, 2S + 1, H + 1, N, C]``, grown when more levels are needed): the
    caller can reuse them from chunk to chunk instead of faulting in fresh pages.
    ``K`` may be ``uint32`` when the schedule has at most 32 uplinks."""
    T = V.shape[1] - 1
    C = dsts.shape[0]
    V[0] = INF
    E[0] = INF
    K[0] = 0
    for tau in range(T + 1):
        for b in range(H + 1):
            for c in range(C):
                V[0, tau, b, dsts[c], c] = tau
    n_used = n_cap
    fixed = False
    for m in range(1, n_cap + 1):
        if m == V.shape[0]:
            V = _grow_levels(V, INF)
            E = _grow_levels(E, INF)
            K = _grow_levels(K, 0)
        V[m, T] = INF  # the window's end; _fill_level writes every other row of level m
        E[m, T] = INF
        K[m, T] = 0
        _fill_level(peer, V, E, K, m, dsts, H)
        if np.array_equal(V[m], V[m - 1]):
            n_used = m
            fixed = True
            break
    return V[: n_used + 1], E[: n_used + 1], K[: n_used + 1], fixed


@nb.njit(cache=True, nogil=True)
def _fill_level(peer, V, E, K, m, dsts, H):
    """Level ``m`` of ``V, E, K`` from level ``m - 1`` (a function of its own: the caller
    reallocates the tables as levels are added, and numba would reference-count a
    reassigned array on every write of this loop)."""
    S, N, d = peer.shape
    T = V.shape[1] - 1
    C = V.shape[4]
    best = np.empty(C, np.int16)
    mask = np.empty(C, np.uint64)
    one = np.uint64(1)
    for tau in range(T - 1, -1, -1):
        s = tau % S
        for u in range(N):
            for c in range(C):
                V[m, tau, 0, u, c] = V[m, tau + 1, H, u, c]
                E[m, tau, 0, u, c] = E[m, tau + 1, H, u, c]
                K[m, tau, 0, u, c] = 0
        for b in range(1, H + 1):
            if b > m:  # the budget cannot bind with only m hops left
                for u in range(N):
                    for c in range(C):
                        V[m, tau, b, u, c] = V[m, tau, m, u, c]
                        E[m, tau, b, u, c] = E[m, tau, m, u, c]
                        K[m, tau, b, u, c] = K[m, tau, m, u, c]
                continue
            for u in range(N):
                for c in range(C):
                    best[c] = INF
                    mask[c] = 0
                for j in range(d):
                    w = peer[s, u, j]
                    if w < 0:
                        continue
                    bit = one << np.uint64(j)
                    row = V[m - 1, tau, b - 1, w]
                    for c in range(C):
                        cand = row[c]
                        cur = best[c]
                        mk = mask[c]
                        mask[c] = bit if cand < cur else (mk | bit if cand == cur else mk)
                        best[c] = min(cand, cur)
                for c in range(C):
                    wait = V[m, tau + 1, H, u, c]
                    bc = best[c]
                    if bc <= wait and bc < INF:
                        V[m, tau, b, u, c] = bc
                        E[m, tau, b, u, c] = tau
                        K[m, tau, b, u, c] = mask[c]
                    else:
                        V[m, tau, b, u, c] = wait
                        E[m, tau, b, u, c] = E[m, tau + 1, H, u, c]
                        K[m, tau, b, u, c] = 0
        for b in range(H + 1):
            for c in range(C):  # the destination itself: delivered, no moves
                V[m, tau, b, dsts[c], c] = tau
                E[m, tau, b, dsts[c], c] = INF
                K[m, tau, b, dsts[c], c] = 0
    for c in range(C):
        for b in range(H + 1):
            V[m, T, b, dsts[c], c] = T


@nb.njit(cache=True, nogil=True)
def values_only_into(peer, dsts, H, n_cap, V):
    """``V`` of :func:`value_tables_into` without the event and move tables (what the level
    lists and bucket profiles of groups that are not walked need): the same values, about
    a third of the stores. Returns ``V`` cut to the levels computed."""
    T = V.shape[1] - 1
    C = dsts.shape[0]
    V[0] = INF
    for tau in range(T + 1):
        for b in range(H + 1):
            for c in range(C):
                V[0, tau, b, dsts[c], c] = tau
    n_used = n_cap
    for m in range(1, n_cap + 1):
        if m == V.shape[0]:
            V = _grow_levels(V, INF)
        V[m, T] = INF
        _fill_level_v(peer, V, m, dsts, H)
        if np.array_equal(V[m], V[m - 1]):
            n_used = m
            break
    return V[: n_used + 1]


@nb.njit(cache=True, nogil=True)
def _fill_level_v(peer, V, m, dsts, H):
    """:func:`_fill_level` for ``V`` alone."""
    S, N, d = peer.shape
    T = V.shape[1] - 1
    C = V.shape[4]
    best = np.empty(C, np.int16)
    for tau in range(T - 1, -1, -1):
        s = tau % S
        for u in range(N):
            for c in range(C):
                V[m, tau, 0, u, c] = V[m, tau + 1, H, u, c]
        for b in range(1, H + 1):
            if b > m:
                for u in range(N):
                    for c in range(C):
                        V[m, tau, b, u, c] = V[m, tau, m, u, c]
                continue
            for u in range(N):
                for c in range(C):
                    best[c] = INF
                for j in range(d):
                    w = peer[s, u, j]
                    if w < 0:
                        continue
                    row = V[m - 1, tau, b - 1, w]
                    for c in range(C):
                        best[c] = min(row[c], best[c])
                for c in range(C):
                    wait = V[m, tau + 1, H, u, c]
                    bc = best[c]
                    V[m, tau, b, u, c] = bc if bc <= wait and bc < INF else wait
        for b in range(H + 1):
            for c in range(C):
                V[m, tau, b, dsts[c], c] = tau
    for c in range(C):
        for b in range(H + 1):
            V[m, T, b, dsts[c], c] = T


@nb.njit(cache=True)
def _grow_levels(a, fill):
    out = np.full((2 * a.shape[0],) + a.shape[1:], fill, a.dtype)
    out[: a.shape[0]] = a
    return out


def arrival_table(peer: np.ndarray, H: int, n_cap: int, dsts: np.ndarray) -> np.ndarray:
    """``A[n - 1, t, src, c]``: the earliest delivery slice to ``dsts[c]`` from ``src`` at
    slice ``t`` (full in-slice budget) with at most ``n`` hops, n = 1..n_used -- the group
    levels without their walks (:func:`value_tables`, in this thread's buffers)."""
    S, N, d = peer.shape
    dsts = np.ascontiguousarray(dsts, dtype=np.int64)
    shape = (_first_levels(n_cap), 2 * S + 1, H + 1, N, dsts.shape[0])
    k_dt = np.uint32 if d <= 32 else np.uint64
    V, _, _, _ = value_tables_into(peer, dsts, H, n_cap, _buffer("V", shape, np.int16),
                                   _buffer("E", shape, np.int16), _buffer("K", shape, k_dt))
    return np.array(V[1:, :S, H])


def table_levels(peer: np.ndarray, H: int, n_cap: int, dsts: np.ndarray) -> tuple[np.ndarray, ...]:
    """``(group, hops, latency)`` of every group level towards ``dsts`` from the value
    tables alone (in this thread's buffers), in (t, src, c, hops) order: what
    :func:`controller.routing.ucmp.levels_reference` makes of :func:`arrival_table`,
    without the table copy and the whole-array passes."""
    S, N, d = peer.shape
    dsts = np.ascontiguousarray(dsts, dtype=np.int64)
    shape = (_first_levels(n_cap), 2 * S + 1, H + 1, N, dsts.shape[0])
    k_dt = np.uint32 if d <= 32 else np.uint64
    V, _, _, _ = value_tables_into(peer, dsts, H, n_cap, _buffer("V", shape, np.int16),
                                   _buffer("E", shape, np.int16), _buffer("K", shape, k_dt))
    return _table_levels(V, dsts, S, H)


@nb.njit(cache=True, nogil=True)
def _group_levels(V, t, H, src, c, lv_n, lv_a):
    """The levels of group (t, src, dsts[c]) in the value tables ``V [n, tau, b, u, c]``: a
    level is ``A_n = V[n, t, H, src, c]`` below every ``A_m``, m < n, and below INF. Their
    hops ``n`` go to ``lv_n``, their arrivals ``A_n`` to ``lv_a``; returns how many."""
    best = INF
    cnt = 0
    for n in range(1, V.shape[0]):
        a = V[n, t, H, src, c]
        if a < best:
            lv_n[cnt] = n
            lv_a[cnt] = a
            cnt += 1
            best = a
    return cnt


@nb.njit(cache=True, nogil=True)
def _table_levels(V, dsts, S, H):
    """:func:`table_levels` of the value tables ``V`` (levels: :func:`_group_levels`); src != dst."""
    n_lv = V.shape[0] - 1
    N = V.shape[3]
    C = V.shape[4]
    room = S * N * C * max(n_lv, 1)
    g = np.empty(room, np.int64)
    hops = np.empty(room, np.int16)
    lat = np.empty(room, np.int32)
    lv_n = np.empty(max(n_lv, 1), np.int64)
    lv_a = np.empty(max(n_lv, 1), np.int64)
    k = 0
    for t in range(S):
        for src in range(N):
            for c in range(C):
                if src == dsts[c]:
                    continue
                for i in range(_group_levels(V, t, H, src, c, lv_n, lv_a)):
                    g[k] = (t * N + src) * N + dsts[c]      # paths.group_id, written out (compiled)
                    hops[k] = lv_n[i]
                    lat[k] = lv_a[i] - t + 1
                    k += 1
    return g[:k].copy(), hops[:k].copy(), lat[:k].copy()


def table_profile_keys(peer: np.ndarray, H: int, n_cap: int, dsts: np.ndarray, base: int) -> np.ndarray:
    """The distinct bucket profiles of the groups towards ``dsts`` (from the value tables,
    in this thread's buffers), each packed in one int64: digit ``n - 1`` (base ``base``)
    is ``latency - min latency + 1`` of the group's n-hop level, 0 where it has none
    (:func:`controller.routing.ucmp.other_profiles` unpacks them). Sorted."""
    S, N, d = peer.shape
    dsts = np.ascontiguousarray(dsts, dtype=np.int64)
    shape = (_first_levels(n_cap), 2 * S + 1, H + 1, N, dsts.shape[0])
    V = values_only_into(peer, dsts, H, n_cap, _buffer("V", shape, np.int16))
    return _table_profile_keys(V, dsts, S, H, base)


@nb.njit(cache=True, nogil=True)
def _table_profile_keys(V, dsts, S, H, base):
    """:func:`table_profile_keys` of the value tables ``V`` (levels: :func:`_group_levels`)."""
    n_lv = V.shape[0] - 1
    N = V.shape[3]
    C = V.shape[4]
    pw = np.empty(max(n_lv, 1), np.int64)
    pw[0] = 1
    for i in range(1, n_lv):
        pw[i] = pw[i - 1] * base
    lv_n = np.empty(max(n_lv, 1), np.int64)
    lv_a = np.empty(max(n_lv, 1), np.int64)
    keys = np.empty(S * N * C, np.int64)
    k = 0
    for t in range(S):
        for src in range(N):
            for c in range(C):
                if src == dsts[c]:
                    continue
                cnt = _group_levels(V, t, H, src, c, lv_n, lv_a)
                if cnt == 0:
                    continue
                key = 0
                for i in range(cnt):
                    key += (lv_a[i] - lv_a[cnt - 1] + 1) * pw[lv_n[i] - 1]
                keys[k] = key
                k += 1
    return np.unique(keys[:k])


@nb.njit(cache=True, nogil=True)
def group_profiles(m_group, m_hops, m_latency, m_kind, regular, width):
    """:func:`controller.routing.ucmp.group_profiles` (``width`` 0: the largest group;
    a group wider than ``width`` is left out of ``prof``, the caller refuses it)."""
    M = m_group.shape[0]
    R = 0
    for i in range(M):
        if m_kind[i] == regular:
            R += 1
    reg = np.empty(R, np.int64)
    row = np.empty(R, np.int64)
    pos = np.empty(R, np.int64)
    k = 0
    n_rows = 0
    widest = 0
    for i in range(M):
        if m_kind[i] != regular:
            continue
        reg[k] = i
        if k == 0 or m_group[i] != m_group[reg[k - 1]]:
            n_rows += 1
            pos[k] = 0
        else:
            pos[k] = pos[k - 1] + 1
        row[k] = n_rows - 1
        widest = max(widest, pos[k] + 1)
        k += 1
    if width <= 0:
        width = widest if R else 1
    lat_min = np.empty(n_rows, np.int64)
    for k in range(R):
        lat = m_latency[reg[k]]
        if pos[k] == 0 or lat < lat_min[row[k]]:
            lat_min[row[k]] = lat
    prof = np.full((n_rows, 2 * width), -1, np.int32)
    for k in range(R):
        if pos[k] < width:
            prof[row[k], 2 * pos[k]] = m_hops[reg[k]]
            prof[row[k], 2 * pos[k] + 1] = m_latency[reg[k]] - lat_min[row[k]]
    return reg, row, pos, prof


@nb.njit(cache=True, nogil=True)
def row_hashes(prof):
    """The 64-bit polynomial hash of each row of ``prof`` (int64) that
    :func:`controller.routing.envelope.unique_rows` tells rows apart by (wrapping arithmetic)."""
    h = np.zeros(prof.shape[0], np.uint64)
    mul = np.uint64(1000003)
    for i in range(prof.shape[0]):
        x = np.uint64(0)
        for j in range(prof.shape[1]):
            x = x * mul + np.uint64(prof[i, j])
        h[i] = x
    return h


@nb.njit(cache=True)
def level_bound(S, N, n_levels):
    """Most group levels one destination can have (every (t, src) at every hop count)."""
    return S * (N - 1) * max(n_levels, 1)


@nb.njit(cache=True, nogil=True)
def group_walks(peer, V, E, K, dsts, H, cap, keycap, envelope, c_from, L, P, dropped, lv_n, lv_t, lv_src, lv_c, lv_T,
                lv_cap, p_lv, hn, hu, hs):
    """Group levels and their value-keeping walks (at most ``cap`` per level) for the
    destinations ``dsts[c]`` of the tables, ``c = c_from ..``, appended at level ``L`` and
    path ``P`` of the output arrays.

    ``keycap > 0``: the ``"last-hop"`` ties policy (:mod:`controller.routing.ucmp_policy`)
    applied while walking, so tied walks into a last-hop ToR already seen are counted but
    never stored: of the first ``cap`` walks of a level only the first into each last-hop
    ToR is kept, at most ``keycap`` last-hop ToRs; a level is capped when it has more than
    ``cap`` walks or more than ``keycap`` last-hop ToRs among them (the walk stops there:
    nothing after it could be kept). The result is exactly :func:`ucmp_policy.apply` of
    the ``keycap = 0`` output, without materialising up to ``cap`` walks per level.

    ``envelope``: the ``"envelope"`` levels policy applied before walking: a level no flow
    size selects (:func:`on_envelope`) is neither walked nor kept, only counted in
    ``dropped[c]`` -- :func:`ucmp_policy.apply_levels` of the full output, less work.

    ``V, E, K`` are the tables of :func:`value_tables` laid out per destination,
    ``[c, n, tau, b, u]`` (:func:`per_destination`): the walks of one destination then
    read a few MB instead of striding over the whole chunk's tables (a cache miss per
    step at (1024, 32)).

    A level is ``(n, t, src, c)`` with ``A_n < A_{n-1}`` for ``A_n = V[c, n, t, H, src]``
    (``A_0`` = INF); its walks are found by a depth-first search over the move masks,
    earliest send slice first, lowest uplink first. Fills the level arrays
    ``(n, t, src, c, target, capped)`` and the path arrays ``(level, node, uplink, slice)``
    (hop arrays ``[P, width]``, -1 padded) and returns ``(c, levels, paths)``: ``c == C``
    when all are done; otherwise the path arrays were full and destination ``c`` is to
    be walked again from ``(levels, paths)`` with larger arrays (no array is reallocated
    in here: numba would reference-count a reassigned array on every write). The level
    arrays need :func:`level_bound` entries per destination.

    Algorithm: per level, an iterative depth-first search over the value-keeping DAG
    (``K``, ``E``), the stack one frame per hop. Arrays:

    - inputs: ``peer[S, N, d]`` (uplink peers per slice, -1 idle); ``V, E, K [c, n, tau, b, u]``
      (value, event slice, move mask); ``dsts[C]`` (destination ToRs); ``dropped[C]`` out
      (levels the envelope policy dropped, per destination);
    - levels out, indexed by ``L``: ``lv_n`` hops, ``lv_t`` start slice, ``lv_src``,
      ``lv_c`` destination column, ``lv_T`` target (delivery slice ``A_n``), ``lv_cap``
      capped;
    - paths out, indexed by ``P``: ``p_lv`` its level, ``hn/hu/hs [P, width]`` each hop's
      node reached, uplink and send slice (-1 padded);
    - the DFS stack, one frame per depth: ``st_u`` ToR, ``st_e`` event slice, ``st_b``
      in-slice budget left, ``st_j`` next uplink to try, ``st_mask`` uplinks still to try
      at this event; ``cur_n/cur_u/cur_s`` the hop taken at each depth (the walk so far);
    - per (t, src): ``g_n/g_A`` its levels (hops, target) and ``g_on`` whether a flow size
      selects each (the envelope); ``seen[keycap]`` the last-hop ToRs kept of a level.
    """
    S, N, d = peer.shape
    n_lv = V.shape[1] - 1
    C = V.shape[0]
    width = hn.shape[1]
    st_u = np.empty(width, np.int64)
    st_e = np.empty(width, np.int64)
    st_b = np.empty(width, np.int64)
    st_j = np.empty(width, np.int64)
    st_mask = np.empty(width, np.uint64)
    cur_n = np.empty(width, np.int32)
    cur_u = np.empty(width, np.int16)
    cur_s = np.empty(width, np.int32)
    seen = np.empty(max(min(keycap, N), 1), np.int64)
    g_n = np.empty(n_lv + 1, np.int64)
    g_A = np.empty(n_lv + 1, np.int64)
    g_on = np.empty(n_lv + 1, np.bool_)
    one = np.uint64(1)
    for c in range(c_from, C):
        dst = dsts[c]
        L_dst, P_dst = L, P
        dropped[c] = 0
        for t in range(S):
            for src in range(N):
                if src == dst:
                    continue
                prev = INF
                k = 0
                for n in range(1, n_lv + 1):
                    A = np.int64(V[c, n, t, H, src])
                    if A < prev:
                        prev = A
                        g_n[k] = n
                        g_A[k] = A
                        k += 1
                if envelope:
                    on_envelope(g_n, g_A, k, g_on)
                for i in range(k):
                    if envelope and not g_on[i]:
                        dropped[c] += 1  # no flow size selects this level: not walked, not kept
                        continue
                    n = g_n[i]
                    A = g_A[i]
                    lv_n[L] = n
                    lv_t[L] = t
                    lv_src[L] = src
                    lv_c[L] = c
                    lv_T[L] = A
                    capped = False
                    count = 0
                    nkeys = 0
                    # depth 0: the source, first event from slice t
                    e = np.int64(E[c, n, t, H, src])
                    st_u[0] = src
                    st_e[0] = e
                    st_b[0] = H
                    st_j[0] = 0
                    st_mask[0] = K[c, n, e, H, src]
                    depth = 0
                    while depth >= 0:
                        mk = st_mask[depth]
                        if mk != 0:
                            j = st_j[depth]
                            while (mk >> np.uint64(j)) & one == 0:
                                j += 1
                            st_mask[depth] = mk & ~(one << np.uint64(j))
                            st_j[depth] = j + 1
                            e = st_e[depth]
                            u = st_u[depth]
                            w = peer[e % S, u, j]
                            cur_n[depth] = w
                            cur_u[depth] = j
                            cur_s[depth] = e
                            if w == dst:  # delivered in slice A, after exactly n hops
                                if count == cap:
                                    capped = True
                                    break
                                count += 1
                                if keycap > 0:
                                    last = cur_n[depth - 1] if depth > 0 else src
                                    known = False
                                    for i in range(nkeys):
                                        if seen[i] == last:
                                            known = True
                                            break
                                    if known:
                                        continue
                                    if nkeys == keycap:
                                        capped = True
                                        break
                                    seen[nkeys] = last
                                    nkeys += 1
                                if P == p_lv.shape[0]:
                                    return c, L_dst, P_dst
                                p_lv[P] = L
                                for i in range(width):
                                    if i <= depth:
                                        hn[P, i] = cur_n[i]
                                        hu[P, i] = cur_u[i]
                                        hs[P, i] = cur_s[i]
                                    else:
                                        hn[P, i] = -1
                                        hu[P, i] = -1
                                        hs[P, i] = -1
                                P += 1
                            else:
                                m1 = n - depth - 1
                                b1 = st_b[depth] - 1
                                e1 = np.int64(E[c, m1, e, b1, w])
                                bb = b1 if e1 == e else H
                                depth += 1
                                st_u[depth] = w
                                st_e[depth] = e1
                                st_b[depth] = bb
                                st_j[depth] = 0
                                st_mask[depth] = K[c, m1, e1, bb, w]
                        else:
                            # no hop left at this event: wait for the next one, if waiting keeps the value
                            e = st_e[depth]
                            u = st_u[depth]
                            m = n - depth
                            if e + 1 <= A and V[c, m, e + 1, H, u] == A:
                                e1 = np.int64(E[c, m, e + 1, H, u])
                                st_e[depth] = e1
                                st_b[depth] = H
                                st_j[depth] = 0
                                st_mask[depth] = K[c, m, e1, H, u]
                            else:
                                depth -= 1
                    lv_cap[L] = capped
                    L += 1
    return C, L, P


@nb.njit(cache=True, nogil=True)
def per_destination(a, out):
    """``out[c, n, tau, b, u] = a[n, tau, b, u, c]`` (``out``'s dtype may be narrower:
    move masks of at most 32 uplinks fit ``uint32``); returns ``out``."""
    n_lv, T1, B, N, C = a.shape
    for n in range(n_lv):
        for tau in range(T1):
            for b in range(B):
                for c in range(C):  # one [u, c] slab (a few KB) read, C contiguous rows written
                    for u in range(N):
                        out[c, n, tau, b, u] = a[n, tau, b, u, c]
    return out


def _per_destination(a: np.ndarray, dtype=None, name: str | None = None) -> np.ndarray:
    """:func:`per_destination` of ``a`` into a new array (the thread's buffer ``name``)."""
    n_lv, T1, B, N, C = a.shape
    shape, dt = (C, n_lv, T1, B, N), np.dtype(dtype or a.dtype)
    return per_destination(a, np.empty(shape, dt) if name is None else _buffer(name, shape, dt))


#: each thread's buffers (:func:`_buffer`): the tables and walks of one chunk of
#: destinations are 0.5 GB at (1024, 32); faulting in fresh pages for every chunk cost
#: ~0.4 CPU-s of ~1.8 per chunk. They go with the thread (group_chunks' pool ends).
_WORK = threading.local()


def _buffer(name: str, shape: tuple, dtype) -> np.ndarray:
    """A C-contiguous array of ``shape``, the prefix of this thread's buffer ``name``
    (any contents; valid until the thread asks for ``name`` again)."""
    size = int(np.prod(shape, dtype=np.int64))
    dtype = np.dtype(dtype)
    buf = getattr(_WORK, name, None)
    if buf is None or buf.size < size or buf.dtype != dtype:
        buf = np.empty(size, dtype)
        setattr(_WORK, name, buf)
    return buf[:size].reshape(shape)


@nb.njit(cache=True, nogil=True)
def on_envelope(hops, lat, k, out):
    """``out[i]``: whether the uniform-cost line ``lat[i] + hops[i] x`` of member ``i`` of
    ``k`` (hops ascending, latency strictly descending) touches the lower envelope at some
    flow size ``x >= 0`` -- :func:`controller.routing.envelope.on_envelope` in integers.

    Line ``i`` is lowest at ``x`` iff ``x <= (lat_j - lat_i) / (hops_i - hops_j)`` for
    every member ``j`` with fewer hops and ``x >= (lat_i - lat_j) / (hops_j - hops_i)``
    for every member with more; such an ``x >= 0`` exists iff the largest lower bound is
    at most the smallest upper bound (all bounds are positive). Collinear members, which
    touch at one point, are on."""
    for i in range(k):
        lo_p, lo_q = 0, 1  # largest lower bound lo_p / lo_q
        for j in range(i + 1, k):
            p, q = lat[i] - lat[j], hops[j] - hops[i]
            if p * lo_q > lo_p * q:
                lo_p, lo_q = p, q
        ok = True
        for j in range(i):
            p, q = lat[j] - lat[i], hops[i] - hops[j]  # upper bound p / q
            if lo_p * q > p * lo_q:
                ok = False
                break
        out[i] = ok


def _path_arrays(n: int, width: int, reuse: bool = False) -> tuple[np.ndarray, ...]:
    """Empty path arrays (level, node, uplink, slice) for ``n`` paths of ``width`` hops
    (the thread's buffers when ``reuse``)."""
    new = _buffer if reuse else (lambda name, shape, dt: np.empty(shape, dt))
    return (new("p_lv", (n,), np.int64), new("hn", (n, width), np.int32), new("hu", (n, width), np.int16),
            new("hs", (n, width), np.int32))


def levels_and_paths(
    peer: np.ndarray, H: int, n_cap: int, dsts: np.ndarray, cap: int, path_room: int | None = None,
    last_hops: int = 0, envelope: bool = False, reuse: bool = False,
) -> tuple:
    """Group levels and walks of the destinations ``dsts`` (distinct ToRs, increasing; same tuple as
    :func:`controller.routing.ucmp_numpy.levels_and_paths`). ``peer``: int32, C-ordered.
    ``path_room``: paths the first output arrays hold (they double when full).
    ``last_hops > 0``: the ``"last-hop"`` ties policy with that many last-hop ToRs per
    level, applied in the walk (``group_walks``' ``keycap``; ``cap`` is then the tie search). ``envelope``: the
    ``"envelope"`` levels policy, applied before walking; then the tuple carries one more
    item, the number of levels it dropped. ``reuse``: the returned arrays are views of
    this thread's buffers, overwritten by its next call (the caller is done with them
    by then); the value tables always are."""
    S, N, d = peer.shape
    dsts = np.ascontiguousarray(dsts, dtype=np.int64)
    C = dsts.shape[0]
    shape = (_first_levels(n_cap), 2 * S + 1, H + 1, N, C)
    k_dt = np.uint32 if d <= 32 else np.uint64  # move masks: half the bytes up to 32 uplinks
    V, E, K, fixed = value_tables_into(peer, dsts, H, n_cap, _buffer("V", shape, np.int16),
                                       _buffer("E", shape, np.int16), _buffer("K", shape, k_dt))
    n_lv = V.shape[0] - 1
    # the walks read one destination at a time: lay the tables out per destination
    V, E, K = _per_destination(V, name="Vc"), _per_destination(E, name="Ec"), _per_destination(K, name="Kc")
    reached = n_lv - 1 if fixed else n_lv
    width = max(n_lv, 1)
    n_levels = C * level_bound(S, N, n_lv)
    new = _buffer if reuse else (lambda name, shape, dt: np.empty(shape, dt))
    levels = (new("lv_n", n_levels, np.int16), new("lv_t", n_levels, np.int32), new("lv_src", n_levels, np.int32),
              new("lv_c", n_levels, np.int32), new("lv_T", n_levels, np.int32), new("lv_cap", n_levels, np.bool_))
    paths = _path_arrays(path_room or min(n_levels, 1 << 20) * min(cap, 4), width, reuse)
    dropped = np.zeros(C, np.int64)
    c = L = P = 0
    while True:
        c, L, P = group_walks(peer, V, E, K, dsts, H, cap, last_hops, envelope, c, L, P, dropped, *levels, *paths)
        if c == C:
            break
        bigger = _path_arrays(2 * paths[0].shape[0], width)  # full: double, keep what is done
        for old, new_ in zip(paths, bigger):
            new_[:P] = old[:P]
        paths = bigger
    del V, E, K
    lv_n, lv_t, lv_src, lv_c, target, capped = (a[:L] for a in levels)
    p_lv, hn, hu, hs = (a[:P] for a in paths)
    out = lv_n, lv_t, lv_src, dsts[lv_c].astype(np.int32), target, capped, p_lv, hn, hu, hs, reached, fixed
    return (*out, int(dropped.sum())) if envelope else out


@nb.njit(cache=True, nogil=True)
def two_hop_best(wait, wait_t, upl, peer, t, src, dst, H, k, lim):
    """The ``k`` fastest 2-hop paths ``src -> w -> dst`` from slice ``t`` per query (UCMP
    §5.3 backups, §4.3 relaxation): the compiled form of ``ucmp._two_hop`` + ``_best_k``.

    ``wait/upl``: :func:`controller.routing.paths.meeting_table`, ``wait_t`` its
    ``[s, b, a]`` transpose, ``peer`` the schedule's ``[s, u, j]``. A path is kept when
    both meetings exist, ``w`` is neither end and its delivery slice ``a2 <= lim[q]``; the
    k smallest ``(a2, w)`` are chosen and returned in increasing ``w`` (the NumPy engine's
    order). Intermediates are visited in the order ``src`` meets them (slice by slice
    from ``t``, each at its first meeting) and the visit stops once that first meeting
    (a lower bound of ``a2``) is later than the k-th best ``a2``: a few slices of ``d``
    peers instead of every ToR. Returns ``(q, w, a1, u1, a2, u2)`` arrays, queries in
    input order."""
    S = wait.shape[0]
    d = peer.shape[2]
    Q = t.shape[0]
    step = 0 if H >= 2 else 1
    best_a = np.empty((Q, k), np.int64)
    best_w = np.empty((Q, k), np.int64)
    count = np.zeros(Q, np.int64)
    for q in range(Q):
        s0 = t[q] % S
        a = src[q]
        b = dst[q]
        n = 0
        for delta in range(S):
            if n == k and t[q] + delta + step > best_a[q, k - 1]:
                break  # every later intermediate delivers after the k-th best
            s1 = (s0 + delta) % S
            for j in range(d):
                w = peer[s1, a, j]
                if w < 0 or w == a or w == b or wait[s0, a, w] != delta or upl[s0, a, w] != j:
                    continue  # not a ToR src meets first here (over this uplink)
                a1 = t[q] + delta
                start2 = a1 + step
                w2 = wait_t[start2 % S, b, w]
                if w2 < 0:
                    continue
                a2 = start2 + w2
                if a2 > lim[q]:
                    continue
                # insert (a2, w) into the top-k, ordered by (a2, w)
                if n < k:
                    pos = n
                    n += 1
                elif a2 < best_a[q, k - 1] or (a2 == best_a[q, k - 1] and w < best_w[q, k - 1]):
                    pos = k - 1
                else:
                    continue
                while pos > 0 and (best_a[q, pos - 1] > a2 or (best_a[q, pos - 1] == a2 and best_w[q, pos - 1] > w)):
                    best_a[q, pos] = best_a[q, pos - 1]
                    best_w[q, pos] = best_w[q, pos - 1]
                    pos -= 1
                best_a[q, pos] = a2
                best_w[q, pos] = w
        count[q] = n
    total = 0
    for q in range(Q):
        total += count[q]
    o_q = np.empty(total, np.int64)
    o_w = np.empty(total, np.int64)
    o_a1 = np.empty(total, np.int64)
    o_u1 = np.empty(total, np.int64)
    o_a2 = np.empty(total, np.int64)
    o_u2 = np.empty(total, np.int64)
    i = 0
    for q in range(Q):
        n = count[q]
        ws = np.sort(best_w[q, :n])
        s0 = t[q] % S
        for j in range(n):
            w = ws[j]
            a1 = t[q] + wait[s0, src[q], w]
            start2 = a1 if H >= 2 else a1 + 1
            o_q[i] = q
            o_w[i] = w
            o_a1[i] = a1
            o_u1[i] = upl[s0, src[q], w]
            o_a2[i] = start2 + wait[start2 % S, w, dst[q]]
            o_u2[i] = upl[start2 % S, w, dst[q]]
            i += 1
    return o_q, o_w, o_a1, o_u1, o_a2, o_u2
