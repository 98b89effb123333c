"""Path route sets -> per-ToR source-route tables (UCMP §6.2, Fig. 4), counts, export.

An entry of source ToR ``src`` matches (destination ToR, start slice, DSCP bucket
range) and carries the path(s) to write into the SSRR option: hop tuples
``(next ToR, egress uplink, send slice)`` with the send slice as a slice id in
``[0, S)``. Several paths in one entry (UCMP ties, KSP's k, VLB's intermediates) form
an action-selector group split by the flow's 5-tuple hash. Schemes without buckets
match every bucket (``0..63``). UCMP backup paths (§5.3) are exported next to the
entry they stand in for, for the agent to swap in on failure.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator

import numpy as np

from controller.atomic import atomic_open
from controller.errors import UroError
from controller.routing.paths import BACKUP, REGULAR, RELAXED, PathRoutes, group_parts, ranges
from controller.tables.perhop import write_json_stream

SOURCE_ROUTES_FORMAT = "uro-source-routes/1"
ALL_BUCKETS = (0, 63)

Hop = tuple[int, int, int]


@dataclass(frozen=True)
class SourceEntry:
    src: int
    dst: int
    slice: int
    buckets: tuple[int, int]  # inclusive range
    hops: int
    latency_slices: int
    paths: tuple[tuple[Hop, ...], ...]


@dataclass(frozen=True, eq=False)
class SourceTable:
    """The source-route table of one source ToR: what :func:`entries` needs.

    Made from in-memory :class:`PathRoutes` (:func:`tor_table`) or read from a compact
    artifact (:meth:`controller.tables.artifacts.RouteArtifact.tor_table`) without the
    other ToRs' tables. Groups are in (dst, start slice) order; a group's members and a
    member's paths are consecutive (CSR: counts here, offsets by cumulative sum).
    """

    src: int
    n_slices: int
    g_count: np.ndarray  # [N, S] members of group (dst, t)
    m_kind: np.ndarray  # [M] REGULAR / BACKUP / RELAXED
    m_hops: np.ndarray  # [M] hops (-1 when a member mixes hop counts)
    m_latency: np.ndarray  # [M] slices (Eq. 1)
    m_npaths: np.ndarray  # [M] paths of the member
    m_lo: np.ndarray | None  # [M] first bucket served (-1: none); None when the scheme has no buckets
    m_hi: np.ndarray | None  # [M] last bucket served (inclusive)
    hop_node: np.ndarray  # [P, Hc] next ToR of each hop, -1 padded
    hop_uplink: np.ndarray  # [P, Hc] egress uplink
    hop_slice: np.ndarray  # [P, Hc] absolute send slice (from the cycle start of the group's t)

    @property
    def n_tors(self) -> int:
        return int(self.g_count.shape[0])

    @property
    def has_buckets(self) -> bool:
        return self.m_lo is not None

    def member_offsets(self) -> tuple[np.ndarray, np.ndarray]:
        """(first member of each group [N*S], first path of each member [M])."""
        gc = np.asarray(self.g_count, dtype=np.int64).ravel()
        mc = np.asarray(self.m_npaths, dtype=np.int64)
        return np.cumsum(gc) - gc, np.cumsum(mc) - mc


def tor_table(routes, src: int) -> SourceTable:
    """One source ToR's :class:`SourceTable` from :class:`PathRoutes`, from anything with a
    ``tor_table(tor)`` method (a loaded artifact), or a table itself."""
    if isinstance(routes, SourceTable):
        if routes.src != src:
            raise UroError(f"the table given is ToR {routes.src}'s, not ToR {src}'s")
        return routes
    if hasattr(routes, "tor_table"):
        return routes.tor_table(src)
    S, N = routes.schedule.n_slices, routes.schedule.n_tors
    if not (isinstance(src, (int, np.integer)) and 0 <= src < N):
        raise UroError(f"ToR {src!r} is not in the schedule (0..{N - 1})")
    gf = routes.g_first[:, src, :].T  # [N, S] (dst, t)
    gc = routes.g_count[:, src, :].T
    midx = ranges(gf.ravel(), gc.ravel())
    npaths = routes.m_count[midx]
    pidx = ranges(routes.m_first[midx], npaths)
    b = routes.buckets
    return SourceTable(
        src=int(src), n_slices=S, g_count=np.ascontiguousarray(gc), m_kind=routes.m_kind[midx],
        m_hops=routes.m_hops[midx], m_latency=routes.m_latency[midx], m_npaths=npaths,
        m_lo=None if b is None else b.m_lo[midx], m_hi=None if b is None else b.m_hi[midx],
        hop_node=routes.hop_node[pidx], hop_uplink=routes.hop_uplink[pidx], hop_slice=routes.hop_slice[pidx],
    )


class _Rows:
    """An array read one row at a time as Python values (``a[i].tolist()``): for a few
    cells of a table, converting the whole table to lists would cost more than they do."""

    def __init__(self, a: np.ndarray):
        self.a = a

    def __getitem__(self, i):
        return self.a[i].tolist()


class _Reader:
    """Python-list views of a :class:`SourceTable` for the per-entry loops (``few``: the
    rows read one at a time, for a few cells of the table)."""

    def __init__(self, tbl: SourceTable, few: bool = False):
        conv = (lambda x: _Rows(np.asarray(x))) if few else (lambda x: np.asarray(x).tolist())
        self.S = tbl.n_slices
        self.gfirst, self.pfirst = (conv(x) for x in tbl.member_offsets())
        self.gcount = conv(np.asarray(tbl.g_count).ravel())
        self.kind = conv(tbl.m_kind)
        self.hops = conv(tbl.m_hops)
        self.lat = conv(tbl.m_latency)
        self.npaths = conv(tbl.m_npaths)
        self.lo = None if tbl.m_lo is None else conv(tbl.m_lo)
        self.hi = None if tbl.m_hi is None else conv(tbl.m_hi)
        self.node = conv(tbl.hop_node)
        self.upl = conv(tbl.hop_uplink)
        self.slc = conv(tbl.hop_slice)

    def members(self, g: int) -> range:
        f = self.gfirst[g]
        return range(f, f + self.gcount[g])

    def paths(self, members: list[int]) -> tuple[tuple[Hop, ...], ...]:
        S = self.S
        out = []
        for m in members:
            f = self.pfirst[m]
            for p in range(f, f + self.npaths[m]):
                out.append(tuple((y, j, s % S) for y, j, s in zip(self.node[p], self.upl[p], self.slc[p]) if y >= 0))
        return tuple(out)


class _CellReader(_Reader):
    """:class:`_Reader`'s views of a few cells of one source ToR, read straight from
    :class:`PathRoutes`' arrays: the cells' groups, their members and the members' paths
    gathered in one indexing each, kept as ``{row: values}`` -- no whole per-ToR table
    (:func:`tor_table` gathers every group of the ToR), no array row read one at a time.
    Member and path rows are the route set's own (a table's are its ToR's): the same
    values by the same navigation (:meth:`members`, :meth:`paths`)."""

    def __init__(self, routes: PathRoutes, src: int, cells: list[tuple[int, int]]):
        S = self.S = routes.schedule.n_slices
        dst = np.array([d for d, _ in cells], np.int64)
        t = np.array([x for _, x in cells], np.int64)
        gf, gc = routes.g_first[t, src, dst], routes.g_count[t, src, dst]
        mids = ranges(gf, gc)
        npaths, pf = routes.m_count[mids], routes.m_first[mids]
        pids = ranges(pf, npaths)
        g, m, p = (dst * S + t).tolist(), mids.tolist(), pids.tolist()

        def of(rows, a):
            return dict(zip(rows, a.tolist()))
        self.gfirst, self.gcount = of(g, gf), of(g, gc)
        self.pfirst, self.npaths = of(m, pf), of(m, npaths)
        self.kind, self.hops, self.lat = of(m, routes.m_kind[mids]), of(m, routes.m_hops[mids]), of(m, routes.m_latency[mids])
        b = routes.buckets
        self.lo = None if b is None else of(m, b.m_lo[mids])
        self.hi = None if b is None else of(m, b.m_hi[mids])
        self.node, self.upl, self.slc = (of(p, a[pids]) for a in (routes.hop_node, routes.hop_uplink, routes.hop_slice))


def entries(routes, src: int, dsts: Iterable[int] | None = None,
            cells: np.ndarray | None = None) -> Iterator[SourceEntry]:
    """The source-route entries of one ToR, by destination, start slice, bucket.

    ``routes``: :class:`PathRoutes`, a loaded source artifact or a :class:`SourceTable`;
    ``dsts``: only these destinations (default: every other ToR); ``cells``: only the
    groups of these ``[m, 2]`` rows (dst, start slice) among them (a failure's changed
    cells, :func:`controller.routing.ucmp_incremental.changed_cells`)."""
    only = None
    if cells is not None:
        only = {}
        for dst, t in np.asarray(cells, np.int64).reshape(-1, 2).tolist():
            only.setdefault(dst, set()).add(t)
    if only is not None and isinstance(routes, PathRoutes):
        S, N = routes.schedule.n_slices, routes.schedule.n_tors
        keep = None if dsts is None else set(dsts)
        r = _CellReader(routes, src, [(d, t) for d in sorted(only) if d != src and 0 <= d < N
                                      and (keep is None or d in keep) for t in sorted(only[d])])
    else:
        tbl = tor_table(routes, src)
        r = _Reader(tbl, few=cells is not None)
        S, N = tbl.n_slices, tbl.n_tors
    for dst in (range(N) if dsts is None else sorted(set(dsts))):
        if dst == src or not 0 <= dst < N or (only is not None and dst not in only):
            continue
        for t in (range(S) if only is None else sorted(only[dst])):
            mem = r.members(dst * S + t)
            reg = [m for m in mem if r.kind[m] == REGULAR]
            relaxed = [m for m in mem if r.kind[m] == RELAXED]
            if r.lo is None:
                if reg:
                    yield SourceEntry(src, dst, t, ALL_BUCKETS, r.hops[reg[0]], r.lat[reg[0]], r.paths(reg))
                continue
            for m in reg:
                lo, hi = r.lo[m], r.hi[m]
                if lo < 0:
                    continue
                extra = relaxed if r.hops[m] == 2 else []
                yield SourceEntry(src, dst, t, (lo, hi), r.hops[m], r.lat[m], r.paths([m] + extra))


def backups(routes, src: int) -> Iterator[tuple[int, int, tuple[tuple[Hop, ...], ...]]]:
    """(dst, start slice, backup paths) of one source ToR's groups that have backups (UCMP §5.3)."""
    tbl = tor_table(routes, src)
    r = _Reader(tbl)
    S, N = tbl.n_slices, tbl.n_tors
    for dst in range(N):
        if dst == src:
            continue
        for t in range(S):
            bm = [m for m in r.members(dst * S + t) if r.kind[m] == BACKUP]
            if bm:
                yield dst, t, r.paths(bm)


