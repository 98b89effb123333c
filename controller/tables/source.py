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

import json
from dataclasses import dataclass
from typing import Iterator

import numpy as np

from controller.atomic import atomic_open
from controller.routing.paths import BACKUP, REGULAR, RELAXED, PathRoutes

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


def _paths(routes: PathRoutes, members: list[int]) -> tuple[tuple[Hop, ...], ...]:
    S = routes.schedule.n_slices
    out = []
    for m in members:
        for p in routes.member_paths(m):
            out.append(tuple((y, j, s % S) for y, j, s in p))
    return tuple(out)


def entries(routes: PathRoutes, src: int) -> Iterator[SourceEntry]:
    """The source-route entries of one ToR, by destination, start slice, bucket."""
    S, N = routes.schedule.n_slices, routes.schedule.n_tors
    b = routes.buckets
    for dst in range(N):
        if dst == src:
            continue
        for t in range(S):
            mem = list(routes.members(src, dst, t))
            reg = [m for m in mem if routes.m_kind[m] == REGULAR]
            relaxed = [m for m in mem if routes.m_kind[m] == RELAXED]
            if b is None:
                if reg:
                    yield SourceEntry(src, dst, t, ALL_BUCKETS, int(routes.m_hops[reg[0]]),
                                      int(routes.m_latency[reg[0]]), _paths(routes, reg))
                continue
            for m in reg:
                lo, hi = int(b.m_lo[m]), int(b.m_hi[m])
                if lo < 0:
                    continue
                extra = relaxed if routes.m_hops[m] == 2 else []
                yield SourceEntry(src, dst, t, (lo, hi), int(routes.m_hops[m]), int(routes.m_latency[m]),
                                  _paths(routes, [m] + extra))


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
    S, N = routes.schedule.n_slices, routes.schedule.n_tors
    d = routes.schedule.n_uplinks
    gid = routes.path_group_index()
    t = gid // (N * N)
    src = (gid // N) % N
    out = np.zeros((N, d), dtype=np.int32)
    prev_node, prev_slice = src, t
    for i in range(routes.hop_node.shape[1]):
        ok = routes.hop_node[:, i] >= 0
        rank = routes.hop_slice[ok, i] - prev_slice[ok]
        np.maximum.at(out, (prev_node[ok], routes.hop_uplink[ok, i].astype(np.int64)), rank + 1)
        prev_node = np.where(ok, routes.hop_node[:, i], prev_node)
        prev_slice = np.where(ok, routes.hop_slice[:, i], prev_slice)
    return out


def to_document(routes: PathRoutes) -> dict:
    """The source-routes JSON document (schema in docs/formats.md)."""
    sched = routes.schedule
    tors = []
    for src in range(sched.n_tors):
        rows = []
        for e in entries(routes, src):
            rows.append({
                "dst": e.dst, "slice": e.slice, "buckets": list(e.buckets), "hops": e.hops,
                "latency_slices": e.latency_slices,
                "paths": [[list(h) for h in p] for p in e.paths],
            })
        backups = []
        for dst in range(sched.n_tors):
            for t in range(sched.n_slices):
                if dst == src:
                    continue
                bm = [m for m in routes.members(src, dst, t) if routes.m_kind[m] == BACKUP]
                if bm:
                    backups.append({"dst": dst, "slice": t, "paths": [[list(h) for h in p] for p in _paths(routes, bm)]})
        tors.append({"tor": src, "entries": rows, "backups": backups})
    doc = {
        "format": SOURCE_ROUTES_FORMAT,
        "algo": routes.algo,
        "schedule": {"name": sched.name, "tors": sched.n_tors, "uplinks": sched.n_uplinks, "slices": sched.n_slices},
        "params": routes.params,
        "hop": ["next_tor", "uplink", "send_slice"],
        "tors": tors,
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


def write_source_routes(routes: PathRoutes, path: str) -> None:
    doc = to_document(routes)
    with atomic_open(path) as fh:
        json.dump(doc, fh, separators=(",", ":"))
        fh.write("\n")
