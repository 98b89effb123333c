"""UCMP group levels and walks, NumPy engine: the reference for the compiled kernels.

Whole-array form of the value tables and of the walk enumeration described in
:mod:`controller.routing.ucmp` (UCMP App. A Alg. 1, vectorised over all ToRs and a
chunk of destinations). :mod:`controller.routing.ucmp_kernel` computes the same
levels and paths with numba; the tests check that the two agree on random schedules
and `uro bench --suite ucmp` times them side by side. This engine also serves
schedules with more than 64 uplinks per ToR (the kernels' move masks are 64 bits).
"""

from __future__ import annotations

import numpy as np

from controller.schedule.model import Schedule

INF = np.int16(32767)


def _value_tables(sched: Schedule, H: int, n_cap: int, dsts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``V[n, tau, b, u, c]`` for n = 0..n_used, tau in [0, 2S], b in [0, H]; stops early at
    the fixed point. Entries are absolute delivery slices (INF = unreachable in the window).
    ``dsts``: the chunk's destination ids (distinct, increasing; any ToRs).

    ``E[n, tau, b, u, c]``: the first slice >= tau in which a hop keeps the value
    ``V[n, tau, b, u, c]`` (the packet waits until then) -- path enumeration jumps from
    one such event to the next instead of stepping through every slice."""
    S, N, d = sched.peer.shape
    T = 2 * S
    C = dsts.shape[0]
    peer = sched.peer
    safe = np.maximum(peer, 0)
    levels = [np.full((T + 1, H + 1, N, C), INF, dtype=np.int16)]
    events = [np.full((T + 1, H + 1, N, C), INF, dtype=np.int16)]
    col = np.full(N + 1, -1, np.int64)       # destination -> its column in the chunk (-1: not in it)
    col[dsts] = np.arange(C)
    # rows u whose uplink j reaches a destination of this chunk in slice s: (rows, cols)
    hits = [[np.nonzero(col[peer[s, :, j]] >= 0) for j in range(d)] for s in range(S)]
    hits = [[(r[0], col[peer[s, r[0], j]]) for j, r in enumerate(row)] for s, row in enumerate(hits)]
    for n in range(1, n_cap + 1):
        prev = levels[-1]
        cur = np.full_like(prev, INF)
        ev = np.full_like(prev, INF)
        best = np.empty((N, C), dtype=np.int16)
        for tau in range(T - 1, -1, -1):
            s = tau % S
            wait = cur[tau + 1, H]
            cur[tau, 0] = wait
            ev[tau, 0] = ev[tau + 1, H]
            src_rows = None
            for b in range(1, H + 1):
                best.fill(INF)
                src_rows = prev[tau, b - 1]
                for j in range(d):
                    cand = src_rows[safe[s, :, j]]
                    cand[hits[s][j]] = tau
                    cand[peer[s, :, j] < 0] = INF
                    np.minimum(best, cand, out=best)
                hop_wins = best <= wait
                cur[tau, b] = np.where(hop_wins, best, wait)
                ev[tau, b] = np.where(hop_wins, np.int16(tau), ev[tau + 1, H])
        levels.append(cur)
        events.append(ev)
        if np.array_equal(cur, prev):
            break
    return np.stack(levels), np.stack(events)


def _first_per_level(lv: np.ndarray, room: np.ndarray) -> np.ndarray:
    """Mask keeping, per level id, the first ``room[level]`` entries of ``lv`` (sorted)."""
    rank = np.arange(lv.size) - np.searchsorted(lv, lv, side="left")
    return rank < room[lv]


def _enumerate(
    sched: Schedule, V: np.ndarray, E: np.ndarray, dsts: np.ndarray, H: int, cap: int
) -> tuple:
    """The first ``cap`` value-keeping walks of every group level in canonical order, and
    whether a level has more (``truncated``).

    Canonical order (the compiled engine's depth-first order, docs/ucmp.md "Ties"): walks
    compared hop by hop on (send slice, uplink), earliest slice first, then lowest uplink.
    Round ``k`` extends every live walk (``k`` hops so far, sitting at an *event*: a slice
    where some hop keeps the level's target value) by its ``k+1``-th hop, at this event
    or, waiting longer, at any later event that still keeps the value. Live walks stay
    sorted by (level, hops so far): children are generated per parent and ordered by
    (parent, slice, uplink). Every live walk completes (it is on the value-keeping DAG,
    all of a level's walks have exactly its hop count), and the completions of a prefix
    all precede those of any later prefix, so keeping each level's first ``cap - done``
    prefixes after each round loses none of its first ``cap`` walks.

    Algorithm: a breadth-first expansion over the value-keeping DAG, one hop per round,
    walks kept as a parent-pointer tree of hop records. Arrays:

    - ``A[n, t, src, c]``: the value with at most ``n`` hops (``V`` at full budget);
      ``better`` marks the levels (``A_n < A_{n-1}``);
    - levels, indexed by level: ``lv_n`` hops, ``lv_t`` start slice, ``lv_src``, ``lv_c``
      destination column, ``target`` delivery slice; ``done`` walks completed,
      ``truncated`` more than ``cap``;
    - live walks (the frontier), sorted by (level, hops so far): ``it_lv`` level, ``it_u``
      ToR, ``it_m`` hops left, ``it_tau`` event slice, ``it_b`` in-slice budget left,
      ``it_rec`` last hop record;
    - hop records (the tree): ``rec_node``, ``rec_upl``, ``rec_slice`` the hop,
      ``rec_parent`` the record before it (-1: the source); ``fin_lv/fin_rec`` completed
      walks (level, last record);
    - one round's children: ``ch_p`` parent walk, ``ch_tau`` send slice, ``ch_j`` uplink,
      ``ch_w`` ToR reached, ``ch_b`` budget there, ``ch_fin`` delivered.
    """
    S, N, d = sched.peer.shape
    n_lv = V.shape[0] - 1
    C = dsts.shape[0]
    A = V[:, :S, H]  # [n, t, src, c]
    better = np.zeros(A.shape, dtype=bool)
    better[1:] = A[1:] < A[:-1]
    better[:, :, dsts, np.arange(C)] = False  # src == dst
    lv_n, lv_t, lv_src, lv_c = np.nonzero(better)
    target = A[lv_n, lv_t, lv_src, lv_c].astype(np.int32)
    L = lv_n.shape[0]
    # live walks, sorted by (level, hops so far): level, ToR, event slice, budget, hops left, last hop record
    it_lv = np.arange(L, dtype=np.int64)
    it_u = lv_src.astype(np.int64)
    it_m = lv_n.astype(np.int64)
    it_tau = E[it_m, lv_t, H, it_u, lv_c].astype(np.int64)
    it_b = np.full(L, H, dtype=np.int64)
    it_rec = np.full(L, -1, dtype=np.int64)  # last hop record of the walk (a parent-pointer tree)
    rec_node, rec_upl, rec_slice, rec_parent = [], [], [], []
    n_rec = 0
    done = np.zeros(L, dtype=np.int64)
    truncated = np.zeros(L, dtype=bool)
    fin_lv, fin_rec = [], []
    T1, B1 = V.shape[1], V.shape[2]
    Vf, Ef = V.reshape(-1), E.reshape(-1)
    peer_f = sched.peer.reshape(-1).astype(np.int64)

    def flat(m, tau, b, u, c):
        return (((m * T1 + tau) * B1 + b) * N + u) * C + c

    while it_lv.size:
        T_it = target[it_lv]
        c_it = lv_c[it_lv]
        dst_it = dsts[c_it]
        # every next hop of every live walk: (parent, slice, uplink, ToR, budget there, final)
        ch_p, ch_tau, ch_j, ch_w, ch_b, ch_fin = [], [], [], [], [], []
        act = np.flatnonzero((it_b >= 1) & (it_m >= 1))
        tau, b = it_tau[act], it_b[act]
        while act.size:  # this event, then each later event that keeps the value
            a_T = T_it[act]
            a_final = tau == a_T
            pbase = ((tau % S) * N + it_u[act]) * d
            vbase = flat(it_m[act] - 1, tau, b - 1, 0, c_it[act])
            for j in range(d):
                w = peer_f[pbase + j]
                at_dst = w == dst_it[act]
                fin = np.flatnonzero(at_dst & a_final)
                mid = np.flatnonzero((w >= 0) & ~at_dst)
                mid = mid[Vf[vbase[mid] + w[mid] * C] == a_T[mid]]
                for sel, final in ((fin, True), (mid, False)):
                    if sel.size:
                        ch_p.append(act[sel])
                        ch_tau.append(tau[sel])
                        ch_j.append(np.full(sel.size, j, np.int64))
                        ch_w.append(w[sel])
                        ch_b.append(b[sel])
                        ch_fin.append(np.full(sel.size, final))
            more = np.flatnonzero(tau + 1 <= a_T)
            act, tau = act[more], tau[more] + 1
            fc = flat(it_m[act], tau, H, it_u[act], c_it[act])
            keep = Vf[fc] == T_it[act]
            act, tau = act[keep], Ef[fc[keep]].astype(np.int64)
            b = np.full(act.size, H, np.int64)
        if not ch_p:
            break
        p, tau, j, w, b, final = (np.concatenate(x) for x in (ch_p, ch_tau, ch_j, ch_w, ch_b, ch_fin))
        # by (parent, slice, uplink); parents are in (level, hops so far) order, so children stay in it
        order = np.argsort((p * T1 + tau) * d + j, kind="stable")
        p, tau, j, w, b, final = p[order], tau[order], j[order], w[order], b[order], final[order]
        lv = it_lv[p]
        if int((np.bincount(lv, minlength=L) + done).max()) > cap:
            keep = _first_per_level(lv, cap - done)
            truncated[lv[~keep]] = True
            p, tau, j, w, b, final, lv = (x[keep] for x in (p, tau, j, w, b, final, lv))
        ids = n_rec + np.arange(p.size)
        n_rec += p.size
        rec_node.append(w.astype(np.int32))
        rec_upl.append(j.astype(np.int16))
        rec_slice.append(tau.astype(np.int32))
        rec_parent.append(it_rec[p])
        f = np.flatnonzero(final)
        np.add.at(done, lv[f], 1)
        fin_lv.append(lv[f])
        fin_rec.append(ids[f])
        k = np.flatnonzero(~final)
        m1, b1 = it_m[p[k]] - 1, b[k] - 1
        ev = Ef[flat(m1, tau[k], b1, w[k], c_it[p[k]])].astype(np.int64)
        it_lv, it_u, it_tau, it_b, it_m, it_rec = lv[k], w[k], ev, np.where(ev == tau[k], b1, H), m1, ids[k]
    # rebuild the hop lists from the parent pointers
    p_lv = np.concatenate(fin_lv) if fin_lv else np.zeros(0, np.int64)
    r = np.concatenate(fin_rec) if fin_rec else np.zeros(0, np.int64)
    P = p_lv.size
    p_hn = np.full((P, n_lv), -1, np.int32)
    p_hu = np.full((P, n_lv), -1, np.int16)
    p_hs = np.full((P, n_lv), -1, np.int32)
    if P:
        node, upl, slc, parent = (np.concatenate(x) for x in (rec_node, rec_upl, rec_slice, rec_parent))
        pos = lv_n[p_lv].astype(np.int64) - 1
        rows = np.arange(P)
        while rows.size:
            p_hn[rows, pos] = node[r]
            p_hu[rows, pos] = upl[r]
            p_hs[rows, pos] = slc[r]
            r = parent[r]
            pos = pos - 1
            more = r >= 0
            rows, r, pos = rows[more], r[more], pos[more]
    levels = (lv_n, lv_t, lv_src, dsts[lv_c], target)
    return levels, p_lv, p_hn, p_hu, p_hs, truncated


def arrival_table(sched: Schedule, H: int, n_cap: int, dsts: np.ndarray) -> np.ndarray:
    """``A[n - 1, t, src, c]`` of :func:`controller.routing.ucmp_kernel.arrival_table`:
    the group levels of ``dsts`` without their walks."""
    V, _ = _value_tables(sched, H, n_cap, dsts)
    return np.array(V[1:, :sched.n_slices, H])


def levels_and_paths(sched: Schedule, H: int, n_cap: int, dsts: np.ndarray, cap: int) -> tuple:
    """Group levels and walks of one chunk of destinations: ``(lv_n, lv_t, lv_src, lv_dst,
    target, capped, p_lv, hop_node, hop_uplink, hop_slice, levels_reached, fixed)``."""
    V, E = _value_tables(sched, H, n_cap, dsts)
    fixed = V.shape[0] > 1 and bool(np.array_equal(V[-1], V[-2]))
    reached = V.shape[0] - 2 if fixed else V.shape[0] - 1
    levels, p_lv, hn, hu, hs, trunc = _enumerate(sched, V, E, dsts, H, cap)
    lv_n, lv_t, lv_src, lv_dst, target = levels
    # a level's paths in (send slice, uplink) order, hop by hop, as the compiled engine
    # lists them (the flow-hash selector of a tie maps hashes to this order)
    keys = [k for i in range(hn.shape[1] - 1, -1, -1) for k in (hu[:, i], hs[:, i])] + [p_lv]
    order = np.lexsort(keys)
    p_lv, hn, hu, hs = p_lv[order], hn[order], hu[order], hs[order]
    return lv_n, lv_t, lv_src, lv_dst, target, trunc, p_lv, hn, hu, hs, reached, fixed
