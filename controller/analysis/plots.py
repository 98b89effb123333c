"""Pictures of schedules and routes (matplotlib, the ``plot`` extra): what `uro plot` draws.

- :func:`schedule_matrix`: the circuit schedule as a ToR x slice matrix, each slice split
  into its d uplinks (one per OCS), coloured by the peer ToR or by the OCS;
- :func:`route_diagram`: one (src, dst, slice) route as a time-space diagram (slice on x,
  ToR on y; a horizontal run is a wait at a ToR, a vertical step a hop over a circuit):
  URO's one-shot alternatives at the source (URO §IV-C, each followed by the planned
  per-hop path onward) or a UCMP group's paths (UCMP §4), side by side;
- :func:`failure_curves`: connectivity loss against failure rate (`uro failures`).

The path-length/latency CDFs are :func:`controller.analysis.compare.plot_cdfs`. Every
function returns the figure; :func:`save` writes it atomically (PNG or SVG by suffix).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from controller.analysis.compare import curve_styles
from controller.atomic import atomic_open
from controller.errors import UroError

FORMATS = {".png": "png", ".svg": "svg"}


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def image_format(path: str | Path) -> str:
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise UroError(f"-o {path}: a .png or .svg name, got {suffix or 'no suffix'!r}")
    return FORMATS[suffix]


def save(fig, path: str | Path, dpi: int = 110) -> None:
    fmt = image_format(path)
    with atomic_open(path, "wb") as fh:
        fig.savefig(fh, format=fmt, dpi=dpi)
    _plt().close(fig)


# ---- the schedule ------------------------------------------------------------------------------
def schedule_matrix(sched, by: str = "peer", max_slices: int | None = None):
    """ToR rows x (slice, uplink) columns; colour = the peer ToR (``by="peer"``) or the OCS
    (``by="ocs"``); the peer's id is written in each cell when the matrix is small."""
    if by not in ("peer", "ocs"):
        raise UroError(f"--by: peer or ocs, got {by!r}")
    plt = _plt()
    from matplotlib.colors import ListedColormap

    peer = sched.peer
    S, N, d = peer.shape
    S_shown = S if max_slices is None else min(S, max_slices)
    grid = peer[:S_shown].transpose(1, 0, 2).reshape(N, S_shown * d).astype(float)   # [tor, s*d + u]
    idle = grid < 0
    if by == "peer":
        vals, n_colours = grid.copy(), N
        cmap = ListedColormap(plt.get_cmap("tab10" if N <= 10 else "tab20").colors[:N]) if N <= 20 else \
            plt.get_cmap("turbo", N)
    else:
        vals = np.tile(np.arange(d, dtype=float), S_shown)[None, :].repeat(N, 0)
        n_colours = d
        cmap = ListedColormap(plt.get_cmap("tab10" if d <= 10 else "tab20").colors[:max(d, 1)])
    vals[idle] = np.nan
    w = min(18.0, 4.0 + 0.32 * S_shown * d)
    h = min(14.0, 1.5 + 0.3 * N)
    fig, ax = plt.subplots(figsize=(w, h))
    cm = cmap.with_extremes(bad="#eeeeee")
    im = ax.imshow(np.ma.masked_invalid(vals), aspect="auto", cmap=cm, interpolation="nearest",
                   vmin=-0.5, vmax=n_colours - 0.5)
    if N * S_shown * d <= 900:
        for t in range(N):
            for c in range(S_shown * d):
                if not idle[t, c]:
                    ax.text(c, t, str(int(grid[t, c])), ha="center", va="center", fontsize=7, color="black")
    for s in range(1, S_shown):
        ax.axvline(s * d - 0.5, color="white", lw=2)
    ax.set_xticks([s * d + (d - 1) / 2 for s in range(S_shown)])
    ax.set_xticklabels([str(s) for s in range(S_shown)])
    ax.set_yticks(range(N))
    ax.set_yticklabels([f"tor{t}" for t in range(N)], fontsize=7 if N > 24 else 9)
    ax.set_xlabel(f"slice (each split into its {d} uplink(s) = OCS 0..{d - 1})")
    ax.set_ylabel("ToR")
    more = f", first {S_shown} of {S} slices" if S_shown < S else ""
    ax.set_title(f"{sched.name}: {N} ToRs x {d} uplinks, {S} slices{more}\n"
                 f"cell = peer ToR, colour = {'peer ToR' if by == 'peer' else 'OCS'}", fontsize=9)
    cb = fig.colorbar(im, ax=ax, fraction=0.03, pad=0.01)
    cb.set_label("peer ToR" if by == "peer" else "OCS (uplink)")
    if by == "ocs":
        cb.set_ticks(range(d))
    fig.tight_layout()
    return fig


# ---- one route -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Path_:
    """One way from src to dst: hops ``(tor, uplink, departure slice)`` then the arrival."""
    label: str
    hops: list[tuple[int, int, int]]
    dst: int

    @property
    def arrival(self) -> int:
        """The slice of the last hop (URO/UCMP Eq. 1: latency = arrival - t + 1)."""
        return self.hops[-1][2] if self.hops else 0


def check_pair(sched, src: int, dst: int, t: int) -> None:
    N, S = sched.n_tors, sched.n_slices
    for name, v in (("--src", src), ("--dst", dst)):
        if not 0 <= v < N:
            raise UroError(f"{name} {v}: no such ToR (the schedule has ToRs 0..{N - 1})")
    if src == dst:
        raise UroError(f"--src {src} --dst {dst}: no such pair (a ToR does not route to itself)")
    if not 0 <= t < S:
        raise UroError(f"--slice {t}: no such slice (the schedule has slices 0..{S - 1})")


