"""URO routes -> per-ToR next-hop tables (URO §IV-A, Fig. 4b/4d), compression, export.

An entry of ToR ``x`` matches (arrival slice ``t``, destination ToR) and carries up to K
one-shot alternatives (uplink, departure slice) -- the optimized table of URO Fig. 4d.
Departure slices are written as a slice id in ``[0, S)`` plus ``wait`` = slices from
arrival to departure; alternatives never wait a full cycle, so the pair is
unambiguous and the data plane can compute the calendar-queue rank as
``(dep_slice - current_slice) mod S`` (ARCHITECTURE "Time and queues").

Compression (URO Fig. 4b): consecutive arrival slices of one destination whose
alternatives are identical (same uplinks, same departure slice ids) share one entry
with a range match on the arrival slice.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Iterator

import numpy as np

from controller.atomic import atomic_open
from controller.errors import UroError
from controller.routing.uro import UroRoutes

ROUTES_FORMAT = "uro-routes/1"


@dataclass(frozen=True)
class Alternative:
    uplink: int
    next_tor: int
    dep_slice: int  # slice id in [0, S)
    wait: int  # slices from arrival to departure, 0..S-1


@dataclass(frozen=True)
class Entry:
    """One next-hop table entry of a ToR (uncompressed: one arrival slice)."""

    tor: int
    dst: int
    slice: int
    alternatives: tuple[Alternative, ...]


@dataclass(frozen=True, eq=False)
class PerHopTable:
    """The per-hop table of one ToR: what :func:`entries` (and so the table writers in
    :mod:`controller.tables.entries`/:mod:`~controller.tables.tor_batch`) need.

    Made from in-memory routes (:func:`tor_table`) or read from a compact artifact
    (:meth:`controller.tables.artifacts.RouteArtifact.tor_table`) without the other
    ToRs' tables. Arrays are indexed ``[arrival slice, dst, k]``.
    """

    tor: int
    peer: np.ndarray  # [S, N, d] the schedule's circuits (next ToR of an alternative)
    alt_uplink: np.ndarray  # [S, N, K] int8, -1: no alternative k
    alt_wait: np.ndarray  # [S, N, K] slices from arrival to departure (where alt_uplink >= 0)
    hops: np.ndarray  # [S, N] hops of the planned path (0 for dst == tor)
    latency: np.ndarray  # [S, N] URO Eq. 1 latency in slices (0 for dst == tor)

    @property
    def n_slices(self) -> int:
        return int(self.alt_uplink.shape[0])

    @property
    def n_tors(self) -> int:
        return int(self.alt_uplink.shape[1])

    @property
    def k(self) -> int:
        return int(self.alt_uplink.shape[2])


def tor_table(routes, tor: int) -> PerHopTable:
    """One ToR's :class:`PerHopTable` from in-memory :class:`UroRoutes`, from anything with
    a ``tor_table(tor)`` method (a loaded artifact), or a table itself."""
    if isinstance(routes, PerHopTable):
        if routes.tor != tor:
            raise UroError(f"the table given is ToR {routes.tor}'s, not ToR {tor}'s")
        return routes
    if hasattr(routes, "tor_table"):
        return routes.tor_table(tor)
    sched = routes.schedule
    S, N = sched.n_slices, sched.n_tors
    if not (isinstance(tor, (int, np.integer)) and 0 <= tor < N):
        raise UroError(f"ToR {tor!r} is not in the schedule (0..{N - 1})")
    t = np.arange(S)[:, None]
    upl = routes.alt_uplink[:, tor]
    wait = np.where(upl >= 0, routes.alt_dep[:, tor] - t[..., None], 0)
    lat = routes.arrival[:, tor].astype(np.int32) - t + 1
    lat[:, tor] = 0
    return PerHopTable(int(tor), sched.peer, upl, wait, routes.hops[:, tor], lat)


def cell_alternatives(routes, tor: int, arr: np.ndarray, dst: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The rows of :func:`tor_table`'s ``alt_uplink`` and ``alt_wait`` for ToR ``tor``'s
    cells (``arr[i]``, ``dst[i]``) alone, ``[m, K]`` each, gathered from in-memory
    :class:`UroRoutes` without the rest of the ToR's table (a failure's changed cells are
    tens of a (1024, 32) ToR's 32K); None for anything else (an artifact, a table)."""
    if not isinstance(routes, UroRoutes):
        return None
    upl = routes.alt_uplink[arr, tor, dst]
    return upl, np.where(upl >= 0, routes.alt_dep[arr, tor, dst] - arr[:, None], 0)


def entries(routes, tor: int) -> Iterator[Entry]:
    """All uncompressed entries of one ToR, by destination then arrival slice.

    ``routes``: :class:`UroRoutes`, a loaded per-hop artifact or a :class:`PerHopTable`."""
    tbl = tor_table(routes, tor)
    S, N, K = tbl.alt_uplink.shape
    peer_x = np.asarray(tbl.peer[:, tor]).tolist()  # [S][d]
    upl = np.asarray(tbl.alt_uplink).tolist()
    wait = np.asarray(tbl.alt_wait).tolist()
    for dst in range(N):
        if dst == tor:
            continue
        for t in range(S):
            alts = []
            u_row, w_row = upl[t][dst], wait[t][dst]
            for k in range(K):
                u = u_row[k]
                if u < 0:
                    break
                w = w_row[k]
                dep = (t + w) % S
                alts.append(Alternative(u, peer_x[dep][u], dep, w))
            yield Entry(tor, dst, t, tuple(alts))


