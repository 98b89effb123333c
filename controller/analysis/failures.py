"""Failure analysis: connectivity loss under random cable, circuit, ToR and OCS failures.

Reproduces the shape of URO Fig. 16a/17 and UCMP Fig. 12. The failure units:

- a failed **cable** (``--unit cable``, the default) is one ToR uplink's fibre to its OCS:
  the circuits of that uplink are lost on both ends, in every slice;
- a failed **circuit** (``--unit circuit``) is one circuit of one slice (an OCS port pair
  misbehaving in that slice only), lost in both directions;
- a failed **ToR** loses all its circuits and drops out of the (src, dst) pairs counted;
- a failed **OCS** is one uplink index on every ToR.

Connectivity loss is the fraction of (start slice, src, dst) with both ends up whose packet
does not reach its destination.

URO (per-hop tables with K one-shot alternatives), three models (:class:`UroModel`):

- ``dataplane`` (the default) does what the ToR program does (docs/p4.md "URO lookup"): at
  every ToR it takes **the first alternative whose hop it knows to be up** and follows that
  one; a hop that is down without the ToR knowing it loses the packet there. What a ToR
  knows (``knowledge``): ``masks`` -- every failed circuit at both of its ends (port state,
  the daemon's and the data plane's liveness masks once they caught the failure:
  docs/daemon.md "Failures"); ``local`` -- only its own failed cables and OCSes (port
  down), which is what a ToR knows before any detection of a dead peer, a peer's cable or
  a circuit. With no known-up alternative the packet is dropped (``drops[all_full]``),
  unless it still has a **re-routing attempt** (``reroutes``, URO Property 3: deferred to
  the next slice and looked up again at the same ToR; attempts count per packet);
- ``oracle``: a state survives if *some* alternative's hop is up and the state it leads to
  survives (a least fixed point over all alternatives). No switch can do that (it would need
  to know every failure downstream): it is a **bound**, labelled as such.

UCMP: the source may move a flow to any path of its group (§5.3: sources learn of failures
and stop choosing paths over them), with and without the 2-hop backups of direct-only groups.

**Comparing with URO Fig. 16a/17.** The paper's K counts best paths and its curves add
re-routing attempts ("a single best path" loses 1.56 % of pairs at 10 % failed links with
re-routing; "five paths and only one rerouting" 0.09 %; Fig. 17 "after one/three rerouting
attempts"). Its K = 1 is therefore not "no re-routing": compare it with ``-K 1 -R 1`` (or
more), not with ``-K 1``. The paper counts ToR *pairs*; this counts (start slice, src, dst),
which weighs every start slice alike.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from controller.errors import UroError
from controller.routing.paths import REGULAR, PathRoutes, group_parts
from controller.routing.uro import UroRoutes
from controller.schedule.model import Schedule

#: URO failure models (:class:`UroModel`)
MODELS = ("dataplane", "oracle")
#: what a ToR knows of failures in the ``dataplane`` model
KNOWLEDGE = ("masks", "local")
#: what one failed "link" is
UNITS = ("cable", "circuit")


@dataclass(frozen=True)
class Failures:
    dead_tor: np.ndarray  # [N] bool
    dead_link: np.ndarray  # [N, d] bool: cables
    dead_ocs: np.ndarray  # [d] bool
    dead_circuit: np.ndarray | None = None  # [S, N, d] bool, symmetric: circuits of one slice


@dataclass(frozen=True)
class UroModel:
    """One URO column of ``uro failures``: K alternatives, R re-routing attempts, the model
    (``dataplane`` or ``oracle``) and, for the data plane, what a ToR knows."""

    k: int
    reroutes: int = 0
    model: str = "dataplane"
    knowledge: str = "masks"

    def __post_init__(self):
        if self.model not in MODELS:
            raise UroError(f"unknown failure model {self.model!r}; choose one of: {', '.join(MODELS)}")
        if self.knowledge not in KNOWLEDGE:
            raise UroError(f"unknown knowledge {self.knowledge!r}; choose one of: {', '.join(KNOWLEDGE)}")
        if not 1 <= self.k <= 10:
            raise UroError(f"K must be 1..10 URO alternatives, got {self.k}")
        if not 0 <= self.reroutes <= 64:
            raise UroError(f"re-routing attempts must be 0..64, got {self.reroutes}")

    @property
    def label(self) -> str:
        name = "uro" if self.model == "dataplane" else "bound"
        parts = [name, f"K={self.k}"]
        if self.reroutes:
            parts.append(f"R={self.reroutes}")
        if self.model == "dataplane" and self.knowledge != "masks":
            parts.append(self.knowledge)
        return " ".join(parts)


def check_rate(name: str, v: float) -> float:
    if not (isinstance(v, (int, float)) and 0 <= v < 1):
        raise UroError(f"failure rate --{name} must be in [0, 1), got {v!r}")
    return float(v)


def _circuits(sched: Schedule) -> np.ndarray:
    """``[(s, x, j)]`` of every circuit once (the end with the lower ToR id)."""
    s, x, j = np.nonzero(sched.peer >= 0)
    keep = sched.peer[s, x, j] > x
    return np.stack([s[keep], x[keep], j[keep]], axis=1)


def sample(sched: Schedule, links: float = 0.0, tors: float = 0.0, ocs: float = 0.0, seed: int = 0,
           unit: str = "cable") -> Failures:
    """Fail round(rate x count) random cables (or circuits, ``unit="circuit"``), ToRs and OCSes."""
    for n, v in (("link-rate", links), ("tor-rate", tors), ("ocs-rate", ocs)):
        check_rate(n, v)
    if unit not in UNITS:
        raise UroError(f"unknown failure unit {unit!r}; choose one of: {', '.join(UNITS)}")
    N, d = sched.n_tors, sched.n_uplinks
    rng = np.random.default_rng(seed)

    def pick(count: int, rate: float) -> np.ndarray:
        out = np.zeros(count, bool)
        out[rng.choice(count, size=int(round(rate * count)), replace=False)] = True
        return out

    if unit == "cable":
        f = Failures(pick(N, tors), pick(N * d, links).reshape(N, d), pick(d, ocs))
    else:
        dead_tor = pick(N, tors)
        circ = _circuits(sched)
        chosen = circ[pick(len(circ), links)]
        dc = np.zeros(sched.peer.shape, bool)
        if len(chosen):
            s, x, j = chosen.T
            y = sched.peer[s, x, j]
            rev = _reverse_uplink(sched)[s, x, j]
            dc[s, x, j] = True
            dc[s, y, rev] = True
        f = Failures(dead_tor, np.zeros((N, d), bool), pick(d, ocs), dc)
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
    up = ~f.dead_tor[x] & ~f.dead_tor[y] & ~f.dead_link[x, j] & ~f.dead_link[y, jr] & ~f.dead_ocs[j]
    if f.dead_circuit is not None:
        up = up & ~f.dead_circuit[s % S, x, j]
    return up


def hop_known_up(f: Failures, rev: np.ndarray, S: int, x, j, s, y, knowledge: str) -> np.ndarray:
    """Does ToR x know the hop x --uplink j, slice s--> y to be usable? ``masks``: it knows
    every failed circuit at its ends (= :func:`hop_up`); ``local``: only its own port state
    (its cable, the OCS)."""
    if knowledge == "masks":
        return hop_up(f, rev, S, x, j, s, y)
    return ~f.dead_link[x, j] & ~f.dead_ocs[j]


def _pairs_mask(f: Failures, S: int, N: int) -> np.ndarray:
    up = ~f.dead_tor
    m = up[:, None] & up[None, :] & ~np.eye(N, dtype=bool)
    return np.broadcast_to(m, (S, N, N))


def _hops(routes: UroRoutes, f: Failures, k: int, knowledge: str):
    """Per (t, x, dst, alternative i < k): the next ToR ``y``, its arrival slice ``s``, whether
    the alternative exists and its hop is up (``ok``) and whether x knows it is (``known``)."""
    sched = routes.schedule
    S, N, d = sched.peer.shape
    rev = _reverse_uplink(sched)
    k = min(k, routes.alt_uplink.shape[-1])
    upl = routes.alt_uplink[..., :k].astype(np.int64)
    dep = routes.alt_dep[..., :k].astype(np.int64)
    t_idx, x_idx, dst_idx = np.meshgrid(np.arange(S), np.arange(N), np.arange(N), indexing="ij")
    x = np.broadcast_to(x_idx[..., None], upl.shape)
    u = np.maximum(upl, 0)
    s = np.maximum(dep, 0) % S
    y = sched.peer[s, x, u]
    exists = (upl >= 0) & (y >= 0)
    y = np.maximum(y, 0)
    ok = exists & hop_up(f, rev, S, x, u, s, y)
    known = exists & hop_known_up(f, rev, S, x, u, s, y, knowledge)
    return y, s, ok, known


def uro_alive(routes: UroRoutes, f: Failures, m: UroModel) -> np.ndarray:
    """``alive[t, x, dst]``: does a packet at x in slice t (no attempt used yet) reach dst
    under model ``m``? Least fixed point over (attempts used, t, x, dst), all at once."""
    S, N = routes.schedule.n_slices, routes.schedule.n_tors
    y, s, ok, known = _hops(routes, f, m.k, m.knowledge)
    dst = np.broadcast_to(np.arange(N)[None, None, :, None], y.shape)
    R = m.reroutes
    if m.model == "dataplane":
        have = known.any(-1)                               # some alternative known to be up
        first = known.argmax(-1)[..., None]                 # the first of them
        y1 = np.take_along_axis(y, first, -1)[..., 0]
        s1 = np.take_along_axis(s, first, -1)[..., 0]
        ok1 = have & np.take_along_axis(ok, first, -1)[..., 0]
        dst1 = dst[..., 0]
    alive = np.zeros((R + 1, S, N, N), bool)
    later = (np.arange(S) + 1) % S                          # a deferred packet's next lookup
    while True:
        nxt = np.zeros_like(alive)
        for r in range(R + 1):
            if m.model == "dataplane":
                on = ok1 & ((y1 == dst1) | alive[r][s1, y1, dst1])
                if r < R:
                    on |= ~have & alive[r + 1][later]
            else:
                on = (ok & ((y == dst) | alive[r][s, y, dst])).any(-1)
                if r < R:
                    on |= alive[r + 1][later]
            nxt[r] = on
        if np.array_equal(nxt, alive):
            return alive[0]
        alive = nxt


def uro_loss(routes: UroRoutes, f: Failures, m: UroModel | int) -> float:
    """Connectivity loss of URO under model ``m`` (an int K: the data plane, no re-routing)."""
    if not isinstance(m, UroModel):
        m = UroModel(k=int(m))
    sched = routes.schedule
    alive = uro_alive(routes, f, m)
    mask = _pairs_mask(f, sched.n_slices, sched.n_tors)
    return float(1 - alive[mask].mean())


def path_alive(routes: PathRoutes, f: Failures) -> np.ndarray:
    sched = routes.schedule
    S, N = sched.n_slices, sched.n_tors
    rev = _reverse_uplink(sched)
    gid = routes.path_group_index()
    prev = group_parts(gid, N)[1]
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


def trial_losses(routes: tuple, case: tuple, models: tuple) -> list[float]:
    """One failure trial (``uro failures``): ``routes = (uro, ucmp)``, ``case = (kind, rate, seed[,
    unit])``; the connectivity loss of URO under each model (:class:`UroModel`, or an int K: the
    data plane), then UCMP without and with backups. A pure function of its inputs, so trials
    may run anywhere (a Dask worker) in any order."""
    uro, uc = routes
    kind, rate, seed, *rest = case
    f = sample(uro.schedule, seed=seed, unit=rest[0] if rest else "cable", **{kind: rate})
    vals = [uro_loss(uro, f, m) for m in models]
    return vals + [ucmp_loss(uc, f, with_backups=False), ucmp_loss(uc, f, with_backups=True)]
