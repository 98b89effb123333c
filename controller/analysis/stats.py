"""Route statistics a user looks at before deploying: `uro stats`."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from controller.analysis import compare
from controller.routing.base import PER_HOP
from controller.routing.paths import REGULAR
from controller.routing.uro import UroRoutes
from controller.tables import perhop


@dataclass(frozen=True)
class RouteStats:
    hop_histogram: dict[int, int]
    mean_hops: float
    mean_latency_slices: float
    p99_latency_slices: float
    mean_latency_us: float
    p99_latency_us: float
    max_queues_per_port: int
    mean_queues_per_port: float
    entries_per_tor: int
    compressed_mean: float
    compressed_max: int
    alternatives_mean: float


def summarize(routes: UroRoutes) -> RouteStats:
    sched = routes.schedule
    N = sched.n_tors
    off = ~np.eye(N, dtype=bool)[None, :, :].repeat(sched.n_slices, 0)
    hops = routes.hops[off].astype(np.int64)
    lat = routes.latency_slices()[off].astype(np.float64)
    hist = np.bincount(hops)
    q = perhop.queues_per_port(routes)
    comp = perhop.compressed_counts(routes)
    n_alt = (routes.alt_uplink >= 0).sum(-1)[off]
    slice_us = sched.timing.slice_us
    return RouteStats(
        hop_histogram={h: int(c) for h, c in enumerate(hist) if c},
        mean_hops=float(hops.mean()),
        mean_latency_slices=float(lat.mean()),
        p99_latency_slices=float(np.percentile(lat, 99)),
        mean_latency_us=float(lat.mean() * slice_us),
        p99_latency_us=float(np.percentile(lat, 99) * slice_us),
        max_queues_per_port=int(q.max()),
        mean_queues_per_port=float(q.mean()),
        entries_per_tor=perhop.uncompressed_count(routes),
        compressed_mean=float(comp.mean()),
        compressed_max=int(comp.max()),
        alternatives_mean=float(n_alt.mean()),
    )


def format_stats(st: RouteStats) -> str:
    total = sum(st.hop_histogram.values())
    lines = ["path length (hops, first alternative):"]
    for h, c in st.hop_histogram.items():
        bar = "#" * max(1, round(40 * c / total))
        lines.append(f"  {h:2d} hops {c:10d}  {100 * c / total:5.1f}%  {bar}")
    lines += [
        f"mean hops               {st.mean_hops:.3f}",
        f"latency (URO Eq. 1)     mean {st.mean_latency_slices:.3f} slices ({st.mean_latency_us:.2f} us), "
        f"p99 {st.p99_latency_slices:.0f} slices ({st.p99_latency_us:.2f} us)",
        f"calendar queues/port    max {st.max_queues_per_port} (mean {st.mean_queues_per_port:.1f})",
        f"entries/ToR             {st.entries_per_tor} uncompressed, "
        f"{st.compressed_mean:.0f} mean / {st.compressed_max} max with arrival-slice ranges",
        f"alternatives/entry      {st.alternatives_mean:.2f}",
    ]
    return "\n".join(lines)


def format_path_stats(routes, alpha: float = 0.5) -> str:
    """`uro stats` for source-routing schemes (UCMP and the baselines)."""
    m = compare.metrics(routes.algo, routes)
    reg = routes.path_kind() == REGULAR
    hist = np.bincount(routes.p_hops[reg].astype(np.int64))
    total = int(hist.sum())
    lines = ["path length (hops, every path of every group):"]
    for h, c in enumerate(hist):
        if c:
            bar = "#" * max(1, round(40 * c / total))
            lines.append(f"  {h:2d} hops {c:10d}  {100 * c / total:5.1f}%  {bar}")
    ed = "-" if m.edge_disjoint is None else f"{100 * m.edge_disjoint:.1f}%"
    mp = "-" if m.multipath_groups is None else f"{100 * m.multipath_groups:.1f}%"
    lines += [
        f"mean hops               {m.mean_hops:.3f} (p99 {m.p99_hops:.0f}); bandwidth efficiency {m.bandwidth_efficiency:.3f}",
        f"latency (Eq. 1)         mean {m.mean_latency_slices:.3f} slices ({m.mean_latency_us:.2f} us), "
        f"p99 {m.p99_latency_slices:.0f} slices ({m.p99_latency_us:.2f} us)",
        f"group size              {m.mean_group_size:.2f} paths; multi-path groups {mp}; edge-disjoint paths {ed}",
        f"unique paths/pair/cycle {m.unique_paths_per_pair:.1f}",
        f"calendar queues/port    {m.queues_per_port}",
        f"entries/ToR             {m.entries_per_tor:.0f}",
    ]
    b = routes.buckets
    if b is not None:
        thr = [x / alpha for x in b.boundary_bytes()]
        shown = ", ".join(_fmt_bytes(x) for x in thr[:8]) + (" ..." if len(thr) > 8 else "")
        lines.append(f"flow-size buckets       {b.count} (DSCP 0..{b.count - 1}); host thresholds at alpha={alpha}: {shown}")
    n = routes.notes
    if "hmax_reached" in n:
        lines.append(f"h_max                   {n['hmax_reached']} reached (App. B bound {n['hmax_bound']}, "
                     f"h_slice {n['hops_per_slice']})")
        lines.append(f"group levels            {n['levels']} kept (ties: {n.get('ties', 'all')}, levels: "
                     f"{n.get('levels_policy', 'all')}); {n.get('levels_dropped', 0)} no flow size selects dropped; "
                     f"tie cap cut {n['levels_capped']}")
    return "\n".join(lines)


def summary_text(routes, alpha: float = 0.5) -> str:
    """The `uro stats` summary of any route set (dispatch on ``routes.kind``)."""
    if routes.kind == PER_HOP:
        return format_stats(summarize(routes))
    return format_path_stats(routes, alpha=alpha)


def _fmt_bytes(x: float) -> str:
    for unit, div in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if x >= div:
            return f"{x / div:.3g}{unit}"
    return f"{x:.0f}B"
