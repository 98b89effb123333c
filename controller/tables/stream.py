"""UCMP source routes of every source ToR, computed and written with bounded memory.

:func:`controller.routing.ucmp.compute` assembles every path of a schedule in memory:
189M paths at (1024, 32), ~6 GB plus the copies of its sort. This writer produces the
same route set (tests check it equals ``compute``'s, array for array) as a compact
artifact (:mod:`controller.tables.artifacts`) while holding only a few chunks:

1. :func:`ucmp.group_chunks` yields the groups of one chunk of DESTINATIONS (all
   sources and start slices). Each chunk gets its backup and relaxed members
   (UCMP §5.3, §4.3: they depend on the group only), is sorted into the artifact's
   order -- source ToR, destination, start slice, then member kind and hops as
   :func:`controller.routing.paths.assemble` orders members -- and spilled to disk,
   with its members and paths counted per source ToR.
2. Buckets (§5.1-5.2, §6.1) are global: the boundaries are the union of every group's
   envelope break points. A group's bucket ranges depend only on its *profile* (its
   regular members' hops and latency above the group's minimum), so each chunk keeps
   just the distinct profiles it saw (hundreds) and each member's profile id and
   position; the envelopes are computed once all chunks are in (:func:`ucmp.profile_ranges`).
3. With the per-ToR totals known, every chunk's segment of every source ToR is written
   at its final offset (``os.pwrite``), the bucket range of each member looked up from
   its profile. One ToR's table then is one contiguous range of every array.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np

from controller.routing import ucmp
from controller.routing.paths import REGULAR
from controller.schedule.model import Schedule
from controller.tables import artifacts
from controller.tables.source import ranges as source_ranges

_MEMBER = ("m_kind", "m_hops", "m_latency", "m_npaths", "m_prof", "m_pos")
_PATH = ("hop_node", "hop_uplink", "hop_wait")


def _pad(a: np.ndarray, width: int) -> np.ndarray:
    if a.shape[1] >= width:
        return a
    return np.pad(a, ((0, 0), (0, width - a.shape[1])), constant_values=-1)


def write_ucmp(sched: Schedule, params: ucmp.UcmpParams, directory: str | Path, progress=None,
               write_progress=None, chunk: int | None = None, executor=None) -> dict:
    """Compute UCMP routes for ``sched`` and write them as a compact artifact into the
    new, empty ``directory``; returns the manifest. ``progress(n)``: destinations done;
    ``write_progress(1)``: chunks placed (phase 3); ``executor``: where the group chunks run
    (see :func:`ucmp.group_chunks`)."""
    directory = Path(directory)
    S, N, d = sched.peer.shape
    H = params.hops_per_slice or sched.timing.hops_per_slice
    _, n_cap = ucmp.hop_limits(sched, params)
    node_dt, upl_dt = artifacts.int_for(N), artifacts.int_for(d)
    wait_dt = artifacts.uint_for(4 * S + 1)
    pad = int(np.iinfo(wait_dt).max)
    meet = ucmp.meeting_tables(sched) if params.backups > 0 or params.relax_slices is not None else None
    spill = directory / ".spill"
    spill.mkdir()
    g_count = np.zeros(N * N * S, np.uint16)  # [src, dst, t] flat
    per_chunk_m: list[np.ndarray] = []
    per_chunk_p: list[np.ndarray] = []
    profiles: dict[bytes, int] = {}
    prof_rows: list[np.ndarray] = []
    width = 2
    levels = capped = reached = dropped = 0
    bound_hit = False
    for ci, c in enumerate(ucmp.group_chunks(sched, params, chunk, progress, params.engine, params.workers,
                                                           executor)):
        levels += int(c.lv_gid.size)
        capped += int(c.lv_capped.sum())
        dropped += c.lv_dropped
        reached = max(reached, c.hmax_reached)
        bound_hit |= c.bound_hit
        # members: every level is one REGULAR member whose paths are contiguous (the
        # engines list paths level by level); backup / relaxed paths form one member per group
        p_lv, hn, hu, hs = c.p_lv, c.hop_node, c.hop_uplink, c.hop_slice
        if p_lv.size and not np.all(p_lv[1:] >= p_lv[:-1]):
            o = np.argsort(p_lv, kind="stable")
            p_lv, hn, hu, hs = p_lv[o], hn[o], hu[o], hs[o]
        m_np = [np.bincount(p_lv, minlength=c.lv_gid.size)]
        m_gid, m_kind = [c.lv_gid], [np.full(c.lv_gid.size, REGULAR, np.int8)]
        m_hops, m_lat = [c.lv_hops.astype(np.int16)], [c.lv_latency.astype(np.int64)]
        hn, hu, hs = [hn], [hu], [hs]
        extra = ucmp.extra_members(sched, params, H, c.lv_gid, c.lv_hops, c.lv_latency, meet)
        cw = max([2, c.hop_node.shape[1]] + [e[3].shape[1] for e in extra])
        width = max(width, cw)
        for e_gid, e_kind, e_lat, e_hn, e_hu, e_hs in extra:  # queries in gid order: runs of a group
            first = np.flatnonzero(np.r_[True, e_gid[1:] != e_gid[:-1]]) if e_gid.size else np.zeros(0, np.int64)
            m_np.append(np.diff(np.append(first, e_gid.size)))
            m_gid.append(e_gid[first])
            m_kind.append(e_kind[first])
            m_hops.append(np.full(first.size, 2, np.int16))
            m_lat.append(np.minimum.reduceat(e_lat.astype(np.int64), first) if first.size else np.zeros(0, np.int64))
            hn.append(e_hn)
            hu.append(e_hu)
            hs.append(e_hs)
        m_np = np.concatenate(m_np).astype(np.int64)
        m_gid, m_kind = np.concatenate(m_gid), np.concatenate(m_kind)
        m_hops, m_lat = np.concatenate(m_hops), np.concatenate(m_lat)
        hn = np.concatenate([_pad(a, cw) for a in hn])
        hs = np.concatenate([_pad(a, cw) for a in hs])
        # hops in the artifact's types before reordering (fewer bytes to move)
        m_t = m_gid // (N * N)
        live = hn >= 0
        off = hs - np.repeat(m_t, m_np).astype(np.int32)[:, None]
        del hs
        if live.any() and (off[live].min() < 0 or off[live].max() >= pad):
            raise artifacts.UroError(f"a UCMP path sends {int(off[live].max())} slices after its start; the compact "
                                     f"format holds < {pad}")
        hw = np.where(live, off, pad).astype(wait_dt)
        del off, live
        hn = hn.astype(node_dt)
        hu = np.concatenate([_pad(a, cw) for a in hu]).astype(upl_dt)
        del extra
        # artifact order: (src, dst, t), then kind and hops as assemble() orders members
        m_ga = ((m_gid // N) % N * N + m_gid % N) * S + m_t
        order = np.argsort((m_ga * 4 + m_kind) * 1024 + m_hops, kind="stable")
        pidx = source_ranges(np.cumsum(m_np)[order] - m_np[order], m_np[order])
        m_ga, m_kind, m_hops, m_lat, m_np = m_ga[order], m_kind[order], m_hops[order], m_lat[order], m_np[order]
        hn, hu, hw = hn[pidx], hu[pidx], hw[pidx]
        m_npaths = m_np
        del order, pidx, m_gid, m_t
        g_first = np.flatnonzero(np.r_[True, m_ga[1:] != m_ga[:-1]]) if m_ga.size else np.zeros(0, np.int64)
        g_count[m_ga[g_first]] = np.diff(np.append(g_first, m_ga.size))
        # bucket profiles of the chunk's groups, numbered globally
        reg, row, pos, prof = ucmp.group_profiles(m_ga, m_hops, m_lat, m_kind, width=n_cap)
        m_prof = np.full(m_ga.size, -1, np.int32)
        m_pos = np.full(m_ga.size, -1, np.int8)
        if reg.size:
            uniq, inv = ucmp.unique_rows(prof)
            ids = np.empty(len(uniq), np.int32)
            for i, u in enumerate(uniq):
                key = u.tobytes()
                if key not in profiles:
                    profiles[key] = len(prof_rows)
                    prof_rows.append(u.copy())
                ids[i] = profiles[key]
            m_prof[reg] = ids[inv[row]]
            m_pos[reg] = pos
        m_src = m_ga // (N * S)
        per_chunk_m.append(np.bincount(m_src, minlength=N).astype(np.int64))
        per_chunk_p.append(np.bincount(m_src, weights=m_npaths, minlength=N).astype(np.int64))
        if m_hops.size and (m_hops.max() > 127 or m_lat.max() > 65535 or m_npaths.max() > 65535):
            raise artifacts.UroError("UCMP members too large for the compact format")
        out = {
            "m_kind": m_kind.astype(np.int8), "m_hops": m_hops.astype(np.int8), "m_latency": m_lat.astype(np.uint16),
            "m_npaths": m_npaths.astype(np.uint16), "m_prof": m_prof, "m_pos": m_pos,
            "hop_node": hn, "hop_uplink": hu, "hop_wait": hw,
        }
        for name, a in out.items():
            np.save(spill / f"{ci}.{name}.npy", a)
        del out, hn, hu, hw
    # ---- phase 2: buckets from the distinct profiles -----------------------------------------
    uniq_all = np.array(prof_rows, dtype=np.int32).reshape(-1, 2 * n_cap)
    boundaries, prof_lo, prof_hi = ucmp.profile_ranges(uniq_all)
    # ---- phase 3: every chunk's per-ToR segments at their final offsets ----------------------
    cm = np.array(per_chunk_m).reshape(-1, N)
    cp = np.array(per_chunk_p).reshape(-1, N)
    tor_m = np.concatenate([[0], np.cumsum(cm.sum(0))]).astype(np.int64)
    tor_p = np.concatenate([[0], np.cumsum(cp.sum(0))]).astype(np.int64)
    base_m = tor_m[:-1][None, :] + np.cumsum(cm, 0) - cm  # [chunk, src]
    base_p = tor_p[:-1][None, :] + np.cumsum(cp, 0) - cp
    L = artifacts.SourceLayout(directory, sched, int(tor_m[-1]), int(tor_p[-1]), width, buckets=True)
    entries = np.zeros(N, np.int64)
    try:
        L.g_count.write(0, g_count.reshape(N, N, S))
        del g_count
        for ci in range(cm.shape[0]):
            a = {name: np.load(spill / f"{ci}.{name}.npy") for name in _MEMBER + _PATH}
            has = a["m_prof"] >= 0
            lo = np.full(a["m_prof"].size, -1, np.int8)
            hi = np.full(a["m_prof"].size, -1, np.int8)
            lo[has] = prof_lo[a["m_prof"][has], a["m_pos"][has]]
            hi[has] = prof_hi[a["m_prof"][has], a["m_pos"][has]]
            m_src = np.repeat(np.arange(N), cm[ci])
            entries += np.bincount(m_src[(a["m_kind"] == REGULAR) & (lo >= 0)], minlength=N)
            members = {"m_kind": a["m_kind"], "m_hops": a["m_hops"], "m_latency": a["m_latency"],
                       "m_npaths": a["m_npaths"], "m_lo": lo, "m_hi": hi}
            paths = {name: _pad(a[name], width) if name != "hop_wait" else _pad_wait(a[name], width, pad)
                     for name in _PATH}
            m_cut = np.concatenate([[0], np.cumsum(cm[ci])])
            p_cut = np.concatenate([[0], np.cumsum(cp[ci])])
            for x in np.flatnonzero(cm[ci]):
                for name, arr in members.items():
                    getattr(L, name).write(int(base_m[ci, x]), arr[m_cut[x]:m_cut[x + 1]])
                for name, arr in paths.items():
                    getattr(L, name).write(int(base_p[ci, x]), arr[p_cut[x]:p_cut[x + 1]])
            for name in _MEMBER + _PATH:
                (spill / f"{ci}.{name}.npy").unlink()
            if write_progress is not None:
                write_progress(1)
        shutil.rmtree(spill)
        bdoc = {"count": len(boundaries) + 1, "boundaries_slices_per_hop": [str(x) for x in boundaries],
                "slice_bytes": ucmp.slice_bytes(sched)}
        notes = ucmp.run_notes(sched, params, H, levels=levels, levels_capped=capped, hmax_reached=reached,
                               bound_hit=bound_hit, levels_dropped=dropped)
        return artifacts.finish_source(directory, L, sched, "ucmp", ucmp.result_params(params, H), tor_m, tor_p,
                                       entries, bdoc, notes)
    finally:
        L.close()


def _pad_wait(a: np.ndarray, width: int, pad: int) -> np.ndarray:
    if a.shape[1] >= width:
        return a
    return np.pad(a, ((0, 0), (0, width - a.shape[1])), constant_values=pad)


def chunks_of(sched: Schedule, params: ucmp.UcmpParams, chunk: int | None = None) -> int:
    """How many destination chunks :func:`write_ucmp` goes through (for a progress bar)."""
    engine = ucmp.resolve_engine(params.engine, sched.n_uplinks)
    c = chunk or (16 if engine == "numba" else 128)
    return -(-sched.n_tors // c)
