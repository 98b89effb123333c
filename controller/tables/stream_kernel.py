"""Compiled (numba) step of the streamed UCMP writer (:mod:`controller.tables.stream`).

Phase 1 puts a chunk's paths into the artifact's order and types. In NumPy that is a
chain of whole-array passes over every hop of every path (concatenate the regular and
2-hop paths, pad them to one width, the send slice made relative to the group's start
slice, -1 / pad padding, casts, then a row gather into member order): ~0.6 CPU-s of the
~1.2 CPU-s phase 1 took per (1024, 32) chunk. :func:`hop_rows` does it in one pass that
reads each hop once and writes it once, in the artifact's order. Same values, byte for
byte (tests/test_stream_kernel.py checks it against the NumPy form). :func:`member_order`
(a counting sort by group) and :func:`member_rows` (the member arrays, group starts and
bucket profiles in one pass) replace the argsort and the NumPy passes over the members.
"""

from __future__ import annotations

import numba as nb
import numpy as np


@nb.njit(cache=True, nogil=True)
def _copy_rows(hn, hu, hs, p0, n, t, pad, out_n, out_u, out_w, r0, lo, hi):
    """Paths ``p0 .. p0 + n - 1`` of one part as rows ``r0 ..`` of the output (see
    :func:`hop_rows`); returns ``(lo, hi)`` widened by their relative send slices."""
    width = out_n.shape[1]
    w_in = hn.shape[1]
    for k in range(n):
        p = p0 + k
        r = r0 + k
        for col in range(w_in):
            node = hn[p, col]
            if node >= 0:
                off = np.int64(hs[p, col]) - t
                lo = min(lo, off)
                hi = max(hi, off)
                out_n[r, col] = node
                out_u[r, col] = hu[p, col]
                out_w[r, col] = off if 0 <= off < pad else pad
            else:
                out_n[r, col] = -1
                out_u[r, col] = hu[p, col]
                out_w[r, col] = pad
        for col in range(w_in, width):
            out_n[r, col] = -1
            out_u[r, col] = -1
            out_w[r, col] = pad
    return lo, hi


@nb.njit(cache=True, nogil=True)
def hop_rows(order, first, npaths, m_t, hn0, hu0, hs0, hn1, hu1, hs1, hn2, hu2, hs2, pad, out_n, out_u, out_w):
    """The hop rows of members ``order[0], order[1], ...``, each member's paths in turn.

    Paths are numbered across three parts (the regular paths, then two 2-hop parts, any
    of them empty): member ``m`` owns paths ``first[m] .. first[m] + npaths[m] - 1``, all
    in one part. A hop row is written as node, uplink (-1 past the path's end) and send
    slice minus the member's start slice ``m_t[m]`` (``pad`` past the end). Returns
    ``(min, max)`` of the relative send slices of real hops (the caller refuses those
    outside ``0 .. pad - 1``).

    The paths are read in input order and scattered to their rows (the output rows are
    narrower than the input's, and a chunk's input -- destination-major walks -- is far
    from the output's source-major order: reading it in order lets the prefetcher work)."""
    M = order.shape[0]
    out_first = np.empty(M, np.int64)  # [member] its first output row
    r = 0
    for i in range(M):
        m = order[i]
        out_first[m] = r
        r += npaths[m]
    P0 = hn0.shape[0]
    P1 = hn1.shape[0]
    lo = np.iinfo(np.int64).max
    hi = np.iinfo(np.int64).min
    for m in range(M):
        p = first[m]
        if p < P0:
            lo, hi = _copy_rows(hn0, hu0, hs0, p, npaths[m], m_t[m], pad, out_n, out_u, out_w, out_first[m], lo, hi)
        elif p < P0 + P1:
            lo, hi = _copy_rows(hn1, hu1, hs1, p - P0, npaths[m], m_t[m], pad, out_n, out_u, out_w, out_first[m],
                                lo, hi)
        else:
            lo, hi = _copy_rows(hn2, hu2, hs2, p - P0 - P1, npaths[m], m_t[m], pad, out_n, out_u, out_w,
                                out_first[m], lo, hi)
    return lo, hi


