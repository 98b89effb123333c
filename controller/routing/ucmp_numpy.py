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
    ``dsts`` is a contiguous range of destination ids (one chunk).

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
    c0 = int(dsts[0])
    # rows u whose uplink j reaches a destination of this chunk in slice s: (rows, cols)
    hits = [[np.nonzero((peer[s, :, j] >= c0) & (peer[s, :, j] < c0 + C)) for j in range(d)] for s in range(S)]
    hits = [[(r[0], peer[s, r[0], j] - c0) for j, r in enumerate(row)] for s, row in enumerate(hits)]
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


def _cap(lv: np.ndarray, done: np.ndarray, cap: int) -> np.ndarray:
    """Boolean mask keeping, per level id, the first ``cap - done[level]`` entries."""
    order = np.argsort(lv, kind="stable")
    lv_o = lv[order]
    first = np.searchsorted(lv_o, lv_o, side="left")
    rank = np.arange(lv_o.size) - first + done[lv_o]
    keep = np.zeros(lv.size, dtype=bool)
    keep[order[rank < cap]] = True
    return keep


def _enumerate(
    sched: Schedule, V: np.ndarray, E: np.ndarray, dsts: np.ndarray, H: int, cap: int
) -> tuple:
    """All value-keeping walks of every group level (at most ``cap`` per level).

    A live walk sits at an *event*: a slice where some hop keeps the level's target
    value. Each round it branches into the value-keeping hops of that slice and into
    a continuation at its next event (waiting longer can also keep the value).
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

    def over_cap(lv: np.ndarray) -> bool:
        return bool(lv.size) and int((np.bincount(lv, minlength=L) + done).max()) > cap

    while it_lv.size:
        T_it = target[it_lv]
        c_it = lv_c[it_lv]
        act = np.flatnonzero((it_b >= 1) & (it_m >= 1))
        a_T = T_it[act]
        a_dst = dsts[c_it[act]]
        a_final = it_tau[act] == a_T
        pbase = ((it_tau[act] % S) * N + it_u[act]) * d
        vbase = flat(it_m[act] - 1, it_tau[act], it_b[act] - 1, 0, c_it[act])
        new_sel, new_w, new_j, new_final = [], [], [], []
        for j in range(d):
            w = peer_f[pbase + j]
            at_dst = w == a_dst
            fin = np.flatnonzero(at_dst & a_final)
            mid = np.flatnonzero((w >= 0) & ~at_dst)
            mid = mid[Vf[vbase[mid] + w[mid] * C] == a_T[mid]]
            for sel, final in ((fin, True), (mid, False)):
                if sel.size:
                    new_sel.append(act[sel])
                    new_w.append(w[sel])
                    new_j.append(np.full(sel.size, j, np.int16))
                    new_final.append(np.full(sel.size, final))
        nxt = []
        if new_sel:
            sel = np.concatenate(new_sel)
            w = np.concatenate(new_w)
            final = np.concatenate(new_final)
            ids = n_rec + np.arange(sel.size)
            n_rec += sel.size
            rec_node.append(w.astype(np.int32))
            rec_upl.append(np.concatenate(new_j))
            rec_slice.append(it_tau[sel].astype(np.int32))
            rec_parent.append(it_rec[sel])
            f = np.flatnonzero(final)
            if f.size:
                lv = it_lv[sel[f]]
                keep = _cap(lv, done, cap) if over_cap(lv) else np.ones(f.size, bool)
                truncated[lv[~keep]] = True
                np.add.at(done, lv[keep], 1)
                fin_lv.append(lv[keep])
                fin_rec.append(ids[f[keep]])
            k = np.flatnonzero(~final)
            if k.size:
                sk, wk = sel[k], w[k]
                m1, b1, tau = it_m[sk] - 1, it_b[sk] - 1, it_tau[sk]
                ev = Ef[flat(m1, tau, b1, wk, c_it[sk])].astype(np.int64)
                nxt.append((it_lv[sk], wk, ev, np.where(ev == tau, b1, H), m1, ids[k]))
        cont = np.flatnonzero(it_tau + 1 <= T_it)
        if cont.size:
            fc = flat(it_m[cont], it_tau[cont] + 1, H, it_u[cont], c_it[cont])
            keep_c = Vf[fc] == T_it[cont]
            cont, fc = cont[keep_c], fc[keep_c]
        if cont.size:
            ev = Ef[fc].astype(np.int64)
            nxt.append((it_lv[cont], it_u[cont], ev, np.full(cont.size, H, np.int64), it_m[cont], it_rec[cont]))
        if not nxt:
            break
        it_lv, it_u, it_tau, it_b, it_m, it_rec = (np.concatenate([r[i] for r in nxt]) for i in range(6))
        # every live walk completes, so keep at most (cap - completed) of them per level
        if over_cap(it_lv):
            keep = _cap(it_lv, done, cap)
            truncated[it_lv[~keep]] = True
            it_lv, it_u, it_tau, it_b, it_m, it_rec = (x[keep] for x in (it_lv, it_u, it_tau, it_b, it_m, it_rec))
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