def compressed_counts(routes: UroRoutes) -> np.ndarray:
    """Entries per ToR when runs of arrival slices with the same action share a range."""
    S = routes.schedule.n_slices
    N = routes.schedule.n_tors
    sig_u = routes.alt_uplink
    sig_d = np.where(routes.alt_dep >= 0, routes.alt_dep % S, -1)
    same = np.ones((S, N, N), dtype=bool)
    same[0] = False  # slice 0 always opens a run (ranges do not wrap)
    same[1:] = (sig_u[1:] == sig_u[:-1]).all(-1) & (sig_d[1:] == sig_d[:-1]).all(-1)
    runs = (~same).sum(axis=0)  # [x, dst]
    runs[np.arange(N), np.arange(N)] = 0
    return runs.sum(axis=1)


def uncompressed_count(routes: UroRoutes) -> int:
    """Entries per ToR without compression: (N - 1) x S (URO Table II)."""
    return (routes.schedule.n_tors - 1) * routes.schedule.n_slices


def queues_per_port(routes: UroRoutes) -> np.ndarray:
    """Calendar queues each (ToR, uplink) needs: 1 + the largest rank it is given.

    The rank of an alternative is its wait (departure - arrival slice), URO §IV-B.
    """
    S, N, _, K = routes.alt_dep.shape
    d = routes.schedule.n_uplinks
    t = np.arange(S)[:, None, None, None]
    wait = np.where(routes.alt_dep >= 0, routes.alt_dep - t, -1)
    out = np.zeros((N, d), dtype=np.int32)
    X = np.broadcast_to(np.arange(N)[None, :, None, None], wait.shape)
    ok = routes.alt_uplink >= 0
    np.maximum.at(out, (X[ok], routes.alt_uplink[ok].astype(np.int64)), wait[ok] + 1)
    return out


def _tor_doc(routes: UroRoutes, x: int, with_paths: bool) -> dict:
    S = routes.schedule.n_slices
    tbl = tor_table(routes, x)
    lat, hops = tbl.latency.tolist(), tbl.hops.tolist()
    rows = []
    for e in entries(tbl, x):
        row = {
            "dst": e.dst,
            "slice": e.slice,
            "latency_slices": lat[e.slice][e.dst],
            "hops": hops[e.slice][e.dst],
            "alternatives": [
                {"uplink": a.uplink, "next_tor": a.next_tor, "dep_slice": a.dep_slice, "wait": a.wait}
                for a in e.alternatives
            ],
        }
        if with_paths:
            row["path"] = [
                {"tor": tor, "uplink": u, "dep_slice": dep % S, "wait": dep - e.slice}
                for tor, u, dep in routes.path(x, e.dst, e.slice)[:-1]
            ]
        rows.append(row)
    return {"tor": x, "entries": rows}


def _head(routes: UroRoutes) -> dict:
    sched = routes.schedule
    p = routes.params
    return {
        "format": ROUTES_FORMAT,
        "algo": "uro",
        "schedule": {"name": sched.name, "tors": sched.n_tors, "uplinks": sched.n_uplinks, "slices": sched.n_slices,
                     "hash": sched.content_hash()},
        "params": {"k": p.k, "max_hops": p.max_hops, "hops_per_slice": p.hops_per_slice},
    }


def to_document(routes: UroRoutes, with_paths: bool = True) -> dict:
    """The routes.json document (schema in docs/formats.md)."""
    return {**_head(routes), "tors": [_tor_doc(routes, x, with_paths) for x in range(routes.schedule.n_tors)]}


def write_json_stream(fh, head: dict, tor_docs, progress=None) -> None:
    """Write ``{**head, "tors": [...]}`` one ToR at a time: ``json.dumps`` (the C encoder;
    ``json.dump`` to a file takes the pure-Python one, ~5x slower) per ToR, so memory
    holds one ToR's rows, not the document."""
    text = json.dumps({**head, "tors": []}, separators=(",", ":"))
    fh.write(text[:-2])  # ... "tors":[
    for i, doc in enumerate(tor_docs):
        if i:
            fh.write(",")
        fh.write(json.dumps(doc, separators=(",", ":")))
        if progress is not None:
            progress(1)
    fh.write("]}\n")


def write_routes(routes: UroRoutes, path: str, with_paths: bool = True, progress=None) -> None:
    """Write the routes.json document, streamed per ToR (``progress(1)`` per ToR)."""
    docs = (_tor_doc(routes, x, with_paths) for x in range(routes.schedule.n_tors))
    with atomic_open(path) as fh:
        write_json_stream(fh, _head(routes), docs, progress)
