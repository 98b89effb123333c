"""UCMP source routes of every source ToR, computed and written with bounded memory.

:func:`controller.routing.ucmp.compute` assembles every path of a schedule in memory:
189M paths at (1024, 32), ~6 GB plus the copies of its sort. This writer produces the
same route set (tests check it equals ``compute``'s, array for array) as a compact
artifact (:mod:`controller.tables.artifacts`) while holding only a few chunks:

1. :func:`ucmp.group_chunks` computes the groups of one chunk of DESTINATIONS (all
   sources and start slices) and, on the same worker thread (or Dask worker), gives the
   chunk its backup and relaxed members (UCMP §5.3, §4.3: they depend on the group only)
   and sorts it into the artifact's order -- source ToR, destination, start slice, then
   member kind and hops as :func:`controller.routing.paths.assemble` orders members. The
   main thread keeps it (in memory up to a budget, else appended to one spill file per
   array) and counts its members and paths per source ToR, while the workers compute the
   next chunks.
2. Buckets (§5.1-5.2, §6.1) are global: the boundaries are the union of every group's
   envelope break points. A group's bucket ranges depend only on its *profile* (its
   regular members' hops and latency above the group's minimum), so each chunk keeps
   just the distinct profiles it saw (hundreds) and each member's profile id and
   position; the envelopes are computed once all chunks are in (:func:`ucmp.profile_ranges`).
3. With the per-ToR totals known, the artifact is written a band of source ToRs at a
   time, bands on all cores: a band is one contiguous range of every chunk's spill; its
   segments go to the file ToR after ToR, chunk after chunk, in one ``os.pwritev`` per
   array (views of the chunks, not copied ToR-major first; the bucket range of each
   member looked up from its profile). One ToR's table then is one contiguous range of
   every array.
"""

from __future__ import annotations

import functools
import os
import shutil
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from controller.memory import available_memory
from controller.routing import envelope, ucmp
from controller.routing.paths import REGULAR, group_parts
from controller.schedule.model import Schedule
from controller.tables import artifacts

#: phase 1's output held in memory by default (bytes; 3.2 GB at (1024, 32)), the rest spilled
SPILL_BUDGET = 4 << 30

_MEMBER = ("m_kind", "m_hops", "m_latency", "m_npaths", "m_prof", "m_pos")
_PATH = ("hop_node", "hop_uplink", "hop_wait")