def tor_entry_count(tbl: SourceTable) -> int:
    """Entries of one source table (one per served bucket range; 1 per group without buckets)."""
    reg = np.asarray(tbl.m_kind) == REGULAR
    if tbl.m_lo is None:
        gc = np.asarray(tbl.g_count, dtype=np.int64).ravel()
        g_of = np.repeat(np.arange(gc.size), gc)
        return int(np.unique(g_of[reg]).size)
    return int((reg & (np.asarray(tbl.m_lo) >= 0)).sum())


def entry_counts(routes: PathRoutes) -> np.ndarray:
    """Source-route entries per ToR (one per served bucket range)."""
    S, N = routes.schedule.n_slices, routes.schedule.n_tors
    if routes.buckets is None:
        per_group = (routes.g_count > 0).astype(np.int64)
    else:
        serving = (routes.buckets.m_lo >= 0) & (routes.m_kind == REGULAR)
        m_group = np.repeat(np.arange(routes.g_first.size), routes.g_count.ravel())
        per_group = np.bincount(m_group[serving], minlength=routes.g_first.size).reshape(S, N, N)
    return per_group.sum(axis=(0, 2))


def queues_per_port(routes: PathRoutes) -> np.ndarray:
    """Calendar queues each (ToR, uplink) needs: 1 + the largest wait rank of a hop sent
    on it (rank = send slice - slice the packet reached that ToR)."""
    N = routes.schedule.n_tors
    d = routes.schedule.n_uplinks
    gid = routes.path_group_index()
    t, src, _ = group_parts(gid, N)
    out = np.zeros((N, d), dtype=np.int32)
    prev_node, prev_slice = src, t
    for i in range(routes.hop_node.shape[1]):
        ok = routes.hop_node[:, i] >= 0
        rank = routes.hop_slice[ok, i] - prev_slice[ok]
        np.maximum.at(out, (prev_node[ok], routes.hop_uplink[ok, i].astype(np.int64)), rank + 1)
        prev_node = np.where(ok, routes.hop_node[:, i], prev_node)
        prev_slice = np.where(ok, routes.hop_slice[:, i], prev_slice)
    return out


