"""Route statistics a user looks at before deploying: `uro stats`."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from controller import tables
from controller.routing.uro import UroRoutes


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
    q = tables.queues_per_port(routes)
    comp = tables.compressed_counts(routes)
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
        entries_per_tor=tables.uncompressed_count(routes),
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