def uro_alternatives(routes, src: int, dst: int, t: int) -> list[Path_]:
    """Alternative k at ``src`` (its uplink and departure slice), then the planned per-hop
    path onward from the next ToR (first alternatives), for every k the tables hold."""
    K = routes.alt_uplink.shape[-1]
    out = []
    for k in range(K):
        nh = routes.next_hop(t, src, dst, k)
        if nh is None:
            continue
        u, dep, y = nh
        rest = routes.path(y, dst, dep) if y != dst else [(dst, -1, dep)]
        out.append(Path_(f"alternative {k}" + (" (planned)" if k == 0 else ""), [(src, u, dep)] + rest[:-1], dst))
    if not out:
        raise UroError(f"no route from ToR {src} to ToR {dst} in slice {t} (the schedule, or the failures it was "
                       "degraded by, leave none)")
    return out


def ucmp_group(routes, src: int, dst: int, t: int) -> list[Path_]:
    """Every path of the (src, dst, t) group, member by member (UCMP §4)."""
    out = []
    for i, m in enumerate(routes.group(src, dst, t)):
        for j, hops in enumerate(m["paths"]):
            # a source route's hop names the ToR it reaches; the diagram wants the sender
            senders = [src] + [int(node) for node, _, _ in hops[:-1]]
            out.append(Path_(f"member {i} ({m['kind']}) path {j}",
                             [(x, int(u), int(sl)) for x, (_, u, sl) in zip(senders, hops)], dst))
    if not out:
        raise UroError(f"no route from ToR {src} to ToR {dst} in slice {t} ({routes.algo} has an empty group)")
    return out


def route_diagram(sched, paths: list[Path_], src: int, dst: int, t: int, title: str):
    """Time-space diagrams side by side, one per path (at most 8 drawn)."""
    plt = _plt()
    shown = paths[:8]
    n = len(shown)
    cols = min(n, 4)
    rows = (n + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(3.6 * cols, 3.2 * rows), squeeze=False, sharey=True)
    N = sched.n_tors
    for ax, p in zip(axes.ravel(), shown):
        xpos = float(t)                                  # the packet arrives at src in slice t
        ax.plot([t], [src], "o", color="black", ms=5)
        per_slice: dict[int, int] = {}
        for tor, u, dep in p.hops:
            y = int(sched.peer[dep % sched.n_slices, tor, u])
            x = dep + 0.5 + 0.15 * per_slice.get(dep, 0)    # several hops in one slice side by side
            per_slice[dep] = per_slice.get(dep, 0) + 1
            if x > xpos + 0.6:                               # waits at this ToR for a later slice
                ax.plot([xpos, x], [tor, tor], color="#999999", lw=2.5, solid_capstyle="butt")
            ax.annotate("", xy=(x, y), xytext=(x, tor), arrowprops=dict(arrowstyle="->", color="#1d4ed8", lw=1.6))
            ax.text(x + 0.06, (tor + y) / 2, f"u{u}", fontsize=7, color="#1d4ed8")
            xpos = x
        ax.plot([xpos], [dst], "s", color="#15803d", ms=6)
        ax.set_title(f"{p.label}\n{len(p.hops)} hop(s), latency {p.arrival - t + 1} slice(s)", fontsize=8)
        ax.set_xlabel("slice (absolute)")
        ax.grid(alpha=0.3)
        ax.set_xlim(t - 0.5, max(t + 2, p.arrival + 1.5))
    for ax in axes.ravel()[n:]:
        ax.axis("off")
    for r in range(rows):
        axes[r, 0].set_ylabel("ToR")
    axes[0, 0].set_ylim(-0.5, N - 0.5)
    if N <= 32:
        axes[0, 0].set_yticks(range(N))
    more = f" (first 8 of {len(paths)})" if len(paths) > 8 else ""
    fig.suptitle(f"{title}: ToR {src} -> ToR {dst} from slice {t}{more}; grey = wait, arrow = hop on uplink u",
                 fontsize=9)
    fig.tight_layout()
    return fig


# ---- failures ----------------------------------------------------------------------------------------
def failure_curves(sched, cols: list[str], rows: list[tuple[str, float, list[float]]], trials: int):
    """Connectivity loss (%) against the failure rate, one panel per failure kind."""
    plt = _plt()
    kinds = list(dict.fromkeys(k for k, _, _ in rows))
    fig, axes = plt.subplots(1, len(kinds), figsize=(4.6 * len(kinds), 3.8), squeeze=False)
    styles = curve_styles(len(cols))
    for ax, kind in zip(axes[0], kinds):
        pts = sorted((rate, acc) for k, rate, acc in rows if k == kind)
        rates = [r for r, _ in pts]
        for i, (name, st) in enumerate(zip(cols, styles)):
            ax.plot(rates, [100 * acc[i] for _, acc in pts], label=name, **st)
        ax.set_xlabel(f"{kind} failure rate")
        ax.set_ylabel("connectivity loss (%)")
        ax.grid(alpha=0.3)
        ax.set_title(f"{kind}")
    axes[0, -1].legend(fontsize=8)
    fig.suptitle(f"{sched.describe().splitlines()[0]}\nloss = (slice, src, dst) whose packet is lost "
                 f"(uro: the data plane; bound: the oracle), mean of {trials} trial(s)", fontsize=8)
    fig.tight_layout()
    return fig
