"""Failure analysis: connectivity loss under random link, ToR and OCS failures.

Reproduces the shape of URO Fig. 16a/17 and UCMP Fig. 12. A failed *link* is one
ToR uplink (its circuits on both ends are lost), a failed *ToR* loses all its
circuits and drops out of the (src, dst) pairs counted, a failed *OCS* is one uplink
index on every ToR. Connectivity loss is the fraction of (start slice, src, dst) with
both ends up that have no surviving choice:

- URO with K alternatives: at every ToR the data plane takes the first alternative
  whose port is up (a dead port looks like an always-Full queue), so a state
  survives if some alternative's hop is up and the state it leads to survives
  (least fixed point over all states, computed for all of them at once);
- UCMP: the source can move a flow to any path of its group (§5.3: ToRs update the
  entry to a surviving path), with and without the 2-hop backups of direct-only groups.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from controller.errors import UroError
from controller.routing.paths import REGULAR, PathRoutes
from controller.routing.uro import UroRoutes
from controller.schedule.model import Schedule


@dataclass(frozen=True)
class Failures:
    dead_tor: np.ndarray  # [N] bool
    dead_link: np.ndarray  # [N, d] bool
    dead_ocs: np.ndarray  # [d] bool


def check_rate(name: str, v: float) -> float:
    if not (isinstance(v, (int, float)) and 0 <= v < 1):
        raise UroError(f"failure rate --{name} must be in [0, 1), got {v!r}")
    return float(v)


def sample(sched: Schedule, links: float = 0.0, tors: float = 0.0, ocs: float = 0.0, seed: int = 0) -> Failures:
    """Fail round(rate x count) random links, ToRs and OCSes."""
    for n, v in (("link-rate", links), ("tor-rate", tors), ("ocs-rate", ocs)):
        check_rate(n, v)
    N, d = sched.n_tors, sched.n_uplinks
    rng = np.random.default_rng(seed)

    def pick(count: int, rate: float) -> np.ndarray:
        out = np.zeros(count, bool)
        out[rng.choice(count, size=int(round(rate * count)), replace=False)] = True
        return out

    f = Failures(pick(N, tors), pick(N * d, links).reshape(N, d), pick(d, ocs))
    if (~f.dead_tor).sum() < 2:  # no (src, dst) pair left: the loss would be 0/0
        raise UroError(f"failure rate --tor-rate {tors:g} fails {int(f.dead_tor.sum())} of {N} ToRs; "
                       "at least 2 must stay up to measure connectivity")
    return f


def _reverse_uplink(sched: Schedule) -> np.ndarray:
    """``rev[s, x, j]``: the uplink of peer[s, x, j] whose circuit leads back to x."""
    S, N, d = sched.peer.shape
    rev = np.full((S, N, d), -1, np.int16)
    y = np.maximum(sched.peer, 0)  # [S, N, d]
    s_idx = np.arange(S)[:, None, None]
    x_idx = np.arange(N)[None, :, None]
    for j2 in range(d):
        hit = (sched.peer[s_idx, y, j2] == x_idx) & (sched.peer >= 0)
        rev[hit & (rev < 0)] = j2
    return rev


def hop_up(f: Failures, rev: np.ndarray, S: int, x, j, s, y) -> np.ndarray:
    """Is the hop x --uplink j, slice s--> y up?"""
    jr = rev[s % S, x, j]
    return ~f.dead_tor[x] & ~f.dead_tor[y] & ~f.dead_link[x, j] & ~f.dead_link[y, jr] & ~f.dead_ocs[j]


def _pairs_mask(f: Failures, S: int, N: int) -> np.ndarray:
    up = ~f.dead_tor
    m = up[:, None] & up[None, :] & ~np.eye(N, dtype=bool)
    return np.broadcast_to(m, (S, N, N))


def uro_loss(routes: UroRoutes, f: Failures, k: int) -> float:
    """Connectivity loss of URO using the first ``k`` one-shot alternatives."""
    sched = routes.schedule
    S, N, d = sched.peer.shape
    rev = _reverse_uplink(sched)
    k = min(k, routes.alt_uplink.shape[-1])
    upl = routes.alt_uplink[..., :k].astype(np.int64)
    dep = routes.alt_dep[..., :k].astype(np.int64)
    exists = upl >= 0
    t_idx, x_idx, dst_idx = np.meshgrid(np.arange(S), np.arange(N), np.arange(N), indexing="ij")
    x = np.broadcast_to(x_idx[..., None], upl.shape)
    dst = np.broadcast_to(dst_idx[..., None], upl.shape)
    u = np.maximum(upl, 0)
    s = np.maximum(dep, 0) % S
    y = sched.peer[s, x, u]
    ok = exists & (y >= 0) & hop_up(f, rev, S, x, u, s, np.maximum(y, 0))
    done = ok & (y == dst)
    chain = ok & (y != dst)
    alive = np.zeros((S, N, N), bool)
    while True:
        nxt = (done | (chain & alive[s, np.maximum(y, 0), dst])).any(-1)
        if np.array_equal(nxt, alive):
            break
        alive = nxt
    mask = _pairs_mask(f, S, N)
    return float(1 - alive[mask].mean())


def path_alive(routes: PathRoutes, f: Failures) -> np.ndarray:
    sched = routes.schedule
    S, N = sched.n_slices, sched.n_tors
    rev = _reverse_uplink(sched)
    gid = routes.path_group_index()
    prev = (gid // N) % N
    alive = np.ones(gid.size, bool)
    for i in range(routes.hop_node.shape[1]):
        y = routes.hop_node[:, i].astype(np.int64)
        has = y >= 0
        j = np.maximum(routes.hop_uplink[:, i], 0).astype(np.int64)
        up = hop_up(f, rev, S, prev, j, np.maximum(routes.hop_slice[:, i], 0), np.maximum(y, 0))
        alive &= ~has | up
        prev = np.where(has, y, prev)
    return alive


def ucmp_loss(routes: PathRoutes, f: Failures, with_backups: bool = True) -> float:
    """Connectivity loss of a path scheme: no surviving path in the group."""
    S, N = routes.schedule.n_slices, routes.schedule.n_tors
    gid = routes.path_group_index()
    use = np.ones(gid.size, bool) if with_backups else routes.path_kind() == REGULAR
    ok = path_alive(routes, f) & use
    alive = np.zeros(S * N * N, bool)
    alive[gid[ok]] = True
    mask = _pairs_mask(f, S, N)
    return float(1 - alive.reshape(S, N, N)[mask].mean())


def trial_losses(routes: tuple, case: tuple, ks: tuple[int, ...]) -> list[float]:
    """One failure trial (``uro failures``): ``routes = (uro, ucmp)``, ``case = (kind, rate, seed)``;
    the connectivity loss of URO at each K, then UCMP without and with backups. A pure
    function of its inputs, so trials may run anywhere (a Dask worker) in any order."""
    uro, uc = routes
    kind, rate, seed = case
    f = sample(uro.schedule, seed=seed, **{kind: rate})
    vals = [uro_loss(uro, f, k) for k in ks]
    return vals + [ucmp_loss(uc, f, with_backups=False), ucmp_loss(uc, f, with_backups=True)]