@nb.njit(cache=True, nogil=True)
def member_order(group, kind, hops, n_groups):
    """The order of members by ``(group, kind, hops)``, stable (``np.argsort`` of that
    key, ``kind="stable"``), for ``group`` in ``0 .. n_groups - 1``: a counting sort by
    group, then each group's few members by (kind, hops) by insertion (they mostly come
    in that order already). O(members + groups) instead of a sort of the whole chunk."""
    M = group.shape[0]
    at = np.zeros(n_groups + 1, np.int64)
    for i in range(M):
        at[group[i] + 1] += 1
    for g in range(n_groups):
        at[g + 1] += at[g]
    order = np.empty(M, np.int64)
    nxt = at[:n_groups].copy()
    for i in range(M):
        g = group[i]
        order[nxt[g]] = i
        nxt[g] += 1
    for g in range(n_groups):
        for j in range(at[g] + 1, at[g + 1]):
            m = order[j]
            k = j
            while k > at[g] and (kind[order[k - 1]] > kind[m] or (kind[order[k - 1]] == kind[m]
                                                                  and hops[order[k - 1]] > hops[m])):
                order[k] = order[k - 1]
                k -= 1
            order[k] = m
    return order


@nb.njit(cache=True, nogil=True)
def member_rows(order, m_ga, m_kind, m_hops, m_lat, m_np, regular, per_src, width, o_kind, o_hops, o_lat, o_np,
                o_pos, per_src_m, per_src_p):
    """Phase 1's member arrays in one pass over the members in artifact order ``order``.

    Writes ``o_* = m_*[order]`` in the artifact's types, ``o_pos`` (a REGULAR member's
    position among its group's REGULAR members, else -1) and the members and paths per
    source ToR (``m_ga // per_src``); returns ``(g_first, prof, prof_of)``: the first
    member of each group (runs of equal ``m_ga``), the bucket profile of each group with
    REGULAR members -- :func:`controller.routing.ucmp.group_profiles`'s rows, ``width``
    members wide -- and each member's profile row (-1: none)."""
    M = order.shape[0]
    g_first = np.empty(M, np.int64)
    prof_of = np.full(M, -1, np.int64)
    n_g = 0
    n_p = 0
    prev = -1
    for i in range(M):  # groups, and the REGULAR members' profile rows
        m = order[i]
        ga = m_ga[m]
        if i == 0 or ga != prev:
            g_first[n_g] = i
            n_g += 1
            prev = ga
            new_prof = True
        if m_kind[m] == regular:
            if new_prof:
                n_p += 1
                new_prof = False
            prof_of[i] = n_p - 1
    prof = np.full((n_p, 2 * width), -1, np.int32)
    i = 0
    while i < M:
        j = i  # the group's REGULAR members: i .. j - 1 (they come first, hops ascending)
        while j < M and prof_of[j] >= 0 and prof_of[j] == prof_of[i]:
            j += 1
        if j > i:
            if j - i > width:
                raise ValueError("a UCMP group has more REGULAR members than the profile width")
            lat_min = m_lat[order[i]]
            for k in range(i + 1, j):
                lat_min = min(lat_min, m_lat[order[k]])
            row = prof_of[i]
            for k in range(i, j):
                prof[row, 2 * (k - i)] = m_hops[order[k]]
                prof[row, 2 * (k - i) + 1] = m_lat[order[k]] - lat_min
                o_pos[k] = k - i
            i = j
        else:
            o_pos[i] = -1
            i += 1
    for i in range(M):
        m = order[i]
        o_kind[i] = m_kind[m]
        o_hops[i] = m_hops[m]
        o_lat[i] = m_lat[m]
        o_np[i] = m_np[m]
        x = m_ga[m] // per_src
        per_src_m[x] += 1
        per_src_p[x] += m_np[m]
    return g_first[:n_g], prof, prof_of


@nb.njit(cache=True, nogil=True)
def member_ranges(m_prof, m_pos, m_kind, regular, prof_lo, prof_hi, tor_rows, lo, hi, entries):
    """Each member's bucket range ``[lo, hi]`` from its profile and position (-1: none;
    backup / relaxed members have no profile), and per ToR (rows ``tor_rows[i] ..
    tor_rows[i + 1] - 1``) the REGULAR members that serve some bucket, added to ``entries``."""
    for i in range(tor_rows.shape[0] - 1):
        n = 0
        for r in range(tor_rows[i], tor_rows[i + 1]):
            p = m_prof[r]
            if p >= 0:
                lo[r] = prof_lo[p, m_pos[r]]
                hi[r] = prof_hi[p, m_pos[r]]
            else:
                lo[r] = -1
                hi[r] = -1
            if m_kind[r] == regular and lo[r] >= 0:
                n += 1
        entries[i] += n
