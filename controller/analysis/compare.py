"""Side-by-side comparison of routing schemes on one schedule: `uro compare`.

Per scheme (UCMP §7.2, URO §VI): path length (hops) mean/p99, latency (Eq. 1)
mean/p99 in slices and us, bandwidth efficiency (1 / mean hops), the two edge-disjoint
shares below, mean group size, unique paths per ToR pair per cycle, calendar queues per
port, table entries per ToR.

Edge-disjointness (an edge is a directed ToR-to-ToR hop, whatever its slice; groups with
at least 2 paths; regular members only):

* ``edge-disj`` (member share): of the paths in multi-path groups, the share that shares
  no edge with any other path of its group;
* ``disj-pairs`` (pair share): of all pairs of paths within a group, the share of pairs
  that share no edge (UCMP §7.2 "edge-disjoint paths in a group"). Path statistics count
every path a scheme may use (all members of UCMP groups, all k KSP paths, every VLB
intermediate), as UCMP Fig. 5b does; UCMP backup and relaxed paths are left out.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from controller.atomic import atomic_open
from controller.routing.base import PER_HOP, SOURCE, RouteSet
from controller.routing.paths import REGULAR, PathRoutes, group_parts
from controller.routing.uro import UroRoutes
from controller.tables import perhop, source as source_tables


@dataclass(frozen=True)
class SchemeMetrics:
    scheme: str
    groups: int
    paths: int
    mean_hops: float
    p99_hops: float
    mean_latency_slices: float
    p99_latency_slices: float
    mean_latency_us: float
    p99_latency_us: float
    bandwidth_efficiency: float
    edge_disjoint: float | None  # share of paths in multi-path groups sharing no edge
    edge_disjoint_pairs: float | None  # share of path pairs within a group sharing no edge
    multipath_groups: float | None  # share of groups with >= 2 paths
    mean_group_size: float
    unique_paths_per_pair: float
    queues_per_port: int
    entries_per_tor: float
    buckets: int | None = None

    def as_dict(self) -> dict:
        return asdict(self)


def _uro_metrics(name: str, r: UroRoutes, step) -> SchemeMetrics:
    sched = r.schedule
    S, N = sched.n_slices, sched.n_tors
    off = ~np.eye(N, dtype=bool)[None].repeat(S, 0)
    hops = r.hops[off].astype(np.float64)
    lat = r.latency_slices()[off].astype(np.float64)
    step(1)
    # unique first-hop decisions (uplink, dep slice id) per (x, dst) over the cycle
    dec = (r.uplink.astype(np.int64) * S + np.where(r.dep >= 0, r.dep % S, 0))
    dec_sorted = np.sort(dec, axis=0)
    n_uniq = 1 + (dec_sorted[1:] != dec_sorted[:-1]).sum(axis=0)  # [x, dst]
    uniq = n_uniq[~np.eye(N, dtype=bool)].astype(float)
    step(1)
    q = int(perhop.queues_per_port(r).max())
    step(1)
    group = float((r.alt_uplink >= 0).sum(-1)[off].mean())
    step(1)
    u = sched.timing.slice_us
    step(1)
    return SchemeMetrics(
        scheme=name, groups=int(off.sum()), paths=int(off.sum()),
        mean_hops=float(hops.mean()), p99_hops=float(np.percentile(hops, 99)),
        mean_latency_slices=float(lat.mean()), p99_latency_slices=float(np.percentile(lat, 99)),
        mean_latency_us=float(lat.mean() * u), p99_latency_us=float(np.percentile(lat, 99) * u),
        bandwidth_efficiency=float(1 / hops.mean()),
        edge_disjoint=None, edge_disjoint_pairs=None, multipath_groups=None,
        mean_group_size=group,
        unique_paths_per_pair=float(uniq.mean()),
        queues_per_port=q,
        entries_per_tor=float(perhop.uncompressed_count(r)),
    )


def edge_disjoint_share(routes: PathRoutes, regular_only: bool = True) -> tuple[float | None, float]:
    """(share of paths in multi-path groups that share no directed ToR-to-ToR edge with
    another path of their group, share of groups with >= 2 paths)."""
    ed, multi, _ = edge_disjoint_shares(routes, regular_only)
    return ed, multi


def edge_disjoint_shares(routes: PathRoutes, regular_only: bool = True) -> tuple[float | None, float, float | None]:
    """(member share, share of groups with >= 2 paths, pair share): see the module
    docstring. None where no group has two paths."""
    N = routes.schedule.n_tors
    gid = routes.path_group_index()
    keep = routes.path_kind() == REGULAR if regular_only else np.ones(gid.size, bool)
    P = np.flatnonzero(keep)
    per_group = np.bincount(gid[P], minlength=routes.g_first.size)
    multi = per_group[gid[P]] >= 2
    groups_with = (per_group > 0).sum()
    share_multi = float((per_group >= 2).sum() / groups_with) if groups_with else 0.0
    P = P[multi]
    if P.size == 0:
        return None, share_multi, None
    src = group_parts(gid[P], N)[1]
    prev = src.astype(np.int64)
    keys, owners = [], []
    for i in range(routes.hop_node.shape[1]):
        nxt = routes.hop_node[P, i].astype(np.int64)
        ok = nxt >= 0
        keys.append((gid[P][ok] * N + prev[ok]) * N + nxt[ok])
        owners.append(np.flatnonzero(ok))
        prev = np.where(ok, nxt, prev)
    keys_all = np.concatenate(keys)
    owner = np.concatenate(owners)
    _, inv, counts = np.unique(keys_all, return_inverse=True, return_counts=True)
    shared = np.zeros(P.size, dtype=bool)
    shared[owner[counts[inv.ravel()] > 1]] = True
    # pairs: every two owners of one edge key share it; a pair counted once however many it shares
    order = np.lexsort((owner, keys_all))
    k_o, o_o = keys_all[order], owner[order].astype(np.int64)
    pair_ids = []
    for gap in range(1, int(counts.max()) if counts.size else 1):
        same = k_o[gap:] == k_o[:-gap]
        if not same.any():
            break
        a, b = o_o[:-gap][same], o_o[gap:][same]
        pair_ids.append(np.minimum(a, b) * P.size + np.maximum(a, b))
    n_shared = np.unique(np.concatenate(pair_ids)).size if pair_ids else 0
    k = per_group[per_group >= 2].astype(np.int64)
    n_pairs = int((k * (k - 1) // 2).sum())
    return float(1 - shared.mean()), share_multi, float(1 - n_shared / n_pairs)


def _path_metrics(name: str, r: PathRoutes, step) -> SchemeMetrics:
    sched = r.schedule
    S, N = sched.n_slices, sched.n_tors
    reg = r.path_kind() == REGULAR
    hops = r.p_hops[reg].astype(np.float64)
    lat = r.p_latency[reg].astype(np.float64)
    gid = r.path_group_index()[reg]
    groups = int(np.unique(gid).size)
    step(1)
    ed, multi, pairs = edge_disjoint_shares(r)
    step(1)
    # unique paths per (src, dst) over the cycle: hop rows with slices taken mod S
    rows = np.concatenate([
        r.hop_node[reg].astype(np.int64),
        r.hop_uplink[reg].astype(np.int64),
        np.where(r.hop_slice[reg] >= 0, r.hop_slice[reg] % S, -1).astype(np.int64),
    ], axis=1)
    pair = gid % (N * N)
    rows = np.concatenate([pair[:, None], rows], axis=1)
    view = np.ascontiguousarray(rows).view(np.dtype((np.void, rows.dtype.itemsize * rows.shape[1]))).ravel()
    uniq_rows = rows[np.unique(view, return_index=True)[1]]
    n_pairs = np.unique(pair).size
    step(1)
    u = sched.timing.slice_us
    entries = source_tables.entry_counts(r)
    q = int(source_tables.queues_per_port(r).max())
    step(1)
    step(1)
    return SchemeMetrics(
        scheme=name, groups=groups, paths=int(reg.sum()),
        mean_hops=float(hops.mean()), p99_hops=float(np.percentile(hops, 99)),
        mean_latency_slices=float(lat.mean()), p99_latency_slices=float(np.percentile(lat, 99)),
        mean_latency_us=float(lat.mean() * u), p99_latency_us=float(np.percentile(lat, 99) * u),
        bandwidth_efficiency=float(1 / hops.mean()),
        edge_disjoint=ed, edge_disjoint_pairs=pairs, multipath_groups=multi,
        mean_group_size=float(reg.sum() / max(groups, 1)),
        unique_paths_per_pair=float(uniq_rows.shape[0] / max(n_pairs, 1)),
        queues_per_port=q,
        entries_per_tor=float(entries.mean()),
        buckets=r.buckets.count if r.buckets is not None else None,
    )


#: metrics per route-set kind (controller.routing.base)
_METRICS = {PER_HOP: _uro_metrics, SOURCE: _path_metrics}


def metrics(name: str, routes: RouteSet, progress=None) -> SchemeMetrics:
    """The metrics of one scheme; ``progress(1)`` after each of :data:`METRIC_STEPS` steps."""
    return _METRICS[routes.kind](name, routes, progress or (lambda n: None))


#: steps :func:`metrics` reports progress for (a bar's total)
METRIC_STEPS = 5


def _uro_hops_latency(r: UroRoutes) -> tuple[np.ndarray, np.ndarray]:
    N = r.schedule.n_tors
    off = ~np.eye(N, dtype=bool)[None].repeat(r.schedule.n_slices, 0)
    return r.hops[off], r.latency_slices()[off]


def _path_hops_latency(r: PathRoutes) -> tuple[np.ndarray, np.ndarray]:
    reg = r.path_kind() == REGULAR
    return r.p_hops[reg], r.p_latency[reg]


#: (hops, latency in slices) of every path a scheme may use, per route-set kind
HOPS_LATENCY = {PER_HOP: _uro_hops_latency, SOURCE: _path_hops_latency}


def format_table(rows: list[SchemeMetrics]) -> str:
    def f(v, fmt="{:.2f}"):
        return "-" if v is None else fmt.format(v)

    head = ["scheme", "hops", "p99", "lat(sl)", "p99", "lat(us)", "p99(us)", "bw-eff", "edge-disj",
            "disj-pairs", "grp-size", "uniq/pair", "Q/port", "entries/ToR", "buckets"]
    lines = [head]
    for m in rows:
        lines.append([
            m.scheme, f(m.mean_hops), f(m.p99_hops, "{:.0f}"), f(m.mean_latency_slices), f(m.p99_latency_slices, "{:.0f}"),
            f(m.mean_latency_us), f(m.p99_latency_us), f(m.bandwidth_efficiency, "{:.3f}"),
            f(None if m.edge_disjoint is None else 100 * m.edge_disjoint, "{:.1f}%"),
            f(None if m.edge_disjoint_pairs is None else 100 * m.edge_disjoint_pairs, "{:.1f}%"),
            f(m.mean_group_size), f(m.unique_paths_per_pair, "{:.1f}"), str(m.queues_per_port),
            f(m.entries_per_tor, "{:.0f}"), f(m.buckets, "{:d}"),
        ])
    widths = [max(len(r[i]) for r in lines) for i in range(len(head))]
    return "\n".join("  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths)))
                     for r in lines)


#: line styles and markers that tell overlapping curves apart (cycled together with colours)
LINE_STYLES = ("-", "--", "-.", ":", (0, (5, 1)), (0, (3, 1, 1, 1, 1, 1)))
MARKERS = ("o", "s", "^", "v", "D", "x", "P", "*")


def curve_styles(n: int) -> list[dict]:
    """Matplotlib style keywords for ``n`` curves: every curve gets its own combination of
    line style and marker (and colour), so curves that lie on top of each other -- two
    schemes with the same hop distribution -- stay distinguishable in the legend and plot."""
    out = []
    for i in range(n):
        out.append({"linestyle": LINE_STYLES[i % len(LINE_STYLES)], "marker": MARKERS[i % len(MARKERS)],
                    "color": f"C{i % 10}", "linewidth": 1.6 + 0.4 * ((n - 1 - i) % 3), "markersize": 5,
                    "alpha": 0.9})
    return out


def _cdf_points(values: np.ndarray, max_points: int = 400) -> tuple[np.ndarray, np.ndarray]:
    """The empirical CDF's step points, thinned to at most ``max_points`` (markers every ~10)."""
    v = np.sort(np.asarray(values, dtype=np.float64))
    y = np.arange(1, v.size + 1) / max(v.size, 1)
    # keep the last point of each run of equal values: the CDF's steps
    last = np.r_[v[1:] != v[:-1], True] if v.size else np.zeros(0, bool)
    v, y = v[last], y[last]
    if v.size > max_points:
        idx = np.unique(np.linspace(0, v.size - 1, max_points).astype(int))
        v, y = v[idx], y[idx]
    return v, y


