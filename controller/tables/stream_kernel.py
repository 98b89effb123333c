"""Compiled (numba) step of the streamed UCMP writer (:mod:`controller.tables.stream`).

Phase 1 puts a chunk's paths into the artifact's order and types. In NumPy that is a
chain of whole-array passes over every hop of every path (concatenate the regular and
2-hop paths, pad them to one width, the send slice made relative to the group's start
slice, -1 / pad padding, casts, then a row gather into member order): ~0.6 CPU-s of the
~1.2 CPU-s phase 1 took per (1024, 32) chunk. :func:`hop_rows` does it in one pass that
reads each hop once and writes it once, in the artifact's order. Same values, byte for
byte (tests/test_stream_kernel.py checks it against the NumPy form).
"""

from __future__ import annotations

import numba as nb
import numpy as np


@nb.njit(cache=True, nogil=True, inline="always")
def _row(hn, hu, hs, p, t, pad, out_n, out_u, out_w, r, lohi):
    width = out_n.shape[1]
    w_in = hn.shape[1]
    for col in range(width):
        node = hn[p, col] if col < w_in else -1
        if node >= 0:
            off = hs[p, col] - t
            if off < lohi[0]:
                lohi[0] = off
            if off > lohi[1]:
                lohi[1] = off
            out_n[r, col] = node
            out_u[r, col] = hu[p, col]
            out_w[r, col] = off if 0 <= off < pad else pad
        else:
            out_n[r, col] = -1
            out_u[r, col] = -1 if col >= w_in else hu[p, col]
            out_w[r, col] = pad


@nb.njit(cache=True, nogil=True)
def hop_rows(order, first, npaths, m_t, hn0, hu0, hs0, hn1, hu1, hs1, hn2, hu2, hs2, pad, out_n, out_u, out_w):
    """The hop rows of members ``order[0], order[1], ...``, each member's paths in turn.

    Paths are numbered across three parts (the regular paths, then two 2-hop parts, any
    of them empty): member ``m`` owns paths ``first[m] .. first[m] + npaths[m] - 1``. A hop
    row is written as node, uplink (-1 past the path's end) and send slice minus the
    member's start slice ``m_t[m]`` (``pad`` past the end). Returns ``(min, max)`` of the
    relative send slices of real hops (the caller refuses those outside ``0 .. pad - 1``)."""
    P0 = hn0.shape[0]
    P1 = hn1.shape[0]
    lohi = np.zeros(2, np.int64)
    lohi[0] = np.iinfo(np.int64).max
    lohi[1] = np.iinfo(np.int64).min
    r = 0
    for i in range(order.shape[0]):
        m = order[i]
        t = m_t[m]
        for k in range(npaths[m]):
            p = first[m] + k
            if p < P0:
                _row(hn0, hu0, hs0, p, t, pad, out_n, out_u, out_w, r, lohi)
            elif p < P0 + P1:
                _row(hn1, hu1, hs1, p - P0, t, pad, out_n, out_u, out_w, r, lohi)
            else:
                _row(hn2, hu2, hs2, p - P0 - P1, t, pad, out_n, out_u, out_w, r, lohi)
            r += 1
    return lohi[0], lohi[1]


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
