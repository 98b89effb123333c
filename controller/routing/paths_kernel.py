"""Compiled kernels of :mod:`controller.routing.paths` (member assembly, row gathers, the
meeting table). A module of their own, imported where they are called: numba decorates
with ``cache=True`` at import, which needs a cache location (the source tree's
``__pycache__`` or the user's cache directory); importing the CLI must not need one (a
user who can write neither, e.g. ``uro emulate up`` run as nobody, gets the "needs root"
message, not a traceback)."""

from __future__ import annotations

import numba as nb
import numpy as np


@nb.njit(cache=True, nogil=True)
def _members(order, gid, kind, key, p_hops, p_lat, hn, hu, hs, n_groups):
    """The paths in ``order`` and their members: runs of equal (gid, kind, key)."""
    P = order.shape[0]
    o_hops = np.empty(P, np.int16)
    o_lat = np.empty(P, np.int32)
    o_hn = np.empty((P, hn.shape[1]), np.int32)
    o_hu = np.empty((P, hu.shape[1]), np.int16)
    o_hs = np.empty((P, hs.shape[1]), np.int32)
    s_gid = np.empty(P, np.int64)
    s_kind = np.empty(P, np.int8)
    s_key = np.empty(P, np.int64)
    at = np.empty(P, np.int64)
    for i in range(P):
        at[order[i]] = i
    for j in range(P):  # read in input order, write scattered: store misses do not stall as load misses do
        i = at[j]
        s_gid[i] = gid[j]
        s_kind[i] = kind[j]
        s_key[i] = key[j]
        o_hops[i] = p_hops[j]
        o_lat[i] = p_lat[j]
        for c in range(hn.shape[1]):  # element by element: a row slice costs a view per path
            o_hn[i, c] = hn[j, c]
        for c in range(hu.shape[1]):
            o_hu[i, c] = hu[j, c]
        for c in range(hs.shape[1]):
            o_hs[i, c] = hs[j, c]
    new = np.empty(P, np.bool_)
    M = 0
    for i in range(P):
        new[i] = i == 0 or s_gid[i] != s_gid[i - 1] or s_kind[i] != s_kind[i - 1] or s_key[i] != s_key[i - 1]
        if new[i]:
            M += 1
    g_count = np.zeros(n_groups, np.int32)
    m_kind = np.empty(M, np.int8)
    m_hops = np.empty(M, np.int16)
    m_lat = np.empty(M, np.int32)
    m_first = np.empty(M, np.int64)
    m_count = np.empty(M, np.int32)
    m = -1
    hmin = hmax = 0
    for i in range(P):
        if new[i]:
            if m >= 0:
                m_hops[m] = hmin if hmin == hmax else -1
            m += 1
            g_count[s_gid[i]] += 1
            m_kind[m] = s_kind[i]
            m_first[m] = i
            m_count[m] = 0
            m_lat[m] = o_lat[i]
            hmin = hmax = o_hops[i]
        m_count[m] += 1
        m_lat[m] = min(m_lat[m], o_lat[i])
        hmin = min(hmin, o_hops[i])
        hmax = max(hmax, o_hops[i])
    if m >= 0:
        m_hops[m] = hmin if hmin == hmax else -1
    g_first = np.zeros(n_groups, np.int64)
    for g in range(1, n_groups):
        g_first[g] = g_first[g - 1] + g_count[g - 1]
    return g_first, g_count, m_kind, m_hops, m_lat, m_first, m_count, o_hops, o_lat, o_hn, o_hu, o_hs


@nb.njit(cache=True, nogil=True)
def _take_rows(a, order, out):
    for i in range(order.shape[0]):
        for c in range(a.shape[1]):
            out[i, c] = a[order[i], c]
    return out


@nb.njit(cache=True, nogil=True)
def _counting_order(combined, n_groups):
    """(the paths in stable group order, whether their keys are then non-decreasing)."""
    P = combined.shape[0]
    first = np.zeros(n_groups + 1, np.int64)
    for i in range(P):
        first[(combined[i] >> 12) + 1] += 1
    for g in range(n_groups):
        first[g + 1] += first[g]
    order = np.empty(P, np.int64)
    for i in range(P):
        g = combined[i] >> 12
        order[first[g]] = i
        first[g] += 1
    for i in range(1, P):
        if combined[order[i]] < combined[order[i - 1]]:
            return order, False
    return order, True


@nb.njit(cache=True, nogil=True)
def _meeting_table(peer, wait, upl):
    S, N, d = peer.shape
    for s in range(2 * S - 1, -1, -1):  # backwards over two cycles: every slice sees its next meeting
        cur = s % S
        if s < 2 * S - 1:
            nxt = (s + 1) % S
            for a in range(N):
                for b in range(N):
                    w = wait[nxt, a, b]
                    wait[cur, a, b] = w + 1 if w >= 0 else -1
                    upl[cur, a, b] = upl[nxt, a, b] if w >= 0 else -1
        for j in range(d - 1, -1, -1):
            for a in range(N):
                b = peer[cur, a, j]
                if b >= 0:
                    wait[cur, a, b] = 0
                    upl[cur, a, b] = j
    return wait, upl