def plot_cdfs(named: list[tuple[str, object]], path: str, slice_us: float, title: str | None = None):
    """Path-length and latency CDFs of every scheme (matplotlib, written atomically).

    Curves get distinct line styles and markers (:func:`curve_styles`), so schemes with
    identical distributions stay visible; ``title`` heads the figure (e.g. the schedule).
    Returns the figure's axes-level summary ``{"title": ..., "lines": [(label, style, marker)]}``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt


    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.4))
    styles = curve_styles(len(named))
    for (name, r), st in zip(named, styles):
        hops, lat = HOPS_LATENCY[r.kind](r)
        for ax, v in ((ax1, hops), (ax2, np.asarray(lat, dtype=np.float64) * slice_us)):
            x, y = _cdf_points(v)
            ax.step(x, y, where="post", label=name, markevery=max(1, x.size // 10), **st)
    ax1.set_xlabel("path length (hops)")
    ax2.set_xlabel("latency (us, URO/UCMP Eq. 1)")
    for ax in (ax1, ax2):
        ax.set_ylabel("CDF")
        ax.set_ylim(0, 1.02)
        ax.grid(alpha=0.3)
    ax1.set_title("path length")
    ax2.set_title("latency")
    ax2.legend(fontsize=8, loc="lower right")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    summary = {"title": fig._suptitle.get_text() if fig._suptitle is not None else None,
               "lines": [(ln.get_label(), ln.get_linestyle(), ln.get_marker()) for ln in ax1.get_lines()]}
    with atomic_open(path, "wb") as fh:
        fig.savefig(fh, format="png", dpi=110)
    plt.close(fig)
    return summary
