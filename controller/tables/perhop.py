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


def entries(routes: UroRoutes, tor: int) -> Iterator[Entry]:
    """All uncompressed entries of one ToR, by destination then arrival slice."""
    sched = routes.schedule
    S, N = sched.n_slices, sched.n_tors
    for dst in range(N):
        if dst == tor:
            continue
        for t in range(S):
            alts = []
            for k in range(routes.params.k):
                u = int(routes.alt_uplink[t, tor, dst, k])
                if u < 0:
                    break
                dep = int(routes.alt_dep[t, tor, dst, k])
                alts.append(Alternative(u, int(sched.peer[dep % S, tor, u]), dep % S, dep - t))
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


def to_document(routes: UroRoutes, with_paths: bool = True) -> dict:
    """The routes.json document (schema in docs/formats.md)."""
    sched = routes.schedule
    S = sched.n_slices
    lat = routes.latency_slices()
    tors = []
    for x in range(sched.n_tors):
        rows = []
        for e in entries(routes, x):
            row = {
                "dst": e.dst,
                "slice": e.slice,
                "latency_slices": int(lat[e.slice, x, e.dst]),
                "hops": int(routes.hops[e.slice, x, e.dst]),
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
        tors.append({"tor": x, "entries": rows})
    p = routes.params
    return {
        "format": ROUTES_FORMAT,
        "algo": "uro",
        "schedule": {"name": sched.name, "tors": sched.n_tors, "uplinks": sched.n_uplinks, "slices": S},
        "params": {"k": p.k, "max_hops": p.max_hops, "hops_per_slice": p.hops_per_slice},
        "tors": tors,
    }


def write_routes(routes: UroRoutes, path: str, with_paths: bool = True) -> None:
    doc = to_document(routes, with_paths)
    with atomic_open(path) as fh:
        json.dump(doc, fh, separators=(",", ":"))
        fh.write("\n")