def _tor_doc(routes: PathRoutes, src: int) -> dict:
    tbl = tor_table(routes, src)
    rows = [{"dst": e.dst, "slice": e.slice, "buckets": list(e.buckets), "hops": e.hops,
             "latency_slices": e.latency_slices, "paths": [[list(h) for h in p] for p in e.paths]}
            for e in entries(tbl, src)]
    bks = [{"dst": dst, "slice": t, "paths": [[list(h) for h in p] for p in paths]}
           for dst, t, paths in backups(tbl, src)]
    return {"tor": src, "entries": rows, "backups": bks}


def _head(routes: PathRoutes) -> dict:
    sched = routes.schedule
    doc = {
        "format": SOURCE_ROUTES_FORMAT,
        "algo": routes.algo,
        "schedule": {"name": sched.name, "tors": sched.n_tors, "uplinks": sched.n_uplinks, "slices": sched.n_slices,
                     "hash": sched.content_hash()},
        "params": routes.params,
        "hop": ["next_tor", "uplink", "send_slice"],
    }
    if routes.buckets is not None:
        b = routes.buckets
        doc["buckets"] = {
            "count": b.count,
            "boundaries_slices_per_hop": [str(x) for x in b.boundaries],
            "boundaries_bytes_alpha1": [round(x, 3) for x in b.boundary_bytes()],
            "rule": "bucket = #{boundary : boundary_bytes_alpha1 <= alpha * bytes_sent}",
        }
    return doc


def to_document(routes: PathRoutes) -> dict:
    """The source-routes JSON document (schema in docs/formats.md)."""
    return {**_head(routes), "tors": [_tor_doc(routes, x) for x in range(routes.schedule.n_tors)]}


def write_source_routes(routes: PathRoutes, path: str, progress=None) -> None:
    """Write the source-routes JSON document, streamed per ToR (``progress(1)`` per ToR)."""
    docs = (_tor_doc(routes, x) for x in range(routes.schedule.n_tors))
    with atomic_open(path) as fh:
        write_json_stream(fh, _head(routes), docs, progress)
