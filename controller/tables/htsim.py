"""uro's routes as an htsim topology file: the schedule plus the *path section* that the
UCMP artifact's simulator (``src/optiroute``, ``-routing OptiRoute``) reads, so uro's
routes can be simulated packet by packet (UCMP §7 evaluates with this simulator).

The file (what the simulator's ``DynExpTopology::read_params`` parses)::

    hosts downlinks uplinks tors
    slices connected_time_ps reconfig_time_ps logic_portion   # logic_portion: 1 here
    <tors*uplinks peer ids per slice, one line per slice>     # formats.format_htsim
    <start slice t>                                           # a line with one number
    src dst lb_bytes port_1 .. port_h                         # one path: port = downlinks + uplink
    slice_1 .. slice_h                                        # the slice (mod S) each hop is sent in
    ...

Paths of a (src, dst, t) group that share ``lb_bytes`` are one flow-size class: the
simulator hashes a flow onto one of the paths of the class with the largest
``lb_bytes`` <= the flow's size. What uro writes:

- **UCMP** (source routes): every member path of a group; ``lb_bytes`` is the lower
  flow-size bound of the first bucket the member serves (UCMP §5.1 Eq. 4, bucket
  boundaries divided by ``alpha`` as the artifact's generator does); groups without
  buckets (KSP, Opera, direct, VLB) write 0.
- **URO** (per-hop tables): the path the per-hop tables walk from ``src`` at ``t`` (first
  alternatives, URO §IV-A Property 2), ``lb_bytes`` 0. The K one-shot alternatives are
  per-hop decisions taken on a missed slice; a source-routed simulator cannot express
  them (a packet that misses its slice in htsim waits for the planned one).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import IO, Iterator

import numpy as np

from controller.atomic import atomic_open
from controller.errors import UroError
from controller.routing.base import PER_HOP
from controller.schedule.formats import format_htsim, parse_htsim
from controller.schedule.model import Schedule

#: the simulator's logical slices per physical slice (``-routing OptiRoute``): uro writes whole slices
LOGIC_PORTION = 1


@dataclass(frozen=True)
class HtsimPath:
    """One path line pair: flow-size class, uplink per hop, send slice (mod S) per hop."""

    lb_bytes: int
    uplinks: tuple[int, ...]
    slices: tuple[int, ...]


def _header(sched: Schedule, downlinks: int) -> str:
    text = format_htsim(sched, downlinks)
    lines = text.splitlines()
    lines[1] += f" {LOGIC_PORTION}"
    return "\n".join(lines) + "\n"


def _per_hop_lines(routes, t: int, down: int) -> Iterator[str]:
    """The walked path of every (src, dst) at slice ``t`` (vectorised over all pairs)."""
    S, N = routes.schedule.n_slices, routes.schedule.n_tors
    src, dst = np.nonzero(~np.eye(N, dtype=bool))
    x = src.copy()
    now = np.full(src.size, t, np.int64)
    ups: list[np.ndarray] = []
    sls: list[np.ndarray] = []
    live = routes.arrival[t, src, dst] >= 0  # unreachable pairs (degraded schedules) have no path
    going = live & (x != dst)
    limit = N * 4 + 8
    while going.any():
        if len(ups) > limit:
            raise UroError(f"per-hop walk at slice {t} does not reach its destination")
        i = np.flatnonzero(going)
        base = (now[i] // S) * S
        u = routes.alt_uplink[now[i] % S, x[i], dst[i], 0].astype(np.int64)
        dep = routes.alt_dep[now[i] % S, x[i], dst[i], 0].astype(np.int64) + base
        if (u < 0).any():
            raise UroError(f"per-hop walk at slice {t} is broken at ToR {int(x[i][u < 0][0])}")
        up = np.full(src.size, -1, np.int64)
        sl = np.full(src.size, -1, np.int64)
        up[i], sl[i] = u, dep % S
        ups.append(up)
        sls.append(sl)
        x[i] = routes.schedule.peer[dep % S, x[i], u]
        now[i] = dep
        going = live & (x != dst)
    U = np.stack(ups, axis=1).tolist() if ups else [[] for _ in src]
    L = np.stack(sls, axis=1).tolist() if sls else [[] for _ in src]
    for j in np.flatnonzero(live).tolist():
        hops = [(u, s) for u, s in zip(U[j], L[j]) if u >= 0]
        yield (f"{src[j]} {dst[j]} 0 " + " ".join(str(down + u) for u, _ in hops) + "\n"
               + " ".join(str(s) for _, s in hops) + "\n")


def _member_lb(routes, alpha: float) -> np.ndarray:
    """Per member: the lower flow-size bound in bytes of the first bucket it serves (-1: never serves)."""
    M = routes.m_kind.shape[0]
    b = routes.buckets
    if b is None:
        return np.zeros(M, np.int64)
    bounds = np.array([0.0] + b.boundary_bytes()) / alpha
    lo = np.asarray(b.m_lo)
    return np.where(lo >= 0, np.round(bounds[np.maximum(lo, 0)]).astype(np.int64), -1)


def _source_lines(routes, t: int, down: int, lb: np.ndarray) -> Iterator[str]:
    S, N = routes.schedule.n_slices, routes.schedule.n_tors
    for src in range(N):
        for dst in range(N):
            if src == dst:
                continue
            for m in routes.members(src, dst, t):
                if lb[m] < 0:
                    continue
                f, c = int(routes.m_first[m]), int(routes.m_count[m])
                for p in range(f, f + c):
                    n = int(routes.p_hops[p])
                    ups = routes.hop_uplink[p, :n].tolist()
                    sls = (routes.hop_slice[p, :n] % S).tolist()
                    yield (f"{src} {dst} {int(lb[m])} " + " ".join(str(down + u) for u in ups) + "\n"
                           + " ".join(map(str, sls)) + "\n")


def write(routes, fh: IO[str], downlinks: int | None = None, alpha: float = 0.5, progress=None) -> int:
    """Write ``routes`` (URO or any source routes, in memory) as an htsim topology file to
    ``fh``, slice by slice; returns the number of paths written."""
    sched = routes.schedule
    down = sched.n_uplinks if downlinks is None else downlinks
    if down < 1:
        raise UroError(f"--downlinks must be >= 1, got {down}")
    if not alpha > 0:
        raise UroError(f"--alpha must be a positive number, got {alpha!r}")
    fh.write(_header(sched, down))
    lb = None if routes.kind == PER_HOP else _member_lb(routes, alpha)
    n = 0
    for t in range(sched.n_slices):
        fh.write(f"{t}\n")
        lines = _per_hop_lines(routes, t, down) if lb is None else _source_lines(routes, t, down, lb)
        for line in lines:
            fh.write(line)
            n += 1
        if progress is not None:
            progress(1)
    return n


def parse(text: str, source: str = "htsim", complete: bool = True
          ) -> tuple[Schedule, int, dict[tuple[int, int, int], list[HtsimPath]]]:
    """Read an htsim topology file with a path section: ``(schedule, downlinks, paths)``
    with ``paths[(t, src, dst)]`` in file order. Every error names the line.
    ``complete=False``: the schedule of routes computed after failures (degraded)."""
    sched = parse_htsim(text, source, complete)
    lines = text.splitlines()
    head = lines[0].split()
    down = int(head[1])
    S, N, d = sched.peer.shape
    paths: dict[tuple[int, int, int], list[HtsimPath]] = {}
    t = None
    i = 2 + S
    while i < len(lines):
        tok = lines[i].split()
        if not tok:
            i += 1
            continue
        try:
            vals = [int(v) for v in tok]
        except ValueError:
            raise UroError(f"{source}: line {i + 1}: expected integers") from None
        if len(vals) == 1:
            t = vals[0]
            if not 0 <= t < S * LOGIC_PORTION:
                raise UroError(f"{source}: line {i + 1}: start slice {t} is not in 0..{S - 1}")
            i += 1
            continue
        if t is None:
            raise UroError(f"{source}: line {i + 1}: a path before the first start-slice line")
        if len(vals) < 4:
            raise UroError(f"{source}: line {i + 1}: expected 'src dst lb_bytes port...', got {len(vals)} value(s)")
        src, dst, lb, ports = vals[0], vals[1], vals[2], vals[3:]
        if not (0 <= src < N and 0 <= dst < N):
            raise UroError(f"{source}: line {i + 1}: ToR out of range 0..{N - 1}")
        bad = [p for p in ports if not down <= p < down + d]
        if bad:
            raise UroError(f"{source}: line {i + 1}: port {bad[0]} is not an uplink port ({down}..{down + d - 1})")
        if i + 1 >= len(lines):
            raise UroError(f"{source}: line {i + 2}: the send slices of the path on line {i + 1} are missing")
        try:
            slices = [int(v) for v in lines[i + 1].split()]
        except ValueError:
            raise UroError(f"{source}: line {i + 2}: expected integers") from None
        if len(slices) != len(ports):
            raise UroError(f"{source}: line {i + 2}: {len(slices)} send slice(s) for {len(ports)} hop(s)")
        paths.setdefault((t, src, dst), []).append(
            HtsimPath(lb, tuple(p - down for p in ports), tuple(slices)))
        i += 2
    return sched, down, paths


def walk(sched: Schedule, src: int, path: HtsimPath) -> int:
    """The ToR a path ends at (the check the simulator makes with ``get_nextToR``)."""
    x = src
    for u, s in zip(path.uplinks, path.slices):
        y = int(sched.peer[s, x, u])
        if y < 0:
            raise UroError(f"hop over uplink {u} of ToR {x} in slice {s}: no circuit")
        x = y
    return x


def write_file(routes, path: str | os.PathLike, downlinks: int | None = None, alpha: float = 0.5,
               progress=None) -> int:
    """:func:`write` to ``path`` atomically (nothing half-written on an error)."""
    with atomic_open(path, "w") as fh:
        return write(routes, fh, downlinks, alpha, progress)