def write_ucmp(sched: Schedule, params: ucmp.UcmpParams, directory: str | Path, progress=None,
               write_progress=None, chunk: int | None = None, executor=None, spill_budget: int | None = None) -> dict:
    """Compute UCMP routes for ``sched`` and write them as a compact artifact into the
    new, empty ``directory``; returns the manifest. ``progress(n)``: destinations done;
    ``write_progress(n)``: source ToRs placed (phase 3); ``executor``: where the group
    chunks and their phase 1 run (see :func:`ucmp.group_chunks`). ``spill_budget``: bytes
    of phase 1's output held in memory, the rest spilled to a file (default
    :data:`SPILL_BUDGET`, at most a quarter of the available memory); the artifact's
    bytes do not depend on it."""
    directory = Path(directory)
    S, N, d = sched.peer.shape
    H = params.hops_per_slice or sched.timing.hops_per_slice
    _, n_cap = ucmp.hop_limits(sched, params)
    node_dt, upl_dt = artifacts.int_for(N), artifacts.int_for(d)
    wait_dt = artifacts.uint_for(4 * S + 1)
    pad = int(np.iinfo(wait_dt).max)
    meet = None
    if params.backups > 0 or params.relax_slices is not None:
        # the meeting tables (~1 s at (1024, 32)) are computed on a thread beside the first
        # chunks' kernels when they run here (a Dask executor gets them computed: ``prep``
        # is shipped to its workers)
        meet = _BESIDE.submit(ucmp.meeting_tables, sched) if executor is None else ucmp.meeting_tables(sched)
    g_count = np.zeros(N * N * S, np.uint16)  # [src, dst, t] flat
    per_chunk_m: list[np.ndarray] = []
    per_chunk_p: list[np.ndarray] = []
    widths: list[int] = []
    profiles: dict[bytes, int] = {}
    prof_rows: list[np.ndarray] = []
    chunk_ids: list[np.ndarray] = []  # per chunk: global number of each of its profiles
    levels = capped = reached = dropped = 0
    bound_hit = False
    prep = functools.partial(_prepare, N=N, S=S, params=params, H=H, n_cap=n_cap, meet=meet, node_dt=node_dt,
                             upl_dt=upl_dt, wait_dt=wait_dt, pad=pad, sched=sched)
    if spill_budget is None:
        spill_budget = min(SPILL_BUDGET, available_memory() // 4)
    spill = _Spill(directory / ".spill", spill_budget)
    try:
        for c in ucmp.group_chunks(sched, params, chunk, progress, params.engine, params.workers, executor,
                                   post=prep):
            levels += c.levels
            capped += c.capped
            dropped += c.dropped
            reached = max(reached, c.reached)
            bound_hit |= c.bound_hit
            widths.append(c.width)
            g_count[c.g_at] = c.g_count
            # the chunk's bucket profiles, numbered globally in order of first appearance
            # (the chunk's m_prof keeps its own numbers; phase 3 maps them through `ids`)
            ids = np.empty(len(c.uniq), np.int64)
            for i, u in enumerate(c.uniq):
                key = u.tobytes()
                if key not in profiles:
                    profiles[key] = len(prof_rows)
                    prof_rows.append(u.copy())
                ids[i] = profiles[key]
            chunk_ids.append(ids)
            per_chunk_m.append(c.per_src_m)
            per_chunk_p.append(c.per_src_p)
            spill.append(c.arrays)
            del c
        spill.close_writes()
        # ---- phase 2: buckets from the distinct profiles -------------------------------------
        uniq_all = np.array(prof_rows, dtype=np.int32).reshape(-1, 2 * n_cap)
        boundaries, prof_lo, prof_hi = ucmp.profile_ranges(uniq_all)
        # ---- phase 3: the artifact, a band of source ToRs at a time --------------------------
        cm = np.array(per_chunk_m, dtype=np.int64).reshape(-1, N)  # [chunk, src] members
        cp = np.array(per_chunk_p, dtype=np.int64).reshape(-1, N)  # [chunk, src] paths
        width = max([2] + widths)
        tor_m = np.concatenate([[0], np.cumsum(cm.sum(0))]).astype(np.int64)
        tor_p = np.concatenate([[0], np.cumsum(cp.sum(0))]).astype(np.int64)
        L = artifacts.SourceLayout(directory, sched, int(tor_m[-1]), int(tor_p[-1]), width, buckets=True)
        try:
            L.g_count.write(0, g_count.reshape(N, N, S))
            del g_count
            entries = _place(L, spill, cm, cp, tor_m, tor_p, width, pad,
                             [(prof_lo[ids], prof_hi[ids]) for ids in chunk_ids], write_progress)
            bdoc = {"count": len(boundaries) + 1, "boundaries_slices_per_hop": [str(x) for x in boundaries],
                    "slice_bytes": ucmp.slice_bytes(sched)}
            notes = ucmp.run_notes(sched, params, H, levels=levels, levels_capped=capped, hmax_reached=reached,
                                   bound_hit=bound_hit, levels_dropped=dropped)
            spill.remove()
            return artifacts.finish_source(directory, L, sched, "ucmp", ucmp.result_params(params, H), tor_m, tor_p,
                                           entries, bdoc, notes)
        finally:
            L.close()
    finally:
        spill.remove()


#: runs the work of the writer's set-up that can go beside the first chunks' kernels
_BESIDE = ThreadPoolExecutor(max_workers=1, thread_name_prefix="uro-stream")


def _renew_beside_in_child() -> None:
    """After ``fork`` the child has ``_BESIDE`` but not its thread (work submitted to it
    would wait forever): the child gets its own."""
    global _BESIDE
    _BESIDE = ThreadPoolExecutor(max_workers=1, thread_name_prefix="uro-stream")


os.register_at_fork(after_in_child=_renew_beside_in_child)

#: rows of paths gathered per write in phase 3 (bounds its memory: ~rows x width x 4 bytes, twice)
_BAND_PATHS = 1 << 22


def _place(L: artifacts.SourceLayout, spill: "_Spill", cm: np.ndarray, cp: np.ndarray, tor_m: np.ndarray,
           tor_p: np.ndarray, width: int, pad: int, ranges: list[tuple[np.ndarray, np.ndarray]],
           write_progress) -> np.ndarray:
    """Phase 3: write every chunk's segment of every source ToR at its final offset;
    returns the bucket entries per source ToR. ``ranges[ci]``: the bucket ranges
    ``(lo, hi)`` per member position of chunk ``ci``'s profiles, in its own numbering.

    A chunk's spill is in source ToR order, so a band of ToRs ``x0 .. x1 - 1`` is one
    contiguous range of every chunk's spill (a view when held in memory). The file gets
    the band ToR after ToR, each ToR's segments chunk after chunk: one ``pwritev`` of
    those segments (views, not copied into a ToR-major block first) per array and band."""
    from controller.tables import stream_kernel  # numba: loaded on first use (test_import_no_jit)

    n_ch, N = cm.shape
    entries = np.zeros(N, np.int64)
    m_cut = np.concatenate([np.zeros((n_ch, 1), np.int64), np.cumsum(cm, 1)], 1)  # [chunk, src + 1]
    p_cut = np.concatenate([np.zeros((n_ch, 1), np.int64), np.cumsum(cp, 1)], 1)

    def place(x0: int, x1: int) -> int:
        band = slice(x0, x1)
        # members: each chunk's band, its bucket ranges, then written ToR-major
        m_at = m_cut[:, x0:x1 + 1] - m_cut[:, x0:x0 + 1]  # [chunk, ToR of the band + 1] rows in the chunk's band
        cols: dict[str, list] = {n: [] for n in ("m_kind", "m_hops", "m_latency", "m_npaths", "m_lo", "m_hi")}
        for ci in range(n_ch):
            a = {name: spill.read_rows(name, ci, int(m_cut[ci, x0]), int(m_cut[ci, x1])) for name in _MEMBER}
            lo = np.empty(a["m_prof"].size, np.int8)
            hi = np.empty(a["m_prof"].size, np.int8)
            stream_kernel.member_ranges(a["m_prof"], a["m_pos"], a["m_kind"], REGULAR, *ranges[ci], m_at[ci],
                                        lo, hi, entries[band])
            a["m_lo"], a["m_hi"] = lo, hi
            for name, runs in cols.items():
                runs.append(a[name])
        for name, runs in cols.items():
            getattr(L, name).write_runs(int(tor_m[x0]), _tor_major_runs(runs, m_at))
        del cols
        # paths: each chunk's rows padded to the artifact's width
        p_at = p_cut[:, x0:x1 + 1] - p_cut[:, x0:x0 + 1]
        for name in _PATH:
            fill = pad if name == "hop_wait" else -1
            runs = [_pad_to(spill.read_rows(name, ci, int(p_cut[ci, x0]), int(p_cut[ci, x1])), width, fill)
                    for ci in range(n_ch)]
            getattr(L, name).write_runs(int(tor_p[x0]), _tor_major_runs(runs, p_at))
            del runs
        return x1 - x0

    bands, x0 = [], 0
    while x0 < N:
        x1 = int(np.searchsorted(tor_p, tor_p[x0] + _BAND_PATHS, side="right")) - 1
        x1 = min(N, max(x1, x0 + 1))
        bands.append((x0, x1))
        x0 = x1
    # bands on all cores: the copies into the files (pwritev) and member_ranges release the GIL
    with ThreadPoolExecutor(max_workers=min(len(bands), os.cpu_count() or 1) or 1) as pool:
        for done in pool.map(lambda band: place(*band), bands):
            if write_progress is not None:
                write_progress(done)
    return entries


def _tor_major_runs(blocks: list[np.ndarray], at: np.ndarray) -> list[memoryview]:
    """Byte views of a band's segments in ToR-major order: ``blocks[ci]`` is chunk
    ``ci``'s band, ToR ``x``'s rows ``at[ci, x] .. at[ci, x + 1] - 1`` of it; the result
    lists ToR 0's segment of every chunk, then ToR 1's, ... (empty segments left out)."""
    views, rows = [], []
    for b in blocks:
        b = np.ascontiguousarray(b)
        views.append(memoryview(b.reshape(-1)).cast("B"))
        rows.append(b.itemsize * (b.shape[1] if b.ndim > 1 else 1))
    lo, hi = at[:, :-1].T, at[:, 1:].T  # [ToR, chunk]
    x, ci = np.nonzero(hi > lo)
    return [views[c][a * rows[c]:b * rows[c]] for c, a, b in zip(ci.tolist(), lo[x, ci].tolist(), hi[x, ci].tolist())]


def _pad_to(a: np.ndarray, width: int, fill: int) -> np.ndarray:
    """``a`` with ``width`` columns, ``fill`` padded."""
    if a.shape[1] >= width:
        return a
    return np.pad(a, ((0, 0), (0, width - a.shape[1])), constant_values=fill)


class _Spill:
    """Phase 1's output, chunks in order (rows of a chunk in source ToR order); read
    back in bands of ToRs by phase 3, removed at the end. Chunks stay in memory while
    they fit ``budget`` bytes; the rest goes to one file per array under ``path``, chunks
    appended (created only then: at (1024, 32) writing 3 GB and unlinking it, on a
    filesystem mounted with ``discard``, cost ~25 s of the main thread)."""

    def __init__(self, path: Path, budget: int = 0):
        self.path = path
        self.budget = budget
        self.held = 0  # bytes of chunks kept in memory
        self.files: dict[str, object] = {}
        self.mem: dict[str, list] = {}  # per chunk: the array (in memory) or None (in the file)
        self.at: dict[str, list[int]] = {}  # byte offset of each chunk's rows in the file
        self.shape: dict[str, list[tuple]] = {}
        self.dtype: dict[str, np.dtype] = {}
        self.fds: dict[str, int] = {}

    def append(self, arrays: dict) -> None:
        size = sum(a.nbytes for a in arrays.values())
        keep = self.held + size <= self.budget
        if keep:
            self.held += size
        elif not self.path.exists():
            self.path.mkdir()
        for name, a in arrays.items():
            if name not in self.mem:
                self.mem[name], self.at[name], self.shape[name], self.dtype[name] = [], [], [], a.dtype
            a = np.ascontiguousarray(a, dtype=self.dtype[name])
            self.shape[name].append(a.shape)
            if keep:
                self.mem[name].append(a)
                self.at[name].append(-1)
                continue
            if name not in self.files:
                self.files[name] = open(self.path / name, "wb")
            f = self.files[name]
            self.mem[name].append(None)
            self.at[name].append(f.tell())
            f.write(memoryview(a).cast("B"))

    def close_writes(self) -> None:
        for name, f in self.files.items():
            f.close()
            self.fds[name] = os.open(self.path / name, os.O_RDONLY)
        self.files = {}

    def read_rows(self, name: str, ci: int, r0: int, r1: int) -> np.ndarray:
        """Rows ``r0 .. r1 - 1`` of chunk ``ci``'s array ``name`` (a view when in memory)."""
        held = self.mem[name][ci]
        if held is not None:
            return held[r0:r1]
        shape = self.shape[name][ci]
        dt = self.dtype[name]
        row = dt.itemsize * int(np.prod(shape[1:], dtype=np.int64))
        out = np.empty((r1 - r0, *shape[1:]), dt)
        if out.size:
            n = os.preadv(self.fds[name], [memoryview(out).cast("B")], self.at[name][ci] + r0 * row)
            if n != out.nbytes:
                raise OSError(f"{self.path / name}: short read")
        return out

    def read_band(self, name: str, r0: np.ndarray, r1: np.ndarray) -> np.ndarray:
        """Rows ``r0[ci] .. r1[ci] - 1`` of every chunk ``ci``, chunk after chunk (1-D arrays)."""
        parts = [self.read_rows(name, ci, int(r0[ci]), int(r1[ci])) for ci in range(len(self.at.get(name, [])))]
        return np.concatenate(parts) if parts else np.zeros(0, self.dtype.get(name, np.int8))

    def remove(self) -> None:
        for f in self.files.values():
            f.close()
        for fd in self.fds.values():
            os.close(fd)
        self.files, self.fds, self.mem = {}, {}, {}
        shutil.rmtree(self.path, ignore_errors=True)


@dataclass
class _Prepared:
    """One destination chunk in the artifact's order and types (phase 1, on a worker)."""

    levels: int
    capped: int
    dropped: int
    reached: int
    bound_hit: bool
    width: int
    g_at: np.ndarray  # flat (src, dst, t) of the chunk's groups
    g_count: np.ndarray  # members per group
    uniq: np.ndarray  # the chunk's distinct bucket profiles; arrays["m_prof"] indexes them
    per_src_m: np.ndarray
    per_src_p: np.ndarray
    arrays: dict


def _prepare(c: ucmp.GroupChunk, N: int, S: int, params: ucmp.UcmpParams, H: int, n_cap: int, meet, node_dt,
             upl_dt, wait_dt, pad: int, sched: Schedule) -> _Prepared:
    """Phase 1 for one chunk (module doc): backup / relaxed members, artifact order and
    types, group sizes, bucket profiles (numbered within the chunk), per-source counts."""
    # members: every level is one REGULAR member whose paths are contiguous (the
    # engines list paths level by level); backup / relaxed paths form one member per group
    p_lv, hn, hu, hs = c.p_lv, c.hop_node, c.hop_uplink, c.hop_slice
    if p_lv.size and not np.all(p_lv[1:] >= p_lv[:-1]):
        o = np.argsort(p_lv, kind="stable")
        p_lv, hn, hu, hs = p_lv[o], hn[o], hu[o], hs[o]
    m_np = [np.bincount(p_lv, minlength=c.lv_gid.size)]
    m_gid, m_kind = [c.lv_gid], [np.full(c.lv_gid.size, REGULAR, np.int8)]
    m_hops, m_lat = [c.lv_hops.astype(np.int16)], [c.lv_latency.astype(np.int64)]
    parts = [(hn, hu, hs)]
    if isinstance(meet, Future):
        meet = meet.result()
    extra = ucmp.extra_members(sched, params, H, c.lv_gid, c.lv_hops, c.lv_latency, meet)
    cw = max([2, c.hop_node.shape[1]] + [e[3].shape[1] for e in extra])
    for e_gid, e_kind, e_lat, e_hn, e_hu, e_hs in extra:  # queries in gid order: runs of a group
        first = np.flatnonzero(np.r_[True, e_gid[1:] != e_gid[:-1]]) if e_gid.size else np.zeros(0, np.int64)
        m_np.append(np.diff(np.append(first, e_gid.size)))
        m_gid.append(e_gid[first])
        m_kind.append(e_kind[first])
        m_hops.append(np.full(first.size, 2, np.int16))
        m_lat.append(np.minimum.reduceat(e_lat.astype(np.int64), first) if first.size else np.zeros(0, np.int64))
        parts.append((e_hn, e_hu, e_hs))
    del extra
    m_np = np.concatenate(m_np).astype(np.int64)
    m_gid, m_kind = np.concatenate(m_gid), np.concatenate(m_kind)
    m_hops, m_lat = np.concatenate(m_hops), np.concatenate(m_lat)
    m_t, m_src, m_dst = group_parts(m_gid, N)
    # artifact order: (src, dst, t), then kind and hops as assemble() orders members
    m_ga = (m_src * N + m_dst) * S + m_t
    from controller.tables import stream_kernel  # numba: loaded on first use (test_import_no_jit)

    d0 = int(m_dst.min()) if m_dst.size else 0
    C = int(m_dst.max()) + 1 - d0 if m_dst.size else 1
    if N * C * S <= 4 * m_ga.size + (1 << 20):  # the chunk's (src, dst, t) groups, counted
        order = stream_kernel.member_order((m_src * C + (m_dst - d0)) * S + m_t, m_kind, m_hops, N * C * S)
    else:
        order = np.argsort((m_ga * 4 + m_kind) * 1024 + m_hops, kind="stable")
    del m_src, m_dst
    # the hop rows in that order and the artifact's types, in one compiled pass

    P = int(m_np.sum())
    hn, hu, hw = np.empty((P, cw), node_dt), np.empty((P, cw), upl_dt), np.empty((P, cw), wait_dt)
    while len(parts) < 3:
        parts.append((np.zeros((0, 2), np.int32), np.zeros((0, 2), np.int16), np.zeros((0, 2), np.int32)))
    args = [np.ascontiguousarray(a, dt) for part in parts for a, dt in zip(part, (np.int32, np.int16, np.int32))]
    lo, hi = stream_kernel.hop_rows(order, np.cumsum(m_np) - m_np, m_np, m_t, *args, pad, hn, hu, hw)
    del parts, args
    if P and (lo < 0 or hi >= pad) and lo <= hi:
        raise artifacts.UroError(f"a UCMP path sends {int(hi)} slices after its start; the compact "
                                 f"format holds < {pad}")
    if m_hops.size and (m_hops.max() > 127 or m_lat.max() > 65535 or m_np.max() > 65535):
        raise artifacts.UroError("UCMP members too large for the compact format")
    # the member arrays in that order, group starts and the groups' bucket profiles
    # (numbered within the chunk), in one compiled pass
    M = order.size
    arrays = {"m_kind": np.empty(M, np.int8), "m_hops": np.empty(M, np.int8), "m_latency": np.empty(M, np.uint16),
              "m_npaths": np.empty(M, np.uint16), "m_pos": np.empty(M, np.int8)}
    per_src_m, per_src_p = np.zeros(N, np.int64), np.zeros(N, np.int64)
    g_first, prof, prof_of = stream_kernel.member_rows(order, m_ga, m_kind, m_hops, m_lat, m_np, REGULAR, N * S, n_cap,
                                                       *arrays.values(), per_src_m, per_src_p)
    m_prof = np.full(M, -1, np.int32)
    uniq = np.zeros((0, 2 * n_cap), np.int32)
    if prof.shape[0]:
        uniq, inv = envelope.unique_rows(prof)
        reg = prof_of >= 0
        m_prof[reg] = inv[prof_of[reg]]
    g_at = m_ga[order[g_first]]
    del order, m_gid, m_t, m_ga, prof, prof_of
    arrays["m_prof"] = m_prof
    arrays = {name: arrays[name] for name in _MEMBER}
    return _Prepared(
        levels=int(c.lv_gid.size), capped=int(c.lv_capped.sum()), dropped=int(c.lv_dropped),
        reached=int(c.hmax_reached), bound_hit=bool(c.bound_hit), width=cw,
        g_at=g_at, g_count=np.diff(np.append(g_first, M)),
        uniq=uniq, per_src_m=per_src_m, per_src_p=per_src_p,
        arrays={**arrays, "hop_node": hn, "hop_uplink": hu, "hop_wait": hw},
    )
